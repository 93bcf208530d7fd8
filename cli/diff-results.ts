/**
 * The same inputs (golden fixture cases, grid points) computed under two bundles, and
 * the fields whose value moved. Pure: the caller reads the fixtures and the bundles.
 */
import { inputFromFlags, type CalcInput, type Calculator, type FlagInput } from '../engine/node.js';
import { fixtureInput, type FixtureCase } from '../engine/node.js';

export type Leaf = number | string | boolean | null;
/** A result flattened to dotted paths; an error is the single field `error`. */
export type Outcome = Map<string, Leaf>;

export interface FieldChange {
  /** fixture: "fixtures/ny/ny-outside.yaml: Albany County, …"; grid: its label. */
  label: string;
  field: string;
  old: Leaf | undefined;
  new: Leaf | undefined;
  difference: number | null;
  /** Fixtures only: the figure the head's fixture expects for this field, if it names one. */
  expected?: number | string | boolean;
}

export interface ResultDiff {
  total: number;
  changedCases: number;
  changes: FieldChange[];
}

/** Leaves of a result by dotted path; a list (`notes`) as one field, joined (objects in it as JSON); `explanation` left out. */
export function flatten(x: unknown, prefix = '', out: Outcome = new Map()): Outcome {
  if (x && typeof x === 'object' && !Array.isArray(x)) {
    for (const [k, v] of Object.entries(x)) {
      if (!prefix && k === 'explanation') continue;
      flatten(v, prefix ? `${prefix}.${k}` : k, out);
    }
  } else if (Array.isArray(x)) out.set(prefix, x.map((v) => (v && typeof v === 'object' ? JSON.stringify(v) : String(v))).join(' | '));
  else out.set(prefix, (x ?? null) as Leaf);
  return out;
}

/** A calculation's result, flattened, or its error; `calculator`: a state's specialised calculator. */
export function outcome(calc: Calculator, input: CalcInput, calculator?: string): Outcome {
  try {
    return flatten(calculator ? calc.run(calculator, input) : calc.calculate(input));
  } catch (e) {
    return new Map([['error', (e as Error).message]]);
  }
}

const EPS = 1e-9;
const equal = (a: Leaf | undefined, b: Leaf | undefined) => (typeof a === 'number' && typeof b === 'number' ? Math.abs(a - b) <= EPS : a === b);

/**
 * The fields that differ. When one side is an error and the other is not, the error and
 * the annual tax stand for the whole result (the other fields would only repeat it).
 * `only`: report just these fields (plus error, when it is involved).
 */
export function compareOutcomes(label: string, a: Outcome, b: Outcome, only?: Set<string>): FieldChange[] {
  const out: FieldChange[] = [];
  const errA = a.has('error'),
    errB = b.has('error');
  const fields = errA !== errB ? ['error', 'annualTax'] : [...new Set([...b.keys(), ...a.keys()])];
  for (const field of fields) {
    if (only && field !== 'error' && !only.has(field)) continue;
    const o = a.get(field),
      n = b.get(field);
    if (equal(o, n)) continue;
    out.push({ label, field, old: o, new: n, difference: typeof o === 'number' && typeof n === 'number' ? +(n - o).toFixed(6) : null });
  }
  return out;
}

export interface FixtureFile {
  file: string;
  cases: FixtureCase[];
}

export function diffFixtures(base: Calculator, head: Calculator, files: FixtureFile[], only?: Set<string>): ResultDiff {
  let total = 0,
    changedCases = 0;
  const changes: FieldChange[] = [];
  for (const { file, cases } of files) {
    for (const c of cases) {
      total++;
      const input = fixtureInput(c);
      const rows = compareOutcomes(`${file}: ${c.name}`, outcome(base, input, c.calculator), outcome(head, input, c.calculator), only);
      for (const r of rows) {
        const want = r.field === 'error' ? c.error : c.expected?.[r.field];
        if (want !== undefined) r.expected = want;
      }
      if (rows.length) changedCases++;
      changes.push(...rows);
    }
  }
  return { total, changedCases, changes };
}

export function diffGrid(base: Calculator, head: Calculator, points: Array<{ label: string; flags: FlagInput }>, only?: Set<string>): ResultDiff {
  let changedCases = 0;
  const changes: FieldChange[] = [];
  for (const p of points) {
    const input = inputFromFlags(p.flags);
    const rows = compareOutcomes(p.label, outcome(base, input), outcome(head, input), only);
    if (rows.length) changedCases++;
    changes.push(...rows);
  }
  return { total: points.length, changedCases, changes };
}
