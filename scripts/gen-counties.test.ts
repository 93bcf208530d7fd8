import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DATA_DIR,
  EDITIONS,
  GENERATED_STATE_MARK,
  NATIONAL_FILE,
  NOMINAL_FILES,
  SOURCE_FILE,
  countiesYaml,
  countyLevelYaml,
  countyStateYaml,
  countyStates,
  lowerMiddle,
  middleOfMedians,
  readUsRows,
  readCountyRows,
  readNominalRows,
  slugOf,
  type CountyRow,
} from './gen-counties.js';

const rows = readCountyRows(DATA_DIR);
const nominal = readNominalRows(DATA_DIR);
const SHARED = join('../shared/data', SOURCE_FILE);
const us = readUsRows(DATA_DIR);

describe('county generator', () => {
  // The copy in rules/sources is the shared data's, unchanged (checked where the shared data is there).
  it.runIf(existsSync(SHARED))('rules/sources holds the shared county tables byte for byte', () => {
    for (const f of [SOURCE_FILE, NATIONAL_FILE, ...Object.values(NOMINAL_FILES)])
      expect(readFileSync(join(DATA_DIR, f)).equals(readFileSync(join('../shared/data', f))), f).toBe(true);
  });

  it.each(['NY', 'TX', 'CA', 'FL'])('regenerates rules/%s/counties.yaml byte for byte from the county table', (state) => {
    expect(countiesYaml(state, rows, nominal)).toBe(readFileSync(`rules/${state.toLowerCase()}/counties.yaml`, 'utf8'));
  });

  it('reads every county of TX (254), CA (58) and FL (67); the four TX counties without a Census rate have a nominal one and no typical rate', () => {
    const count = (s: string) => rows.filter((r) => r.state === s).length;
    expect([count('TX'), count('CA'), count('FL')]).toEqual([254, 58, 67]);
    expect(rows.filter((r) => r.rate === null).map((r) => r.name)).toEqual(['Kenedy County', 'King County', 'Loving County', 'Real County']);
    const tx = countiesYaml('TX', rows, nominal);
    // Loving County, nominal_rates_tx_2025.csv: county 0.47486 + Wink-Loving ISD 0.7942 + no city = 1.26906.
    expect(tx).toContain(
      '  - name: "Loving County"\n    slug: loving\n    fips: "48301"\n    rates: [{effective: 2025-01-01, value: 1.26906, parts: {school: 0.7942, county: 0.47486, city: 0, special: 0}, units: {school: "Wink-Loving ISD"}}]\n  - name',
    );
    // Harris County: county 0.38096 + Houston ISD 0.8783 + Houston 0.51919 = 1.77845 (SOURCES.md §8).
    expect(tx).toContain(
      'rates: [{effective: 2025-01-01, value: 1.77845, parts: {school: 0.8783, county: 0.38096, city: 0.51919, special: 0}, units: {school: "Houston ISD", city: "Houston"}}]',
    );
    // Alameda County, CA: BOE rate 1.22; school 2,256,407,000 / 5,172,139,000 (sum of the four levies) x 1.22 = 0.532239;
    // the Census effective rate 8061 / 1057400 = 0.7623% stays as the typical owner's rate.
    expect(countiesYaml('CA', rows, nominal)).toContain(
      '  - name: "Alameda County"\n    slug: alameda\n    fips: "06001"\n    rates: [{effective: 2024-01-01, value: 1.22, parts: {school: 0.532239, county: 0.1691, city: 0.215984, special: 0.302676}}]\n    typical_rate: {effective: 2023-01-01, value: 0.7623}\n',
    );
    // Miami-Dade, FL: 18.4893 mills; school 6.499 + 0.134 = 6.633 mills = 0.6633%.
    expect(countiesYaml('FL', rows, nominal)).toContain(
      'rates: [{effective: 2025-01-01, value: 1.84893, parts: {school: 0.6633, county: 0.70985, city: 0.40121, special: 0.07457}}]',
    );
  });

  it("gives every nominal rate's parts summing to the rate (within the 6 decimals they are written to)", () => {
    expect(nominal).toHaveLength(58 + 67 + 254);
    for (const n of nominal) {
      const p = n.parts;
      expect(Math.abs(p.school + p.county + p.city + p.special - Number(n.rate)), `${n.state} ${n.fips}`).toBeLessThan(5e-6);
    }
  });

  it('reads all 62 New York counties, five of them NYC boroughs, six top-coded', () => {
    const ny = rows.filter((r) => r.state === 'NY');
    expect(ny).toHaveLength(62);
    expect(ny.filter((r) => r.nyc).map((r) => r.name)).toEqual(['Bronx County', 'Kings County', 'New York County', 'Queens County', 'Richmond County']);
    expect(ny.filter((r) => r.topCoded).map((r) => slugOf(r.name))).toEqual(['nassau', 'new-york', 'putnam', 'rockland', 'suffolk', 'westchester']);
    // Albany County: 5253 / 277400 = 1.8937% (CSV effective_rate_pct)
    expect(ny.find((r) => r.name === 'Albany County')!.rate).toBe(1.8937);
  });

  it("carries each county's median home value and the state's middle county median (the lower middle of an even count)", () => {
    const row = (medianValue: number | null) => ({ medianValue }) as CountyRow;
    expect(middleOfMedians([row(300), row(100), row(null), row(200)])).toBe(200);
    expect(middleOfMedians([row(400), row(100), row(300), row(200)])).toBe(200);
    expect(middleOfMedians([row(null)])).toBeNull();
    // Alameda County, CA: median value 1,057,400 (CSV median_home_value_usd).
    const ca = countiesYaml('CA', rows, nominal);
    expect(ca).toContain('    typical_rate: {effective: 2023-01-01, value: 0.7623}\n    median_value: 1057400\n');
    // 58 California counties: the 29th smallest median.
    const sorted = rows
      .filter((r) => r.state === 'CA')
      .map((r) => r.medianValue!)
      .sort((a, b) => a - b);
    expect(ca).toContain(`\n  state: ${sorted[28]}\n`);
  });

  it('makes kebab-case slugs without " County", accents dropped', () => {
    expect(slugOf('St. Lawrence County')).toBe('st-lawrence');
    expect(slugOf('New York County')).toBe('new-york');
    expect(slugOf('Doña Ana County')).toBe('dona-ana');
    expect(slugOf('Bayamón Municipio')).toBe('bayamon-municipio');
  });
});

