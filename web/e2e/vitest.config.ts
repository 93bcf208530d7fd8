/**
 * End-to-end suite: Playwright (library API) driving Debian's Chromium against the
 * production build (web/dist) served by the real site server (dist/web/server/main.js) on a
 * free loopback port with a temporary SQLite database. Run after `npm run build`:
 *   npx vitest run -c web/e2e/vitest.config.ts
 * Two forks, two files at a time (PTAX_E2E_WORKERS=1: one after the other), long timeouts;
 * scripts/test runs it beside the unit tests (vitest.config.ts).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import LongestFirst from '../../scripts/test-sequencer.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));

export default defineConfig({
  root: repo,
  // Its own cache folder (vitest's results.json: the files' durations and failures):
  // scripts/test runs this suite beside the unit tests, and two vitest processes writing
  // one results.json at the same time could leave it half written.
  cacheDir: 'node_modules/.vite-e2e',
  test: {
    include: ['web/e2e/**/*.e2e.test.ts'],
    environment: 'node',
    globalSetup: ['web/e2e/global-setup.ts'],
    // 180 s: scripts/test runs this suite beside vitest's two workers; at load 18 the axe
    // scan of site.e2e.test.ts went past 90 s (about 30 s on its own at lower load).
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // The longest files first (scripts/test-sequencer.ts), also in a clean clone without vitest's cache.
    sequence: { sequencer: LongestFirst },
    // Two files at a time (PTAX_E2E_WORKERS): a file spends most of its time waiting on its
    // browser and the server (about 226 s of CPU in 470 s alone), so the second core is
    // otherwise idle once vitest is done. Each file has its own browser; the files that need
    // a server of their own (mail) start one.
    maxWorkers: Math.max(1, Number(process.env.PTAX_E2E_WORKERS ?? 2)),
    fileParallelism: Number(process.env.PTAX_E2E_WORKERS ?? 2) > 1,
  },
});
