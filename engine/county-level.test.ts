/**
 * The states at county level (issue 26 §3): every state, DC and Puerto Rico outside the four
 * editions runs the shared program rules/shared/county-level.yaml on its counties file,
 * generated from the national table (rules/sources/us_county_property_taxes_2023.csv). The
 * figures below are that CSV's rows, computed by hand in the comments. Build first
 * (npx tsc -p tsconfig.json && node dist/scripts/build-rules.js).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { readBundle } from './build/bundle.js';
import { Calculator, stateKey } from './core/calculate.js';
import { PtaxError } from './core/errors.js';
import type { Bundle } from './core/types.js';

const whole: Bundle = readBundle('dist/rules/bundle.json');
const calc = new Calculator(whole);
const csv: Record<string, string>[] = parse(readFileSync('rules/sources/us_county_property_taxes_2023.csv', 'utf8'), { columns: true });

function error(f: () => unknown): PtaxError {
  try {
    f();
  } catch (e) {
    return e as PtaxError;
  }
  throw new Error('no error');
}

describe('county-level states', () => {
  const county = Object.values(whole.states).filter((s) => s.tier === 'county');

  it('are the 46 other states, DC and Puerto Rico, each with every row of the national table and the shared program', () => {
    expect(county).toHaveLength(48);
    for (const s of county) {
      expect(s.counties.length, s.code).toBe(csv.filter((r) => r['state_abbr'] === s.code).length);
      expect(s.programs, s.code).toEqual([{ program: 'county_level' }]);
      expect(s.slug, s.code).toMatch(/^[a-z-]+$/);
    }
    // The editions and the hub keep their tiers: 4 + 48 + 1 states.
    expect(Object.keys(whole.states)).toHaveLength(53);
    expect(whole.states['OH']!.slug).toBe('ohio');
    expect(whole.states['DC']!.name).toEqual({ en: 'District of Columbia', es: 'Distrito de Columbia' });
  });

  it('Franklin County, OH at 300,000: 300,000 × 1.5469% = 4,640.70 a year, 386.725 → 386.73 a month', () => {
    // CSV: OH,Ohio,Franklin County,39049,265700,4110,1.5469,false,1326063
    const r = calc.calculate({ state: 'OH', county: 'Franklin', value: 300000 });
    expect([r.annualTax, r.monthlyTax, r.effectiveRate, r.program]).toEqual([4640.7, 386.73, 1.5469, 'county_level']);
    expect(r.notes).toHaveLength(1);
    expect(r.notes[0]).toMatch(/^Estimated at the county's typical rate: the median property tax its homeowners paid divided by the median home value/);
  });

  it('a top-coded county (taxes 10001) adds the understated-rate note: Bergen, NJ, 500,000 × 1.6859% = 8,429.50', () => {
    // CSV: NJ,New Jersey,Bergen County,34003,593200,10001,1.6859,true,957736
    const r = calc.calculate({ state: 'NJ', county: 'Bergen', value: 500000 });
    expect(r.annualTax).toBe(8429.5);
    expect(r.notes[1]).toBe("This county's rate is understated: the source data caps median taxes at $10,000");
  });

  it('a county without a rate gives no figure: NO_RATE_IN_DATA, in English and Spanish', () => {
    // CSV: HI,Hawaii,Kalawao County,15005,,,,false,81
    const en = error(() => calc.calculate({ state: 'HI', county: 'Kalawao', value: 300000 }));
    expect(en.code).toBe('NO_RATE_IN_DATA');
    expect(en.message).toMatch(/^The census data give no property tax rate for this county/);
    const es = error(() => calc.calculate({ state: 'HI', county: 'Kalawao', value: 300000 }, { lang: 'es' }));
    expect(es.code).toBe('NO_RATE_IN_DATA');
    expect(es.message).toMatch(/^Los datos del censo no dan una tasa de impuesto predial para este condado/);
  });

  it('takes a state by its code or its name in either language, any case, accents optional', () => {
    const code = (s: string) => calc.state(s).code;
    expect(
      [
        'OH',
        'oh',
        'ohio',
        'OHIO',
        'New Jersey',
        'new-jersey',
        'Nueva Jersey',
        'nuevo mexico',
        'Nuevo México',
        'Distrito de Columbia',
        'Hawái',
        'Pensilvania',
      ].map(code),
    ).toEqual(['OH', 'OH', 'OH', 'OH', 'NJ', 'NJ', 'NJ', 'NM', 'NM', 'DC', 'HI', 'PA']);
    expect(['Texas', 'Nueva York', 'hub'].map(code)).toEqual(['TX', 'NY', 'HUB']);
    expect(stateKey('Nuevo  México.')).toBe('nuevomexico');
    // The hub's name is not a state's; an unknown name lists the codes.
    const e = error(() => calc.state('Choose a state'));
    expect(e.code).toBe('UNKNOWN_STATE');
    expect(e.message).toContain('OH');
  });

  it("carries each county's population and the state's and the nation's median county rates (one county's own rate each)", () => {
    const oh = whole.states['OH']!;
    const franklin = oh.counties.find((c) => c.slug === 'franklin')!;
    expect([franklin.population, franklin.medianValue, franklin.medianTaxes]).toEqual([1326063, 265700, 4110]);
    const rates = (rows: Record<string, string>[]) =>
      rows
        .filter((r) => r['effective_rate_pct'])
        .map((r) => Number(r['effective_rate_pct']))
        .sort((a, b) => a - b);
    const mid = (xs: number[]) => xs[Math.floor((xs.length - 1) / 2)];
    expect(oh.countiesMeta!.typicalRate!.stateMedian).toBe(mid(rates(csv.filter((r) => r['state_abbr'] === 'OH'))));
    expect(oh.countiesMeta!.typicalRate!.nationalMedian).toBe(mid(rates(csv.filter((r) => r['state_abbr'] !== 'PR'))));
    // Ohio's population: the sum of its 88 counties' (Census Vintage 2023).
    expect(oh.countiesMeta!.population!.state).toBe(csv.filter((r) => r['state_abbr'] === 'OH').reduce((a, r) => a + Number(r['population_2023']), 0));
    // Puerto Rico: no population in the data, so none is given.
    expect(whole.states['PR']!.countiesMeta!.population).toBeUndefined();
    expect(whole.states['PR']!.counties.every((c) => c.population === undefined && c.fips === '')).toBe(true);
  });
});

describe('the split bundle (ptax calc start-up)', () => {
  it("reads a county-level state's counties, equal to the whole bundle's, from its own file when first asked for", () => {
    const index = JSON.parse(readFileSync('dist/rules/split/index.json', 'utf8')) as { states: string[] };
    expect(index.states).toContain('OH');
    // Ohio's file holds its 88 counties (Census Vintage 2023, as above); the index none.
    expect(JSON.stringify(index)).not.toContain('Franklin');
    expect((JSON.parse(readFileSync('dist/rules/split/states/OH.json', 'utf8')) as Bundle['states'][string]).counties).toHaveLength(88);
    const split = readBundle('dist/rules/bundle.json');
    const json = JSON.parse(readFileSync('dist/rules/bundle.json', 'utf8')) as Bundle;
    expect(split.states['OH']!.counties).toEqual(json.states['OH']!.counties);
    expect(split.states['OH']!.countiesMeta).toEqual(json.states['OH']!.countiesMeta);
    expect(new Calculator(split).calculate({ state: 'ohio', county: 'Franklin', value: 300000 }).annualTax).toBe(4640.7);
  });
});
