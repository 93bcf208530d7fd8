/** i18next set-up: English and Spanish, the language from the path (/es… is Spanish, seed 001 §2). */
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './en.js';
import es from './es.js';
import type { Lang } from '../lib/format.js';

export function langFromPath(pathname: string): Lang {
  return /^\/es(\/|$)/.test(pathname) ? 'es' : 'en';
}

/** English path → Spanish path (seed 001 §2, the pairs this edition has). */
const PAIRS: Array<[string, string]> = [
  ['/', '/es'],
  ['/contact', '/es/contacto'],
];

export function counterpartPath(pathname: string, to: Lang): string {
  const p = pathname.replace(/\/+$/, '') || '/';
  for (const [enPath, esPath] of PAIRS) {
    if (to === 'es' && p === enPath) return esPath;
    if (to === 'en' && p === esPath) return enPath;
  }
  if (to === 'es') return p.startsWith('/es') ? p : `/es${p === '/' ? '' : p}`;
  return p.replace(/^\/es(?=\/|$)/, '') || '/';
}

export function createI18n(lang: Lang): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources: { en: { translation: en }, es: { translation: es } },
    lng: lang,
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}
