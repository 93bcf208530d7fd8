#!/usr/bin/env node
/**
 * Writes one data package per state from the compiled rules (dist/rules/bundle.json):
 * web/src/generated/states/<CODE>.json holds the state (its counties), and only the
 * programs and parameters it uses. The app imports the package of its edition
 * (VITE_STATE, default NY) with a dynamic import, so each package is its own chunk.
 *
 * "Used" is found by walking the state: every string that names a program is taken, then
 * every string inside those programs that names a parameter. This keeps working when a
 * state file references programs in new places (e.g. `calculators`).
 *
 * Beside each package, web/src/generated/programs/<CODE>.js holds the generated JavaScript
 * of its programs (web/scripts/build-programs.mjs), and the package the hash of each program
 * and year (`generated`): the web runs a program's generated code when the two match.
 *
 * Usage: node web/scripts/build-data.mjs [bundle.json] [outDir]
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadProgramHash, programsOf } from './build-programs.mjs';
// The engine's slug rule (compiled; the bundle this script reads is built with it): a county
// whose slug its name gives is written without it, and web/src/lib/stateData.ts toBundle
// gives it back with the same function.
import { slugOf } from '../../dist/engine/core/counties.js';
import { lowerProgram, packProgram } from '../../dist/engine/core/ir.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const bundlePath = resolve(process.argv[2] ?? join(repo, 'dist/rules/bundle.json'));
const outDir = resolve(process.argv[3] ?? join(repo, 'web/src/generated/states'));
const programsDir = join(outDir, '..', 'programs');
const jsDir = join(dirname(bundlePath), 'js');

/** Every string value found anywhere in `x` (keys are not taken). */
function strings(x, out = new Set()) {
  if (typeof x === 'string') out.add(x);
  else if (Array.isArray(x)) for (const v of x) strings(v, out);
  else if (x && typeof x === 'object') for (const v of Object.values(x)) strings(v, out);
  return out;
}

/** A program's result tree without the source text of its formulas (a leaf has a string `unit`). */
function withoutSource(tree) {
  return Object.fromEntries(
    Object.entries(tree).map(([k, n]) => [k, typeof n.unit === 'string' ? { ...n, formula: { ast: n.formula.ast } } : withoutSource(n)]),
  );
}

/**
 * Context beside a result and in the county directory (issue 24): population, median taxes
 * paid and the national median rate (scripts/gen-county-facts.ts writes the file), read once.
 */
let factsCache;
function countyFacts() {
  if (factsCache === undefined) {
    const path = join(repo, 'web/content/county-facts.json');
    factsCache = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null;
  }
  return factsCache;
}

export function packageOf(bundle, code) {
  const state = bundle.states[code];
  const programs = {};
  let frontier = [...strings(state)].filter((s) => s in bundle.programs);
  // Programs may name other programs (e.g. a calculator delegating to another one).
  while (frontier.length) {
    const next = [];
    for (const id of frontier) {
      if (programs[id]) continue;
      programs[id] = bundle.programs[id];
      for (const s of strings(programs[id])) if (s in bundle.programs && !programs[s]) next.push(s);
    }
    frontier = next;
  }
  const parameters = {};
  for (const s of strings([state, programs])) if (s in bundle.parameters) parameters[s] = bundle.parameters[s];
  // Anything else the state's records may point at in future bundle sections is kept whole.
  const extra = {};
  for (const [k, v] of Object.entries(bundle)) {
    if (!['format', 'parameters', 'programs', 'states'].includes(k)) extra[k] = v;
  }
  // The declarations this edition uses: its inputs, and the result fields that are not
  // another state's detail object or another state's calculator's (smaller first load).
  const own = (calculators) => !calculators || calculators.length === 0 || calculators.some((k) => k.startsWith(`${code.toLowerCase()}.`));
  // Other states' detail objects (their state files' `detail`) are left out of this one's.
  const mine = new Set(state.detail ?? []);
  const others = new Set(
    Object.values(bundle.states)
      .flatMap((s) => s.detail ?? [])
      .filter((g) => !mine.has(g)),
  );
  const listOf = (x, key) => (Array.isArray(x) ? x : x?.[key]);
  const wrap = (x, key, list) => (Array.isArray(x) ? list : { ...x, [key]: list });
  if (extra.inputs) {
    const list = listOf(extra.inputs, 'inputs');
    if (list)
      extra.inputs = wrap(
        extra.inputs,
        'inputs',
        // The command line's flag names are not the web's.
        list
          .filter((d) => d.states?.includes(code) || (d.calculators ?? []).some((k) => k.startsWith(`${code.toLowerCase()}.`)))
          // An edition's own help where the general one speaks of other states (issue 24).
          .map(({ flag: _flag, help_by_state: byState, ...d }) => (byState?.[code] ? { ...d, help: byState[code] } : d)),
      );
  }
  if (extra.results) {
    const list = listOf(extra.results, 'fields');
    if (list)
      extra.results = wrap(
        extra.results,
        'fields',
        // Nor the command line's and the batch's names of the result fields.
        list.filter((f) => !others.has(f.group) && own(f.calculators)).map(({ cli: _cli, column: _column, ...f }) => f),
      );
  }
  // What the browser never shows is left out of the first load: the state's file, the
  // counties' FIPS codes (and the slugs their names give),
  // the descriptions of the state, its calculators, exemptions, programs and parameters,
  // and the tax-system text (the CLI, the guides' build and rules/ have them).
  const { description: _sd, file: _sf, ...stateRest } = state;
  const slimState = {
    ...stateRest,
    // A slug that follows from the name (toBundle in web/src/lib/stateData.ts puts it back) is left out.
    counties: state.counties.map(({ fips: _fips, slug, ...c }) => (slugOf(c.name) === slug ? c : { ...c, slug })),
    calculators: state.calculators.map(({ description: _kd, ...k }) => k),
    ...(state.profile
      ? { profile: { ...state.profile, tax_system: undefined, exemptions: state.profile.exemptions.map(({ description: _ed, ...e }) => e) } }
      : {}),
    ...(state.countiesMeta
      ? {
          countiesMeta: {
            ...state.countiesMeta,
            description: undefined,
            ...(state.countiesMeta.medianValue ? { medianValue: { ...state.countiesMeta.medianValue, description: undefined } } : {}),
          },
        }
      : {}),
  };
  // Nor the programs' files, nor the source text of their result formulas (the engine reads
  // their syntax trees; a step's source text is its explanation and stays).
  const slimPrograms = Object.fromEntries(
    Object.entries(programs).map(([id, { description: _d, file: _f, ...p }]) => [id, { ...p, result: withoutSource(p.result) }]),
  );
  const slimParameters = Object.fromEntries(Object.entries(parameters).map(([id, { description: _d, ...p }]) => [id, p]));
  const facts = countyFacts();
  const countyFactsOf = facts ? { countyFacts: { sources: facts.sources, national: facts.national, counties: facts.states[code] ?? {} } } : {};
  return { format: bundle.format, code, ...extra, state: slimState, programs: slimPrograms, parameters: slimParameters, ...countyFactsOf };
}

