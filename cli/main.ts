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
 *  3. imports the command line (cli/ptax.ts) and runs it.
 */
import module from 'node:module';

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
import('./ptax.js').then(
  (cli) => cli.run(),
  (e) => {
    process.stderr.write('ptax: internal error: ' + (e && e.message ? e.message : String(e)) + '\n');
    process.exit(1);
  },
);
