/**
 * The rules as SQL (engine/sql/generate.ts) as printed, without a database: one SQL
 * snapshot per state and dialect, and one of the reading of text cells
 * (engine/sql/snapshots/tx.text.*.sql): a rule change shows as a change of the SQL, reviewed
 * like the YAML (`npx vitest run engine/sql -u`); and the years the printer refuses. What
 * the SQL computes is engine/sql/sql.test.ts's (DuckDB, PostgreSQL) and
 * engine/ir-random.test.ts's (random programs through DuckDB).
 */
import { describe, expect, it } from 'vitest';
import { readBundle } from '../build/bundle.js';
import type { Bundle } from '../core/types.js';
import { BATCH_INPUT_COLUMNS, generateSql } from './generate.js';

const bundle: Bundle = readBundle('dist/rules/bundle.json');
/**
 * A copy of the rules for each test: generate.ts keeps a bundle's declarations (and the
 * engine its lowered programs) per bundle object, so with one object only the first test
 * would compute them, and mutation testing's per-test coverage would credit that test alone.
 */
const fresh = (): Bundle => structuredClone(bundle);

describe('ptax rules sql --year', () => {
  it('a year before every program of the state is refused in one line, not printed as SQL with empty VALUES', () => {
    const first = Math.min(...bundle.states.NY!.programs.map((p) => bundle.programs[p.program]!.years[0]!));
    expect(() => generateSql(bundle, { state: 'NY', year: first - 1 })).toThrow(`NY: no rules for ${first - 1} (rules' years: `);
    expect(generateSql(bundle, { state: 'NY', year: first })).toContain(`-- dialect: duckdb; states: NY; year: ${first}`);
  });
});

describe('SQL snapshots: a changed rule changes the SQL', () => {
  // The reading of cells written as text (a CSV file): the same for every state.
  for (const dialect of ['duckdb', 'postgres'] as const) {
    it(`TX, ${dialect}, every column written as text`, async () => {
      await expect(generateSql(fresh(), { state: 'TX', dialect, text: BATCH_INPUT_COLUMNS }) + ';\n').toMatchFileSnapshot(`snapshots/tx.text.${dialect}.sql`);
    });
  }
  for (const state of Object.keys(bundle.states)) {
    for (const dialect of ['duckdb', 'postgres'] as const) {
      it(`${state}, ${dialect}`, async () => {
        await expect(generateSql(fresh(), { state, dialect }) + ';\n').toMatchFileSnapshot(`snapshots/${state.toLowerCase()}.${dialect}.sql`);
      });
    }
  }
});
