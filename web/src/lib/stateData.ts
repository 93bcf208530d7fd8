/**
 * The edition's state data package: the state (its counties), and the programs and
 * parameters it uses, written by web/scripts/build-data.mjs from the compiled rules.
 * Each package is its own chunk, loaded by dynamic import. If the edition's package
 * cannot be loaded, the Texas package is loaded instead (seed 000 §1, seed 001 §1).
 */
import type { Bundle, ParameterDef, ProgramDef, StateDef } from '../../../engine/index.js';

export interface StatePackage {
  format: 1;
  code: string;
  state: StateDef;
  programs: Record<string, ProgramDef>;
  parameters: Record<string, ParameterDef>;
}

export type PackageLoaders = Record<string, () => Promise<unknown>>;

/** The state whose package is loaded when the edition's own fails (seed 000 §1). */
export const FALLBACK_STATE = 'TX';

/** The edition, fixed at build time (VITE_STATE, default NY for this edition). */
export const EDITION: string = (import.meta.env.VITE_STATE || 'NY').toUpperCase();

const globbed = import.meta.glob('../generated/states/*.json', { import: 'default' });

/** Loaders by state code, one per generated package. */
export const defaultLoaders: PackageLoaders = Object.fromEntries(
  Object.entries(globbed).map(([path, load]) => [path.replace(/^.*\/([A-Z]{2,3})\.json$/, '$1'), load]),
);

function check(pkg: unknown, code: string): StatePackage {
  const p = pkg as StatePackage | undefined;
  if (!p || typeof p !== 'object' || !p.state || !Array.isArray(p.state.counties) || !p.programs) {
    throw new Error(`State data package ${code} is malformed`);
  }
  return p;
}

async function loadOne(code: string, loaders: PackageLoaders): Promise<StatePackage> {
  const load = loaders[code];
  if (!load) throw new Error(`No state data package for ${code}`);
  return check(await load(), code);
}

export interface LoadedState {
  pkg: StatePackage;
  bundle: Bundle;
  fellBack: boolean;
  requested: string;
}

/** Loads the edition's package, or the Texas one when that fails. */
export async function loadStateData(code: string = EDITION, loaders: PackageLoaders = defaultLoaders): Promise<LoadedState> {
  try {
    const pkg = await loadOne(code, loaders);
    return { pkg, bundle: toBundle(pkg), fellBack: false, requested: code };
  } catch (first) {
    if (code === FALLBACK_STATE) throw first;
    const pkg = await loadOne(FALLBACK_STATE, loaders);
    return { pkg, bundle: toBundle(pkg), fellBack: true, requested: code };
  }
}

/** The engine's Bundle shape made of one package. */
export function toBundle(pkg: StatePackage): Bundle {
  const { code: _code, state, programs, parameters, format, ...rest } = pkg;
  return { ...rest, format, parameters, programs, states: { [state.code]: state } } as Bundle;
}
