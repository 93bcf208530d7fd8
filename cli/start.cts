#!/usr/bin/env node
/**
 * The `ptax` command (package.json `bin`; dist/cli/main.js starts it too). CommonJS on
 * purpose: an ES module entry costs ~4 ms of CPU more to start than a CommonJS one, and
 * every built-in an ES module imports gets a module facade (~8 ms for fs, path, url and
 * events), which is a large part of the start-up budget (issue 23: `ptax calc` at most 1.3×
 * `node -e 0`; scripts/bench-startup.ts). Before anything else is loaded it
 *  1. checks the Node version: an older Node gets one line naming the supported one and
 *     exit code 2, not a syntax error from a module it cannot parse. So this file keeps to
 *     syntax that old Nodes parse (no `?.`, `??`, top-level await): the check must run;
 *  2. turns on V8's compile cache (module.enableCompileCache, Node >= 22.1), so that the
 *     modules below, the generated rule programs among them, are compiled once and read
 *     from the cache afterwards (in the OS temporary folder; NODE_DISABLE_COMPILE_CACHE=1
 *     turns it off);
 *  3. runs the command line: the bundle of it in dist/cli/fast/ (CommonJS, written by
 *     scripts/bundle-cli.ts in `npm run build`: a few files instead of ~60 ES modules to
 *     resolve and link) while that bundle is not older than dist/cli/ptax.js, else
 *     dist/cli/ptax.js itself (after a bare `tsc` the bundle would hold older code).
 *     PTAX_NO_BUNDLE=1 takes dist/cli/ptax.js always (cli/fast-path.test.ts compares the two).
 */
/* eslint-disable @typescript-eslint/no-require-imports */

/** The oldest Node that ptax supports: package.json `engines` says the same (cli/main.test.ts checks). */
const SUPPORTED = '24.11';

function older(version: string, than: string): boolean {
  const a = version.split('.').map(Number);
  const b = than.split('.').map(Number);
  for (let i = 0; i < b.length; i++) {
    if ((a[i] || 0) !== b[i]) return (a[i] || 0) < (b[i] || 0);
  }
  return false;
}

function internal(e: unknown): void {
  const m = e && (e as Error).message ? (e as Error).message : String(e);
  process.stderr.write('ptax: internal error: ' + m + '\n');
  process.exit(1);
}

if (older(process.versions.node, SUPPORTED)) {
  process.stderr.write(
    'ptax: Node ' +
      process.version +
      ' is too old: ptax needs Node ' +
      SUPPORTED +
      ' or later (in the repository, `npx ptax` uses the Node that `npm ci` installs)\n',
  );
  process.exit(2);
} else {
  const nodeModule = require('node:module') as typeof import('node:module');
  if (typeof nodeModule.enableCompileCache === 'function') nodeModule.enableCompileCache();
  const { statSync } = require('node:fs') as typeof import('node:fs');
  const { join } = require('node:path') as typeof import('node:path');
  const fast = join(__dirname, 'fast', 'ptax.cjs');
  const bundleIsFresh = (): boolean => {
    if (process.env.PTAX_NO_BUNDLE === '1') return false;
    const f = statSync(fast, { throwIfNoEntry: false });
    const s = statSync(join(__dirname, 'ptax.js'), { throwIfNoEntry: false });
    return !!f && (!s || f.mtimeMs >= s.mtimeMs);
  };
  if (bundleIsFresh()) {
    let cli: { run(): Promise<void> } | undefined;
    try {
      cli = require(fast) as { run(): Promise<void> };
    } catch (e) {
      internal(e);
    }
    if (cli) cli.run().catch(internal);
  } else {
    import('./ptax.js').then((cli) => cli.run(), internal);
  }
}
