/** County look-up by name, "X County" or slug, with the nearest names suggested. */
import { distance } from 'fastest-levenshtein';
import type { CountyDef, CountyRate, StateDef } from './types.js';
import { inputError } from './messages.js';

/**
 * The name without its accents ("Doña Ana" → "Dona Ana", "Bayamón" → "Bayamon"): NFKD, then
 * the combining marks dropped. A name of ASCII only is its own: NFKD leaves ASCII as it is and
 * it has no marks; skipping the two saves loading ICU's normaliser and compiling the Unicode
 * property class at each start of `ptax calc` (~2 M instructions, issue 23).
 */
function unaccented(name: string): string {
  return /^[\x00-\x7f]*$/.test(name) ? name : name.normalize('NFKD').replace(/\p{M}/gu, '');
}

export function slugOf(name: string): string {
  return unaccented(name) // accents: "Doña Ana" is dona-ana, "Bayamón" bayamon
    .trim()
    .toLowerCase()
    .replace(/\scounty$/, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * What two spellings of one county name share, for look-ups: accents, case, apostrophes,
 * periods, spaces and hyphens do not count, nor a final "County", and Saint, St. and Ste. are
 * one word. "Saint Lucie", "St Lucie" and "St. Lucie County" are `stlucie`; "De Witt" and
 * "DeWitt" are `dewitt`; "Miami Dade" and "Miami-Dade" are `miamidade`; "O'Brien" is `obrien`.
 * The CLI, batch mode and the web's county search all match through it.
 */
export function countyKey(name: string): string {
  const words = unaccented(name) // accents: "Doña" = "Dona"
    .toLowerCase()
    .replace(/['\u2019\u02bc`]/g, '') // apostrophes join: "O'Brien" = "OBrien"
    .replace(/[^a-z0-9]+/g, ' ') // periods, hyphens and other separators split words
    .trim()
    .replace(/ county$/, '')
    .split(' ');
  return words.map((w) => (w === 'saint' || w === 'sainte' || w === 'ste' ? 'st' : w)).join('');
}

/**
 * A state's counties looked up without reading them all: the CLI's rule reader
 * (engine/build/bundle.ts) gives one for a state whose counties it reads one at a time (TX's
 * 254 counties are 90 KB of JSON, ~4 M instructions of a `ptax calc` start; issue 23). It
 * answers as `state.counties` would (the same objects), and is dropped when `counties` is
 * replaced.
 */
export interface CountyIndex {
  /** state.counties.length */
  count(): number;
  /** state.counties.find((c) => c.slug === slug) */
  bySlug(slug: string): CountyDef | undefined;
}
const INDEXES = new WeakMap<StateDef, CountyIndex>();

/** Sets (or, with undefined, drops) the county index of a state object. */
export function setCountyIndex(state: StateDef, index: CountyIndex | undefined): void {
  if (index) INDEXES.set(state, index);
  else INDEXES.delete(state);
}

/** How many counties a state has (state.counties.length, through its index when it has one). */
export function countyCount(state: StateDef): number {
  const index = INDEXES.get(state);
  return index ? index.count() : state.counties.length;
}

export type CountyMatch = { county: CountyDef; alias?: undefined } | { county?: undefined; alias: StateDef['aliases'][number] };

type Place = CountyMatch & { name: string };
const KEYS = new WeakMap<StateDef, Map<string, Place[]>>();

/** The counties and aliases of a state by countyKey (computed once per state). */
function placesByKey(state: StateDef): Map<string, Place[]> {
  let map = KEYS.get(state);
  if (map) return map;
  map = new Map();
  const add = (key: string, place: Place) => {
    const list = map!.get(key) ?? [];
    if (!list.some((p) => p.name === place.name)) list.push(place);
    map!.set(key, list);
  };
  for (const alias of state.aliases) add(countyKey(alias.name), { alias, name: alias.name });
  for (const county of state.counties) {
    const place = { county, name: county.name.replace(/ County$/, '') };
    add(countyKey(county.name), place);
    add(countyKey(county.slug), place);
    // Louisiana's parishes, Alaska's boroughs and Puerto Rico's municipios answer to their name alone too ("Acadia", "Bayamón").
    const short = county.name.replace(/ (Parish|Borough|Municipio)$/, '');
    if (short !== county.name) add(countyKey(short), place);
  }
  KEYS.set(state, map);
  return map;
}

/**
 * A county (or an alias such as New York City) by name, "X County" or slug; other spellings
 * through countyKey. A spelling that fits two places is an error listing them; an unknown one
 * is an error suggesting the nearest names.
 */
export function findCounty(state: StateDef, query: string): CountyMatch {
  const slug = slugOf(query);
  const alias = state.aliases.find((a) => slugOf(a.name) === slug);
  if (alias) return { alias };
  const index = INDEXES.get(state);
  const county = index ? index.bySlug(slug) : state.counties.find((c) => c.slug === slug);
  if (county) return { county };
  const found = placesByKey(state).get(countyKey(query)) ?? [];
  if (found.length === 1) return found[0]!.county ? { county: found[0]!.county } : { alias: found[0]!.alias! };
  if (found.length > 1) {
    const names = found.map((p) => p.name).sort();
    throw inputError('AMBIGUOUS_COUNTY', 'ambiguousCounty', { county: query, state: state.code, names: names.join(', ') }, { candidates: names });
  }
  const names = [...state.counties.map((c) => c.name.replace(/ County$/, '')), ...state.aliases.map((a) => a.name)];
  const hint = suggest(query, names);
  throw hint.length
    ? inputError('UNKNOWN_COUNTY', 'unknownCountyHint', { county: query, state: state.code, hint: hint.join(', ') }, { suggestions: hint })
    : inputError('UNKNOWN_COUNTY', 'unknownCounty', { county: query, state: state.code }, { suggestions: hint });
}

/** Up to three names closest to the query: by edit distance of slugs, then by shared prefix. */
export function suggest(query: string, names: string[]): string[] {
  const q = slugOf(query);
  if (!q) return [];
  const scored = names.map((n) => {
    const s = slugOf(n);
    const d = Math.min(distance(q, s), s.startsWith(q) || q.startsWith(s) ? 1 : Infinity);
    return { n, d };
  });
  const limit = Math.max(2, Math.floor(q.length / 3));
  return scored
    .filter((x) => x.d <= limit)
    .sort((a, b) => a.d - b.d || a.n.localeCompare(b.n))
    .slice(0, 3)
    .map((x) => x.n);
}

/**
 * A county's rate in force on `date` (YYYY-MM-DD): the latest dated rate not after it. Before
 * the first one, the first one stands in (`carried`: the calculation says so in a note),
 * so a year the rules cover but the official table does not (Texas and Florida 2024, with
 * 2025 tables) uses the rates of the nearest year rather than none.
 */
export function countyRateAt(county: CountyDef, date: string): { rate: CountyRate; carried: boolean } | undefined {
  const rates = county.rates;
  if (!rates.length) return undefined;
  let found: CountyRate | undefined;
  for (const r of rates) if (r.effective <= date) found = r;
  return found ? { rate: found, carried: false } : { rate: rates[0]!, carried: true };
}

/** A state's name as looked up: accents, case, spaces, hyphens and periods do not count ("Nueva-Jersey" = "nueva jersey"). */
export function stateKey(name: string): string {
  return unaccented(name)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

/**
 * The states' codes by `stateKey` of their names (en, es) and slug; the hub's name is not a
 * state's. Made by the callers that read a state cell as `Calculator.state` reads it (the
 * calculator, and the SQL generator, which prints the same look-up into its query).
 */
export function stateNamesOf(states: Readonly<Record<string, StateDef>>): Map<string, string> {
  const names = new Map<string, string>();
  for (const s of Object.values(states)) {
    if (s.tier === 'hub') continue;
    for (const n of [s.name.en, s.name.es, s.slug ?? '']) if (n) names.set(stateKey(n), s.code);
  }
  return names;
}

/**
 * The code of the state a cell names, as `Calculator.state` reads it: a code in any case
 * (trimmed), else a name or slug by `stateKey` (`names`: `stateNamesOf`, asked for only
 * then); undefined for neither.
 */
export function stateCodeOf(states: Readonly<Record<string, StateDef>>, text: string, names: () => ReadonlyMap<string, string>): string | undefined {
  const upper = String(text).trim().toUpperCase();
  return states[upper] ? upper : names().get(stateKey(String(text)));
}
