/**
 * Bundles the command line for a fast start (issue 23): dist/cli/ptax.js and everything it
 * imports from the engine and from commander become a few CommonJS files in dist/cli/fast/,
 * which cli/start.cts requires instead of dist/cli/ptax.js while they are not older than it. Run by
 * `npm run build` after tsc and build-rules (so always regenerated with the code it bundles).
 *
 * Why a bundle (and not a V8 startup snapshot, which was tried; see the README's start-up
 * section): resolving and loading ~60 separate modules (the engine/node.js barrel re-exports
 * everything, and commander's own files) costs more than compiling them, which the compile
 * cache already saves. A snapshot would also hold them, but it needs `node --snapshot-blob`
 * on the command line, so `npx ptax` and `node dist/cli/main.js` could not use it without a
 * second process, and it cannot hold Intl or the rule files without going stale.
 *
 * What is bundled: our own modules and pure-JS dependencies. What stays outside, loaded only
 * by the commands that need them: Node's built-ins, the database clients and native addons
 * (DuckDB, PostgreSQL, SQLite), yaml / ajv, which the engine requires lazily itself, and i18next,
 * required on the first engine message (the ptax-lazy-i18next plugin below). The
 * code reached only by a dynamic import (`rules diff`, `rules sql`, batch, validate, …) goes to
 * chunks of its own that `ptax calc` never reads. The rules are not in the bundle: the
 * compiled rule bundle (dist/rules/bundle.json) and the generated programs (dist/rules/js) are
 * read at run time as before, so a rule change needs no new bundle.
 *
 * Every `import.meta.url` in a bundled module is rewritten to the URL that module had in
 * dist/ (relative to the chunk), so the paths computed from it (the repository root, the
 * rule bundle, the generated programs) are the same as without the bundle.
 *
 *   node dist/scripts/bundle-cli.js
 */
