import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATA_DIR, SOURCE_FILE, countiesYaml, middleOfMedians, readCountyRows, slugOf, type CountyRow } from './gen-counties.js';

const rows = readCountyRows(DATA_DIR);
const SHARED = join('../shared/data', SOURCE_FILE);

describe('county generator', () => {
  // The copy in rules/sources is the shared data's, unchanged (checked where the shared data is there).
  it.runIf(existsSync(SHARED))('rules/sources holds the shared county table byte for byte', () => {
    expect(readFileSync(join(DATA_DIR, SOURCE_FILE)).equals(readFileSync(SHARED))).toBe(true);
  });

  it.each(['NY', 'TX', 'CA', 'FL'])('regenerates rules/%s/counties.yaml byte for byte from the county table', (state) => {
    expect(countiesYaml(state, rows)).toBe(readFileSync(`rules/${state.toLowerCase()}/counties.yaml`, 'utf8'));
  });

  it('reads every county of TX (254), CA (58) and FL (67); four TX counties have no rate and are flagged estimated', () => {
    const count = (s: string) => rows.filter((r) => r.state === s).length;
    expect([count('TX'), count('CA'), count('FL')]).toEqual([254, 58, 67]);
    expect(rows.filter((r) => r.rate === null).map((r) => r.name)).toEqual(['Kenedy County', 'King County', 'Loving County', 'Real County']);
    const tx = countiesYaml('TX', rows);
    expect(tx).toContain('  - name: "Loving County"\n    slug: loving\n    fips: "48301"\n    rates: []\n    flags: [noRate, estimated]\n');
    // Alameda County, CA: 8061 / 1057400 = 0.7623% (CSV effective_rate_pct)
    expect(countiesYaml('CA', rows)).toContain(
      '  - name: "Alameda County"\n    slug: alameda\n    fips: "06001"\n    rates: [{effective: 2023-01-01, value: 0.7623}]\n',
    );
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
    const ca = countiesYaml('CA', rows);
    expect(ca).toContain(
      '  - name: "Alameda County"\n    slug: alameda\n    fips: "06001"\n    rates: [{effective: 2023-01-01, value: 0.7623}]\n    median_value: 1057400\n',
    );
    // 58 California counties: the 29th smallest median.
    const sorted = rows
      .filter((r) => r.state === 'CA')
      .map((r) => r.medianValue!)
      .sort((a, b) => a - b);
    expect(ca).toContain(`\n  state: ${sorted[28]}\n`);
  });

  it('makes kebab-case slugs without " County"', () => {
    expect(slugOf('St. Lawrence County')).toBe('st-lawrence');
    expect(slugOf('New York County')).toBe('new-york');
  });
});
