import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The web's generated data (web/vite.config.ts `@ptax-data/`): every state's in tests.
  resolve: { alias: [{ find: /^@ptax-data\//, replacement: fileURLToPath(new URL('web/src/generated/', import.meta.url)) }] },
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
    // PTAX_CPU_REPORT=<file>: each test file's CPU seconds appended to it (scripts/cpu-report.ts).
    setupFiles: process.env.PTAX_CPU_REPORT ? ['scripts/cpu-report.ts'] : [],
    // Component tests (web/src) choose happy-dom with a `// @vitest-environment happy-dom` first line.
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time. Vitest's default for `vitest run` is one worker fewer than the
    // cores (os.availableParallelism() - 1), which on this 2-core machine is ONE: the files
    // ran one after the other (reports/vitest.json of a clean-clone run: no two files
    // overlapped) while most of them are a single busy thread. The files are independent:
    // each writes only under its own mkdtemp folder, servers (site, PostgreSQL, SMTP) listen
    // on free ports. PTAX_VITEST_WORKERS overrides (e.g. 1 to reproduce the old order).
    maxWorkers: Number(process.env.PTAX_VITEST_WORKERS ?? Math.max(2, availableParallelism())),
  },
});
