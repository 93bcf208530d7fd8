/**
 * Issue 28: a pre-rendered page is not hydrated as a whole. Each island the build marked
 * (islands.tsx: `data-island`, `data-island-id`, `data-props`) becomes its own React root,
 * hydrated from its props with the code of that island only (one dynamic import each), in a
 * transition (React renders it in slices and yields to the browser between them) and one
 * island per task: the calculator first, then the forms, the consent banner and the toasts,
 * then the state's tools, which wait for the state data and the calculator's code. The rest
 * of the page (header, hero, disclaimer, timeline, guide and FAQ text, footer) stays the
 * build's HTML; React never renders it on load. The header's two behaviours (the text logo
 * when the image fails, the remembered language) are plain listeners here.
 *
 * When every island has hydrated, `<html data-ready="1">` says the page's controls work.
 */
import { StrictMode, startTransition, useEffect, type ReactElement, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { ErrorBoundary } from './components/ErrorBoundary.js';
import { SectionError } from './components/ErrorScreens.js';
import { islandPrefix, type IslandName } from './islands.js';
import { EDITION } from './lib/edition.js';
import type { LoadedState } from './lib/stateData.js';
import type { HomePartsModule } from './components/CalculatorSection.js';
import { KEYS, setItem } from './lib/storage.js';
import { reportError } from './lib/monitoring.js';
import type { Lang } from './lib/format.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the props the build serialised for the island
type Props = Record<string, any>;

/** What the tools island needs before it can give the build's markup: the state data and the calculator's code. */
interface Needs {
  state: () => Promise<LoadedState>;
  home: () => Promise<HomePartsModule>;
}

/** Each island's content from its props, with its own code. */
const ISLANDS: Record<IslandName, (p: Props, needs: Needs) => Promise<ReactElement>> = {
  calculator: async (p, needs) => {
    const { CalculatorIsland } = await import('./components/CalculatorSection.js');
    return <CalculatorIsland lang={p.lang} preload={needs.state} />;
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
    return <CountyTable lang={p.lang} stateSlug={p.stateSlug} state={p.state} rows={p.rows} />;
  },
  toasts: async () => {
    const { ToastRegion } = await import('./components/Toaster.js');
    return <ToastRegion />;
  },
};

/** Hydration order: what a visitor sees and uses first. */
const ORDER: IslandName[] = [
  'calculator',
  'state-calc',
  'search',
  'county-table',
  'consent',
  'banner',
  'contact',
  'hub',
  'notify',
  'toasts',
  'consent-settings',
  'tools',
];

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
    startTransition(() => {
      hydrateRoot(
        el,
        <StrictMode>
          <I18nextProvider i18n={i18n}>
            {/* Outside the boundary: an island that fails shows its error panel and the others go on. */}
            <Committed done={resolve}>
              <ErrorBoundary component={`island:${name}`} fallback={(_e, reset) => <SectionError reset={reset} />}>
                {content}
              </ErrorBoundary>
            </Committed>
          </I18nextProvider>
        </StrictMode>,
        {
          identifierPrefix: islandPrefix(el.dataset.islandId ?? name),
          // A pre-render that does not match (another state in storage than at build time) is
          // rendered afresh by React; it is reported, not shown.
          onRecoverableError: (error) => reportError(error, { where: `hydration of island ${name}` }),
        },
      );
    });
  });
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

export async function hydrateIslands(root: HTMLElement, i18n: I18n, lang: Lang): Promise<void> {
  headerBehaviours(lang, i18n);
  const islands = [...root.querySelectorAll<HTMLElement>('[data-island]')].sort(
    (a, b) => ORDER.indexOf(a.dataset.island as IslandName) - ORDER.indexOf(b.dataset.island as IslandName),
  );
  // The state data and the calculator's code start loading now, beside the islands' own code.
  let state: Promise<LoadedState> | undefined;
  let home: Promise<HomePartsModule> | undefined;
  const needs: Needs = {
    state: () => (state ??= import('./lib/stateData.js').then((m) => m.loadStateData(EDITION))),
    home: () => (home ??= import('./components/HomeParts.js')),
  };
  if (EDITION !== 'HUB' && islands.some((el) => el.dataset.island === 'calculator' || el.dataset.island === 'tools')) {
    void needs.state().catch(() => undefined);
    void needs.home().catch(() => undefined);
  }
  // Every island's code is asked for at once; they are hydrated in order, one per task.
  const contents = islands.map((el) => {
    const make = ISLANDS[el.dataset.island as IslandName];
    const content = make ? make(JSON.parse(el.dataset.props ?? '{}') as Props, needs) : Promise.reject(new Error(`unknown island ${el.dataset.island}`));
    // Handled in the loop below, when its turn comes; not an unhandled rejection meanwhile.
    content.catch(() => undefined);
    return content;
  });
  for (const [i, el] of islands.entries()) {
    try {
      await hydrateOne(el, await contents[i]!, i18n);
    } catch (e) {
      // The island stays the build's HTML (its links and text work); the others go on.
      reportError(e, { where: `island ${el.dataset.island}` });
    }
    await yieldToMain();
  }
  document.documentElement.dataset.ready = '1';
}
