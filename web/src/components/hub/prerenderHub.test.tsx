/**
 * The hub's state and county pages at build time (issue 26): the figures of each county row
 * come from the state's data package and the engine (rows of
 * rules/sources/us_county_property_taxes_2023.csv, worked by hand below).
 */
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n/index.js';
import es from '../../i18n/es.js';
import type { Resources } from '../../i18n/en.js';
import { statePackage } from '../../test/edition.js';
import { hubPage, statePageData } from './prerenderHub.js';
import type { HubState } from './hubTypes.js';

const OH: HubState = { code: 'OH', slug: 'ohio', name: { en: 'Ohio', es: 'Ohio' }, tier: 'county', counties: 88 };

describe('a state page’s data', () => {
  const d = statePageData(statePackage('OH'), OH);
  it('Franklin County, OH: the engine’s tax on the median home, its rank and population (CSV row OH,Franklin County,39049)', () => {
    const f = d.rows.find((r) => r.slug === 'franklin')!;
    // median value 265,700 × rate 1.5469 % = 4,110.1133 → $4,110.11 (the CSV's median taxes paid: 4,110).
    expect(f).toMatchObject({ name: 'Franklin County', rate: 1.5469, value: 265700, tax: 4110.11, population: 1326063, topCoded: false });
    // Six Ohio counties have a higher rate (Cuyahoga 2.0846 among them): 7th of 88.
    expect([d.rank.get('franklin'), d.ranked, d.rows.length]).toEqual([7, 88, 88]);
    // The counties file's state_median (Preble County) and national_median (Muscogee County, GA).
    expect([d.stateRate, d.nationalRate]).toEqual([1.076, 0.8371]);
  });
  it('a top-coded county is flagged (Bergen County, NJ: taxes 10,001 = $10,000 or more); a county without a rate has no tax (Eureka County, NV)', () => {
    const bergen = statePageData(statePackage('NJ'), { ...OH, code: 'NJ', slug: 'new-jersey' }).rows.find((r) => r.slug === 'bergen')!;
    // 593,200 × 1.6859 % = 10,000.7588 → $10,000.76.
    expect(bergen).toMatchObject({ rate: 1.6859, tax: 10000.76, topCoded: true });
    const eureka = statePageData(statePackage('NV'), { ...OH, code: 'NV', slug: 'nevada' }).rows.find((r) => r.slug === 'eureka')!;
    expect(eureka).toMatchObject({ rate: null, value: null, tax: null, population: 1917 });
  });
});

describe('a county page', () => {
  it('in Spanish: its title, description and figures', () => {
    const i18n = createI18n('es', { es: es as unknown as Resources });
    const page = hubPage({ page: 'state-county', lang: 'es', param: 'ohio/franklin' }, i18n.t, [OH], (c) => (c === 'OH' ? statePackage('OH') : undefined))!;
    expect(page.title).toBe('Impuesto a la propiedad en Condado de Franklin, Ohio | Tasa 1.55%, estimación gratis');
    expect(page.description).toContain('$4,110');
    const html = renderToString(<I18nextProvider i18n={i18n}>{page.content}</I18nextProvider>);
    expect(html).toContain('data-testid="fact-tax" data-value="4110.11"');
    expect(html).toContain('href="/es/ohio"');
    expect(hubPage({ page: 'state-county', lang: 'es', param: 'ohio/atlantis' }, i18n.t, [OH], () => statePackage('OH'))).toBeUndefined();
  });
});
