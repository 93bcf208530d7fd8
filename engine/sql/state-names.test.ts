/**
 * The state cell of a batch as the engine reads it (Calculator.state): a two-letter code in
 * any case, or a state's name in English or Spanish, with or without accents, or its slug.
 * The DuckDB batch (engine/sql/generate.ts) reads the same cells the same way, so a roll
 * that says "Ohio" or "Nueva Jersey" gets the figures the Node batch gives.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseCsv } from 'csv-parse/sync';
import { readBundle } from '../build/bundle.js';
import { Calculator } from '../core/calculate.js';
import { runSqlBatch } from './run.js';

const bundle = readBundle('dist/rules/bundle.json');
const tmp = mkdtempSync(join(tmpdir(), 'ptax-state-names-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('state cells by name (issue 26)', () => {
  it('DuckDB reads codes and names as the engine does, and refuses what is neither', async () => {
    const rows: Array<[string, string, number]> = [
      ['OH', 'Franklin', 300000],
      ['ohio', 'Franklin', 300000],
      ['Nueva Jersey', 'Bergen', 400000],
      ['new-jersey', 'Bergen', 400000],
      ['Nuevo México', 'Bernalillo', 250000],
      ['nuevo mexico', 'Bernalillo', 250000],
      ['Texas', 'Harris', 300000],
      ['Ohioo', 'Franklin', 300000],
    ];
    const file = join(tmp, 'roll.csv');
    writeFileSync(file, 'state,county,value\n' + rows.map((r) => r.join(',')).join('\n') + '\n');
    const out = join(tmp, 'roll.out.csv');
    await runSqlBatch(bundle, { engine: 'duckdb', file, out });
    const got = parseCsv(readFileSync(out, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    const byState = new Map(got.map((r) => [r.state, r]));
    const calc = new Calculator(bundle);
    for (const [state, county, value] of rows.slice(0, -1)) {
      const r = byState.get(state)!;
      expect(r.error, state).toBe('');
      expect(Number(r.annualTax), state).toBe(calc.calculate({ state, county, value }).annualTax);
    }
    // Franklin OH, 300,000 × 1.5469% = 4,640.70 (rules/oh/counties.yaml), by code or by name.
    expect([byState.get('OH')!.annualTax, byState.get('ohio')!.annualTax]).toEqual(['4640.7', '4640.7']);
    expect(byState.get('Ohioo')!.error).toMatch(/^Unknown state "Ohioo": choose one of AK, AL/);
  }, 60_000);
});
