/**
 * Build-time loading of the rule files: strict YAML, JSON Schema (ajv, strict mode), and
 * the checks a schema cannot express. Produces the Bundle that `ptax calc` reads as
 * JSON. Nothing here is on the calculation's hot path.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import _Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import jsep from 'jsep';
import { readYaml, formatProblem, type Problem, type YamlSource } from './yaml-source.js';
import { desugarProgram, parseCondition, type SugarContext } from './sugar.js';
import { isPrimarySource, sourceWarning } from './sources.js';
import { conditionFacts } from './conditions.js';
import { FUNCTIONS, exprNames } from './expr.js';
import { periodStart, valueAt } from './params.js';
import {
  COUNTY_FACTS,
  INPUT_FACTS,
  type Bundle,
  type Condition,
  type Expr,
  type Formula,
  type InputDecl,
  type ParameterDef,
  type ProgramDef,
  type Reference,
  type ResultFieldDecl,
  type ResultGroup,
  type StateDef,
} from './types.js';
import { PtaxError } from './errors.js';

const Ajv2020 = _Ajv2020 as unknown as typeof _Ajv2020.default;

/** Figures belong in parameters; a formula may use only these plain numbers. */
export const ALLOWED_LITERALS = [0, 1, 4, 12, 100];
const KINDS = ['parameters', 'program', 'pieces', 'counties', 'state', 'inputs', 'results'] as const;
type Kind = (typeof KINDS)[number];

/**
 * `problems` are those under `only` (all when not given); `total` counts every file's.
 * `warnings` (under `only` too) do not stop the bundle: citations of hosts that are not
 * primary sources (engine/sources.ts). `lint` (under `only` too) does not stop the bundle
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

/** Every .yaml file below a folder, sorted, as paths relative to `root`. */
export function listYaml(dir: string, root = process.cwd()): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.yaml') || name.endsWith('.yml')) out.push(relative(root, p).split(sep).join('/'));
    }
  };
  walk(dir);
  return out;
}

const validatorCache = new Map<string, Record<Kind | 'fixture', ValidateFunction>>();
export function schemaValidators(schemaDir = resolve('schemas')): Record<Kind | 'fixture', ValidateFunction> {
  const cached = validatorCache.get(schemaDir);
  if (cached) return cached;
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true, allowUnionTypes: true });
  const read = (n: string) => JSON.parse(String(readFileSync(join(schemaDir, `${n}.schema.json`))));
  ajv.addSchema(read('common'));
  const v = {} as Record<Kind | 'fixture', ValidateFunction>;
  // An older tree (rules diff against a past commit) may have no schema for a newer kind.
  for (const k of [...KINDS, 'fixture'] as const) if (k !== 'pieces' || existsSync(join(schemaDir, `${k}.schema.json`))) v[k] = ajv.compile(read(k));
  validatorCache.set(schemaDir, v);
  return v;
}

/**
 * Turns ajv's errors into file:line:col problems, dropping the noise of failed oneOf branches
 * (an error inside branch N has a schemaPath with /oneOf/N/ in it; errors inside a $ref'd
 * schema have that schema's path). Unknown keys and enum values inside a branch are kept.
 */