/**
 * The lowered form (engine/core/ir.ts) of the latest year of each program of a package, the
 * year the page calculates unless the visitor picks another, by `<program>@<year>`: the
 * browser reads it (web/src/lib/stateData.ts) instead of lowering the program at its first
 * calculation (issue 27: the first calculation under 50 ms on a phone). Lowered from the
 * package as the browser sees it (web/src/lib/stateData.ts toBundle: its own inputs and
 * facts), packed without the texts the package's programs hold (engine/core/ir.ts
 * packProgram). Earlier years are lowered in the browser when asked for (the package stays
 * small: each form is 2–4 KB gzip). web/src/lib/lowered.test.ts compares every form with
 * the engine's lowering of the package.
 */
export function loweredOf(pkg) {
  const { code: _code, state, programs, parameters, format, generated: _generated, ...rest } = pkg;
  const counties = state.counties.map(({ name, slug, ...c }) => ({ name, slug: slug ?? slugOf(name), ...c }));
  const bundle = { ...rest, format, parameters, programs, states: { [state.code]: { ...state, counties } } };
  const out = {};
  for (const [id, p] of Object.entries(programs)) {
    const year = p.years.at(-1);
    out[`${id}@${year}`] = packProgram(lowerProgram(bundle, id, year));
  }
  return out;
}

async function main() {
  const bundle = JSON.parse(readFileSync(bundlePath, 'utf8'));
  // engine/codegen/js.ts's hash, from the compiled engine; without it the web runs the interpreter.
  const programHash = await loadProgramHash(repo);
  for (const dir of [outDir, programsDir]) {
    mkdirSync(dir, { recursive: true });
    for (const f of readdirSync(dir)) if (f.endsWith('.json') || f.endsWith('.js')) rmSync(join(dir, f));
  }
  const written = [];
  const skipped = [];
  for (const code of Object.keys(bundle.states)) {
    const pkg = packageOf(bundle, code);
    pkg.lowered = loweredOf(pkg);
    let generated = 'no generated programs (dist/engine/codegen/js.js missing)';
    if (programHash) {
      const p = programsOf(bundle, Object.keys(pkg.programs), jsDir, programHash);
      pkg.generated = p.hashes;
      writeFileSync(join(programsDir, `${code}.js`), p.source);
      skipped.push(...p.skipped);
      generated = `${p.included.length}/${Object.keys(p.hashes).length} generated`;
    }
    writeFileSync(join(outDir, `${code}.json`), JSON.stringify(pkg));
    written.push(
      `${code} (${pkg.state.counties.length} counties, ${Object.keys(pkg.programs).length} programs, ${Object.keys(pkg.parameters).length} parameters, ${generated})`,
    );
  }
  console.log(`web data packages: ${written.join('; ')} -> ${outDir}`);
  if (skipped.length) console.log(`web: the interpreter runs ${skipped.join('; ')}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
