// @vitest-environment happy-dom
/**
 * Translations (seed 001 §4, §8): no key missing in Spanish (base text plus each edition's
 * own text), the fallback chain state text → base text → English → key, the edition's
 * Spanish text loaded on its own and a failed load falling back silently, and the language
 * hook refusing to work outside its provider.
 */
import { describe, expect, it } from 'vitest';
import { render, renderHook } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import en from './en.js';
import es from './es.js';
import { createI18n, loadResources, mergeText, useLanguage } from './index.js';

type Tree = { [k: string]: unknown };
const keys = (o: Tree, prefix = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' && !Array.isArray(v) ? keys(v as Tree, `${prefix}${k}.`) : [`${prefix}${k}`]));
const STATES = ['NY', 'TX', 'CA', 'FL', 'HUB'] as const;
const stateFiles = import.meta.glob('./states/es.*.ts', { eager: true, import: 'default' }) as Record<string, Tree>;

describe('Spanish text', () => {
  it("every English key has its Spanish text: base keys in es.ts, an edition's own keys in states/es.<CODE>.ts", () => {
    const base = new Set(keys(es as unknown as Tree));
    const missing: string[] = [];
    for (const k of keys(en as unknown as Tree)) {
      const state = /_(NY|TX|CA|FL|HUB)$/.exec(k)?.[1];
      const own = state ? new Set(keys(stateFiles[`./states/es.${state}.ts`] ?? {})) : new Set<string>();
      if (!base.has(k) && !own.has(k)) missing.push(k);
    }
    expect(missing).toEqual([]);
  });

  it("the site pages' text (its own chunk) has the same keys in both languages", async () => {
    const [siteEn, siteEs] = await Promise.all([import('./site.en.js'), import('./site.es.js')]);
    expect(keys(siteEs.default as unknown as Tree)).toEqual(keys(siteEn.default as unknown as Tree));
    expect(keys(siteEn.default as unknown as Tree).length).toBeGreaterThan(40);
  });

  it('no Spanish key that English lacks (a typo would never be shown)', () => {
    const english = new Set(keys(en as unknown as Tree));
    const extra = [...keys(es as unknown as Tree), ...STATES.flatMap((s) => keys(stateFiles[`./states/es.${s}.ts`] ?? {}))].filter((k) => !english.has(k));
    expect(extra).toEqual([]);
  });

  it("an edition's own Spanish text is loaded with the base text; a failed load falls back to the base and English", async () => {
    const tx = await loadResources('es', 'TX');
    expect(createI18n('es', tx).t('edition.people', { context: 'TX' })).toBe('texanos');
    const failed = await loadResources('es', 'TX', { './states/es.TX.ts': () => Promise.reject(new Error('offline')) });
    const i18n = createI18n('es', failed);
    // No Spanish state text: English for that key, Spanish for the rest.
    expect(i18n.t('edition.people', { context: 'TX' })).toBe('Texans');
    expect(i18n.t('nav.calculator')).toBe('Calculadora');
    expect(await loadResources('en', 'TX')).toEqual({});
  });

  it('lookups fall back from the state text to the base text, to English, to the key', () => {
    const i18n = createI18n('es', { es: mergeText(es as unknown as Tree, { banner: { title_TX: 'Texto de Texas' } }) as never });
    expect(i18n.t('banner.title', { context: 'TX', state: 'Texas' })).toBe('Texto de Texas');
    expect(i18n.t('banner.title', { context: 'FL', state: 'Florida' })).toBe(i18n.t('banner.title', { state: 'Florida' }));
    expect(createI18n('es', { es: { ...(es as object), nav: {} } as never }).t('nav.calculator')).toBe('Calculator');
    expect(i18n.t('no.such.key')).toBe('no.such.key');
  });
});

describe('useLanguage', () => {
  it('gives the page language inside the provider and throws outside it', () => {
    const i18n = createI18n('es', { es: es as never });
    const { result } = renderHook(() => useLanguage(), { wrapper: ({ children }) => <I18nextProvider i18n={i18n}>{children}</I18nextProvider> });
    expect(result.current).toBe('es');
    const Bare = () => <p>{useLanguage()}</p>;
    const quiet = console.error;
    console.error = () => {};
    try {
      expect(() => render(<Bare />)).toThrow('useLanguage must be used inside <I18nextProvider>');
    } finally {
      console.error = quiet;
    }
  });
});