import { builtinModules } from 'node:module';
import { readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ENTRY = join(ROOT, 'dist', 'cli', 'ptax.js');
/** The bundle's folder: every chunk is directly in it, so one relative path serves them all. */
export const FAST_DIR = join(ROOT, 'dist', 'cli', 'fast');

const SHA256 = join(ROOT, 'dist', 'cli', 'sha256.js');
const ENGINE_BUNDLE = join(ROOT, 'dist', 'engine', 'build', 'bundle.js');
const CODEGEN_JS = join(ROOT, 'dist', 'engine', 'codegen', 'js.js');
const CODEGEN_NODE = join(ROOT, 'dist', 'engine', 'codegen', 'node.js');
/** Loaded by Node from node_modules as before: native addons, database clients, and what the engine requires lazily. */
const EXTERNAL = [
  'i18next',
  'fastest-levenshtein',
  '@duckdb/node-api',
  'pg',
  'pg-copy-streams',
  'better-sqlite3',
  'yaml',
  'ajv',
  'csv-parse',
  'nodemailer',
  'fastify',
];

/**
 * A plugin that replaces, in the module `which` picks, the first of `eager` found in its code
 * by `lazy` (an import made at load time, made on first use instead); when none is found it
 * warns (the start is slower again, the output the same) and leaves the module as it is.
 */
function deferred(name: string, which: (id: string) => boolean, eager: string[], lazy: string, warning: string) {
  return {
    name,
    transform(this: { warn(message: string): void }, code: string, id: string) {
      if (!which(id)) return null;
      const found = eager.find((s) => code.includes(s));
      if (!found) {
        this.warn(warning);
        return null;
      }
      return { code: code.replace(found, lazy), map: null };
    },
  };
}

export async function bundleCli(): Promise<string[]> {
  const t0 = performance.now();
  rmSync(FAST_DIR, { recursive: true, force: true });
  const build = await rolldown({
    input: { ptax: ENTRY },
    platform: 'node',
    logLevel: 'warn',
    // The chunks of the other commands may require what the entry's chunk holds (below).
    preserveEntrySignatures: 'allow-extension',
    // The engine's modules do nothing when loaded but define what they export (the one that
    // does, engine/codegen/node.ts, is imported for it by cli/ptax.ts itself): so what the
    // engine/node.ts barrel re-exports and `calc` does not use (the rule loader, batch,
    // fixtures, jsep…) is not loaded at each start, but in the chunks of the commands that use it.
    treeshake: { moduleSideEffects: (id, external) => external || !id.startsWith(join(ROOT, 'dist', 'engine') + sep) || id === CODEGEN_NODE },
    // node:crypto is resolved by the ptax-sha256 plugin below.
    external: (id) =>
      (id.startsWith('node:') && id !== 'node:crypto') || builtinModules.includes(id) || EXTERNAL.some((x) => id === x || id.startsWith(`${x}/`)),
    plugins: [
      {
        // The engine's codegen hashes programs with node:crypto's createHash('sha256'), and
        // loading node:crypto costs ~9 ms of CPU per start: here it gets the same digest from
        // cli/sha256.ts (plain JS; cli/sha256.test.ts compares them).
        name: 'ptax-sha256',
        resolveId(source, importer) {
          if (source !== 'node:crypto' && source !== 'crypto') return null;
          return importer?.endsWith(`${sep}engine${sep}codegen${sep}js.js`) ? SHA256 : { id: source, external: true };
        },
      },
      {
        // The generated program's hash check (engine/codegen/node.ts) asks engine/build/bundle.ts
        // first: the hashes the build wrote with the split, for the objects read from it; else
        // computed (the unbundled CLI computes it: node:crypto is loaded there anyway).
        name: 'ptax-known-hash',
        transform(code, id) {
          if (id !== CODEGEN_JS) return null;
          const head = 'export function programHash(bundle, programId, year) {';
          if (!code.includes(head)) {
            this.warn('engine/codegen/js.ts programHash changed shape: the CLI hashes programs at start-up again (slower, not wrong)');
            return null;
          }
          return {
            code:
              `import { knownProgramHash as __ptaxKnownHash } from ${JSON.stringify(ENGINE_BUNDLE)};\n` +
              code.replace(head, 'function computedProgramHash(bundle, programId, year) {') +
              '\nexport function programHash(bundle, programId, year) {\n  const known = __ptaxKnownHash(bundle, programId, year);\n  return known === undefined ? computedProgramHash(bundle, programId, year) : known;\n}\n',
            map: null,
          };
        },
      },
      // commander requires node:child_process at load time (~6 ms) for the executable
      // subcommands that ptax does not have: required on first use instead. (commander 15 is
      // ESM, `import childProcess from ...`; 14 was CommonJS, `const ... = require(...)`.)
      deferred(
        'ptax-lazy-child-process',
        (id) => id.endsWith(`${sep}commander${sep}lib${sep}command.js`),
        ["import childProcess from 'node:child_process';", "const childProcess = require('node:child_process');"],
        "const childProcess = { get spawn() { return require('node:child_process').spawn; } };",
        'commander no longer requires node:child_process as expected: it is loaded at start-up again (slower, not wrong)',
      ),
      // commander 15 imports node:path, node:fs and node:process as default imports of
      // CommonJS modules, which the bundle turns into __toESM copies of each: a bound getter
      // defined for each of their ~200 properties at every start (and node:process, a module
      // of its own for the `process` global, compiled at each start). The same objects as plain
      // values instead: what commander calls on them is unchanged.
      {
        name: 'ptax-commander-builtins',
        transform(this: { warn(message: string): void }, code: string, id: string) {
          if (!id.endsWith(`${sep}commander${sep}lib${sep}command.js`)) return null;
          const imports: Array<[string, string]> = [
            ["import path from 'node:path';", "const path = require('node:path');"],
            ["import fs from 'node:fs';", "const fs = require('node:fs');"],
            ["import process from 'node:process';", 'const process = globalThis.process;'],
          ];
          if (!imports.every(([from]) => code.includes(from))) {
            this.warn(
              "commander's command.js no longer imports node:path, node:fs and node:process as expected: they are copied at start-up again (slower, not wrong)",
            );
            return null;
          }
          return { code: imports.reduce((c, [from, to]) => c.replace(from, to), code), map: null };
        },
      },
      // commander 15 tests every new Option's flags for a variadic value with
      // /\p{ID_Continue}\.\.\.[>\]]$/u, and compiling a \p{…} class builds the Unicode
      // property's set from ICU at the first Option of each start (~3 M instructions of a
      // `ptax calc`, issue 23). Flags without "..." cannot match it, and none of ptax's
      // options has one: the regular expression runs only for flags that do.
      deferred(
        'ptax-variadic-test',
        (id) => id.endsWith(`${sep}commander${sep}lib${sep}option.js`),
        ['this.variadic = /\\p{ID_Continue}\\.\\.\\.[>\\]]$/u.test(flags);'],
        "this.variadic = flags.includes('...') && /\\p{ID_Continue}\\.\\.\\.[>\\]]$/u.test(flags);",
        "commander's Option no longer tests variadic flags as expected: its Unicode property class is compiled at start-up again (slower, not wrong)",
      ),
      // i18next (~130 KB of code) makes the engine's own messages, and a `ptax calc` that
      // succeeds makes none (engine/core/messages.ts initialises it on the first message):
      // loaded from node_modules on that first message rather than with every start.
      deferred(
        'ptax-lazy-i18next',
        (id) => id.endsWith(`${sep}engine${sep}core${sep}messages.js`),
        ["import i18next from 'i18next';"],
        "const i18next = { createInstance: (...a) => require('i18next').createInstance(...a) };",
        'engine/core/messages.ts no longer imports i18next as expected: it is loaded at start-up again (slower, not wrong)',
      ),
      // fastest-levenshtein ranks the suggestions for a county not found: a `ptax calc` that
      // finds its county never calls it, but loading it runs its module code (a 256 KB
      // Uint32Array among it) at every start. Required from node_modules on the first call.
      deferred(
        'ptax-lazy-levenshtein',
        (id) => id.endsWith(`${sep}engine${sep}core${sep}counties.js`),
        ["import { distance } from 'fastest-levenshtein';"],
        "const distance = (a, b) => require('fastest-levenshtein').distance(a, b);",
        'engine/core/counties.ts no longer imports fastest-levenshtein as expected: it is loaded at start-up again (slower, not wrong)',
      ),
      // The generated programs (dist/rules/js) required through cli/start.cts requireCached
      // when it offers it: with a code cache made after the run, as the entry chunk has, so
      // that a program's `evaluate` is not compiled from source at each start.
      deferred(
        'ptax-program-code-cache',
        (id) => id === CODEGEN_NODE,
        ['const m = require(file);'],
        "const m = (globalThis[Symbol.for('ptax.requireProgram')] ?? require)(file);",
        'engine/codegen/node.ts no longer requires the programs as expected: they are compiled from source at each start again (slower, not wrong)',
      ),
      // engine/codegen/node.ts makes a require of its own at load (module.createRequire: a Module
      // object and its lookup paths), for the programs when start.cjs does not offer
      // requireCached: made on its first call instead.
      deferred(
        'ptax-lazy-program-require',
        (id) => id === CODEGEN_NODE,
        ['const require = createRequire(import.meta.url);'],
        'let __ptaxRequire;\nconst require = (id) => (__ptaxRequire ??= createRequire(import.meta.url))(id);',
        'engine/codegen/node.ts no longer makes its require as expected: it is made at start-up again (slower, not wrong)',
      ),
      {
        name: 'ptax-import-meta-url',
        transform(code, id) {
          if (!code.includes('import.meta.url')) return null;
          const rel = relative(FAST_DIR, id).split(sep).join('/');
          // The bundle is CommonJS: the chunk's own URL is its __filename's.
          // (Imported under a name of its own: a module may have a `require` of its own, as engine/codegen/node.ts has.)
          // A path made from the module's URL is made from the chunk's folder instead: the same
          // path, without a file URL built and parsed at each start (pathToFileURL, new URL and
          // fileURLToPath for the rule bundle's path, the programs' folder and the root: ~0.7 M
          // instructions, issue 23). Any other use gets the URL itself.
          const dir = JSON.stringify(posix.dirname(rel));
          const paths = code
            .replace(/fileURLToPath\(new URL\(('[^'\\]*'), import\.meta\.url\)\)/g, (_, x: string) => `__ptaxJoin(__dirname, ${dir}, ${x})`)
            .replace(/fileURLToPath\(import\.meta\.url\)/g, () => `__ptaxJoin(__dirname, ${JSON.stringify(rel)})`)
            .replace(/createRequire\(import\.meta\.url\)/g, () => `createRequire(__ptaxJoin(__dirname, ${JSON.stringify(rel)}))`);
          const head = paths === code ? '' : "import { join as __ptaxJoin } from 'node:path';\n";
          if (!paths.includes('import.meta.url')) return { code: head + paths, map: null };
          const url = `new URL(${JSON.stringify(rel)}, __ptaxFileUrl(__filename)).href`;
          return { code: `${head}import { pathToFileURL as __ptaxFileUrl } from 'node:url';\n${paths.split('import.meta.url').join(url)}`, map: null };
        },
      },
    ],
  });
  // CommonJS: Node's built-ins are then plain require()s, not ES module facades (~8 ms at each start).
  // ASCII only (non-ASCII characters of strings and regular expressions as \u escapes) and no
  // comments: a source with a character above U+00FF is decoded from UTF-8 into a two-byte
  // string at each start, and the chunk's source is read and decoded whole even with its code
  // cache (260 KB → 190 KB; about −2 M instructions of a `ptax calc`, issue 23).
  const options = {
    dir: FAST_DIR,
    format: 'cjs',
    charset: 'ascii',
    comments: false,
    entryFileNames: '[name].cjs',
    chunkFileNames: '[name]-[hash].cjs',
  } as const;
  // Then every module that a start loads (the entry's chunk and the chunks it requires, as
  // rolldown splits them by default) in one chunk: each file more to resolve, read and look
  // up in the compile cache costs at every start; the other commands' chunks require it.
  const { output: defaultChunks } = await build.generate(options);
  const startModules = new Set<string>();
  const chunks = new Map(defaultChunks.flatMap((o) => (o.type === 'chunk' ? [[o.fileName, o] as const] : [])));
  const todo = [...chunks.values()].filter((c) => c.isEntry);
  for (let c = todo.pop(); c; c = todo.pop()) {
    c.moduleIds.forEach((id) => startModules.add(id));
    todo.push(...c.imports.flatMap((f) => chunks.get(f) ?? [])); // (Node's built-ins are among the imports)
  }
  const { output } = await build.write({
    ...options,
    codeSplitting: { groups: [{ name: 'ptax-start', test: (id) => startModules.has(id), includeDependenciesRecursively: false }] },
  });
  await build.close();
  inlineRuntime(output.map((o) => o.fileName));
  cachedCommander(output.map((o) => o.fileName));
  // The entry last and newest: cli/start.cts uses the bundle only while its entry is not older than dist/cli/ptax.js.
  const now = new Date();
  utimesSync(join(FAST_DIR, 'ptax.cjs'), now, now);
  const files = output.map((o) => o.fileName);
  console.log(`bundle-cli: ${files.length} files → ${relative(ROOT, FAST_DIR)} (${Math.round(performance.now() - t0)} ms)`);
  return files;
}

/**
 * rolldown's runtime helpers (__toESM, __commonJSMin, …: 2 KB) are a chunk of their own that
 * the entry chunk requires, and requiring a file costs ~1.6 M instructions at each start (the
 * path resolved, the file read, its compile cache looked up): the entry chunk gets its own copy
 * inline. The helpers keep no state, so the other chunks' copy (they still require the file)
 * is the same code.
 */
function inlineRuntime(files: string[]): void {
  const runtime = files.find((f) => /^rolldown-runtime-[\w-]+\.cjs$/.test(f));
  if (!runtime) return;
  const entry = join(FAST_DIR, 'ptax.cjs');
  const code = readFileSync(entry, 'utf8');
  const line = `const require_rolldown_runtime = require(${JSON.stringify(`./${runtime}`)});`;
  if (!code.includes(line)) return;
  const helpers = readFileSync(join(FAST_DIR, runtime), 'utf8');
  writeFileSync(
    entry,
    code.replace(line, () => `const require_rolldown_runtime = (() => {\nconst exports = {};\n${helpers}\nreturn exports;\n})();`),
  );
}

/**
 * commander is a chunk of its own, required when a command line is not one that `ptax calc`
 * reads without it (cli/ptax.ts calcArgs: help, errors, every other command). The entry chunk
 * requires it through cli/start.cts requireCached when start.cjs offers it, so that
 * commander's functions have a code cache made after the run, as they had in the entry chunk
 * before: the other commands start no slower than they did.
 */
function cachedCommander(files: string[]): void {
  const chunk = files.find((f) => /^commander-[\w-]+\.cjs$/.test(f));
  if (!chunk) return;
  const entry = join(FAST_DIR, 'ptax.cjs');
  const code = readFileSync(entry, 'utf8');
  const call = `require(${JSON.stringify(`./${chunk}`)})`;
  if (code.split(call).length !== 2) {
    console.warn('bundle-cli: the entry chunk does not require the commander chunk once as expected: it is compiled from source (slower, not wrong)');
    return;
  }
  const cached = `(globalThis[Symbol.for("ptax.requireChunk")] ?? require)(__dirname + ${JSON.stringify(`/${chunk}`)})`;
  writeFileSync(
    entry,
    code.replace(call, () => cached),
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await bundleCli();