export function schemaProblems(src: YamlSource, errors: ErrorObject[]): Problem[] {
  const out: Problem[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const inBranch = /\/(oneOf|anyOf)\/\d/.test(e.schemaPath);
    if (inBranch && e.keyword !== 'additionalProperties' && e.keyword !== 'enum') continue;
    if (e.keyword === 'if') continue;
    const path = e.instancePath
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    let key: string | undefined;
    let message = e.message!;
    if (e.keyword === 'additionalProperties') {
      key = String(e.params.additionalProperty);
      message = `unknown key '${key}'`;
    } else if (e.keyword === 'required') message = `missing '${e.params.missingProperty}'`;
    else if (e.keyword === 'enum') message = `must be one of ${(e.params.allowedValues as unknown[]).join(', ')}`;
    else if (e.keyword === 'oneOf') message = 'must have exactly one of the allowed forms (check the keys)';
    else if (e.keyword === 'propertyNames') {
      key = String(e.params.propertyName);
      message = `key '${key}' is not allowed here`;
    }
    const where = path.length ? path.join('.') + ' ' : '';
    const at = src.position(path, key);
    const text = `${where}${message}`;
    const id = `${at.line}:${at.col}:${text}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ file: src.file, line: at.line, col: at.col, message: text });
  }
  return out;
}

const SCHEMA_LINE = /^# yaml-language-server: \$schema=(\S+)\s*$/;

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
  // The programs' short forms (engine/sugar.ts) are compiled to the long form first.
  const sugar: SugarContext = { parameters: bundle.parameters, pieces: new Map(), failing };
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
    const src: YamlSource = {
      ...file,
      position: (path, key) => {
        const o = s.origin(path);
        const at = o.src.position(o.path, key);
        return o.src === file ? at : { ...at, file: o.src.file };
      },
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
    // A program's `when` may be written as text too (engine/sugar.ts): `nycClass`.
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
      counties: c ? c.data.counties.map((x: any) => ({ name: x.name, slug: x.slug, fips: x.fips, rates: x.rates, flags: x.flags ?? [] })) : [],
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
      };
    }
    bundle.states[d.code] = state;
  }
  // The states and calculators the declarations may name: those of every state file that passed its schema.
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
  return bundle;
}

type StateFile = { code: string; calculators?: Array<{ name: string }> };
/** "<state lowercase>.<name>" of every specialised calculator. */
function calculatorNames(states: StateFile[]): Set<string> {
  return new Set(states.flatMap((s) => (s.calculators ?? []).map((k) => `${s.code.toLowerCase()}.${k.name}`)));
}

/**
 * rules/inputs.yaml: unique ids, flags and columns; every input fact declared once (a date
 * input declares its three facts), and nothing else but the county-rate what-if; states
 * and calculators that exist; defaults and values of the input's type, within its bounds.
 */
function checkInputs(src: YamlSource, d: { inputs: any[] }, states: StateFile[], fail: Fail, failing: Set<string>): InputDecl[] {
  const facts = new Map<string, number>();
  const flags = new Set<string>();
  const columns = new Set<string>();
  const calculators = calculatorNames(states);
  const numeric = (t: string) => t === 'money' || t === 'number' || t === 'integer' || t === 'year';
  d.inputs.forEach((x: any, i: number) => {
    const at = ['inputs', i];
    for (const f of x.type === 'date' ? Object.values<string>(x.facts) : [x.id]) {
      if (facts.has(f)) fail(src, [...at, 'id'], `${f} is declared twice (also input ${facts.get(f)! + 1})`);
      facts.set(f, i);
      if (!(INPUT_FACTS as readonly string[]).includes(f) && f !== 'countyRate')
        fail(src, [...at, 'id'], `${f} is not an input fact of the engine (engine/types.ts INPUT_FACTS: ${INPUT_FACTS.join(', ')})`);
    }
    if (flags.has(x.flag)) fail(src, [...at, 'flag'], `flag --${x.flag} is declared twice`);
    flags.add(x.flag);
    if (x.column !== undefined) {
      if (columns.has(x.column)) fail(src, [...at, 'column'], `column ${x.column} is declared twice`);
      columns.add(x.column);
    }
    const codes = new Set(states.map((s) => s.code));
    (x.states as string[]).forEach((s, j) => {
      if (!codes.has(s) && !failing.has(s)) fail(src, [...at, 'states', j], `no state ${s}`);
    });
    (x.calculators ?? []).forEach((k: string, j: number) => {
      if (!calculators.has(k)) fail(src, [...at, 'calculators', j], `no calculator ${k} (calculators: ${[...calculators].join(', ')})`);
    });
    const ok = (v: unknown): boolean => {
      if (x.type === 'boolean') return typeof v === 'boolean';
      if (numeric(x.type)) return typeof v === 'number' && (x.type === 'money' || x.type === 'number' || Number.isInteger(v)) && !(v < x.min) && !(v > x.max);
      return typeof v === 'string';
    };
    (x.values ?? []).forEach((v: any, j: number) => {
      if (!ok(v.value))
        fail(
          src,
          [...at, 'values', j, 'value'],
          `${JSON.stringify(v.value)} is not a value of a ${x.type} input${x.min !== undefined || x.max !== undefined ? ' within its bounds' : ''}`,
        );
    });
    if (x.values && x.type !== 'choice' && x.type !== 'integer') fail(src, [...at, 'values'], 'only a choice or an integer input takes `values`');
    if (x.default !== undefined && (!ok(x.default) || (x.values && !x.values.some((v: any) => v.value === x.default))))
      fail(src, [...at, 'default'], `default ${JSON.stringify(x.default)} is not a value of this input`);
    if (x.min !== undefined && x.max !== undefined && x.min > x.max) fail(src, [...at, 'max'], 'max is below min');
  });
  d.inputs.forEach((x: any, i: number) => {
    const at = ['inputs', i];
    if (x.requires !== undefined && !d.inputs.some((o: any) => o.id === x.requires && o.type === 'boolean'))
      fail(src, [...at, 'requires'], `requires names no boolean input: ${x.requires}`);
    for (const [s, flag] of Object.entries<string>(x.county_flag ?? {})) {
      if (flag === 'countyRate' || !(COUNTY_FACTS as readonly string[]).includes(flag))
        fail(src, [...at, 'county_flag', s], `${flag} is not a county flag (${COUNTY_FACTS.filter((f) => f !== 'countyRate').join(', ')})`);
    }
  });
  const missing = INPUT_FACTS.filter((f) => !facts.has(f));
  if (missing.length) fail(src, ['inputs'], `input facts not declared: ${missing.join(', ')}`);
  return d.inputs as InputDecl[];
}

/** rules/results.yaml: unique ids and columns, no field both a leaf and a group, calculators that exist. */
function checkResults(src: YamlSource, d: { fields: any[] }, states: StateFile[], fail: Fail): ResultFieldDecl[] {
  const ids = new Set<string>();
  const columns = new Set<string>();
  const calculators = calculatorNames(states);
  d.fields.forEach((x: any, i: number) => {
    const at = ['fields', i];
    if (ids.has(x.id)) fail(src, [...at, 'id'], `field ${x.id} is declared twice`);
    ids.add(x.id);
    if (x.column !== undefined) {
      if (columns.has(x.column)) fail(src, [...at, 'column'], `column ${x.column} is declared twice`);
      columns.add(x.column);
    }
    (x.calculators ?? []).forEach((k: string, j: number) => {
      if (!calculators.has(k)) fail(src, [...at, 'calculators', j], `no calculator ${k} (calculators: ${[...calculators].join(', ')})`);
    });
  });
  d.fields.forEach((x: any, i: number) => {
    if ([...ids].some((o) => o.startsWith(x.id + '.'))) fail(src, ['fields', i, 'id'], `${x.id} is a group (other fields are inside it), not a field`);
  });
  return d.fields as ResultFieldDecl[];
}

type Fail = (src: YamlSource, path: Array<string | number>, message: string, key?: string) => void;

function checkAscending(src: YamlSource, path: Array<string | number>, entries: Array<{ effective: string }>, fail: Fail) {
  for (let i = 1; i < entries.length; i++) {
    if (entries[i]!.effective <= entries[i - 1]!.effective)
      fail(
        src,
        [...path, i, 'effective'],
        `effective dates must ascend: ${entries[i]!.effective} is not after ${entries[i - 1]!.effective}; append history, never rewrite it`,
      );
  }
}

function checkParameter(src: YamlSource, path: Array<string | number>, p: any, fail: Fail) {
  checkAscending(src, [...path, 'values'], p.values, fail);
  p.values.forEach((e: any, i: number) => {
    const at = [...path, 'values', i];
    if (p.type === 'bands') {
      if (!e.bands) return fail(src, at, 'a bands parameter needs `bands`, not `value`');
      const bands = e.bands as any[];
      bands.forEach((b, j) => {
        const last = j === bands.length - 1;
        const bound = b.below ?? b.at_most;
        if (last && bound !== undefined) fail(src, [...at, 'bands', j], 'the last band must have no bound: it takes every larger value');
        if (!last && bound === undefined) fail(src, [...at, 'bands', j], 'every band but the last needs `below` or `at_most`');
        const prev = j > 0 ? (bands[j - 1].below ?? bands[j - 1].at_most) : undefined;
        // A missing bound, here or before, compares false (its own problem is reported).
        if (!last && bound <= prev) fail(src, [...at, 'bands', j], 'band bounds must ascend');
      });
      return;
    }
    if (e.bands) return fail(src, at, `a ${p.type} parameter takes \`value\`, not \`bands\``);
    if (p.type === 'scalar' && typeof e.value !== 'number') return fail(src, [...at, 'value'], 'a scalar parameter takes a number');
    if (p.type === 'by_key') {
      if (typeof e.value !== 'object') return fail(src, [...at, 'value'], `a by_key parameter takes a map of ${p.keys.join(', ')}`);
      const got = Object.keys(e.value).sort().join(',');
      if (got !== [...p.keys].sort().join(',')) fail(src, [...at, 'value'], `keys must be exactly ${p.keys.join(', ')}`);
      if (p.sums_to_one) {
        const sum = Object.values<number>(e.value).reduce((a, b) => a + b, 0);
        if (Math.abs(sum - 1) > 1e-9) fail(src, [...at, 'value'], `shares must sum to 1 (they sum to ${+sum.toFixed(10)})`);
      }
    }
    if (p.unit === 'fraction') {
      const nums = typeof e.value === 'number' ? [e.value] : Object.values<number>(e.value);
      if (nums.some((n) => n < 0 || n > 1)) fail(src, [...at, 'value'], 'a fraction lies between 0 and 1');
    }
  });
}

