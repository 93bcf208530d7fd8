/**
 * The site's pages and their English and Spanish paths (seed 001 §2, "Language routing"):
 * a path starting with /es is Spanish; switching language maps a path to its counterpart,
 * else adds or strips /es. County pages live under /county/<slug> and /es/condado/<slug>;
 * guide pages come from the guide data (web/content) with their own path pairs and the
 * generic English aliases of §2. On the hub (issue 26), a county-tier state has its page at
 * /<state slug> (/es/<state slug>) and each of its counties at /<state slug>/<county slug>
 * (/es/<state slug>/<county slug>): the slugs come from the rules, the same in both languages.
 */
import type { Lang } from './format.js';

export type PageId =
  | 'home'
  | 'calculator'
  | 'how-it-works'
  | 'tax-guides'
  | 'counties'
  | 'faq'
  | 'about'
  | 'contact'
  | 'disclaimer'
  | 'privacy'
  | 'terms'
  | 'affiliate'
  | 'timeline'
  | 'county'
  | 'guide'
  | 'state'
  | 'state-county'
  | 'not-found';

/** The fixed pages: id → [English path, Spanish path] (the table of seed 001 §2, plus the calculator and counties pages). */
export const PAGE_PATHS: ReadonlyArray<readonly [Exclude<PageId, 'county' | 'guide' | 'state' | 'state-county' | 'not-found'>, string, string]> = [
  ['home', '/', '/es'],
  ['about', '/about', '/es/acerca-de'],
  ['privacy', '/privacy-policy', '/es/politica-privacidad'],
  ['terms', '/terms-of-service', '/es/terminos-servicio'],
  ['contact', '/contact', '/es/contacto'],
  ['faq', '/faq', '/es/preguntas-frecuentes'],
  ['tax-guides', '/tax-guides', '/es/guias-impuestos'],
  ['how-it-works', '/how-it-works', '/es/como-funciona'],
  ['disclaimer', '/disclaimer', '/es/aviso-legal'],
  ['affiliate', '/affiliate-disclosure', '/es/divulgacion-afiliados'],
  ['calculator', '/calculator', '/es/calculadora'],
  ['counties', '/counties', '/es/condados'],
  ['timeline', '/guides/california-property-tax-timeline', '/es/guias/calendario-impuestos-california'],
];

/** Pages only some editions have (seed 001 §2: California's timeline page); the others have every page. */
export const PAGE_EDITIONS: Readonly<Partial<Record<PageId, readonly string[]>>> = { timeline: ['CA'] };

/** Whether a fixed page is part of a site (a site whose edition is not known has them all). */
export const hasPage = (page: PageId, site: Site): boolean => !site.edition || !PAGE_EDITIONS[page] || PAGE_EDITIONS[page]!.includes(site.edition);

/** A guide page's paths as the guide data gives them. */
export interface GuidePaths {
  id: string;
  paths: { en: string; es: string };
  aliases?: string[];
}

export interface Route {
  page: PageId;
  lang: Lang;
  /** The county slug (county pages), the guide id (guide pages), the state slug (state pages) or `<state slug>/<county slug>` (a state's county pages). */
  param?: string;
}

/** A county-tier state on the hub (issue 26): its slug and its counties' slugs ('any' before they are known). */
export interface SiteState {
  slug: string;
  counties: readonly string[] | 'any';
}

export interface Site {
  /** County slugs of the edition (its county pages); 'any' before the county list is known. */
  counties: readonly string[] | 'any';
  guides: readonly GuidePaths[];
  /** The edition (NY, TX, CA, FL, HUB): pages of PAGE_EDITIONS belong only to theirs. */
  edition?: string;
  /** The hub's county-tier states (issue 26): a page each, and one per county. */
  states?: readonly SiteState[];
}

const EMPTY: Site = { counties: [], guides: [] };

/** `/about/` → `/about`; `` → `/`. */
export function normalPath(pathname: string): string {
  const p = pathname.replace(/\/+$/, '');
  return p === '' ? '/' : p;
}

export function langOf(pathname: string): Lang {
  return /^\/es(\/|$)/.test(pathname) ? 'es' : 'en';
}

const COUNTY = { en: '/county/', es: '/es/condado/' } as const;