describe('county generator: the states at county level (national table)', () => {
  const states = countyStates(us);

  it('serves the 46 other states, DC and Puerto Rico: 48 codes, none an edition', () => {
    expect(states).toHaveLength(48);
    expect(states).toEqual(expect.arrayContaining(['DC', 'PR', 'OH', 'NJ', 'AK', 'WY']));
    expect(states.filter((s) => EDITIONS.includes(s))).toEqual([]);
    // SOURCES.md §5: 3,144 rows for the 50 states and DC, 78 for Puerto Rico; the editions have 441 of the 3,144.
    const n = (list: string[]) => us.filter((r) => list.includes(r.state)).length;
    expect([n(states.filter((s) => s !== 'PR')), n(['PR'])]).toEqual([3144 - 441, 78]);
  });

  it.each(countyStates(readUsRows(DATA_DIR)))('regenerates rules/%s byte for byte (counties file, and the state file while generated)', (state) => {
    const dir = `rules/${state.toLowerCase()}`;
    expect(countyLevelYaml(state, us)).toBe(readFileSync(`${dir}/counties.yaml`, 'utf8'));
    const stateFile = readFileSync(`${dir}/state.yaml`, 'utf8');
    if (stateFile.split('\n')[1]!.startsWith(GENERATED_STATE_MARK)) expect(countyStateYaml(state, us)).toBe(stateFile);
  });

  it("writes each county's rate, value, taxes, population and flags as in its CSV row", () => {
    // us_county_property_taxes_2023.csv: OH,Ohio,Franklin County,39049,265700,4110,1.5469,false,1326063 (4110 / 265700 × 100 = 1.54686 → 1.5469).
    expect(countyLevelYaml('OH', us)).toContain(
      '  - name: "Franklin County"\n    slug: franklin\n    fips: "39049"\n    rates: [{effective: 2023-01-01, value: 1.5469}]\n    typical_rate: {effective: 2023-01-01, value: 1.5469}\n    median_value: 265700\n    median_taxes: 4110\n    population: 1326063\n',
    );
    // Bergen County NJ: taxes 10001, the top code.
    expect(countyLevelYaml('NJ', us)).toMatch(/name: "Bergen County"\n(.+\n){5} {4}median_taxes: 10001\n {4}population: \d+\n {4}flags: \[topCoded\]\n/);
    // Kalawao County HI: nothing at all in the source.
    expect(countyLevelYaml('HI', us)).toContain(
      '  - name: "Kalawao County"\n    slug: kalawao\n    fips: "15005"\n    rates: []\n    population: 81\n    flags: [noRate]\n',
    );
    // Choctaw County AL: taxes 199, probably the survey's floor.
    expect(countyLevelYaml('AL', us)).toMatch(/name: "Choctaw County"\n(.+\n){5} {4}median_taxes: 199\n {4}population: \d+\n {4}flags: \[taxFloor\]\n/);
    // Puerto Rico: no FIPS and no population in the data, so neither is written.
    const pr = countyLevelYaml('PR', us);
    expect(pr).not.toContain('fips:');
    expect(pr).not.toMatch(/^ *population:/m);
    expect(pr.match(/^ {2}- name: /gm)).toHaveLength(78);
  });

  it("gives the state's and the nation's median county rate as one county's own rate (the lower middle of an even count)", () => {
    expect(lowerMiddle([3, 1, 2, 4], (x) => x)).toBe(2);
    expect(lowerMiddle([3, 1, 2], (x) => x)).toBe(2);
    const rated = (list: typeof us) =>
      list
        .filter((r) => r.rate !== null)
        .map((r) => Number(r.rate))
        .sort((a, b) => a - b);
    const mid = (xs: number[]) => xs[Math.floor((xs.length - 1) / 2)]!;
    const national = mid(rated(us.filter((r) => r.state !== 'PR')));
    const ohio = mid(rated(us.filter((r) => r.state === 'OH')));
    const yaml = countyLevelYaml('OH', us);
    expect(yaml).toMatch(new RegExp(`\\n  state_median: ${ohio.toFixed(4)}\\n  national_median: ${national.toFixed(4)}\\n`));
    // Ohio has 88 counties, all with a rate: the 44th smallest is the median.
    expect(rated(us.filter((r) => r.state === 'OH'))).toHaveLength(88);
  });

  it('writes a state file with names in both languages, the slug, tier county and the shared program', () => {
    const nj = countyStateYaml('NJ', us);
    expect(nj).toContain('name: {en: "New Jersey", es: "Nueva Jersey"}\nslug: new-jersey\ntier: county\n');
    expect(nj).toContain('counties: nj.counties\nprograms:\n  - program: county_level\n');
    expect(countyStateYaml('DC', us)).toContain('slug: district-of-columbia\n');
  });
});