/**
 * Figures a parameter's description repeats: a number written in it (30,000; 1.54%; 15)
 * equal to one of the parameter's values or band bounds, also read as a percentage of a
 * fraction (15% and 0.15). A description says what the figure is; the dated values say
 * how much, so the prose cannot go stale when a value is appended.
 */
export function descriptionFigures(p: {
  description: string;
  unit?: string;
  values: Array<{ value?: unknown; bands?: Array<{ below?: number; at_most?: number; value: number }> }>;
}): string[] {
  const figures = new Set<number>();
  for (const e of p.values) {
    if (typeof e.value === 'number') figures.add(e.value);
    else if (e.value && typeof e.value === 'object') for (const v of Object.values(e.value as Record<string, number>)) figures.add(v);
    for (const b of e.bands ?? []) for (const v of [b.value, b.below, b.at_most]) if (v !== undefined) figures.add(v);
  }
  const same = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));
  const out: string[] = [];
  for (const m of p.description.matchAll(/(?<![\w.§])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w])|(?<![\w.§])\d+(?:\.\d+)?(?![\w])/g)) {
    const text = m[0];
    const n = Number(text.replace(/,/g, ''));
    // Small whole numbers (0, 1, 2…) are words more than figures ("one or the other", "1 year").
    if (Number.isInteger(n) && n < 10 && !text.includes('.')) continue;
    const percent = p.description[m.index! + text.length] === '%';
    if ([...figures].some((f) => same(f, n) || (percent && p.unit === 'fraction' && same(f * 100, n)))) out.push(percent ? `${text}%` : text);
  }
  return [...new Set(out)];
}

