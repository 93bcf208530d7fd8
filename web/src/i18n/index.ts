/** i18next set-up: English and Spanish, the language from the path (/es… is Spanish, seed 001 §2). */
import i18next, { type i18n as I18n } from 'i18next';
import { useContext } from 'react';
import { I18nContext, initReactI18next } from 'react-i18next';
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

/**
 * The Spanish text, only for Spanish pages, as its own chunk. A state's own words are not
 * i18n text: they come from the state files' `phrases` (lib/editionText.ts).
 */
export async function loadResources(lang: Lang): Promise<Partial<Record<Lang, Resources>>> {
  if (lang !== 'es') return {};
  const base = await import('./es.js').then((m) => m.default);
  return { es: base };
}

/** The page's language; only inside the i18n provider (outside it is a programming error). */
export function useLanguage(): Lang {
  const ctx = useContext(I18nContext);
  if (!ctx?.i18n) throw new Error('useLanguage must be used inside <I18nextProvider>');
  return ctx.i18n.language === 'es' ? 'es' : 'en';
}

/** English is always there (the fallback); other languages come from `loadResources`. */
export function createI18n(lang: Lang, more: Partial<Record<Lang, Resources>> = {}): I18n {
  const instance = i18next.createInstance();
  const resources: Record<string, { translation: Resources }> = { en: { translation: en } };
  for (const [l, r] of Object.entries(more)) if (r) resources[l] = { translation: r };
  void instance.use(initReactI18next).init({
    resources,
    lng: lang,
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}
