/**
 * Issue 28: a pre-rendered page is not hydrated as a whole. Each island the build marked
 * (islands.tsx: `data-island`, `data-island-id`, `data-props`) becomes its own React root,
 * hydrated from its props with the code of that island only (one dynamic import each), in a
 * transition (React renders it in slices and yields to the browser between them) and one
 * island per task: the consent banner, the forms and the toasts first, then the calculator,
 * whose pre-rendered form is hydrated once the state data and its code are there. The state's
 * tools are hydrated when the visitor opens one of their panels (`data-hydrate="on-open"`
 * until then). The rest
 * of the page (header, hero, disclaimer, timeline, guide and FAQ text, footer) stays the
 * build's HTML; React never renders it on load. The header's two behaviours (the text logo
 * when the image fails, the remembered language) are plain listeners here.
 *
 * When every island but the tools has hydrated, `<html data-ready="1">` says the page's controls work.
 */
import { StrictMode, startTransition, useEffect, type ReactElement, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { ErrorBoundary } from './components/ErrorBoundary.js';
import { SectionError } from './components/ErrorScreens.js';
import { islandPrefix, type IslandName } from './islands.js';
import { EDITION } from './lib/edition.js';
import type { LoadedState } from './lib/stateData.js';
import type { HomePartsModule } from './components/CalculatorSection.js';
import { getItem, KEYS, setItem } from './lib/storage.js';
import { reportError } from './lib/monitoring.js';
import type { Lang } from './lib/format.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the props the build serialised for the island
type Props = Record<string, any>;

/** What the tools island needs before it can give the build's markup: the state data and the calculator's code. */
interface Needs {
  state: () => Promise<LoadedState>;
  home: () => Promise<HomePartsModule>;
}

/** An island's content that is rendered afresh over the build's markup instead of hydrating it. */
const FRESH = new WeakSet<ReactElement>();
const fresh = (content: ReactElement): ReactElement => (FRESH.add(content), content);

/** Each island's content from its props, with its own code. */
const ISLANDS: Record<IslandName, (p: Props, needs: Needs) => Promise<ReactElement>> = {
  calculator: async (p, needs) => {
    // The build wrote the real form (issue 28): it is hydrated once the state data and the
    // calculator's code are there, so the first render in the browser is the build's.
    const [{ CalculatorIsland }, loaded, H] = await Promise.all([
      import('./components/CalculatorSection.js'),
      needs.state().catch(() => undefined),
      needs.home().catch(() => undefined),
    ]);
    const content = <CalculatorIsland lang={p.lang} preload={needs.state} initial={loaded} home={H} />;
    // Rendered afresh where its first render would not be the build's: the data or the code did
    // not load (it shows the load error), or the form opens on other inputs than the build's
    // (a share link, a county remembered from an earlier visit).
    return !loaded || !H || location.search.length > 1 || getItem(KEYS.county) ? fresh(content) : content;
  },
  tools: async (p, needs) => {
    const [loaded, H, { editionOf }] = await Promise.all([needs.state(), needs.home(), import('./components/CalculatorSection.js')]);
    // A guide's island names its one calculator (`tool`); the calculator pages' island shows them all.
    if (p.tool) return <H.GuideTool edition={editionOf(loaded)} lang={p.lang} name={p.tool} />;
    return <H.StateExtras edition={editionOf(loaded)} lang={p.lang} timeline={false} />;
  },
  hub: async (p) => {
    const { Hub } = await import('./components/Hub.js');
    return <Hub lang={p.lang} />;
  },
  banner: async (p) => {
    const { NewsletterBanner } = await import('./components/Forms.js');
    return <NewsletterBanner stateCode={p.stateCode} stateName={p.stateName} lang={p.lang} />;
  },
  notify: async (p) => {
    const { NotifyForm } = await import('./components/Forms.js');
    return <NotifyForm stateCode={p.stateCode} lang={p.lang} year={p.year} />;
  },
  contact: async (p) => {
    const { ContactForm } = await import('./components/Forms.js');
    return <ContactForm stateCode={p.stateCode} lang={p.lang} />;
  },
  consent: async (p) => {
    const { ConsentBanner } = await import('./components/ConsentBanner.js');
    return <ConsentBanner privacyHref={p.privacyHref} />;
  },
  'consent-settings': async () => {
    const { ConsentSettingsButton } = await import('./components/ConsentBanner.js');
    return <ConsentSettingsButton />;
  },
  search: async (p) => {
    const { StaticSearch } = await import('./components/site/StaticSearch.js');
    return <StaticSearch kind={p.kind} total={p.total} />;
  },
  // The hub's state and county pages (issue 26).
  'state-calc': async (p) => {
    const { StateCalculator } = await import('./components/hub/StateCalculator.js');
    return <StateCalculator {...(p as Parameters<typeof StateCalculator>[0])} />;
  },
  'county-table': async (p) => {
    const { CountyTable } = await import('./components/hub/CountyTable.js');
    return <CountyTable lang={p.lang} stateSlug={p.stateSlug} state={p.state} rows={p.rows} keepRows />;
  },
  toasts: async () => {
    const { ToastRegion } = await import('./components/Toaster.js');
    return <ToastRegion />;
  },
};

/**
 * Hydration order. The calculator waits for the state data (its form is the build's HTML
 * until then), so the islands whose code is already there (the consent banner at the top of
 * a first visit, the forms, the toasts; on the hub's state pages their calculator, search
 * and county table, whose data is in the page) hydrate first, while the data downloads; the
 * tools last.
 */
const ORDER: IslandName[] = [
  'consent',
  'state-calc',
  'search',
  'county-table',
  'banner',
  'contact',
  'hub',
  'toasts',
  'notify',
  'consent-settings',
  'calculator',
  'tools',
];

/**
 * Islands hydrated when the visitor opens one of their panels, not on load (issue 28): the
 * state's tools (their `<details>` panels work as HTML; a panel's content comes with the
 * island's code). Until then their code, the state data they need and their hydration's main-thread
 * time are not part of the page's load.
 */
const ON_OPEN: ReadonlySet<string> = new Set<IslandName>(['tools']);

/** Resolves when a `<details>` panel of the island is open (at once if the visitor opened one already). */
export function whenOpened(el: HTMLElement): Promise<void> {
  return new Promise((resolve) => {
    if (el.querySelector('details[open]')) return resolve();
    // `toggle` does not bubble: caught on its way down.
    const on = (e: Event) => {
      if (!(e.target instanceof HTMLDetailsElement) || !e.target.open) return;
      el.removeEventListener('toggle', on, true);
      resolve();
    };
    el.addEventListener('toggle', on, true);
  });
}

/** Calls `done` once the island's hydration has committed. */
function Committed({ done, children }: { done: () => void; children: ReactNode }) {
  useEffect(done, [done]);
  return children;
}

/** Lets the browser paint and handle input before the next island (scheduler.yield where there is one). */
const yieldToMain = (): Promise<void> => {
  const s = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return s?.yield ? s.yield() : new Promise((resolve) => setTimeout(resolve, 0));
};

function hydrateOne(el: HTMLElement, content: ReactElement, i18n: I18n): Promise<void> {
  const name = el.dataset.island!;
  return new Promise<void>((resolve) => {
    const tree = (
      <StrictMode>
        <I18nextProvider i18n={i18n}>
          {/* Outside the boundary: an island that fails shows its error panel and the others go on. */}
          <Committed done={resolve}>
            <ErrorBoundary component={`island:${name}`} fallback={(_e, reset) => <SectionError reset={reset} />}>
              {content}
            </ErrorBoundary>
          </Committed>
        </I18nextProvider>
      </StrictMode>
    );
    const identifierPrefix = islandPrefix(el.dataset.islandId ?? name);
    if (FRESH.has(content)) {
      el.replaceChildren();
      createRoot(el, { identifierPrefix }).render(tree);
      return;
    }
    startTransition(() => {
      hydrateRoot(el, tree, {
        identifierPrefix,
        // A pre-render that does not match (another state in storage than at build time) is
        // rendered afresh by React; it is reported, not shown.
        onRecoverableError: (error) => reportError(error, { where: `hydration of island ${name}` }),
      });
    });
  });
}

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
type Early = { field: Field; value: string; checked: boolean };

/**
 * What a visitor typed or chose in an island's pre-rendered form before its script ran: each
 * field whose value is not the build's (its `defaultValue`, `defaultChecked`, the option the
 * build marked selected). Read before hydrating: React keeps a typed text or a ticked box in
 * the page but not its own state, and it sets a select back to the option it renders.
 */
export function earlyInput(el: HTMLElement): Early[] {
  const early: Early[] = [];
  for (const field of el.querySelectorAll<Field>('input, textarea, select')) {
    const changed =
      field instanceof HTMLSelectElement
        ? field.value !== (([...field.options].find((o) => o.defaultSelected) ?? field.options[0])?.value ?? '')
        : field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')
          ? field.checked !== field.defaultChecked
          : field.value !== field.defaultValue;
    if (changed) early.push({ field, value: field.value, checked: field instanceof HTMLInputElement && field.checked });
  }
  return early;
}

/** Gives React each early choice again, once the island is hydrated, as the visitor's own input or change event. */
export function replayEarlyInput(early: Early[]): void {
  const valueSetter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  const areaSetter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
  for (const { field, value, checked } of early) {
    if (!field.isConnected) continue;
    if (field instanceof HTMLSelectElement) {
      field.value = value;
      field.dispatchEvent(new Event('change', { bubbles: true }));
    } else if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')) {
      if (field.type === 'radio' && !checked) continue;
      // Through the element (React's tracker learns the other state), then the visitor's click again.
      field.checked = !checked;
      field.click();
    } else {
      // Through the element (React's value tracker records the build's value), then past it.
      field.value = field.defaultValue;
      (field instanceof HTMLTextAreaElement ? areaSetter : valueSetter).call(field, value);
      field.dispatchEvent(new Event('input', { bubbles: true }));
    }
  }
}

