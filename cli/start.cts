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
 *     resolve and link; its entry chunk with a code cache made after the run, requireCached
 *     below) while that bundle is not older than dist/cli/ptax.js, else
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
  // Node's built-ins by process.getBuiltinModule (Node >= 22.3, so after the check above): the
  // same objects as require('node:…') gives, without a trip through the module loader (its
  // resolution, its diagnostics channel) for each (issue 23).
  const builtin = process.getBuiltinModule;
  const nodeModule = builtin('node:module');
  if (typeof nodeModule.enableCompileCache === 'function') nodeModule.enableCompileCache(compileCacheDir());
  const { statSync } = builtin('node:fs');
  const { join } = builtin('node:path');
  const fast = join(__dirname, 'fast', 'ptax.cjs');

  /**
   * A CommonJS file of ptax's own, as `require(file)` gives it, but compiled with a V8 code
   * cache made at the end of a run (issue 23): the bundle's entry chunk, and the generated
   * rule programs (dist/rules/js, through the hook below). Node's compile cache (above) is made
   * right after a module is compiled, so it holds the code of the functions that run while the
   * module loads and not of those that run later: every start compiled commander's parsing,
   * the calculation, the table and a program's `evaluate` again from source (~30 M
   * instructions of a `ptax calc`). Here the file is compiled through vm.Script and, when there
   * was no usable cache, the cache is made when the process exits (script.createCachedData:
   * every function compiled so far; after a run that exited 0) and written to Node's compile
   * cache folder, one file per command (`calc`, `counties`, …: each keeps the code it runs),
   * named `<prefix>-<path hash>-<command>.bin` and headed by the file's size and time: a
   * rebuilt file replaces it. V8 refuses a cache made by another Node or for another source
   * length (then it is made again). Without the compile cache (NODE_DISABLE_COMPILE_CACHE=1,
   * or no folder), a plain require. The module is put in require.cache, so that a later
   * require of the file (the other chunks' require('./ptax.cjs')) gets the same one.
   */
  function requireCached(file: string, prefix: string): unknown {
    const dir = typeof nodeModule.getCompileCacheDir === 'function' ? nodeModule.getCompileCacheDir() : undefined;
    if (!dir) return require(file);
    const known = require.cache[file];
    if (known) return known.exports;
    const fs = builtin('node:fs');
    const vm = builtin('node:vm');
    const { dirname } = builtin('node:path');
    const source = fs.readFileSync(file, 'utf8');
    const st = fs.statSync(file);
    const stamp = 'ptax ' + st.size + ' ' + st.mtimeMs + '\n';
    const command = /^[a-z][a-z0-9-]{0,15}$/.test(process.argv[2] || '') ? process.argv[2] : '-';
    const cacheFile = join(dir, prefix + '-' + hash(file) + '-' + command + '.bin');
    let cached: Buffer | undefined;
    try {
      const data = fs.readFileSync(cacheFile);
      if (data.subarray(0, stamp.length).toString('latin1') === stamp) cached = data.subarray(stamp.length);
    } catch {
      cached = undefined;
    }
    const script = new vm.Script(nodeModule.wrap(source), {
      filename: file,
      cachedData: cached,
      importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    const Module = nodeModule.Module as unknown as {
      new (id: string, parent?: unknown): NodeJS.Module & { paths: string[]; loaded: boolean };
      _nodeModulePaths(dir: string): string[];
    };
    const m = new Module(file, module);
    m.filename = file;
    m.paths = Module._nodeModulePaths(dirname(file));
    require.cache[file] = m;
    try {
      (script.runInThisContext() as (...a: unknown[]) => void).call(m.exports, m.exports, requireFor(file), m, file, dirname(file));
    } catch (e) {
      delete require.cache[file];
      throw e;
    }
    m.loaded = true;
    if (cached === undefined || script.cachedDataRejected) {
      // After a run that succeeded: one that stopped at an error (a misspelt county) did not
      // compile what a calculation runs, and its cache would be used as it is from then on.
      // (One 'exit' listener for every file: `ptax test` loads a program module per program and year.)
      if (toWrite.length === 0)
        process.once('exit', (code) => {
          if (code !== 0) return;
          for (const write of toWrite) write();
        });
      toWrite.push(() => {
        try {
          const tmp = cacheFile + '.' + process.pid;
          fs.writeFileSync(tmp, Buffer.concat([Buffer.from(stamp, 'latin1'), script.createCachedData()]));
          fs.renameSync(tmp, cacheFile);
        } catch {
          // A folder that cannot be written: the next start compiles from source again.
        }
      });
    }
    return m.exports;
  }
  /**
   * The folder Node's compile cache takes by default (NODE_COMPILE_CACHE, else
   * node-compile-cache in the OS temporary folder), given to it so that it does not load
   * node:os for os.tmpdir() at each start (~0.5 M instructions, issue 23): on POSIX, the
   * folder that libuv's uv_os_tmpdir names (TMPDIR, TMP, TEMP, TEMPDIR, else /tmp, without a
   * trailing slash). On Windows, undefined: Node's own default.
   */
  function compileCacheDir(): string | undefined {
    const env = process.env;
    if (env.NODE_COMPILE_CACHE) return env.NODE_COMPILE_CACHE;
    if (process.platform === 'win32') return undefined;
    let tmp = env.TMPDIR || env.TMP || env.TEMP || env.TEMPDIR || '/tmp';
    if (tmp.length > 1 && tmp.charAt(tmp.length - 1) === '/') tmp = tmp.slice(0, -1);
    return tmp + '/node-compile-cache';
  }
  /**
   * The `require` of a file that requireCached runs: Node's built-ins (`node:…`, all that the
   * entry chunk requires when it loads) by process.getBuiltinModule, anything else by the
   * require that module.createRequire makes for the file, made on the first such call (a
   * Module object and its lookup paths: not needed by `ptax calc` of one property). With
   * NODE_DEBUG=module, everything through that require, so that the loader's log names the
   * file as the parent of each module it requires, as before (cli/fast-path.test.ts reads it).
   */
  function requireFor(file: string): NodeJS.Require {
    if ((process.env.NODE_DEBUG || '').indexOf('module') !== -1) return nodeModule.createRequire(file);
    let made: NodeJS.Require | undefined;
    const req = (id: string): unknown => {
      if (id.slice(0, 5) === 'node:') return builtin(id);
      if (made === undefined) made = nodeModule.createRequire(file);
      return made(id);
    };
    return req as NodeJS.Require;
  }
  /** The code caches to write when the process exits (requireCached). */
  const toWrite: Array<() => void> = [];
  /**
   * The bundle's generated-program loader (engine/codegen/node.ts, as scripts/bundle-cli.ts
   * rewrites it) requires the programs through here: `ptaxrule-<path hash>-<command>.bin`.
   */
  (globalThis as Record<symbol, unknown>)[Symbol.for('ptax.requireProgram')] = (file: string) => requireCached(file, 'ptaxrule');
  /** The bundle's commander chunk (scripts/bundle-cli.ts cachedCommander) is required through here: `ptax-<path hash>-<command>.bin`. */
  (globalThis as Record<symbol, unknown>)[Symbol.for('ptax.requireChunk')] = (file: string) => requireCached(file, 'ptax');
  /** FNV-1a of a path: the cache file's name. */
  function hash(text: string): string {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
    return h.toString(16);
  }
  const bundleIsFresh = (): boolean => {
    if (process.env.PTAX_NO_BUNDLE === '1') return false;
    const f = statSync(fast, { throwIfNoEntry: false });
    const s = statSync(join(__dirname, 'ptax.js'), { throwIfNoEntry: false });
    return !!f && (!s || f.mtimeMs >= s.mtimeMs);
  };
  if (bundleIsFresh()) {
    let cli: { run(): Promise<void> } | undefined;
    try {
      cli = requireCached(fast, 'ptax') as { run(): Promise<void> };
    } catch (e) {
      internal(e);
    }
    if (cli) cli.run().catch(internal);
  } else {
    import('./ptax.js').then((cli) => cli.run(), internal);
  }
}
