/**
 * countyLabels (issue 28) fills each text once looked up with the county's name and rate: it
 * must give exactly what countyName and i18next give one county at a time, for every county
 * and place of every state edition, in English and Spanish.
 */
import { describe, expect, it } from 'vitest';
import { createI18n } from '../i18n/index.js';
import es from '../i18n/es.js';
import { compareNames, countyLabels, countyName } from './places.js';
import { makeEdition } from './model.js';
import { toBundle } from './stateData.js';
import { statePackage } from '../test/edition.js';

describe('countyLabels', () => {
  it('"Harris County" is "Harris County (2.100%)" in English and "Condado de Harris (2.100%)" in Spanish', () => {
    expect(countyLabels(createI18n('en', { es }).t).option('Harris County', '2.100%')).toBe('Harris County (2.100%)');
    expect(countyLabels(createI18n('es', { es }).t).option('Harris County', '2.100%')).toBe('Condado de Harris (2.100%)');
    // Not a "… County" name: as the rules name it.
    expect(countyLabels(createI18n('es', { es }).t).name('Carson City')).toBe('Carson City');
  });

  for (const code of ['NY', 'TX', 'CA', 'FL']) {
    it(`${code}: the same names and option labels as countyName and t('form.countyOption') one by one, in both languages`, () => {
      const edition = makeEdition(toBundle(statePackage(code)));
      for (const lang of ['en', 'es'] as const) {
        const { t } = createI18n(lang, { es });
        const labels = countyLabels(t);
        for (const c of [...edition.counties, ...edition.places]) {
          expect(labels.name(c.name)).toBe(countyName(c.name, t));
          expect(labels.option(c.name, '1.234%')).toBe(t('form.countyOption', { name: countyName(c.name, t), rate: '1.234%' }));
        }
      }
    });
  }
});

describe('compareNames gives the order of localeCompare', () => {
  // By hand: "Brooklyn" < "El Bronx" < "Manhattan" (b, e, m); "Staten Island" < "The Bronx" (s, t); "New York" < "Newark" (a space before letters).
  const names = [
    'The Bronx',
    'El Bronx',
    'Brooklyn',
    'Manhattan',
    'Queens',
    'Staten Island',
    'New York',
    'Newark',
    'newark',
    'NEWARK',
    'Bronx',
    'bronx',
    'Doña Ana',
    'Kings County',
    'St. Lawrence',
    '',
    'a',
    'A',
    'a b',
    'ab',
    'Ñ',
  ];
  for (const lang of ['en', 'es']) {
    it(lang, () => {
      const sign = (x: number) => Math.sign(x);
      const differ = names
        .flatMap((a) => names.map((b) => [a, b, sign(compareNames(a, b, lang)), sign(a.localeCompare(b, lang))] as const))
        .filter(([, , x, y]) => x !== y);
      expect(differ).toEqual([]);
      expect(compareNames('Brooklyn', 'El Bronx', lang)).toBe(-1);
    });
  }
});
