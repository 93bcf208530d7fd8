/**
 * i18next in the browser (main.tsx): the page's language only, its text loaded as its own
 * chunk. A Spanish page does not load the English text (issue 28: 7 KB gzip of its first
 * load): es.ts holds every key (its type is en.ts's), so English is no fallback there. Tests
 * and the pre-render use index.ts's createI18n, which always has English.
 */
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Resources } from './en.js';
import type { Lang } from '../lib/format.js';

/** The page's text, as its own chunk: English on English pages, Spanish on Spanish ones. */
export async function loadResources(lang: Lang): Promise<Partial<Record<Lang, Resources>>> {
  if (lang === 'es') return { es: await import('./es.js').then((m) => m.default) };
  return { en: await import('./en.js').then((m) => m.default) };
}

/** An i18next instance with the given languages' text; missing keys fall back to English where it is given. */
export function i18nWith(lang: Lang, resources: Partial<Record<Lang, Resources>>): I18n {
  const instance = i18next.createInstance();
  const all: Record<string, { translation: Resources }> = {};
  for (const [l, r] of Object.entries(resources)) if (r) all[l] = { translation: r };
  void instance.use(initReactI18next).init({
    resources: all,
    lng: lang,
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}
