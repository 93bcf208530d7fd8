/**
 * The generated programs of one state's data package, for the web (issue 14). `npm run
 * build` writes, per program and year, a CommonJS module from the checked syntax tree
 * (dist/rules/js/<program>@<year>.cjs, engine/codegen/js.ts). This wraps the text of each
 * module the package uses, when its hash is the hash of the package's rules (programHash
 * of the bundle the package is made from), into one ES module,
 * web/src/generated/programs/<CODE>.js: a function per program whose body is the module's
 * text, run once with a `module` object when the chunk loads. A text transformation at
 * build time: nothing is made from text in the browser (no eval, no new Function; the
 * site's Content-Security-Policy, script-src 'self', would refuse them).
 *
 * The package records the hash of each of its programs and years (`generated`); the web
 * uses a program's generated code only when the module's hash is that one
 * (web/src/lib/generated.ts), and the interpreter otherwise.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** engine/codegen/js.ts's programHash, from the compiled engine (dist/), or undefined when it is not built. */
export async function loadProgramHash(repo) {
  const file = join(repo, 'dist/engine/codegen/js.js');
  return existsSync(file) ? (await import(pathToFileURL(file).href)).programHash : undefined;
}

/** The file name of a program's generated module (engine/codegen/js.ts moduleName). */
export const moduleFile = (programId, year) => `${programId}@${year}.cjs`;

/**
 * The hashes of the package's programs and years, and the ES module source holding the
 * generated modules that match them (`included`); `skipped` says why the others are not.
 * `programHash` is engine/codegen/js.ts's (from dist/).
 */
export function programsOf(bundle, programIds, jsDir, programHash) {
  const hashes = {};
  const included = [];
  const skipped = [];
  const parts = [];
  for (const id of programIds) {
    for (const year of bundle.programs[id].years) {
      const key = `${id}@${year}`;
      const hash = programHash(bundle, id, year);
      // The package keeps 16 hex digits (64 bits) of it: enough to tell rule sets apart, and a
      // quarter of the bytes in the first load; the module keeps the whole hash.
      hashes[key] = hash.slice(0, 16);
      const file = join(jsDir, moduleFile(id, year));
      if (!existsSync(file)) {
        skipped.push(`${key}: no generated module`);
        continue;
      }
      const text = readFileSync(file, 'utf8');
      const m = /^const hash = "([0-9a-f]+)";$/m.exec(text);
      if (!m || m[1] !== hash) {
        skipped.push(`${key}: generated from other rules (hash differs)`);
        continue;
      }
      if (!/^module\.exports = \{$/m.test(text) || /\brequire\s*\(/.test(text)) {
        skipped.push(`${key}: not in the expected CommonJS shape`);
        continue;
      }
      parts.push(`  ${JSON.stringify(key)}: load(function (module) {\n${text}\n}),`);
      included.push(key);
    }
  }
  const source = `// Written by web/scripts/build-programs.mjs from dist/rules/js (engine/codegen/js.ts): do not edit.
/** A CommonJS module's exports: its text, as a function of \`module\`, run once. */
function load(body) {
  const module = { exports: {} };
  body(module);
  return module.exports;
}
export default {
${parts.join('\n')}
};
`;
  return { hashes, source, included, skipped };
}
