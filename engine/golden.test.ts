/**
 * The golden fixtures through the engine's API (`ptax test` runs the same cases through
 * the CLI): one test per fixture file, every case must match its hand computation.
 */
import { describe, expect, it } from 'vitest';
import { Calculator } from './core/calculate.js';
import { readBundle } from './build/bundle.js';
import { fixtureFiles, readFixtures, runCase } from './build/fixtures.js';

const calc = new Calculator(readBundle('dist/rules/bundle.json'));

describe('golden fixtures', () => {
  for (const file of fixtureFiles(['fixtures'])) {
    it(file, () => {
      const { cases, problems } = readFixtures(file);
      expect(problems).toEqual([]);
      expect(cases.length).toBeGreaterThan(0);
      const failures = cases
        .map((c) => runCase(calc, file, c))
        .filter((r) => !r.ok)
        .map((r) => `${r.name}: ${r.diffs.join('; ')}`);
      expect(failures).toEqual([]);
    });
  }
});
