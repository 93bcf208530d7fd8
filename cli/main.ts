#!/usr/bin/env node
/**
 * The `ptax` entry point (package.json `bin`). Before anything else is loaded it
 *  1. checks the Node version: an older Node gets one line naming the supported one and
 *     exit code 2, not a syntax error from a module it cannot parse. So this file keeps to
 *     syntax that old Nodes parse (no `?.`, `??`, top-level await): the check must run;
 *  2. turns on V8's compile cache (module.enableCompileCache, Node >= 22.1), so that the
 *     modules below, the generated rule programs among them, are compiled once and read
 *     from the cache afterwards (in the OS temporary folder; NODE_DISABLE_COMPILE_CACHE=1
 *     turns it off). scripts/bench-startup.ts measures the effect;
 *  3. imports the command line and runs it: the bundle of it in dist/cli/fast/ (written by
 *     scripts/bundle-cli.ts in `npm run build`: a few files instead of ~60 modules to
 *     resolve and load) while that bundle is newer than dist/cli/ptax.js, else
 *     dist/cli/ptax.js itself (after a bare `tsc`, the bundle would hold older code).
 *     PTAX_NO_BUNDLE=1 takes dist/cli/ptax.js always (cli/fast-path.test.ts compares the two).
 */
import module from 'node:module';
import { statSync } from 'node:fs';

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

if (older(process.versions.node, SUPPORTED)) {
  process.stderr.write(
    'ptax: Node ' +
      process.version +
      ' is too old: ptax needs Node ' +
      SUPPORTED +
      ' or later (in the repository, `npx ptax` uses the Node that `npm ci` installs)\n',
  );
  process.exit(2);
}
if (typeof module.enableCompileCache === 'function') module.enableCompileCache();

/** './fast/ptax.js' when the bundle is there and not older than the code it was made from, else './ptax.js'. */
function entry(): string {
  if (process.env.PTAX_NO_BUNDLE === '1') return './ptax.js';
  const fast = statSync(new URL('./fast/ptax.js', import.meta.url), { throwIfNoEntry: false });
  const slow = statSync(new URL('./ptax.js', import.meta.url), { throwIfNoEntry: false });
  return fast && (!slow || fast.mtimeMs >= slow.mtimeMs) ? './fast/ptax.js' : './ptax.js';
}

import(entry()).then(
  (cli) => cli.run(),
  (e) => {
    process.stderr.write('ptax: internal error: ' + (e && e.message ? e.message : String(e)) + '\n');
    process.exit(1);
  },
);