/** The header's behaviours without React: the text logo when the image fails, the language switch remembered. */
function headerBehaviours(lang: Lang, i18n: I18n): void {
  const other: Lang = lang === 'es' ? 'en' : 'es';
  document.querySelector('[data-testid="language-switch"]')?.addEventListener('click', () => setItem(KEYS.preferredLanguage, other));
  const img = document.querySelector<HTMLImageElement>('[data-testid="brand"] img');
  if (!img) return;
  const fail = () => {
    const text = document.createElement('span');
    text.dataset.testid = 'brand-text';
    text.textContent = i18n.t('header.brand');
    img.parentElement?.replaceChildren(text);
  };
  if (img.complete && img.naturalWidth === 0) fail();
  else img.addEventListener('error', fail, { once: true });
}

// The state data and the calculator's code: loaded once, shared by the calculator and tools islands.
let state: Promise<LoadedState> | undefined;
let home: Promise<HomePartsModule> | undefined;
const needs: Needs = {
  state: () => (state ??= import('./lib/stateData.js').then((m) => m.loadStateData(EDITION))),
  home: () => (home ??= import('./components/HomeParts.js')),
};

/**
 * Starts loading what the page's calculator or tools island needs (the state data, the
 * calculator's code) at once: main.tsx calls it before it waits for the page's text, so the
 * downloads run beside that one instead of after it.
 */