/** Parses a formula with jsep and keeps only the rule language's subset. */
export function parseFormula(src: string): Formula {
  let ast: unknown;
  try {
    ast = jsep(src);
  } catch (e) {
    throw new PtaxError('FORMULA', `cannot parse formula "${src}": ${(e as Error).message}`);
  }
  return { src, ast: checkAst(ast as any, src) };
}

function checkAst(n: any, src: string): Expr {
  const bad = (why: string): never => {
    throw new PtaxError('FORMULA', `formula "${src}": ${why}`);
  };
  switch (n.type) {
    case 'Literal':
      if (typeof n.value !== 'number') bad(`only numbers may be written in a formula, not ${n.raw}`);
      if (!ALLOWED_LITERALS.includes(n.value))
        bad(`the figure ${n.raw} belongs in a parameter with its citation (formulas may use only ${ALLOWED_LITERALS.join(', ')})`);
      return { type: 'Literal', value: n.value };
    case 'Identifier':
      return { type: 'Identifier', name: n.name };
    case 'BinaryExpression':
      if (!['+', '-', '*', '/'].includes(n.operator)) bad(`operator ${n.operator} is not arithmetic; write conditions as json-rules-engine conditions`);
      return { type: 'BinaryExpression', operator: n.operator, left: checkAst(n.left, src), right: checkAst(n.right, src) };
    case 'UnaryExpression':
      if (n.operator !== '-') bad(`operator ${n.operator} is not allowed`);
      return { type: 'UnaryExpression', operator: '-', argument: checkAst(n.argument, src) };
    case 'CallExpression':
      // Only an Identifier callee has a name.
      if (!(FUNCTIONS as readonly string[]).includes(n.callee.name)) bad(`unknown function; the rule language has ${FUNCTIONS.join(', ')}`);
      return { type: 'CallExpression', callee: { type: 'Identifier', name: n.callee.name }, arguments: n.arguments.map((a: any) => checkAst(a, src)) };
    case 'MemberExpression':
      if (n.object.type !== 'Identifier') bad('only a parameter table can be indexed');
      return { type: 'MemberExpression', object: checkAst(n.object, src), property: checkAst(n.property, src), computed: !!n.computed };
    default:
      return bad(`${n.type} is not part of the rule language`);
  }
}

