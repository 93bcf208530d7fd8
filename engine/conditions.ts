/**
 * Conditions in json-rules-engine's format (all / any / not, fact + operator + value),
 * compiled once into plain synchronous functions over a fact array. The semantics are
 * json-rules-engine's default operators, to the letter: a differential test runs the
 * library itself on random facts and requires the same answers.
 */
import type { Condition, ConditionValue } from './types.js';
import { PtaxError } from './errors.js';

export type Facts = unknown[];
export type Predicate = (v: Facts) => boolean;
export type SlotOf = (fact: string) => number;

export const OPERATORS = [
  'equal', 'notEqual', 'lessThan', 'lessThanInclusive', 'greaterThan', 'greaterThanInclusive',
  'in', 'notIn', 'contains', 'doesNotContain',
] as const;

/** json-rules-engine's numberValidator: a fact must parse as a number for <, <=, >, >=. */
const isNumeric = (x: unknown): boolean =>
  typeof x === 'number' ? x === x : Number.parseFloat(x as string).toString() !== 'NaN';

type Compare = (a: any, b: any) => boolean;
const COMPARE: Record<(typeof OPERATORS)[number], Compare> = {
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

const isFactRef = (v: ConditionValue): v is { fact: string } =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every fact a condition reads, in order of appearance. */
export function conditionFacts(c: Condition, out: string[] = []): string[] {
  if ('all' in c) c.all.forEach((x) => conditionFacts(x, out));
  else if ('any' in c) c.any.forEach((x) => conditionFacts(x, out));
  else if ('not' in c) conditionFacts(c.not, out);
  else {
    out.push(c.fact);
    if (isFactRef(c.value)) out.push(c.value.fact);
  }
  return out;
}

export function compileCondition(c: Condition, slotOf: SlotOf): Predicate {
  if ('all' in c) return every(c.all.map((x) => compileCondition(x, slotOf)));
  if ('any' in c) return some(c.any.map((x) => compileCondition(x, slotOf)));
  if ('not' in c) {
    const inner = compileCondition(c.not, slotOf);
    return (v) => !inner(v);
  }
  const op = COMPARE[c.operator as keyof typeof COMPARE];
  if (!op) throw new PtaxError('RULES_INVALID', `unknown operator ${c.operator}`);
  const slot = slotOf(c.fact);
  const value = c.value;
  if (isFactRef(value)) {
    const other = slotOf(value.fact);
    return (v) => op(v[slot], v[other]);
  }
  // Specialised closures for the common operators keep evaluation fast.
  switch (c.operator) {
    case 'equal': return (v) => v[slot] === value;
    case 'notEqual': return (v) => v[slot] !== value;
    case 'in': {
      const list = value as unknown[];
      return (v) => list.indexOf(v[slot]) > -1;
    }
    case 'notIn': {
      const list = value as unknown[];
      return (v) => list.indexOf(v[slot]) === -1;
    }
    default: return (v) => op(v[slot], value);
  }
}

function every(ps: Predicate[]): Predicate {
  if (ps.length === 1) return ps[0]!;
  if (ps.length === 2) { const [a, b] = ps as [Predicate, Predicate]; return (v) => a(v) && b(v); }
  return (v) => { for (const p of ps) if (!p(v)) return false; return true; };
}

function some(ps: Predicate[]): Predicate {
  if (ps.length === 1) return ps[0]!;
  if (ps.length === 2) { const [a, b] = ps as [Predicate, Predicate]; return (v) => a(v) || b(v); }
  return (v) => { for (const p of ps) if (p(v)) return true; return false; };
}
