/**
 * Build time only (prerender.tsx): the hub's county-tier states, their pages' data and the
 * pages themselves (issue 26). Each state's figures are computed once, with the editions'
 * model/engine path (lib/model.ts `calculate`, the browser's calculation), from the state's
 * own data package: the tax on each county's median home is the engine's, to the cent.
 */
import type { TFunction } from 'i18next';
import { calculate, defaultForm, makeEdition } from '../../lib/model.js';
import { toBundle, type StatePackage } from '../../lib/stateData.js';
import { formatPercent, formatUsd, type Lang } from '../../lib/format.js';
import { countyName } from '../../lib/places.js';
import type { Route, SiteState } from '../../lib/routes.js';
import { CountyPage, StatePage, type StatePageData } from './HubPages.js';
import type { CountyRow, HubState } from './hubTypes.js';

const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);

type Meta = NonNullable<StatePackage['state']['countiesMeta']> & {
  typicalRate?: { stateMedian?: number; nationalMedian?: number };
  population?: { reference?: Array<{ title: string; href: string }> };
};

/** The state's median county rate (percent; the counties file's `typical_rate.state_median`), else null. */
const stateRateOf = (pkg: StatePackage): number | null => num((pkg.state.countiesMeta as Meta | undefined)?.typicalRate?.stateMedian);

/** The national median county rate (percent; `typical_rate.national_median`, else the county facts'), else null. */
const nationalRateOf = (pkg: StatePackage): number | null =>
  num((pkg.state.countiesMeta as Meta | undefined)?.typicalRate?.nationalMedian) ?? num(pkg.countyFacts?.national.medianRate);

export function statePageData(pkg: StatePackage, s: HubState): StatePageData {
  const edition = makeEdition(toBundle(pkg));
  const defs = new Map(pkg.state.counties.map((c) => [c.name, c]));
  const rows: CountyRow[] = edition.counties.map((c) => {
    const def = defs.get(c.name);
    const rate = c.rate ?? c.typicalRate;
    let tax: number | null = null;
    if (rate !== null && c.medianValue) {
      try {
        tax = calculate(edition, { ...defaultForm(edition), county: c.name, homeValue: c.medianValue }, 'en').annualTax;
      } catch {
        tax = null;
      }
    }
    return {
      slug: c.slug,
      name: c.name,
      rate,
      value: c.medianValue,
      tax,
      population: num((def as { population?: unknown } | undefined)?.population) ?? c.population ?? null,
      topCoded: c.flags.includes('topCoded') || !!c.taxesTopCoded,
    };
  });
  const rated = rows.filter((r) => r.rate !== null);
  const rank = new Map(rated.map((r) => [r.slug, 1 + rated.filter((x) => x.rate! > r.rate!).length]));
  const meta = pkg.state.countiesMeta as Meta | undefined;
  const sources = [...(meta?.reference ?? []), ...(meta?.population?.reference ?? [])]
    .map((r) => ({ title: r.title, href: r.href }))
    .filter((r, i, all) => all.findIndex((x) => x.href === r.href) === i);
  return {
    code: s.code,
    slug: s.slug,
    name: s.name,
    rows,
    labelled: { en: [], es: [] },
    rank,
    ranked: rated.length,
    stateRate: stateRateOf(pkg),
    nationalRate: nationalRateOf(pkg),
    sources,
  };
}

/** The hub's county-tier states with their counties' slugs (the site's state pages). */
export function siteStates(states: readonly HubState[], pkgOf: (code: string) => StatePackage | undefined): SiteState[] {
  return states
    .filter((s) => s.tier === 'county' && pkgOf(s.code))
    .map((s) => ({ slug: s.slug, counties: toBundle(pkgOf(s.code)!).states[s.code]!.counties.map((c) => c.slug) }));
}

const cache = new Map<string, StatePageData>();

/** A state page's or county page's content, title and description; undefined for a path that is neither. */
export function hubPage(
  route: Route,
  t: TFunction,
  states: readonly HubState[],
  pkgOf: (code: string) => StatePackage | undefined,
): { content: React.ReactElement; title: string; description: string } | undefined {
  const [slug, countySlug] = (route.param ?? '').split('/');
  const s = states.find((x) => x.slug === slug && x.tier === 'county');
  const pkg = s && pkgOf(s.code);
  if (!s || !pkg) return undefined;
  let d = cache.get(s.code);
  if (!d) cache.set(s.code, (d = statePageData(pkg, s)));
  const lang: Lang = route.lang;
  const state = s.name[lang];
  // The counties' names in this language, once per state (a county page lists them all in its calculator).
  if (!d.labelled[lang].length) d.labelled[lang] = d.rows.map((r) => ({ ...r, label: countyName(r.name, t) }));
  if (route.page === 'state') {
    return {
      content: <StatePage lang={lang} d={d} />,
      title: t('hubStates.stateMetaTitle', { state }),
      description: t('hubStates.stateMetaDescription', { state, count: d.rows.length }),
    };
  }
  const c = d.rows.find((r) => r.slug === countySlug);
  if (!c) return undefined;
  const county = d.labelled[lang].find((r) => r.slug === c.slug)!.label!;
  const rate = c.rate === null ? '' : formatPercent(c.rate, lang);
  return {
    content: <CountyPage lang={lang} d={d} c={c} />,
    title: c.rate === null ? t('hubStates.countyTitle', { county, state }) : t('hubStates.countyMetaTitle', { county, state, rate }),
    description:
      c.rate === null || c.tax === null || c.value === null
        ? t('hubStates.countyMetaDescriptionNoRate', { county, state })
        : t('hubStates.countyMetaDescription', { county, state, rate, value: formatUsd(c.value, lang), tax: formatUsd(c.tax, lang) }),
  };
}