function checkProgram(src: YamlSource, d: any, bundle: Bundle, fail: Fail, failing: Set<string>): ProgramDef {
  const known = new Map<string, string>(); // name → what it is
  const tables = new Map<string, ParameterDef>();
  for (const f of INPUT_FACTS) known.set(f, 'input');
  for (const f of COUNTY_FACTS) known.set(f, 'county');
  for (const [alias, pid] of Object.entries<string>(d.parameters)) {
    const p = bundle.parameters[pid];
    if (!p) {
      if (!failing.has(pid)) fail(src, ['parameters', alias], `no parameter ${pid}`);
      known.set(alias, 'parameter:unknown');
      continue;
    }
    tables.set(alias, p);
    if (known.has(alias)) fail(src, ['parameters'], `${alias} is already an ${known.get(alias)} fact`, alias);
    known.set(alias, `parameter:${p.type}`);
    for (const y of d.years) {
      const date = periodStart(d.period, y);
      if (!valueAt(p, date)) fail(src, ['parameters', alias], `${pid} has no value in force on ${date} (year ${y})`);
    }
  }
  const formula = (path: Array<string | number>, text: string): Formula => {
    try {
      const f = parseFormula(text);
      const names = [...new Set(exprNames(f.ast))];
      for (const n of names) if (!known.has(n)) fail(src, path, `formula "${text}": unknown name ${n}`);
      if (names.every((n) => known.has(n))) for (const why of kindProblems(f.ast, known, tables)) fail(src, path, `formula "${text}": ${why}`);
      return f;
    } catch (e) {
      fail(src, path, (e as Error).message);
      return undefined!; // never seen: there is no bundle when there is a problem
    }
  };
  const condition = (path: Array<string | number>, c: Condition) => {
    for (const f of conditionFacts(c)) {
      const k = known.get(f);
      if (!k) fail(src, path, `condition reads unknown fact ${f}`);
      else if (k.startsWith('parameter:') && k !== 'parameter:scalar' && k !== 'parameter:unknown')
        fail(src, path, `condition reads ${f}, a table: compare a step instead`);
    }
    checkOperators(src, path, c, fail);
  };
  d.validations.forEach((v: any, i: number) => condition(['validations', i, 'when'], v.when));
  const steps = d.steps.map((s: any, i: number) => {
    const path = ['steps', i];
    if (known.has(s.id)) fail(src, [...path, 'id'], `step ${s.id} shadows an ${known.get(s.id)}`);
    const out: any = { id: s.id, label: s.label, ...(s.reference ? { reference: s.reference } : {}) };
    if (s.formula !== undefined) out.formula = formula([...path, 'formula'], String(s.formula));
    if (s.condition) {
      condition([...path, 'condition'], s.condition);
      out.condition = s.condition;
    }
    if (s.cases) {
      s.cases.forEach((c: any, j: number) => {
        const last = j === s.cases.length - 1;
        if (last && c.when) fail(src, [...path, 'cases', j], 'the last case must have no `when`: it is the otherwise');
        if (!last && !c.when) fail(src, [...path, 'cases', j], 'every case but the last needs `when`');
      });
      out.cases = s.cases.map((c: any, j: number) => {
        if (c.when) condition([...path, 'cases', j, 'when'], c.when);
        return {
          ...(c.when ? { when: c.when } : {}),
          ...(c.formula !== undefined ? { formula: formula([...path, 'cases', j, 'formula'], String(c.formula)) } : { value: c.value }),
        };
      });
    }
    known.set(s.id, 'step');
    return out;
  });
  (d.notes ?? []).forEach((n: any, i: number) => condition(['notes', i, 'when'], n.when));
  const result = (g: any, path: Array<string | number>): ResultGroup => {
    const out: ResultGroup = {};
    for (const [k, v] of Object.entries<any>(g)) {
      // The schema: a leaf is an expression (a string) or {formula, unit}; a group has no `formula`.
      if (typeof v === 'string') out[k] = { formula: formula([...path, k], v), unit: 'usd' };
      else if (typeof v.formula === 'string') out[k] = { formula: formula([...path, k, 'formula'], v.formula), unit: v.unit };
      else out[k] = result(v, [...path, k]);
    }
    return out;
  };
  const yearsSorted = [...d.years].sort((a: number, b: number) => a - b);
  if (yearsSorted.join() !== d.years.join()) fail(src, ['years'], 'years must ascend');
  return {
    id: d.id,
    file: src.file,
    description: d.description,
    label: d.label,
    period: d.period,
    years: d.years,
    parameters: d.parameters,
    validations: d.validations,
    steps,
    notes: d.notes ?? [],
    result: result(d.result, ['result']),
  };
}

