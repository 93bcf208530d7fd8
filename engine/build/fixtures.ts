/** Golden fixtures: YAML cases with input, expected figures and their source. */
import { readFileSync, statSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { listYaml, schemaProblems, schemaValidators } from './load.js';
import { readYaml, formatProblem } from './yaml-source.js';
import { inputFromFlags, type Calculator, type CalcInput, type FlagInput } from '../core/calculate.js';
import type { Bundle, GeneratedInput, Lang } from '../core/types.js';
import { INPUTS } from '../generated/inputs.js';
import { declaredInputs } from '../core/registry.js';

export interface FixtureCase {
  name: string;
  calculator?: string;
  year?: number;
  /** The language of the notes and messages checked (default en). */
  lang?: Lang;
  input: Record<string, unknown>;
  expected?: Record<string, number | string | boolean>;
  notes?: string[];
  error?: string;
  tolerance?: number;
  source: string;
}
export interface CaseOutcome {
  file: string;
  name: string;
  ok: boolean;
  diffs: string[];
}

/**
 * Fixture input keys are the CLI's flag names in camelCase (rules/inputs.yaml, as the
 * bundle declares them); these map them to the engine's facts. A date input's key holds
 * YYYY-MM-DD, split into its three facts.
 */
export function fixtureInput(c: FixtureCase, bundle?: Bundle): CalcInput {
  const flags: Record<string, unknown> = { county: '', ...c.input };
  for (const x of bundle ? declaredInputs(bundle) : (INPUTS as unknown as GeneratedInput[])) {
    if (x.type !== 'date' || !x.facts) continue;
    const raw = flags[x.key];
    delete flags[x.key];
    const d = typeof raw === 'string' ? raw.split('-').map(Number) : [];
    flags[x.facts.year] = d[0] ?? null;
    flags[x.facts.month] = d[1] ?? null;
    flags[x.facts.day] = d[2] ?? null;
  }
  return inputFromFlags(flags as unknown as FlagInput, c.year, bundle);
}

/** A fixture's input keys and value types against the bundle's declarations (the schema leaves them open). */
export function fixtureInputProblems(bundle: Bundle, input: Record<string, unknown>): string[] {
  const byKey = new Map(declaredInputs(bundle).map((x) => [x.key, x]));
  const out: string[] = [];
  for (const [k, v] of Object.entries(input)) {
    if (k === 'state' || k === 'county') continue;
    const x = byKey.get(k);
    if (!x || x.id === 'year') {
      out.push(`input ${k}: not a declared input (rules/inputs.yaml flags in camelCase: ${[...byKey.keys()].filter((f) => f !== 'year').join(', ')})`);
      continue;
    }
    const ok =
      x.type === 'boolean'
        ? typeof v === 'boolean'
        : x.type === 'date' || x.type === 'text'
          ? typeof v === 'string'
          : x.type === 'choice'
            ? typeof v === 'string' && (x.checkedByRules || (x.values ?? []).includes(v))
            : x.type === 'year' || x.type === 'integer'
              ? Number.isInteger(v)
              : typeof v === 'number';
    if (!ok) out.push(`input ${k}: ${JSON.stringify(v)} is not a value of a ${x.type} input`);
  }
  return out;
}

export function fixtureFiles(paths: string[], root = process.cwd()): string[] {
  const out: string[] = [];
  for (const p of paths.length ? paths : ['fixtures']) {
    const abs = resolve(root, p);
    if (statSync(abs).isDirectory()) out.push(...listYaml(abs, root));
    else out.push(relative(root, abs).split(sep).join('/'));
  }
  return out;
}

export function readFixtures(file: string, root = process.cwd()): { cases: FixtureCase[]; problems: string[] } {
  const src = readYaml(file, readFileSync(resolve(root, file), 'utf8'));
  if (src.problems.length) return { cases: [], problems: src.problems.map(formatProblem) };
  const validate = schemaValidators(resolve(root, 'schemas')).fixture;
  if (!validate(src.data)) return { cases: [], problems: schemaProblems(src, validate.errors!).map(formatProblem) };
  return { cases: src.data as FixtureCase[], problems: [] };
}

const get = (obj: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), obj);

/** Runs one case; money and rates compare within the tolerance (default 0.01). */
export function runCase(calc: Calculator, file: string, c: FixtureCase): CaseOutcome {
  const diffs: string[] = [];
  const tol = (c.tolerance ?? 0.01) + 1e-9;
  let result: Record<string, unknown> | undefined;
  try {
    const options = { lang: c.lang ?? 'en' };
    const bad = fixtureInputProblems(calc.bundle, c.input);
    if (bad.length) return { file, name: c.name, ok: false, diffs: bad };
    const input = fixtureInput(c, calc.bundle);
    result = c.calculator ? calc.run(c.calculator, input, options) : calc.calculate(input, options);
  } catch (e) {
    const msg = (e as Error).message;
    if (c.error === undefined) diffs.push(`error: ${msg}`);
    else if (msg !== c.error) diffs.push(`error: expected "${c.error}", got "${msg}"`);
    return { file, name: c.name, ok: diffs.length === 0, diffs };
  }
  if (c.error !== undefined) diffs.push(`expected the error "${c.error}", got annualTax ${String(result.annualTax)}`);
  for (const [path, want] of Object.entries(c.expected ?? {})) {
    const got = get(result, path);
    if (typeof want === 'number') {
      if (typeof got !== 'number' || !(Math.abs(got - want) <= tol))
        diffs.push(`${path}: expected ${want}, got ${got === undefined ? 'nothing' : String(got)}`);
    } else if (got !== want) diffs.push(`${path}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
  }
  const notes = result.notes as string[];
  for (const n of c.notes ?? []) if (!notes.includes(n)) diffs.push(`notes: missing "${n}" (got ${JSON.stringify(notes)})`);
  return { file, name: c.name, ok: diffs.length === 0, diffs };
}
