/**
 * The edition's state data package: the state (its counties), and the programs and
 * parameters it uses, written by web/scripts/build-data.mjs from the compiled rules.
 * Each package is its own file, fetched as JSON in the browser (below). If the edition's package
 * cannot be loaded, the Texas package is loaded instead (seed 000 §1, seed 001 §1).
 * The generated JavaScript of the package's programs is a chunk of its own, loaded when the
 * engine is used a second time (lib/generated.ts); without it the interpreter calculates.
 */
import { runtime, slugOf, type Bundle, type PackedProgramIR, type ParameterDef, type ProgramDef, type StateDef } from '../../../engine/index.js';
import { deferPrograms } from './generated.js';
import { setLowered } from './lowered.js';

export interface StatePackage {
  format: 1;
  code: string;
  state: StateDef;
  programs: Record<string, ProgramDef>;
  parameters: Record<string, ParameterDef>;
  /** The hash of each program and year the package holds (`<program>@<year>`; engine/codegen/js.ts programHash, its first 16 hex digits). */
  generated?: Record<string, string>;
  /** Context of the counties (web/content/county-facts.json, issue 24). */
  countyFacts?: CountyFactsPackage;
  /** The lowered form of the latest year of each program, by `<program>@<year>` (web/scripts/build-data.mjs loweredOf; engine/core/ir.ts packProgram). */
  lowered?: Record<string, PackedProgramIR>;
}

/** Population and median taxes paid per county, the national median rate, and their sources (scripts/gen-county-facts.ts). */
export interface CountyFactsPackage {
  sources: { population: { title: string; href: string }; taxes: { title: string; href: string } };
  national: { medianRate: number; counties: number };
  /** County name → [population, median real estate taxes paid (dollars), taxes top-coded ($10,000 or more)]. */
  counties: Record<string, [number | null, number | null, boolean]>;
}

export type PackageLoaders = Record<string, () => Promise<unknown>>;

/** The state whose package is loaded when the edition's own fails (seed 000 §1). */
export const FALLBACK_STATE = 'TX';

import { EDITION } from './edition.js';
export { EDITION };

/**
 * In the browser's production build each package is a JSON file (its hashed name under
 * /assets/, compressed like the scripts) that the page fetches and parses as data: it is
 * not part of the JavaScript a first visit downloads, parses and runs (issue 28: Texas's
 * 254 counties are 29 KB gzip). Elsewhere (the pre-render, tests, the development server)
 * each package is an imported module, as before. `import.meta.env` is known at build
 * time, so the production build holds only the URLs.
 */
const fetchInBrowser = import.meta.env.PROD && !import.meta.env.SSR;
const globbed: Record<string, () => Promise<unknown>> = fetchInBrowser
  ? Object.fromEntries(
      Object.entries(import.meta.glob('@ptax-data/states/*.json', { query: '?url', import: 'default', eager: true }) as Record<string, string>).map(
        ([path, url]) => [path, () => fetchPackage(url)],
      ),
    )
  : import.meta.glob('@ptax-data/states/*.json', { import: 'default' });

async function fetchPackage(url: string): Promise<unknown> {
  const r = await fetch(url, { credentials: 'same-origin' });
  if (!r.ok) throw new Error(`State data package ${url}: HTTP ${r.status}`);
  return r.json();
}

/** Loaders by state code, one per generated package. */
export const defaultLoaders: PackageLoaders = Object.fromEntries(
  Object.entries(globbed).map(([path, load]) => [path.replace(/^.*\/([A-Z]{2,3})\.json(\?.*)?$/, '$1'), load]),
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

/**
 * Loads the edition's package, or the Texas one when that fails. Its generated programs
 * are loaded when first wanted (lib/generated.ts loadProgramsOf), from `programLoaders`
 * (default: the build's chunks, lib/programChunks.ts).
 */
export async function loadStateData(code: string = EDITION, loaders: PackageLoaders = defaultLoaders, programLoaders?: PackageLoaders): Promise<LoadedState> {
  const ready = (pkg: StatePackage, fellBack: boolean): LoadedState => {
    const bundle = toBundle(pkg);
    deferPrograms(bundle, () => import('./programChunks.js').then((m) => m.programsFor(pkg.state.code, pkg.generated, runtime, programLoaders)));
    return { pkg, bundle, fellBack, requested: code };
  };
  try {
    return ready(await loadOne(code, loaders), false);
  } catch (first) {
    if (code === FALLBACK_STATE) throw first;
    return ready(await loadOne(FALLBACK_STATE, loaders), true);
  }
}

/** The engine's Bundle shape made of one package (each county with its slug: the package leaves out those its name gives, engine slugOf). */
export function toBundle(pkg: StatePackage): Bundle {
  const { code: _code, state, programs, parameters, format, generated: _generated, lowered, ...rest } = pkg;
  const counties = state.counties.map(({ name, slug, ...c }) => ({ name, slug: (slug as string | undefined) ?? slugOf(name), ...c }));
  const bundle = { ...rest, format, parameters, programs, states: { [state.code]: { ...state, counties } } } as Bundle;
  if (lowered) setLowered(bundle, lowered);
  return bundle;
}
