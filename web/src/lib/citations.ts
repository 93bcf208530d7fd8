/**
 * A source's title as a page shows it (issue 24). English pages: the rule file's title.
 * Spanish pages: a product convention ("ptax, how it works: …") is named by the Spanish label
 * of the parameter or step it explains; a public document by its Spanish title
 * (i18n/citations.es.ts); a title with no Spanish yet stays as it is, marked lang="en".
 */
import type { TFunction } from 'i18next';
import type { Lang } from './format.js';

const CONVENTION = /^ptax, how it works: /;
const maps = new WeakMap<object, Map<string, string>>();

export interface Title {
  text: string;
  /** "en" when the text is English on a Spanish page. */
  lang?: 'en';
}

export function citationTitle(title: string, lang: Lang, t: TFunction, label?: { en: string; es?: string }): Title {
  if (lang === 'en') return { text: title };
  if (CONVENTION.test(title)) return label?.es ? { text: t('explain.conventionTitle', { name: label.es }) } : { text: title, lang: 'en' };
  // keySeparator false: i18next hands back the resource's own array (the same object each
  // call, so the map below is built once per language) instead of a copy made by translating
  // each of its hundreds of strings, which was 40 % of the hub's pre-render (issue 23); the
  // titles hold no {{interpolation}} or $t() nesting, so the text is the same.
  const pairs = t('citations', { returnObjects: true, keySeparator: false }) as unknown as Array<[string, string]>;
  if (!Array.isArray(pairs)) return { text: title, lang: 'en' };
  let map = maps.get(pairs);
  if (!map) maps.set(pairs, (map = new Map(pairs)));
  const es = map.get(title);
  return es ? { text: es } : { text: title, lang: 'en' };
}