export function preloadIslands(root: HTMLElement): void {
  // The tools alone (a guide's calculator) load theirs when opened.
  if (EDITION === 'HUB' || !root.querySelector('[data-island="calculator"]')) return;
  void needs.state().catch(() => undefined);
  void needs.home().catch(() => undefined);
  void import('./components/CalculatorSection.js').catch(() => undefined);
}

/** An island's content from its props, with its code (a rejection for an island the page does not know). */
function contentOf(el: HTMLElement): Promise<ReactElement> {
  const make = ISLANDS[el.dataset.island as IslandName];
  return make ? make(JSON.parse(el.dataset.props ?? '{}') as Props, needs) : Promise.reject(new Error(`unknown island ${el.dataset.island}`));
}

/** Hydrates one island once its content is there; an island that fails stays the build's HTML (its links and text work). */
async function hydrateWhenReady(el: HTMLElement, content: Promise<ReactElement>, i18n: I18n): Promise<void> {
  try {
    const c = await content;
    const early = FRESH.has(c) ? [] : earlyInput(el);
    await hydrateOne(el, c, i18n);
    replayEarlyInput(early);
  } catch (e) {
    reportError(e, { where: `island ${el.dataset.island}` });
  }
}

export async function hydrateIslands(root: HTMLElement, i18n: I18n, lang: Lang): Promise<void> {
  headerBehaviours(lang, i18n);
  const all = [...root.querySelectorAll<HTMLElement>('[data-island]')];
  // The tools: hydrated when the visitor opens one of their panels.
  for (const el of all.filter((x) => ON_OPEN.has(x.dataset.island!))) {
    el.dataset.hydrate = 'on-open';
    void whenOpened(el).then(() => hydrateWhenReady(el, contentOf(el), i18n).then(() => delete el.dataset.hydrate));
  }
  const islands = all
    .filter((x) => !ON_OPEN.has(x.dataset.island!))
    .sort((a, b) => ORDER.indexOf(a.dataset.island as IslandName) - ORDER.indexOf(b.dataset.island as IslandName));
  preloadIslands(root);
  // Every island's code is asked for at once; they are hydrated in order, one per task.
  const contents = islands.map((el) => {
    const content = contentOf(el);
    // Handled in the loop below, when its turn comes; not an unhandled rejection meanwhile.
    content.catch(() => undefined);
    return content;
  });
  for (const [i, el] of islands.entries()) {
    await hydrateWhenReady(el, contents[i]!, i18n);
    await yieldToMain();
  }
  document.documentElement.dataset.ready = '1';
}
