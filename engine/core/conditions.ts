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
  'equal',
  'notEqual',
  'lessThan',
  'lessThanInclusive',
  'greaterThan',
  'greaterThanInclusive',
  'in',
  'notIn',
  'contains',
  'doesNotContain',
] as const;

/** json-rules-engine's numberValidator: a fact must parse as a number for <, <=, >, >=. */
const isNumeric = (x: unknown): boolean =>
  typeof x === 'number'
    ? x === x
    : // null, undefined, true and false parse as NaN ("null", "true", …): no need to make the text.
      x === null || x === undefined || typeof x === 'boolean'
      ? false
      : Number.parseFloat(x as string).toString() !== 'NaN';

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

const isFactRef = (v: ConditionValue): v is { fact: string } => typeof v === 'object' && v !== null && !Array.isArray(v);

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
  return compileConditionNode(c, slotOf).fn;
}

/**
 * A compiled condition: its function, and when it is a single equality test of one fact
 * (`fact equal value`, `fact notEqual value`, also inside a one-element all / any or a
 * `not`), that test, so that a caller can fuse `v[slot] === value` into its own closure.
 * `negate`: the condition holds when the fact is NOT `value`.
 */
export interface CondNode {
  fn: Predicate;
  test?: { slot: number; value: unknown; negate: boolean };
}

const equalTest = (slot: number, value: unknown, negate: boolean): CondNode => ({
  fn: negate ? (v) => v[slot] !== value : (v) => v[slot] === value,
  test: { slot, value, negate },
});

export function compileConditionNode(c: Condition, slotOf: SlotOf): CondNode {
  if ('all' in c) return every(c.all.map((x) => compileConditionNode(x, slotOf)));
  if ('any' in c) return some(c.any.map((x) => compileConditionNode(x, slotOf)));
  if ('not' in c) {
    const inner = compileConditionNode(c.not, slotOf);
    if (inner.test) return equalTest(inner.test.slot, inner.test.value, !inner.test.negate);
    const f = inner.fn;
    return { fn: (v) => !f(v) };
  }
  const op = COMPARE[c.operator as keyof typeof COMPARE];
  if (!op) throw new PtaxError('RULES_INVALID', `unknown operator ${c.operator}`);
  const slot = slotOf(c.fact);
  const value = c.value;
  if (isFactRef(value)) {
    const other = slotOf(value.fact);
    // The numeric operators test the fact with isNumeric, which for a number is `x === x`;
    // a NaN fact compares false anyway, so a number fact needs no call.
    switch (c.operator) {
      case 'equal':
        return { fn: (v) => v[slot] === v[other] };
      case 'notEqual':
        return { fn: (v) => v[slot] !== v[other] };
      case 'lessThan':
        return {
          fn: (v) => {
            const a = v[slot] as number;
            return typeof a === 'number' ? a < (v[other] as number) : isNumeric(a) && a < (v[other] as number);
          },
        };
      case 'lessThanInclusive':
        return {
          fn: (v) => {
            const a = v[slot] as number;
            return typeof a === 'number' ? a <= (v[other] as number) : isNumeric(a) && a <= (v[other] as number);
          },
        };
      case 'greaterThan':
        return {
          fn: (v) => {
            const a = v[slot] as number;
            return typeof a === 'number' ? a > (v[other] as number) : isNumeric(a) && a > (v[other] as number);
          },
        };
      case 'greaterThanInclusive':
        return {
          fn: (v) => {
            const a = v[slot] as number;
            return typeof a === 'number' ? a >= (v[other] as number) : isNumeric(a) && a >= (v[other] as number);
          },
        };
      default:
        return { fn: (v) => op(v[slot], v[other]) };
    }
  }
  // Specialised closures for the common operators keep evaluation fast.
  switch (c.operator) {
    case 'equal':
      return equalTest(slot, value, false);
    case 'notEqual':
      return equalTest(slot, value, true);
    case 'in': {
      const list = value as unknown[];
      return { fn: (v) => list.indexOf(v[slot]) > -1 };
    }
    case 'notIn': {
      const list = value as unknown[];
      return { fn: (v) => list.indexOf(v[slot]) === -1 };
    }
    case 'lessThan': {
      const b = value as number;
      return {
        fn: (v) => {
          const a = v[slot] as number;
          return typeof a === 'number' ? a < b : isNumeric(a) && a < b;
        },
      };
    }
    case 'lessThanInclusive': {
      const b = value as number;
      return {
        fn: (v) => {
          const a = v[slot] as number;
          return typeof a === 'number' ? a <= b : isNumeric(a) && a <= b;
        },
      };
    }
    case 'greaterThan': {
      const b = value as number;
      return {
        fn: (v) => {
          const a = v[slot] as number;
          return typeof a === 'number' ? a > b : isNumeric(a) && a > b;
        },
      };
    }
    case 'greaterThanInclusive': {
      const b = value as number;
      return {
        fn: (v) => {
          const a = v[slot] as number;
          return typeof a === 'number' ? a >= b : isNumeric(a) && a >= b;
        },
      };
    }
    default:
      return { fn: (v) => op(v[slot], value) };
  }
}

/** `all`: two equality tests are one closure (`v[i] === a && v[j] === b`), and so is a test and any other condition. */
function every(ns: CondNode[]): CondNode {
  if (ns.length === 1) return ns[0]!;
  if (ns.length === 2) {
    const [x, y] = ns as [CondNode, CondNode];
    if (x.test && y.test) {
      const { slot: i, value: a } = x.test,
        { slot: j, value: b } = y.test;
      if (!x.test.negate && !y.test.negate) return { fn: (v) => v[i] === a && v[j] === b };
      if (!x.test.negate) return { fn: (v) => v[i] === a && v[j] !== b };
      if (!y.test.negate) return { fn: (v) => v[i] !== a && v[j] === b };
      return { fn: (v) => v[i] !== a && v[j] !== b };
    }
    if (x.test && !x.test.negate) {
      const { slot: i, value: a } = x.test,
        q = y.fn;
      return { fn: (v) => v[i] === a && q(v) };
    }
    const p = x.fn,
      q = y.fn;
    return { fn: (v) => p(v) && q(v) };
  }
  const ps = ns.map((n) => n.fn);
  return {
    fn: (v) => {
      for (const p of ps) if (!p(v)) return false;
      return true;
    },
  };
}

/** `any`: two equality tests are one closure (`v[i] === a || v[j] === b`). */
function some(ns: CondNode[]): CondNode {
  if (ns.length === 1) return ns[0]!;
  if (ns.length === 2) {
    const [x, y] = ns as [CondNode, CondNode];
    if (x.test && y.test) {
      const { slot: i, value: a } = x.test,
        { slot: j, value: b } = y.test;
      if (!x.test.negate && !y.test.negate) return { fn: (v) => v[i] === a || v[j] === b };
      if (!x.test.negate) return { fn: (v) => v[i] === a || v[j] !== b };
      if (!y.test.negate) return { fn: (v) => v[i] !== a || v[j] === b };
      return { fn: (v) => v[i] !== a || v[j] !== b };
    }
    const p = x.fn,
      q = y.fn;
    return { fn: (v) => p(v) || q(v) };
  }
  const ps = ns.map((n) => n.fn);
  return {
    fn: (v) => {
      for (const p of ps) if (p(v)) return true;
      return false;
    },
  };
}
