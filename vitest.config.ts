import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Mutation testing (npm run mutation) mutates engine/ and needs its tests, and for the
    // batch path (engine/batch) the batch tests in cli/.
    include: process.env.PTAX_MUTATION
      ? ['engine/**/*.test.ts', 'cli/batch.test.ts']
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
