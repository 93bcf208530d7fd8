/**
 * Conditions in json-rules-engine's format (all / any / not, fact + operator + value), on
 * their own (a condition with a slot for each fact): lowered (ir.ts) and walked (walk.ts),
 * as a program's conditions are. The semantics are json-rules-engine's default operators,
 * to the letter: a differential test runs the library itself on random facts and requires
 * the same answers.
 */
import type { Condition, ConditionValue } from './types.js';
import { lowerCond, OPERATORS } from './ir.js';
import { holds, type Facts } from './walk.js';

export { OPERATORS };
export type { Facts };
export type Predicate = (v: Facts) => boolean;
export type SlotOf = (fact: string) => number;

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
  const ir = lowerCond(c, (name) => ({ kind: 'fact', slot: slotOf(name) }));
  return (v) => holds(ir, v);
}
