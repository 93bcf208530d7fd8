/**
 * The reference interpreter: a plain walk over the lowered form (ir.ts). Each node is
 * evaluated with JavaScript's own operators, so null reads as 0 in arithmetic, a division
 * by 0 gives ±Infinity or NaN, and Math.min / Math.max give NaN and −0 as they do.
 * Conditions are json-rules-engine's default operators, to the letter. Nothing is fused or
 * specialised here: speed is the generated JavaScript's job (engine/codegen/js.ts).
 */
import type { Cond, GroupIR, LeafIR, Num, CaseValue, Operator, ProgramIR, StepIR } from './ir.js';
import { PtaxError } from './errors.js';
import { roundTo } from './round.js';
import type { Band, Lang } from './types.js';

export type Facts = unknown[];

/** A formula's value on a fact array. */
export function valueOf(n: Num | CaseValue, v: Facts): any {
  switch (n.op) {
    case 'const':
    case 'text':
      return n.value;
    case 'read':
      return v[n.slot];
    case 'neg':
      return -valueOf(n.arg, v);
    case '+':
      return valueOf(n.left, v) + valueOf(n.right, v);
    case '-':
      return valueOf(n.left, v) - valueOf(n.right, v);
    case '*':
      return valueOf(n.left, v) * valueOf(n.right, v);
    case '/':
      return valueOf(n.left, v) / valueOf(n.right, v);
    case 'min':
    case 'max': {
      // Left to right, two at a time: min(a, b, c) is Math.min(Math.min(a, b), c).
      const f = n.op === 'min' ? Math.min : Math.max;
      let r = valueOf(n.args[0]!, v);
      for (let i = 1; i < n.args.length; i++) r = f(r, valueOf(n.args[i]!, v));
      return r;
    }
    case 'floor':
      return Math.floor(valueOf(n.arg, v));
    case 'pow':
      return valueOf(n.base, v) ** valueOf(n.exp, v);
    case 'entry':
      return entry(n.table, n.id, valueOf(n.key, v));
    case 'band':
      return band(n.id, n.bands, valueOf(n.arg, v));
  }
}

/** A table's entry for a key read at run time: NO_VALUE when it has none. */
export function entry(table: Record<string, number>, id: string, key: unknown): number {
  const x = table[key as string];
  if (x === undefined) throw new PtaxError('NO_VALUE', `${id} has no value for ${String(key)}`);
  return x;
}

/** The value of the first band x fits: `below` an exclusive bound, `at_most` inclusive, neither: every number below Infinity. */
export function band(id: string, bands: readonly Band[], x: number): number {
  for (const b of bands) {
    // A band with neither bound is `below: Infinity`: NaN and Infinity fit none.
    const below = b.below ?? (b.at_most === undefined ? Infinity : undefined);
    if ((below !== undefined && x < below) || (b.at_most !== undefined && x <= b.at_most)) return b.value;
  }
  throw new PtaxError('NO_VALUE', `${id} has no band for ${x}`);
}

/**
 * json-rules-engine's numberValidator, to the letter: a fact must parse as a number for <,
 * <=, >, >=. parseFloat reads its argument as text: null, undefined, true, false and NaN
 * give NaN; a number gives itself (the generated JavaScript tests `typeof` first, for speed).
 */
export const isNumeric = (x: unknown): boolean => Number.parseFloat(x as string).toString() !== 'NaN';

/** json-rules-engine's default operators. */
export const COMPARE: Record<Operator, (a: any, b: any) => boolean> = {
  equal: (a, b) => a === b,
  notEqual: (a, b) => a !== b,
  in: (a, b) => b.indexOf(a) > -1,
  notIn: (a, b) => b.indexOf(a) === -1,
  contains: (a, b) => Array.isArray(a) && a.indexOf(b) > -1,
  doesNotContain: (a, b) => Array.isArray(a) && a.indexOf(b) === -1,
  lessThan: (a, b) => isNumeric(a) && a < b,
  lessThanInclusive: (a, b) => isNumeric(a) && a <= b,
  greaterThan: (a, b) => isNumeric(a) && a > b,
  greaterThanInclusive: (a, b) => isNumeric(a) && a >= b,
};

/** Whether a condition holds on a fact array. */
export function holds(c: Cond, v: Facts): boolean {
  switch (c.op) {
    case 'all':
      return c.args.every((x) => holds(x, v));
    case 'any':
      return c.args.some((x) => holds(x, v));
    case 'not':
      return !holds(c.arg, v);
    case 'test':
      return COMPARE[c.operator](valueOf(c.fact, v), c.value.op === 'literal' ? c.value.value : valueOf(c.value, v));
  }
}

/** A step's value: a formula's, a condition's, or the first case whose `when` holds (none: null). */
export function stepValue(s: StepIR, v: Facts): unknown {
  const b = s.body;
  if (b.kind === 'formula') return valueOf(b.expr, v);
  if (b.kind === 'condition') return holds(b.cond, v);
  for (const c of b.cases) if (!c.when || holds(c.when, v)) return valueOf(c.value, v);
  return null;
}

/** The result object: every leaf in the tree's order, rounded as its unit says; a dropping group leaves out its zeros. */
export function resultOf(g: GroupIR, v: Facts): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [key, node] of g.entries) {
    const x = node.kind === 'leaf' ? leafValue(node, v) : resultOf(node, v);
    if (g.drop === 'value' && x === 0) continue;
    if (g.drop === 'amount' && (x as { amount?: unknown } | null)?.amount === 0) continue;
    o[key] = x;
  }
  return o;
}

export function leafValue(l: LeafIR, v: Facts): unknown {
  const x = valueOf(l.expr, v);
  return l.round === undefined ? x : roundTo(x, l.round);
}

/**
 * A program on a filled fact array (inputs and county facts in the first slots, the
 * template's values after them): the first validation that holds is the error; then every
 * step in order, into its slot; then the result and the notes that hold.
 */
export function run(p: ProgramIR, v: Facts, lang: Lang = 'en'): Record<string, unknown> & { notes: string[] } {
  for (const x of p.validations) if (holds(x.when, v)) throw new PtaxError(x.code, x.message[lang]);
  for (const s of p.steps) v[s.slot] = stepValue(s, v);
  const result = resultOf(p.result, v) as Record<string, unknown> & { notes: string[] };
  result.notes = p.notes.filter((n) => holds(n.when, v)).map((n) => n.text[lang]);
  return result;
}
