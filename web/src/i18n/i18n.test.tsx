// @vitest-environment happy-dom
/**
 * Translations (seed 001 §4, §8): no key missing in Spanish, no i18n key per state (a
 * state's own words are its state file's `phrases`, both languages, issue 26), the fallback
 * chain merged text → base text → English → key, and the language hook refusing to work
 * outside its provider.
 */
import { describe, expect, it } from 'vitest';
import { render, renderHook } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import en from './en.js';
import es from './es.js';
import { createI18n, loadResources, mergeText, useLanguage } from './index.js';
import { i18nWith } from './client.js';
import { EDITIONS, STATE_EDITIONS, editionName, editionVars, phrase } from '../lib/editionText.js';

type Tree = { [k: string]: unknown };
const keys = (o: Tree, prefix = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' && !Array.isArray(v) ? keys(v as Tree, `${prefix}${k}.`) : [`${prefix}${k}`]));

describe('Spanish text', () => {
  it('every English key has its Spanish text in es.ts', () => {
    const base = new Set(keys(es as unknown as Tree));
    expect(keys(en as unknown as Tree).filter((k) => !base.has(k))).toEqual([]);
  });

  it("the site pages' text (its own chunk) has the same keys in both languages", async () => {
    const [siteEn, siteEs] = await Promise.all([import('./site.en.js'), import('./site.es.js')]);
    expect(keys(siteEs.default as unknown as Tree)).toEqual(keys(siteEn.default as unknown as Tree));
    expect(keys(siteEn.default as unknown as Tree).length).toBeGreaterThan(40);
  });

  it('no Spanish key that English lacks (a typo would never be shown)', () => {
    const english = new Set(keys(en as unknown as Tree));
    expect(keys(es as unknown as Tree).filter((k) => !english.has(k))).toEqual([]);
  });

  it("no i18n key per state: a state's own words are its state file's phrases (issue 26)", () => {
    const codes = EDITIONS.map((e) => e.code);
    expect(codes).toContain('HUB');
    expect(STATE_EDITIONS.length).toBeGreaterThan(0);
    const perState = new RegExp(`(^|[._])(${codes.join('|')})$`);
    expect([...keys(en as unknown as Tree), ...keys(es as unknown as Tree)].filter((k) => perState.test(k))).toEqual([]);
  });

  it("every edition's phrases are there in both languages (the pages' titles, the hub's cards)", () => {
    const missing: string[] = [];
    for (const e of EDITIONS) {
      const need = e.tier === 'edition' ? ['people', 'exemptions', 'authority', 'offers', 'where', 'potentialSavings'] : ['people', 'exemptions', 'authority'];
      for (const k of need) for (const lang of ['en', 'es'] as const) if (!e.phrases[k]?.[lang]) missing.push(`${e.code}.${k}.${lang}`);
    }
    expect(missing).toEqual([]);
    // The words the pages showed before (rules/tx/state.yaml phrases).
    expect(editionVars('TX', 'es').people).toBe('texanos');
    expect(editionVars('TX', 'en').people).toBe('Texans');
    // The hub's short name and title, with the year filled in.
    expect(editionName('HUB', 'es')).toBe('EE. UU.');
    expect(phrase('HUB', 'metaTitle', 'en', { year: 2026 })).toBe('Property Tax Calculator for every state, 2026 rates | Free estimate by county');
    // A state without an edition phrase falls back to the hub's words.
    expect(editionVars('ZZ', 'en').authority).toBe('your county assessor');
    expect(phrase('ZZ', 'where', 'en')).toBeUndefined();
  });

  it("a page loads its own language's text only (issue 28: a Spanish page without the English)", async () => {
    const loaded = await loadResources('es');
    expect(Object.keys(loaded)).toEqual(['es']);
    expect(i18nWith('es', loaded).t('nav.calculator')).toBe('Calculadora');
    const english = await loadResources('en');
    expect(Object.keys(english)).toEqual(['en']);
    expect(i18nWith('en', english).t('nav.calculator')).toBe('Calculator');
  });

  it('lookups fall back from the merged text to the base text, to English, to the key', () => {
    const i18n = createI18n('es', { es: mergeText(es as unknown as Tree, { banner: { title: 'Texto de {{state}}' } }) as never });
    expect(i18n.t('banner.title', { state: 'Texas' })).toBe('Texto de Texas');
    expect(i18n.t('banner.text')).toBe((es as unknown as { banner: { text: string } }).banner.text);
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
