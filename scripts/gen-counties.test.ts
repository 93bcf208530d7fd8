import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { countiesYaml, readCountyRows, slugOf } from './gen-counties.js';

const rows = readCountyRows('../shared/data');

describe('county generator', () => {
  it('regenerates rules/ny/counties.yaml byte for byte from shared/data', () => {
    expect(countiesYaml('NY', rows)).toBe(readFileSync('rules/ny/counties.yaml', 'utf8'));
  });

  it('reads all 62 New York counties, five of them NYC boroughs, six top-coded', () => {
    const ny = rows.filter((r) => r.state === 'NY');
    expect(ny).toHaveLength(62);
    expect(ny.filter((r) => r.nyc).map((r) => r.name)).toEqual(['Bronx County', 'Kings County', 'New York County', 'Queens County', 'Richmond County']);
    expect(ny.filter((r) => r.topCoded).map((r) => slugOf(r.name))).toEqual(['nassau', 'new-york', 'putnam', 'rockland', 'suffolk', 'westchester']);
    // Albany County: 5253 / 277400 = 1.8937% (CSV effective_rate_pct)
    expect(ny.find((r) => r.name === 'Albany County')!.rate).toBe(1.8937);
  });

  it('makes kebab-case slugs without " County"', () => {
    expect(slugOf('St. Lawrence County')).toBe('st-lawrence');
    expect(slugOf('New York County')).toBe('new-york');
  });
});
