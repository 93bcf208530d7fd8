/** i18next set-up: English and Spanish, the language from the path (/es… is Spanish, seed 001 §2). */
import i18next, { type i18n as I18n } from 'i18next';
import { useContext } from 'react';
import { I18nContext, initReactI18next } from 'react-i18next';
import en, { type Resources, type StateText } from './en.js';
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

const stateText = import.meta.glob<{ default: StateText }>('./states/es.*.ts');

/**
 * The Spanish text, only for Spanish pages: the base text and the edition's own text, each
 * its own chunk. A failed load of the edition's text falls back silently (to the base
 * text, then English, then the key).
 */
export async function loadResources(lang: Lang, state = 'NY', loaders = stateText): Promise<Partial<Record<Lang, Resources>>> {
  if (lang !== 'es') return {};
  const [base, own] = await Promise.all([
    import('./es.js').then((m) => m.default),
    (loaders[`./states/es.${state}.ts`]?.() ?? Promise.resolve(undefined)).then(
      (m) => m?.default,
      () => undefined,
    ),
  ]);
  return { es: mergeText(base as unknown as Tree, own as Tree | undefined) as unknown as Resources };
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
