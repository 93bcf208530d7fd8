/**
 * Build-time render of every page of the edition (web/scripts/prerender.mjs writes them):
 * the calculator pages in their loading state (the client renders the same markup over
 * them), the other pages with the edition's data, so their text and figures are there with
 * JavaScript off. Each page has its own title, description, canonical link, hreflang pair
 * and Open Graph tags.
 */
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { App, DATA_PAGES, GUIDE_TOOLS } from './components/App.js';
import * as sitePages from './components/site/SitePages.js';
import * as homeParts from './components/HomeParts.js';
import { ToastProvider } from './components/Toaster.js';
import { createI18n } from './i18n/index.js';
import esBase from './i18n/es.js';
import type { Resources } from './i18n/en.js';
import { editionVars, phrase } from './lib/editionText.js';
import { EDITION, toBundle, type LoadedState, type StatePackage } from './lib/stateData.js';
import { makeEdition } from './lib/model.js';
import { countyName } from './lib/places.js';
import { formatUsd, type Lang } from './lib/format.js';
import { DEFAULT_VALUE } from '../../engine/index.js';
import { allRoutes, resolveRoute, type Route, type Site } from './lib/routes.js';
import { faqOf, routedGuides, type GuideData } from './lib/guides.js';
import { setIslandRenderer } from './islands.js';
import { counterpartPath } from './lib/routes.js';
import { HubFrame } from './components/hub/HubPages.js';
import { hubPage, siteStates } from './components/hub/prerenderHub.js';
import type { HubState } from './components/hub/hubTypes.js';

const never = () => new Promise<never>(() => {});
const es = esBase as unknown as Resources;
const packages = import.meta.glob('@ptax-data/states/*.json', { eager: true, import: 'default' }) as Record<string, StatePackage>;
const pkg = Object.entries(packages).find(([path]) => path.endsWith(`/${EDITION}.json`))?.[1];
const loaded: LoadedState | undefined = pkg && EDITION !== 'HUB' ? { pkg, bundle: toBundle(pkg), fellBack: false, requested: EDITION } : undefined;
const edition = loaded ? makeEdition(loaded.bundle) : undefined;

/** The year whose rates the estimates use (issue 24), from the bundle: the edition's, or on the hub the latest of its programs. */
const RATES_YEAR = edition ? edition.ratesYear : Math.max(0, ...Object.values(pkg?.programs ?? {}).map((p) => p.years.at(-1) ?? 0));

const guideFiles = import.meta.glob('./generated/guides/*.json', { eager: true, import: 'default' }) as Record<string, GuideData>;
const guides: GuideData = Object.entries(guideFiles).find(([path]) => path.endsWith(`/${EDITION.toLowerCase()}.json`))?.[1] ?? {
  format: 1,
  edition: EDITION,
  pages: [],
};

/** The hub's states (issue 26; web/scripts/build-hub-data.mjs) and each state's package. */
const hubStates: readonly HubState[] =
  EDITION === 'HUB' ? (Object.values(import.meta.glob<HubState[]>('./generated/hub/states.json', { eager: true, import: 'default' }))[0] ?? []) : [];
const packageOf = (code: string) => Object.entries(packages).find(([path]) => path.endsWith(`/${code}.json`))?.[1];

export const site: Site = {
  counties: edition ? [...edition.counties, ...edition.places].map((c) => c.slug) : [],
  guides: routedGuides(guides),
  edition: EDITION,
  ...(hubStates.length ? { states: siteStates(hubStates, packageOf) } : {}),
};

/** Every page path of the edition: [English path, Spanish path]; the hub has no county pages. */
export function pagePaths(): Array<{ en: string; es: string; page: Route['page'] }> {
  return allRoutes(site)
    .filter((r) => !(EDITION === 'HUB' && r.route.page === 'counties'))
    .map((r) => ({ en: r.en, es: r.es, page: r.route.page }));
}

/** The generic guide aliases of seed 001 §2 (English paths that show a state's guide): [alias, the guide's paths]. */
export function aliasPaths(): Array<{ alias: string; en: string; es: string }> {
  return routedGuides(guides).flatMap((g) => (g.aliases ?? []).map((alias) => ({ alias, en: g.paths.en, es: g.paths.es })));
}

/** A guide that shows one of the state's calculators (App's GUIDE_TOOLS): pre-rendered with the state data. */
function guideTool(route: Route): boolean {
  const g = route.page === 'guide' ? guides.pages.find((x) => x.id === route.param) : undefined;
  return !!g?.topic && g.topic in GUIDE_TOOLS;
}

/**
 * One i18next instance per language for every page (a new instance each cost more than most
 * pages: the hub's ~11,400, issue 26; the editions' too, issue 23). Rendering changes an
 * instance only by adding the site pages' text (App, components/site/siteText.ts), which
 * adds keys without overwriting any and is added on every page but the hub's state pages.
 */
const i18nOf: Partial<Record<Lang, ReturnType<typeof createI18n>>> = {};

type I18n = ReturnType<typeof createI18n>;

/**
 * The cache key of a `t` call whose text depends only on its key and its options: a string key
 * (or list of them) and options whose values are strings, numbers, booleans or lists of strings
 * (what react-i18next's fixed `t` adds: lng, lngs, ns, keyPrefix). Anything else (an object to
 * interpolate, a function) is not cached.
 */
function keyOf(key: unknown, opts: unknown): string | undefined {
  if (typeof key !== 'string' && !(Array.isArray(key) && key.every((k) => typeof k === 'string'))) return undefined;
  if (opts === undefined) return JSON.stringify([key]);
  if (typeof opts !== 'object' || opts === null) return undefined;
  for (const v of Object.values(opts)) {
    const t = typeof v;
    if (v === undefined || v === null || t === 'string' || t === 'number' || t === 'boolean') continue;
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) continue;
    return undefined;
  }
  return JSON.stringify([key, opts]);
}

