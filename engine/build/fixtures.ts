/** Golden fixtures: YAML cases with input, expected figures and their source. */
import { readFileSync, statSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { listYaml, schemaProblems, schemaValidators } from './load.js';
import { readYaml, formatProblem } from './yaml-source.js';
import { inputFromFlags, type Calculator, type CalcInput, type FlagInput } from '../core/calculate.js';
import type { Lang } from '../core/types.js';

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

/** Fixture input keys are the CLI's flag names; these map them to the engine's facts. */
export function fixtureInput(c: FixtureCase): CalcInput {
  const { date, ...flags } = c.input as Record<string, unknown>;
  const d = typeof date === 'string' ? date.split('-').map(Number) : [];
  return inputFromFlags(
    { county: '', ...flags, paymentYear: d[0] ?? null, paymentMonth: d[1] ?? null, paymentDay: d[2] ?? null } as unknown as FlagInput,
    c.year,
  );
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
    result = c.calculator ? calc.run(c.calculator, fixtureInput(c), options) : calc.calculate(fixtureInput(c), options);
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
