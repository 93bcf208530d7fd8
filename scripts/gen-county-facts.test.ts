/**
 * web/content/county-facts.json is what scripts/gen-county-facts.ts makes of the table in
 * rules/sources (issue 24), and that table is still the shared data's when it is there.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { countyFacts, FACTS_FILE, median } from './gen-county-facts.js';

describe('county facts', () => {
  it('the committed file is the generator output', () => {
    expect(readFileSync('web/content/county-facts.json', 'utf8')).toBe(JSON.stringify(countyFacts('rules/sources')) + '\n');
  });
  it('the copy in rules/sources is the shared data file', () => {
    const shared = `../shared/data/${FACTS_FILE}`;
    if (existsSync(shared)) expect(readFileSync(`rules/sources/${FACTS_FILE}`, 'utf8')).toBe(readFileSync(shared, 'utf8'));
  });
  it('median: the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
  });
  it('a top-coded county (Marin CA: 10001 in the source) is kept as $10,000 with its flag; New York County too', () => {
    const f = countyFacts('rules/sources');
    expect(f.states.CA!['Marin County']).toEqual([254407, 10000, true]);
    expect(f.states.NY!['New York County']).toEqual([1597451, 10000, true]); // population: SOURCES.md §4 spot check
  });
});
