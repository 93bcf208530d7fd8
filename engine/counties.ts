/** County look-up by name, "X County" or slug, with the nearest names suggested. */
import { distance } from 'fastest-levenshtein';
import type { CountyDef, StateDef } from './types.js';
import { inputError } from './messages.js';

export function slugOf(name: string): string {
  return name.trim().toLowerCase().replace(/\scounty$/, '').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

export type CountyMatch = { county: CountyDef; alias?: undefined } | { county?: undefined; alias: StateDef['aliases'][number] };

export function findCounty(state: StateDef, query: string): CountyMatch {
  const slug = slugOf(query);
  const alias = state.aliases.find((a) => slugOf(a.name) === slug);
  if (alias) return { alias };
  const county = state.counties.find((c) => c.slug === slug);
  if (county) return { county };
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
