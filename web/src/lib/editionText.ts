/**
 * What differs between the editions in words: the state's name, its people, its
 * exemptions and the authority to verify with, and where each edition is served. The
 * words are the state files' `phrases` (rules/<st>/state.yaml, both languages), written
 * at build time from the bundle into web/src/generated/editions.json
 * (web/scripts/build-hub-data.mjs; an edition's build gets its own entry and the hub's only,
 * build-editions.mjs): no i18n key per state and no hand list of states.
 */
import type { Lang } from './format.js';

type Label = { en: string; es?: string };
/** One edition (tier edition) or the hub, as the build wrote it. */
export interface EditionInfo {
  code: string;
  tier: string;
  name: Label;
  phrases: Record<string, Label>;
}

/**
 * The editions and the hub (empty where the build has not written the module): through
 * `@ptax-data/` (web/vite.config.ts), so an edition's build holds its own entry and the hub's
 * only (web/scripts/build-editions.mjs) and the hub's build, development and tests all of them.
 */
export const EDITIONS: readonly EditionInfo[] =
  Object.values(import.meta.glob<EditionInfo[]>('@ptax-data/editions.json', { eager: true, import: 'default' }))[0] ?? [];

/** The state editions (each with its own site), in the order the hub lists them (in an edition's own build: itself). */
export const STATE_EDITIONS: readonly string[] = EDITIONS.filter((e) => e.tier === 'edition').map((e) => e.code);

const pick = (l: Label | undefined, lang: Lang): string | undefined => (l ? (lang === 'es' ? (l.es ?? l.en) : l.en) : undefined);

/** A state's own phrase in the page's language, `{{name}}` filled from `vars`; undefined where the state has none. */
export function phrase(code: string, key: string, lang: Lang, vars: Record<string, string | number> = {}): string | undefined {
  const text = pick(EDITIONS.find((e) => e.code === code)?.phrases[key], lang);
  return text?.replace(/\{\{(\w+)\}\}/g, (all, name: string) => (name in vars ? String(vars[name]) : all));
}

/** An edition's short name (the hub's is its `shortName` phrase): shown before the state data has loaded. */
export function editionName(code: string, lang: Lang): string {
  const e = EDITIONS.find((x) => x.code === code);
  return phrase(code, 'shortName', lang) ?? pick(e?.name, lang) ?? code;
}

export type EditionVars = { [key: string]: string | number; state: string; people: string; exemptions: string; authority: string; count: number | string };

export function editionVars(code: string, lang: Lang, stateName?: string, count?: number): EditionVars {
  const own = (key: string) => phrase(code, key, lang) ?? phrase('HUB', key, lang) ?? '';
  return {
    state: stateName ?? editionName(code, lang),
    people: own('people'),
    exemptions: own('exemptions'),
    authority: own('authority'),
    count: count ?? '',
  };
}

/**
 * The address of an edition's site. The site server maps host names to editions
 * (`ny.localhost`, … by default; PTAX_SITES in production) and tells the page its map
 * (`sites`); without it, on a loopback host the edition is `<code>.localhost` on the same
 * port, elsewhere `<code>.<domain>`.
 */
export function editionUrl(code: string, where: { protocol: string; hostname: string; port: string }, sites?: Record<string, string>): string {
  const known = sites?.[code];
  if (known) return known;
  const loopback = where.hostname === 'localhost' || where.hostname === '127.0.0.1' || where.hostname === '[::1]' || where.hostname.endsWith('.localhost');
  const prefix = new RegExp(`^(www|${STATE_EDITIONS.map((c) => c.toLowerCase()).join('|')})\\.`);
  const base = loopback ? 'localhost' : where.hostname.replace(prefix, '');
  return `${where.protocol}//${code.toLowerCase()}.${base}${where.port ? `:${where.port}` : ''}/`;
}
