/**
 * The generated programs in the web (issue 14). `npm run build` compiles each program and
 * year of the rules to JavaScript (engine/codegen/js.ts); web/scripts/build-programs.mjs
 * puts those of the edition's data package into their own chunk
 * (web/src/generated/programs/<CODE>.js), and the package records the hash of each program
 * and year it holds (lib/programChunks.ts, itself a chunk loaded with them). The calculator runs a program's generated code when the module's hash
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
import type { Bundle, ProgramSource } from '../../../engine/index.js';

const loaders = new WeakMap<Bundle, () => Promise<ProgramSource | undefined>>();
const loaded = new WeakMap<Bundle, Promise<ProgramSource | undefined>>();

/** How to load a bundle's generated programs when they are wanted (stateData.ts). */
export function deferPrograms(bundle: Bundle, load: () => Promise<ProgramSource | undefined>): void {
  loaders.set(bundle, load);
}

/**
 * Loads a bundle's generated programs (once; later calls share the first); undefined when
 * the bundle has none or they fail to load.
 */
export function loadProgramsOf(bundle: Bundle): Promise<ProgramSource | undefined> {
  let p = loaded.get(bundle);
  if (!p) {
    const load = loaders.get(bundle);
    p = load ? load().catch(() => undefined) : Promise.resolve(undefined);
    loaded.set(bundle, p);
  }
  return p;
}
