/**
 * Every source a rule file cites has a Spanish title for Spanish pages (issue 24): a public
 * document's in i18n/citations.es.ts, a product convention's from the label of what it explains.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../i18n/index.js';
import en from '../i18n/en.js';
import es from '../i18n/es.js';
import { citationTitle } from './citations.js';

const bundle = JSON.parse(readFileSync('dist/rules/bundle.json', 'utf8')) as unknown;
function titles(x: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(x)) x.forEach((y) => titles(y, out));
  else if (x && typeof x === 'object') {
    const o = x as Record<string, unknown>;
    if (typeof o.title === 'string' && (typeof o.href === 'string' || o.convention !== undefined)) out.add(o.title);
    Object.values(o).forEach((y) => titles(y, out));
  }
  return out;
}

describe('citation titles', () => {
  const t = createI18n('es', { es: es as unknown as typeof en }).t;
  const all = [...titles(bundle)];

  it('every public document the rules cite has a Spanish title', () => {
    const missing = all.filter((x) => !x.startsWith('ptax, how it works: ') && citationTitle(x, 'es', t).lang === 'en');
    expect(missing).toEqual([]);
    expect(all.length).toBeGreaterThan(50);
  });

  it('a convention is named by the Spanish label of what it explains; English pages keep the title', () => {
    const title = 'ptax, how it works: Texas, the county homestead exemption off the county levy';
    expect(citationTitle(title, 'es', t, { en: 'County homestead exemption', es: 'Exención de vivienda principal del condado' })).toEqual({
      text: 'ptax, cómo funciona: Exención de vivienda principal del condado',
    });
    expect(citationTitle(title, 'es', t)).toEqual({ text: title, lang: 'en' });
    expect(citationTitle(title, 'en', t)).toEqual({ text: title });
    expect(citationTitle('Texas Tax Code §31.05, discounts', 'es', t)).toEqual({ text: 'Código Tributario de Texas §31.05, descuentos' });
  });
});
