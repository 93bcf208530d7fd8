/**
 * Mutation testing of the lowered form's walker and printers (issue 27): `npm run
 * mutation:ir` (stryker.ir.json: engine/core/walk.ts, engine/codegen/js.ts and
 * engine/sql/generate.ts), or one file (`npm run mutation:ir -- --mutate
 * engine/core/walk.ts`). Only the fast tests that reach them, so that a run on two busy
 * cores takes minutes, not an hour (the whole engine's run: stryker.config.json). perTest
 * coverage runs, for each mutant, only the tests that reach it, and Stryker's runner stops
 * at the first failure: the files run in the order below (the unit tests of exact figures
 * and printed text first, the random programs last), so most mutants are killed in
 * milliseconds. Under PTAX_MUTATION engine/ir-random.test.ts draws 40 programs (5 through
 * DuckDB) and stops at its first failure (no shrinking). engine/sql/sql.test.ts is left out
 * (minutes of DuckDB and PostgreSQL per run): the SQL printer is checked by its snapshots,
 * sql-print's hand-made program and the random programs through DuckDB.
 */
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import base from '../vitest.config.js';

const FILES = [
  'engine/core/walk.test.ts',
  'engine/codegen/js-print.test.ts',
  'engine/sql/sql-snapshots.test.ts',
  'engine/sql/sql-print.test.ts',
  'engine/sql/sql-shapes.test.ts',
  'engine/ir-random.test.ts',
];

class InOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => FILES.indexOf(relative(process.cwd(), f.moduleId));
    return [...files].sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: FILES,
    sequence: { sequencer: InOrder },
  },
});
