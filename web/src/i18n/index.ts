/** i18next set-up: English and Spanish, the language from the path (/es… is Spanish, seed 001 §2). */
import type { i18n as I18n } from 'i18next';
import { useContext } from 'react';
import { I18nContext } from 'react-i18next';
import { i18nWith } from './client.js';
import en, { type Resources } from './en.js';
import type { Lang } from '../lib/format.js';
import { langOf } from '../lib/routes.js';

/** The language of a path: /es… is Spanish (seed 001 §2; the path table is lib/routes.ts). */
export const langFromPath = langOf;

type Tree = { [k: string]: unknown };
/** `a` with `b`'s keys added, object by object. */
export function mergeText<T extends Tree>(a: T, b: Tree | undefined): T {
  if (!b) return a;
  const out: Tree = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const x = out[k];
    out[k] = x && typeof x === 'object' && !Array.isArray(x) && v && typeof v === 'object' && !Array.isArray(v) ? mergeText(x as Tree, v as Tree) : v;
  }
  return out as T;
}

/** The browser's loader of the page's text (client.ts). */
export { loadResources } from './client.js';

/** The page's language; only inside the i18n provider (outside it is a programming error). */
export function useLanguage(): Lang {
  const ctx = useContext(I18nContext);
  if (!ctx?.i18n) throw new Error('useLanguage must be used inside <I18nextProvider>');
  return ctx.i18n.language === 'es' ? 'es' : 'en';
}

/** English is always there (the fallback); other languages come from `loadResources` (tests, the pre-render). */
export function createI18n(lang: Lang, more: Partial<Record<Lang, Resources>> = {}): I18n {
  return i18nWith(lang, { ...more, en });
}