/**
 * `i18n.t` that remembers its strings (issue 23): the pre-render renders thousands of pages with
 * one instance per language, and i18next's `translate` (resolving the key, fallbacks,
 * interpolation, nesting) was about 40 % of a hub page's render, mostly the same calls page
 * after page (the header, the footer, the labels). A text depends only on the key, the options
 * and the instance's resources, so the cache is emptied whenever resources are added or
 * removed (App adds the site pages' text). Only strings are kept: `returnObjects` answers are
 * asked afresh each time.
 */
function rememberingT(i18n: I18n): I18n {
  const original = i18n.t.bind(i18n) as unknown as (...args: unknown[]) => unknown;
  const texts = new Map<string, string>();
  i18n.store.on('added', () => texts.clear());
  i18n.store.on('removed', () => texts.clear());
  i18n.on('languageChanged', () => texts.clear());
  const t = (...args: unknown[]): unknown => {
    const k = args.length <= 2 ? keyOf(args[0], args[1]) : undefined;
    if (k === undefined) return original(...args);
    const known = texts.get(k);
    if (known !== undefined) return known;
    const text = original(...args);
    if (typeof text === 'string') texts.set(k, text);
    return text;
  };
  i18n.t = t as unknown as I18n['t'];
  return i18n;
}

export function render(lang: Lang, pathname: string): { html: string; title: string; description: string; status: number } {
  const route = resolveRoute(pathname, site);
  const hubRoute = route.page === 'state' || route.page === 'state-county';
  const i18n = (i18nOf[lang] ??= rememberingT(createI18n(lang, { es })));
  const t = i18n.t;
  // Each island is rendered on its own, as the browser hydrates it (islands.tsx).
  setIslandRenderer((content, identifierPrefix) => renderToString(<I18nextProvider i18n={i18n}>{content}</I18nextProvider>, { identifierPrefix }));
  // The hub's state and county pages (issue 26): their own, lighter tree.
  const hub = hubRoute ? hubPage(route, t, hubStates, packageOf) : undefined;
  if (hub) {
    const html = renderToString(
      <I18nextProvider i18n={i18n}>
        <HubFrame lang={lang} site={site} switchHref={counterpartPath(pathname, lang === 'es' ? 'en' : 'es', site)}>
          {hub.content}
        </HubFrame>
      </I18nextProvider>,
    );
    setIslandRenderer(null);
    return { html, title: hub.title, description: hub.description, status: 200 };
  }
  const html = renderToString(
    <I18nextProvider i18n={i18n}>
      <ToastProvider>
        <App
          lang={lang}
          pathname={pathname}
          loaders={{ [EDITION]: never, TX: never }}
          initial={DATA_PAGES.has(route.page) ? loaded : undefined}
          extras={route.page === 'home' || route.page === 'calculator' || guideTool(route) ? loaded : undefined}
          guides={guides}
          pages={sitePages}
          home={homeParts}
        />
      </ToastProvider>
    </I18nextProvider>,
  );
  setIslandRenderer(null);
  const vars = { ...editionVars(EDITION, lang, pkg?.state.name[lang], pkg?.state.counties.length), year: RATES_YEAR };
  const state = String(vars.state ?? '');
  const titled = (page: string) => phrase(EDITION, 'pageTitle', lang, { page, state }) ?? t('site.pageTitle', { page, state });
  let title = phrase(EDITION, 'metaTitle', lang, vars) ?? t('meta.title', vars);
  let description = phrase(EDITION, 'metaDescription', lang, vars) ?? t('meta.description', vars);
  switch (route.page) {
    case 'home':
      break;
    case 'calculator':
      title = titled(t('site.calculator.title', { state }));
      description = t('site.calculator.description', { state });
      break;
    case 'contact':
      title = titled(t('contact.title'));
      description = t('contact.intro');
      break;
    case 'county': {
      const c = edition?.counties.find((x) => x.slug === route.param);
      const county = c ? countyName(c.name, t) : '';
      title = titled(t('site.county.title', { county, state }));
      description = t('site.county.description', { county, state, value: formatUsd(DEFAULT_VALUE, lang) });
      break;
    }
    case 'timeline':
      title = titled(t('site.timeline.title', { state }));
      description = t('site.timeline.description', { state });
      break;
    case 'counties':
      title = titled(t('site.counties.title', { state }));
      description = t('site.counties.description', { state, count: edition?.counties.length ?? 0 });
      break;
    case 'guide': {
      const g = guides.pages.find((x) => x.id === route.param);
      if (g) {
        title = titled(g.title[lang]);
        description = g.description[lang];
      }
      break;
    }
    case 'faq': {
      const f = faqOf(guides);
      title = titled(f?.title[lang] ?? t('site.faq.title'));
      description = f?.description[lang] ?? t('site.faq.description');
      break;
    }
    case 'not-found':
      title = titled(t('site.notFound.title'));
      description = t('site.notFound.description');
      break;
    default: {
      const key = {
        'how-it-works': 'howItWorks',
        'tax-guides': 'taxGuides',
        faq: 'faq',
        about: 'about',
        privacy: 'privacy',
        terms: 'terms',
        disclaimer: 'disclaimer',
        affiliate: 'affiliate',
      }[route.page as string];
      if (key) {
        title = titled(t(`site.${key}.title`));
        description = t(`site.${key}.description`, vars);
      }
    }
  }
  return { html, title, description, status: route.page === 'not-found' ? 404 : 200 };
}
