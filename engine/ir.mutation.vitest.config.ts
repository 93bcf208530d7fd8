/**
 * Mutation testing of the lowered form's walker and printer (issue 27): `npm run mutation
 * -- --configFile stryker.ir.json`. Only the tests that reach them, so that a run on two busy
 * cores takes minutes, not an hour (the whole engine's run: stryker.config.json).
 */
import { defineConfig } from 'vitest/config';
import base from '../vitest.config.js';

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      'engine/ir-random.test.ts',
      'engine/core/expr.test.ts',
      'engine/core/expr-closures.test.ts',
      'engine/core/conditions.test.ts',
      'engine/core/compile.test.ts',
      'engine/differential.test.ts',
    ],
  },
});
