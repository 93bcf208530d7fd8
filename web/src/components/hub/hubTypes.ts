/** Shapes shared by the hub's national pages (issue 26) and their islands; no figure here. */
import type { Lang } from '../../lib/format.js';

/** A state on the hub's list (web/scripts/build-hub-data.mjs). */
export interface HubState {
  code: string;
  slug: string;
  name: { en: string; es: string };
  tier: 'edition' | 'county';
  counties: number;
}

/** A county of a county-tier state, as its state page's table and its own page show it. */
export interface CountyRow {
  slug: string;
  name: string;
  /** The name in the page's language ("Condado de Adams"), when the build gives it. */
  label?: string;
  /** The county's median effective rate (percent), null where the data has none. */
  rate: number | null;
  /** Median value of owner-occupied homes (dollars). */
  value: number | null;
  /** The engine's annual tax on the median home (dollars, to the cent), null without a rate or a value. */
  tax: number | null;
  population: number | null;
  /** The county's taxes are top-coded in the survey: its rate is understated. */
  topCoded: boolean;
}

/** What the calculator island needs: the state, its counties (slug, name), the preset, the comparison rates. */
export interface StateCalcProps {
  lang: Lang;
  code: string;
  state: { en: string; es: string };
  /** [slug, name in the page's language]. */
  counties: Array<[string, string]>;
  county?: string;
  value?: number;
  stateRate: number | null;
  nationalRate: number | null;
}

/** A path on the hub in the page's language. */
export const hubPath = (lang: Lang, ...parts: string[]) => `${lang === 'es' ? '/es' : ''}/${parts.join('/')}`;

/** Lower case, without accents: "Nueva Jérsey" and "nueva jersey" match. */
export const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();
