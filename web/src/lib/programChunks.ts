/**
 * The chunks of generated programs (web/scripts/build-programs.mjs) and the check that a
 * module belongs to the package's rules. A chunk of its own, loaded with them
 * (lib/generated.ts says when), so none of it is in the first load. The engine's runtime
 * comes from the caller: imported here, it would split the engine's modules into a chunk
 * of their own (shared by the two), which costs the first load a few hundred bytes.
 */
import type { GeneratedModuleExports, ProgramSource, Runtime } from '../../../engine/index.js';

/** A chunk of generated programs: each module's exports by `<program>@<year>`. */
export type ProgramModules = Record<string, GeneratedModuleExports>;
export type ProgramLoaders = Record<string, () => Promise<unknown>>;

const globbed = import.meta.glob('@ptax-data/programs/*.js', { import: 'default' });

/** Loaders of the generated programs by state code. */
export const defaultProgramLoaders: ProgramLoaders = Object.fromEntries(
  Object.entries(globbed).map(([path, load]) => [path.replace(/^.*\/([A-Z]{2,3})\.js$/, '$1'), load]),
);

/**
 * The generated programs whose hash is the one the package gives for that program and
 * year (the package keeps the first 16 hex digits of it: web/scripts/build-programs.mjs).
 */
export function programSource(modules: ProgramModules, hashes: Record<string, string> | undefined, runtime: Runtime): ProgramSource | undefined {
  if (!hashes) return undefined;
  return (_bundle, programId, year) => {
    const key = `${programId}@${year}`;
    const m = Object.hasOwn(modules, key) ? modules[key] : undefined;
    const want = Object.hasOwn(hashes, key) ? hashes[key] : undefined;
    const same = !!m && typeof want === 'string' && want.length >= 16 && typeof m.hash === 'string' && m.hash.startsWith(want);
    return same && m.program === programId && m.year === year ? m.make(runtime) : undefined;
  };
}

/** A state's generated programs checked against the package's hashes, or undefined (none, or the chunk failed to load). */
export async function programsFor(
  code: string,
  hashes: Record<string, string> | undefined,
  runtime: Runtime,
  loaders: ProgramLoaders = defaultProgramLoaders,
): Promise<ProgramSource | undefined> {
  const load = loaders[code];
  if (!load || !hashes) return undefined;
  try {
    const m = await load();
    return m && typeof m === 'object' ? programSource(m as ProgramModules, hashes, runtime) : undefined;
  } catch {
    return undefined;
  }
}
