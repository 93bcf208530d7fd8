/**
 * Build-time loading of the rule files: strict YAML, JSON Schema (ajv, strict mode), and
 * the checks a schema cannot express. Produces the Bundle that `ptax calc` reads as
 * JSON. Nothing here is on the calculation's hot path.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { readYaml, formatProblem, type Problem, type YamlSource } from './yaml-source.js';
import { desugarProgram, parseCondition, type SugarContext } from './sugar.js';
import { isPrimarySource, sourceWarning } from './sources.js';
import { conditionFacts } from '../core/conditions.js';
import { exprNames } from '../core/expr.js';
import { COUNTY_FACTS, type Bundle, type ParameterDef, type Reference, type StateDef } from '../core/types.js';
import { PtaxError } from '../core/errors.js';

import { KINDS, SCHEMA_LINE, listYaml, schemaProblems, schemaValidators, type Kind } from './schema.js';
import { factTable } from '../core/registry.js';
import { checkAscending, checkInputs, checkParameter, checkProgram, checkResults, descriptionFigures } from './checks.js';

/**
 * `problems` are those under `only` (all when not given); `total` counts every file's.
 * `warnings` (under `only` too) do not stop the bundle: citations of hosts that are not
 * primary sources (engine/build/sources.ts). `lint` (under `only` too) does not stop the bundle
 * either, but `ptax validate` reports it as problems: descriptions that repeat a figure of
 * their parameter (an older tree, which `rules diff` loads, may predate the check).
 */
export interface LoadResult {
  bundle?: Bundle;
  problems: Problem[];
  total: number;
  warnings: Problem[];
  lint: Problem[];
}

export class RulesInvalid extends PtaxError {
  constructor(readonly problems: Problem[]) {
    super('RULES_INVALID', problems.map(formatProblem).join('\n'));
  }
}

