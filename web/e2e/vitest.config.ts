/**
 * End-to-end suite: Playwright (library API) driving Debian's Chromium against the
 * production build (web/dist) served by the real site server (dist/web/server/main.js) on a
 * free loopback port with a temporary SQLite database. Run after `npm run build`:
 *   npx vitest run -c web/e2e/vitest.config.ts
 * One fork, files one after the other (the machine has 2 shared cores), long timeouts.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const repo = fileURLToPath(new URL('../..', import.meta.url));

export default defineConfig({
  root: repo,
  test: {
    include: ['web/e2e/**/*.e2e.test.ts'],
    environment: 'node',
    globalSetup: ['web/e2e/global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 90_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
  },
});
