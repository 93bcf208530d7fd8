import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Mutation testing (npm run mutation) mutates engine/ and needs only its tests. The
    // batch fast path (engine/batch/batch.ts, engine/batch/csv-out.ts) is left out of it: its tests are
    // in cli/ (byte-for-byte comparisons with the general path, through the CLI), too slow
    // to run per mutant, and most of its mutants only send a row the general way.
    include: process.env.PTAX_MUTATION
      ? ['engine/**/*.test.ts']
      : [
          'engine/**/*.test.ts',
          'cli/**/*.test.ts',
          'scripts/**/*.test.ts',
          'web/server/**/*.test.ts',
          'web/src/**/*.test.{ts,tsx}',
          'web/scripts/**/*.test.ts',
        ],
    // Component tests (web/src) choose happy-dom with a `// @vitest-environment happy-dom` first line.
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
