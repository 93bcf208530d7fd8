/** i18next set-up: English and Spanish, the language from the path (/es… is Spanish, seed 001 §2). */
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en, { type Resources } from './en.js';
import type { Lang } from '../lib/format.js';
import { langOf } from '../lib/routes.js';

/** The language of a path: /es… is Spanish (seed 001 §2; the path table is lib/routes.ts). */
export const langFromPath = langOf;

/** The Spanish text is its own chunk, loaded only for Spanish pages. */
export async function loadResources(lang: Lang): Promise<Partial<Record<Lang, Resources>>> {
  return lang === 'es' ? { es: (await import('./es.js')).default } : {};
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