/** Reads and validates every rule file; returns the bundle only when there is no problem. */
export function loadRules(rulesDir = 'rules', options: { only?: string[]; root?: string } = {}): LoadResult {
  const root = resolve(options.root ?? process.cwd());
  const files = listYaml(resolve(root, rulesDir), root);
  const v = schemaValidators(join(root, 'schemas'));
  const problems: Problem[] = [];
  const sources: Array<{ src: YamlSource; kind: Kind }> = [];
  // Ids declared by files that failed, from their raw data: not reported again as missing.
  const failing = new Set<string>();
  for (const file of files) {
    const src = readYaml(file, readFileSync(join(root, file), 'utf8'));
    problems.push(...src.problems);
    const first = src.text.split('\n', 1)[0]!;
    const m = SCHEMA_LINE.exec(first);
    if (!m) problems.push({ file, line: 1, col: 1, message: 'the first line must be "# yaml-language-server: $schema=<path to schemas/…schema.json>"' });
    if (src.data === undefined) {
      declareIds(failing, src.raw);
      continue;
    }
    const kind = (src.data as { kind?: unknown })?.kind;
    if (!KINDS.includes(kind as Kind)) {
      const at = src.position(['kind']);
      problems.push({ file, line: at.line, col: at.col, message: `kind must be one of ${KINDS.join(', ')}` });
      continue;
    }
    if (m) {
      const want = resolve(root, 'schemas', `${kind}.schema.json`);
      if (resolve(root, dirname(file), m[1]!) !== want)
        problems.push({
          file,
          line: 1,
          col: 1,
          message: `$schema should point to ${relative(resolve(root, dirname(file)), want)
            .split(sep)
            .join('/')}`,
        });
    }
    const validate = v[kind as Kind];
    if (!validate) {
      problems.push({ file, line: 1, col: 1, message: `schemas/${kind}.schema.json is missing` });
      continue;
    }
    if (!validate(src.data)) {
      problems.push(...schemaProblems(src, validate.errors!));
      declareIds(failing, src.data);
    } else sources.push({ src, kind: kind as Kind });
  }
  // Files that passed the schema are still checked against each other, so every problem
  // is reported at once; ids declared by a failing file are not reported again as missing.
  const warnings: Problem[] = [];
  const lint: Problem[] = [];
  const bundle = assemble(sources, problems, failing, warnings, lint);
  const seen = new Set<string>();
  const unique = problems.filter((p) => {
    const k = formatProblem(p);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  const shown = filterOnly(unique, options.only, root);
  const warned = filterOnly(warnings, options.only, root);
  const linted = filterOnly(lint, options.only, root);
  return unique.length
    ? { problems: shown, total: unique.length, warnings: warned, lint: linted }
    : { bundle, problems: [], total: 0, warnings: warned, lint: linted };
}

/**
 * Adds the ids a file that failed meant to declare (best effort, from its raw data). Only
 * ids that rule files refer to (strings) are ever looked up, so a non-string id, or
 * the index "keys" of a string `parameters`, are harmless.
 */
function declareIds(ids: Set<string>, d: any): void {
  if (d?.kind === 'parameters' && typeof d.module === 'string' && d.parameters) {
    for (const name of Object.keys(d.parameters)) ids.add(`${d.module}.${name}`);
  } else if (d?.kind === 'pieces' && d.pieces && typeof d.pieces === 'object') {
    for (const name of Object.keys(d.pieces)) ids.add(`piece:${name}`);
  } else if (d?.kind === 'state') ids.add(d.code);
  else ids.add(d?.id);
}

function filterOnly(problems: Problem[], only: string[] | undefined, root: string): Problem[] {
  if (!only?.length) return problems;
  // resolve() drops a trailing slash.
  const set = new Set(only.map((f) => relative(root, resolve(f)).split(sep).join('/')));
  return problems.filter((p) => set.has(p.file) || [...set].some((d) => p.file.startsWith(d + '/')));
}

/** Cross-file checks, and the bundle itself. */
function assemble(sources: Array<{ src: YamlSource; kind: Kind }>, problems: Problem[], failing: Set<string>, warnings: Problem[], lint: Problem[]): Bundle {
  const bundle: Bundle = { format: 1, parameters: {}, programs: {}, states: {}, inputs: [], results: [] };
  const fail = (src: YamlSource, path: Array<string | number>, message: string, key?: string) => {
    // A desugared program's source maps a path to the file it was written in (a piece's).
    const at: { line: number; col: number; file?: string } = src.position(path, key);
    problems.push({ file: at.file ?? src.file, line: at.line, col: at.col, message });
  };
  const counties = new Map<string, { src: YamlSource; data: any }>();
  // A citation: a primary source's link (else a warning), or a convention, the site page's path.
  const refs = (src: YamlSource, path: Array<string | number>, list: any[]): Reference[] =>
    list.map((r, j) => {
      if (r.convention !== undefined) return { title: r.title, href: r.convention, convention: true };
      if (!isPrimarySource(r.href)) {
        const at: { line: number; col: number; file?: string } = src.position([...path, j, 'href']);
        warnings.push({ file: at.file ?? src.file, line: at.line, col: at.col, message: `warning: ${sourceWarning(r.href)}` });
      }
      return { title: r.title, href: r.href };
    });

  for (const { src, kind } of sources) {
    const d = src.data as any;
    if (kind === 'parameters') {
      for (const [name, p] of Object.entries<any>(d.parameters)) {
        const id = `${d.module}.${name}`;
        if (bundle.parameters[id]) fail(src, ['parameters'], `duplicate parameter id ${id} (also in ${bundle.parameters[id]!.file})`, name);
        checkParameter(src, ['parameters', name], p, fail);
        for (const w of descriptionFigures(p)) {
          const at = src.position(['parameters', name, 'description']);
          lint.push({
            file: src.file,
            line: at.line,
            col: at.col,
            message: `parameters.${name}.description repeats the figure ${w}: say what the figure is; the dated values say how much`,
          });
        }
        const values = p.values.map((e: any, i: number) => ({ ...e, reference: refs(src, ['parameters', name, 'values', i, 'reference'], e.reference) }));
        bundle.parameters[id] = { id, file: src.file, ...p, values };
      }
    } else if (kind === 'counties') {
      counties.set(d.id, { src, data: d });
      const slugs = new Set<string>();
      d.counties.forEach((c: any, i: number) => {
        if (slugs.has(c.slug)) fail(src, ['counties', i, 'slug'], `duplicate county slug ${c.slug}`);
        slugs.add(c.slug);
        checkAscending(src, ['counties', i, 'rates'], c.rates, fail);
      });
    }
  }
  // The programs' short forms (engine/build/sugar.ts) are compiled to the long form first.
  const sugar: SugarContext = { parameters: bundle.parameters, pieces: new Map(), failing };
  // The declarations first: a program may read any input they declare. The states and
  // calculators the declarations may name: those of every state file that passed its schema.
  const stateFiles = sources.filter((x) => x.kind === 'state').map((x) => x.src.data as { code: string; calculators?: Array<{ name: string }> });
  for (const { src, kind } of sources) {
    if (kind !== 'inputs' && kind !== 'results') continue;
    if (kind === 'inputs' ? bundle.inputs.length : bundle.results.length) {
      fail(src, ['kind'], `a second ${kind} file: the ${kind} are declared in one file`);
      continue;
    }
    if (kind === 'inputs') bundle.inputs = checkInputs(src, src.data as any, stateFiles, fail, failing);
    else bundle.results = checkResults(src, src.data as any, stateFiles, fail);
  }
  // The run time's input facts (engine/core/registry.ts), kept whole where a web package cuts `inputs` down.
  if (bundle.inputs.length) bundle.facts = factTable(bundle.inputs);
  for (const { src, kind } of sources) {
    if (kind !== 'pieces') continue;
    for (const name of Object.keys((src.data as any).pieces)) {
      if (sugar.pieces.has(name)) fail(src, ['pieces'], `duplicate piece ${name} (also in ${sugar.pieces.get(name)!.src.file})`, name);
      else sugar.pieces.set(name, { src, data: (src.data as any).pieces[name] });
    }
  }
  for (const { src: file, kind } of sources) {
    if (kind !== 'program') continue;
    const s = desugarProgram(file, file.data, sugar);
    problems.push(...s.problems);
    if (s.incomplete) {
      failing.add((file.data as { id: string }).id);
      continue;
    }
    // The file's properties as they are (its getters copied, not called: a spread would read
    // `doc` and `raw`, which parse the YAML document again though the data came from the cache:
    // ~a quarter of a load's CPU), with positions through the desugared program's origins.
    const src = Object.defineProperties({}, Object.getOwnPropertyDescriptors(file)) as YamlSource;
    src.position = (path, key) => {
      const o = s.origin(path);
      const at = o.src.position(o.path, key);
      return o.src === file ? at : { ...at, file: o.src.file };
    };
    const d = s.data;
    if (bundle.programs[d.id]) fail(src, ['id'], `duplicate program id ${d.id}`);
    const program = checkProgram(src, d, bundle, fail, failing);
    program.steps.forEach((x, i) => {
      if (x.reference) x.reference = refs(src, ['steps', i, 'reference'], x.reference);
    });
    bundle.programs[d.id] = program;
  }
  for (const { src, kind } of sources) {
    if (kind !== 'state') continue;
    const d = src.data as any;
    // The hub has no counties file; every state edition has one.
    const c = d.counties === undefined ? undefined : counties.get(d.counties);
    if (d.counties !== undefined && !c) {
      if (!failing.has(d.counties)) fail(src, ['counties'], `no counties file with id ${d.counties}`);
      continue;
    }
    if (c && c.data.state !== d.code) fail(src, ['counties'], `${d.counties} is for ${c.data.state}, not ${d.code}`);
    // A program's `when` may be written as text too (engine/build/sugar.ts): `nycClass`.
    d.programs = d.programs.map((p: any, i: number) => {
      if (typeof p.when !== 'string') return p;
      try {
        return { ...p, when: parseCondition(p.when, {}, { parameters: {} }) };
      } catch (e) {
        fail(src, ['programs', i, 'when'], (e as Error).message);
        return { program: p.program };
      }
    });
    d.programs.forEach((p: any, i: number) => {
      if (!bundle.programs[p.program] && !failing.has(p.program)) fail(src, ['programs', i, 'program'], `no program ${p.program}`);
      if (p.when)
        for (const f of conditionFacts(p.when))
          if (!(COUNTY_FACTS as readonly string[]).includes(f))
            fail(src, ['programs', i, 'when'], `a program is chosen by county facts only (${COUNTY_FACTS.join(', ')}), not ${f}`);
    });
    if (d.programs[d.programs.length - 1].when) fail(src, ['programs'], 'the last program must have no `when`: it is the default');
    (d.aliases ?? []).forEach((a: any, i: number) => {
      if (!bundle.programs[a.program] && !failing.has(a.program)) fail(src, ['aliases', i, 'program'], `no program ${a.program}`);
    });
    const names = new Set<string>();
    (d.calculators ?? []).forEach((k: any, i: number) => {
      if (names.has(k.name)) fail(src, ['calculators', i, 'name'], `duplicate calculator ${k.name}`);
      names.add(k.name);
      if (k.program !== undefined && !bundle.programs[k.program] && !failing.has(k.program))
        fail(src, ['calculators', i, 'program'], `no program ${k.program}`);
      if (k.compare) {
        const main = bundle.programs[d.programs[d.programs.length - 1].program];
        for (const y of k.compare.years)
          if (main && !main.years.includes(y))
            fail(src, ['calculators', i, 'compare', 'years'], `${main.id} has no rules for ${y} (years: ${main.years.join(', ')})`);
      }
      (k.propositions ?? []).forEach((p: any, j: number) => {
        if (!k.compare) fail(src, ['calculators', i, 'propositions'], 'propositions belong to a comparison of two rule years (compare)');
        (p.parameters ?? []).forEach((id: string, m: number) => {
          if (!bundle.parameters[id] && !failing.has(id)) fail(src, ['calculators', i, 'propositions', j, 'parameters', m], `no parameter ${id}`);
        });
      });
    });
    const state: StateDef = {
      code: d.code,
      file: src.file,
      name: d.name,
      description: d.description,
      ...(d.slug ? { slug: d.slug } : {}),
      tier: d.tier ?? (d.code === 'HUB' ? 'hub' : 'edition'),
      ...(d.detail ? { detail: d.detail } : {}),
      ...(d.phrases ? { phrases: d.phrases } : {}),
      counties: c
        ? c.data.counties.map((x: any) => ({
            name: x.name,
            slug: x.slug,
            fips: x.fips ?? '',
            rates: x.rates,
            ...(x.typical_rate !== undefined ? { typicalRate: x.typical_rate } : {}),
            flags: x.flags ?? [],
            ...(x.median_value !== undefined ? { medianValue: x.median_value } : {}),
            ...(x.median_taxes !== undefined ? { medianTaxes: x.median_taxes } : {}),
            ...(x.population !== undefined ? { population: x.population } : {}),
          }))
        : [],
      programs: d.programs,
      aliases: d.aliases ?? [],
      calculators: (d.calculators ?? []).map((k: any) => ({
        name: k.name,
        label: k.label,
        description: k.description,
        ...(k.program ? { program: k.program } : {}),
        ...(k.compare ? { compare: k.compare } : {}),
        ...(k.propositions ? { propositions: k.propositions } : {}),
        ...(k.voting ? { voting: k.voting } : {}),
        county: k.county,
      })),
    };
    if (d.profile) {
      state.profile = d.profile;
      const n = c ? c.data.counties.length : 0;
      if (d.profile.stats.county_count !== n)
        fail(src, ['profile', 'stats', 'county_count'], `county_count is ${d.profile.stats.county_count} but the counties file lists ${n}`);
      const avg = d.profile.stats.average_rate;
      if (avg !== undefined && !bundle.parameters[avg] && !failing.has(avg)) fail(src, ['profile', 'stats', 'average_rate'], `no parameter ${avg}`);
      const slugs = new Set(c ? c.data.counties.map((x: any) => x.slug) : []);
      (d.profile.major_counties ?? []).forEach((slug: string, i: number) => {
        if (!slugs.has(slug)) fail(src, ['profile', 'major_counties', i], `no county ${slug} in ${d.counties}`);
      });
    }
    if (c) {
      state.countiesId = d.counties;
      state.countiesMeta = {
        file: c.src.file,
        label: c.data.label,
        description: c.data.description,
        reference: refs(c.src, ['reference'], c.data.reference),
        last_verified: c.data.last_verified,
        ...(c.data.parts
          ? {
              parts: {
                label: c.data.parts.label,
                description: c.data.parts.description,
                reference: refs(c.src, ['parts', 'reference'], c.data.parts.reference),
                columns: c.data.parts.columns,
              },
            }
          : {}),
        ...(c.data.typical_rate
          ? {
              typicalRate: {
                label: c.data.typical_rate.label,
                description: c.data.typical_rate.description,
                reference: refs(c.src, ['typical_rate', 'reference'], c.data.typical_rate.reference),
                ...(c.data.typical_rate.state_median !== undefined ? { stateMedian: c.data.typical_rate.state_median } : {}),
                ...(c.data.typical_rate.national_median !== undefined ? { nationalMedian: c.data.typical_rate.national_median } : {}),
              },
            }
          : {}),
        ...(c.data.median_value
          ? {
              medianValue: {
                label: c.data.median_value.label,
                description: c.data.median_value.description,
                reference: refs(c.src, ['median_value', 'reference'], c.data.median_value.reference),
                state: c.data.median_value.state,
              },
            }
          : {}),
        ...(c.data.population
          ? {
              population: {
                label: c.data.population.label,
                description: c.data.population.description,
                reference: refs(c.src, ['population', 'reference'], c.data.population.reference),
                state: c.data.population.state,
              },
            }
          : {}),
      };
    }
    bundle.states[d.code] = state;
  }
  return bundle;
}

export function loadRulesOrThrow(rulesDir = 'rules', root?: string): Bundle {
  const r = loadRules(rulesDir, { root });
  if (!r.bundle) throw new RulesInvalid(r.problems);
  return r.bundle;
}

export type { ParameterDef };
export { exprNames };

export { listYaml, schemaProblems, schemaValidators } from './schema.js';
export { ALLOWED_LITERALS, parseFormula } from './formulas.js';
export { descriptionFigures } from './checks.js';
