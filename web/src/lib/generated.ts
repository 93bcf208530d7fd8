/**
 * The generated programs in the web (issue 14). `npm run build` compiles each program and
 * year of the rules to JavaScript (engine/codegen/js.ts); web/scripts/build-programs.mjs
 * puts those of the edition's data package into their own chunk
 * (web/src/generated/programs/<CODE>.js), and the package records the hash of each program
 * and year it holds. The calculator runs a program's generated code when the module's hash
 * is the package's, and the interpreter otherwise (a missing or failed chunk, a package
 * written from other rules).
 *
 * When: the chunk is asked for the second time the edition's engine is used (model.ts
 * `calculator`), when the browser is idle, and the uses after its arrival run it. Not with
 * the page: the interpreter is in the first load anyway (engine/index.ts gives the web one
 * Calculator, which compiles every program, and the tools call it synchronously), so the
 * generated code before the first result would only add to the JavaScript budget (about
 * 4.5 KB gzip for Texas; README, web budgets) and make that result no faster.
 *
 * Both give the same figures, notes and explanation: the generated code writes each step's
 * value back to the step's slot when asked for the explanation (keepSteps), which is where
 * the explanation reads it; lib/generated.test.ts compares the two for every county of
 * every edition.
 */
import { runtime, type Bundle, type GeneratedModuleExports, type ProgramSource } from '../../../engine/index.js';

/** A chunk of generated programs: each module's exports by `<program>@<year>`. */
export type ProgramModules = Record<string, GeneratedModuleExports>;

/** The generated programs whose hash is the one the package gives for that program and year. */
export function programSource(modules: ProgramModules, hashes: Record<string, string> | undefined): ProgramSource | undefined {
  if (!hashes) return undefined;
  return (_bundle, programId, year) => {
    const key = `${programId}@${year}`;
    const m = Object.hasOwn(modules, key) ? modules[key] : undefined;
    const want = Object.hasOwn(hashes, key) ? hashes[key] : undefined;
    return m && want !== undefined && m.hash === want && m.program === programId && m.year === year ? m.make(runtime) : undefined;
  };
}

const sources = new WeakMap<Bundle, ProgramSource>();
const loaders = new WeakMap<Bundle, () => Promise<ProgramSource | undefined>>();
const loading = new WeakMap<Bundle, Promise<ProgramSource | undefined>>();

/** Gives a bundle its generated programs. */
export function attachPrograms(bundle: Bundle, source: ProgramSource | undefined): void {
  if (source) sources.set(bundle, source);
  else sources.delete(bundle);
}

/** How to load a bundle's generated programs when they are wanted (stateData.ts). */
export function deferPrograms(bundle: Bundle, load: () => Promise<ProgramSource | undefined>): void {
  loaders.set(bundle, load);
}

/** The generated programs given to this bundle, if any: the interpreter runs the others. */
export function programsOf(bundle: Bundle): ProgramSource | undefined {
  return sources.get(bundle);
}

/**
 * Loads a bundle's generated programs (once; later calls share the first), attaches them
 * and resolves to them; undefined when the bundle has none or they fail to load.
 */
export function loadProgramsOf(bundle: Bundle): Promise<ProgramSource | undefined> {
  const have = sources.get(bundle);
  if (have) return Promise.resolve(have);
  let p = loading.get(bundle);
  if (!p) {
    const load = loaders.get(bundle);
    p = load
      ? load().then(
          (source) => {
            attachPrograms(bundle, source);
            return source;
          },
          () => undefined,
        )
      : Promise.resolve(undefined);
    loading.set(bundle, p);
  }
  return p;
}
