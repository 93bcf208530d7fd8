import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import LongestFirst from './scripts/test-sequencer.js';

/** Every unit, property, differential, CLI, server and component test file. */
const ALL = [
  'engine/**/*.test.ts',
  'cli/**/*.test.ts',
  'scripts/**/*.test.ts',
  'web/server/**/*.test.ts',
  'web/src/**/*.test.{ts,tsx}',
  'web/scripts/**/*.test.ts',
];
/**
 * The files that need a module graph of their own: they spy on or mock modules (vi.spyOn,
 * vi.mock), fake timers or stub globals and the environment, assert what a module-level cache
 * does on its first use, or run in happy-dom (the components).
 */
const ISOLATED = [
  'engine/build/yaml-disk-cache.test.ts',
  'engine/core/calculate-cache.test.ts',
  'engine/core/compile-lazy.test.ts',
  'web/scripts/compress.test.ts',
  'web/src/components/**/*.test.{ts,tsx}',
  'web/src/i18n/**/*.test.{ts,tsx}',
  'web/src/lib/telemetry/**/*.test.ts',
];

export default defineConfig({
  // The web's generated data (web/vite.config.ts `@ptax-data/`): every state's in tests.
  resolve: { alias: [{ find: /^@ptax-data\//, replacement: fileURLToPath(new URL('web/src/generated/', import.meta.url)) }] },
  test: {
    // Mutation testing (npm run mutation) mutates engine/ and needs its tests, and for the
    // batch path (engine/batch) the batch tests in cli/.
    // The root's own files only for mutation testing; otherwise the projects below choose.
    ...(process.env.PTAX_MUTATION ? { include: ['engine/**/*.test.ts', 'cli/batch.test.ts'] } : {}),
    // Two projects (not for mutation testing, which runs its own selection): most files share
    // one process per worker (`isolate: false`: the engine, the rules and vitest's runtime are
    // loaded once per worker instead of once per file: ~0.3 s of CPU per file less, and the
    // shared imports), the files that spy on modules, fake timers, stub the environment or
    // assert a first use of a module-level cache keep a fresh module graph each (ISOLATED).
    // A new test file of that kind goes in ISOLATED; `npx vitest run --sequence.shuffle.files`
    // finds one that was missed (it passes alone and fails after another file).
    projects: process.env.PTAX_MUTATION
      ? undefined
      : [
          { extends: true, test: { name: 'shared', include: ALL, exclude: ISOLATED, isolate: false } },
          { extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true } },
        ],
    // PTAX_CPU_REPORT=<file>: each test file's CPU seconds appended to it (scripts/cpu-report.ts).
    ...(process.env.PTAX_CPU_REPORT ? { runner: './scripts/cpu-report.ts' } : {}),
    // Component tests (web/src) choose happy-dom with a `// @vitest-environment happy-dom` first line.
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The longest files first (scripts/test-sequencer.ts), also in a clean clone without vitest's cache.
    sequence: { sequencer: LongestFirst },
    // Two files at a time. Vitest's default for `vitest run` is one worker fewer than the
    // cores (os.availableParallelism() - 1), which on this 2-core machine is ONE: the files
    // ran one after the other (reports/vitest.json of a clean-clone run: no two files
    // overlapped) while most of them are a single busy thread. The files are independent:
    // each writes only under its own mkdtemp folder, servers (site, PostgreSQL, SMTP) listen
    // on free ports. PTAX_VITEST_WORKERS overrides (e.g. 1 to reproduce the old order).
    maxWorkers: Number(process.env.PTAX_VITEST_WORKERS ?? Math.max(2, availableParallelism())),
  },
});
