/**
 * Loads the generated program modules (dist/rules/js/<program>@<year>.cjs, written by
 * `npm run build`) in Node, for the CLI and the batch path. A module is used only when the
 * hash in it is the hash of the program and parameters the calculator has (the bundle, or
 * the YAML when a rule file is newer than the build); otherwise the interpreter runs it.
 * Importing this module makes it the default for every Calculator (cli/ptax.ts does).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setProgramSource, type ProgramSource } from '../core/calculate.js';
import { moduleName, programHash } from './js.js';
import { runtime, type GeneratedModuleExports } from './runtime.js';

const here = dirname(fileURLToPath(import.meta.url));
/**
 * dist/rules/js, from the compiled engine (dist/engine/codegen, its rules/bundle.json two
 * folders up, whatever the build folder is called) or from the sources (engine/codegen,
 * under vitest). It was chosen by a folder named `dist` in the path: a build copied to a
 * folder of another name found no generated program and ran every row in the interpreter
 * (about 3× slower for a batch), without a word.
 */
export const GENERATED_DIR = generatedDir(here);

export function generatedDir(from: string): string {
  return existsSync(join(from, '..', '..', 'rules', 'bundle.json')) ? join(from, '..', '..', 'rules', 'js') : join(from, '..', '..', 'dist', 'rules', 'js');
}

const require = createRequire(import.meta.url);

/** The generated programs in `dir` that match the rules they are asked for. */
export function nodeProgramSource(dir = GENERATED_DIR): ProgramSource {
  return (bundle, programId, year) => {
    const file = join(dir, moduleName(programId, year));
    if (!existsSync(file)) return undefined;
    const m = require(file) as GeneratedModuleExports;
    if (m.hash !== programHash(bundle, programId, year)) return undefined;
    return m.make(runtime);
  };
}

setProgramSource(nodeProgramSource());