/** What the compiler would refuse: tables without a key, unknown keys, wrong arity. */
function kindProblems(e: Expr, known: Map<string, string>, tables: Map<string, ParameterDef>, out: string[] = []): string[] {
  const kind = (name: string) => known.get(name);
  switch (e.type) {
    case 'Identifier':
      if (kind(e.name) === 'parameter:by_key') out.push(`${e.name} is a table: index it, e.g. ${e.name}[key]`);
      if (kind(e.name) === 'parameter:bands') out.push(`${e.name} is a band table: use band(${e.name}, value)`);
      break;
    case 'BinaryExpression':
      kindProblems(e.left, known, tables, out);
      kindProblems(e.right, known, tables, out);
      break;
    case 'UnaryExpression':
      kindProblems(e.argument, known, tables, out);
      break;
    case 'MemberExpression': {
      const { name } = e.object as { name: string }; // checkAst: only an Identifier is indexed
      if (kind(name) === 'parameter:unknown') break; // its own file's problem is reported
      if (kind(name) !== 'parameter:by_key') {
        out.push(`${name} is not a table`);
        break;
      }
      const p = tables.get(name)!;
      // Without brackets the key is an Identifier (jsep).
      if (!e.computed && !p.keys!.includes((e.property as { name: string }).name))
        out.push(`${name} has no key ${(e.property as { name: string }).name} (keys: ${p.keys!.join(', ')})`);
      if (e.computed) kindProblems(e.property, known, tables, out);
      break;
    }
    case 'CallExpression': {
      const { name } = e.callee;
      const n = e.arguments.length;
      if (name === 'floor' && n !== 1) out.push('floor() takes one value');
      if (name === 'pow' && n !== 2) out.push('pow() takes a base and an exponent');
      if ((name === 'min' || name === 'max') && n < 2) out.push(`${name}() takes two or more values`);
      if (name === 'band') {
        const t = e.arguments[0];
        if (t?.type === 'Identifier' && kind(t.name) === 'parameter:unknown') break;
        if (n !== 2 || kind((t as { name: string }).name) !== 'parameter:bands') out.push('band() takes a band parameter and a value');
        else kindProblems(e.arguments[1]!, known, tables, out);
      } else e.arguments.forEach((a) => kindProblems(a, known, tables, out));
      break;
    }
  }
  return out;
}

/** The schema allows only the engine's OPERATORS; what it cannot say is that in/notIn take a list. */
function checkOperators(src: YamlSource, path: Array<string | number>, c: Condition, fail: Fail) {
  if ('all' in c) c.all.forEach((x, i) => checkOperators(src, [...path, 'all', i], x, fail));
  else if ('any' in c) c.any.forEach((x, i) => checkOperators(src, [...path, 'any', i], x, fail));
  else if ('not' in c) checkOperators(src, [...path, 'not'], c.not, fail);
  else {
    if ((c.operator === 'in' || c.operator === 'notIn') && !Array.isArray(c.value)) fail(src, [...path, 'value'], `${c.operator} takes a list`);
  }
}

export function loadRulesOrThrow(rulesDir = 'rules', root?: string): Bundle {
  const r = loadRules(rulesDir, { root });
  if (!r.bundle) throw new RulesInvalid(r.problems);
  return r.bundle;
}

export type { ParameterDef };
export { exprNames };