/** The page a path shows, in the path's language ('not-found' when none). */
export function resolveRoute(pathname: string, site: Site = EMPTY): Route {
  const p = normalPath(pathname);
  const lang = langOf(p);
  for (const [page, en, es] of PAGE_PATHS) if ((p === en || p === es) && hasPage(page, site)) return { page, lang };
  const prefix = COUNTY[lang];
  if (p.startsWith(prefix)) {
    const slug = p.slice(prefix.length);
    if (/^[a-z0-9-]+$/.test(slug) && (site.counties === 'any' || site.counties.includes(slug))) return { page: 'county', lang, param: slug };
  }
  for (const g of site.guides) {
    if (p === g.paths.en || p === g.paths.es || (g.aliases ?? []).includes(p)) return { page: 'guide', lang, param: g.id };
  }
  const state = stateRoute(p, lang, site);
  if (state) return state;
  return { page: 'not-found', lang };
}

const SLUG = /^[a-z0-9-]+$/;

/** `/ohio`, `/es/ohio` → the state page; `/ohio/franklin`, `/es/ohio/franklin` → its county's page. */
function stateRoute(p: string, lang: Lang, site: Site): Route | undefined {
  if (!site.states?.length) return undefined;
  const parts = (lang === 'es' ? p.replace(/^\/es/, '') : p).split('/').slice(1);
  if (parts.length < 1 || parts.length > 2 || !parts.every((x) => SLUG.test(x))) return undefined;
  const state = site.states.find((s) => s.slug === parts[0]);
  if (!state) return undefined;
  if (parts.length === 1) return { page: 'state', lang, param: state.slug };
  if (state.counties !== 'any' && !state.counties.includes(parts[1]!)) return undefined;
  return { page: 'state-county', lang, param: `${state.slug}/${parts[1]}` };
}

/** The path of a page in a language. */
export function pathOf(route: Omit<Route, 'lang'>, lang: Lang, site: Site = EMPTY): string {
  if (route.page === 'county') return `${COUNTY[lang]}${route.param}`;
  if (route.page === 'state' || route.page === 'state-county') return `${lang === 'es' ? '/es' : ''}/${route.param}`;
  if (route.page === 'guide') {
    const g = site.guides.find((x) => x.id === route.param);
    if (g) return g.paths[lang];
  }
  const fixed = PAGE_PATHS.find(([id]) => id === route.page);
  if (fixed) return lang === 'es' ? fixed[2] : fixed[1];
  return lang === 'es' ? '/es' : '/';
}

/**
 * Switching language (seed 001 §2): the counterpart of a known page, else the path with
 * /es added or stripped. Any query string stays (a shared calculation keeps its inputs).
 */
export function counterpartPath(pathname: string, to: Lang, site: Site = EMPTY): string {
  const [path, query = ''] = pathname.split('?', 2) as [string, string?];
  const q = query ? `?${query}` : '';
  const p = normalPath(path);
  const route = resolveRoute(p, site);
  if (route.page !== 'not-found') return pathOf(route, to, site) + q;
  if (to === 'es') return (p.startsWith('/es/') || p === '/es' ? p : `/es${p === '/' ? '' : p}`) + q;
  return (p.replace(/^\/es(?=\/|$)/, '') || '/') + q;
}

/** Every page path of a site in both languages (for pre-rendering and the sitemap). */
export function allRoutes(site: Site): Array<{ route: Omit<Route, 'lang'>; en: string; es: string }> {
  const out: Array<{ route: Omit<Route, 'lang'>; en: string; es: string }> = [];
  for (const [page, en, es] of PAGE_PATHS) if (hasPage(page, site)) out.push({ route: { page }, en, es });
  for (const slug of site.counties === 'any' ? [] : site.counties)
    out.push({ route: { page: 'county', param: slug }, en: `${COUNTY.en}${slug}`, es: `${COUNTY.es}${slug}` });
  for (const g of site.guides) out.push({ route: { page: 'guide', param: g.id }, en: g.paths.en, es: g.paths.es });
  for (const s of site.states ?? []) {
    out.push({ route: { page: 'state', param: s.slug }, en: `/${s.slug}`, es: `/es/${s.slug}` });
    for (const c of s.counties === 'any' ? [] : s.counties)
      out.push({ route: { page: 'state-county', param: `${s.slug}/${c}` }, en: `/${s.slug}/${c}`, es: `/es/${s.slug}/${c}` });
  }
  return out;
}

/** The anchor of a product convention on the how-it-works page (`#convention-ny-state-average-rate`). */
export const conventionAnchor = (parameterId: string) => `convention-${parameterId.replace(/[^a-z0-9]+/gi, '-')}`;
