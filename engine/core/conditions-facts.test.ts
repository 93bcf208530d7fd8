/**
 * Conditions that compare a fact with another fact's value (json-rules-engine's
 * { fact: … } value), for the list operators, and the error an unknown operator raises.
 * json-rules-engine's semantics: `in` is value.indexOf(fact) > -1, `notIn` === -1.
 */
import { describe, expect, it } from 'vitest';
import { compileCondition } from './conditions.js';
import { PtaxError } from './errors.js';
import type { Condition } from './types.js';

const FACTS = ['propertyClass', 'classes', 'level', 'levels'];
const slotOf = (f: string) => FACTS.indexOf(f);
const test = (c: Condition, v: Record<string, unknown>) => compileCondition(c, slotOf)(FACTS.map((f) => (f in v ? v[f] : null)));

describe('in / notIn against a list held by another fact', () => {
  const residential = ['class1', 'class2'];
  it.each([
    ['class1', true],
    ['class2', true],
    ['class3', false],
    ['CLASS1', false],
    [null, false],
  ])('%j in the residential classes → %s', (propertyClass, want) => {
    expect(test({ fact: 'propertyClass', operator: 'in', value: { fact: 'classes' } }, { propertyClass, classes: residential })).toBe(want);
    expect(test({ fact: 'propertyClass', operator: 'notIn', value: { fact: 'classes' } }, { propertyClass, classes: residential })).toBe(!want);
  });

  it('the first and last entries count; numbers match numbers only', () => {
    const levels = [0, 10, 20];
    const inLevels = (level: unknown) => test({ fact: 'level', operator: 'in', value: { fact: 'levels' } }, { level, levels });
    const notInLevels = (level: unknown) => test({ fact: 'level', operator: 'notIn', value: { fact: 'levels' } }, { level, levels });
    expect([inLevels(0), inLevels(20), inLevels(15), inLevels('10')]).toEqual([true, true, false, false]);
    expect([notInLevels(0), notInLevels(20), notInLevels(15), notInLevels('10')]).toEqual([false, false, true, true]);
    expect(test({ fact: 'level', operator: 'in', value: { fact: 'levels' } }, { level: 10, levels: [] })).toBe(false);
    expect(test({ fact: 'level', operator: 'notIn', value: { fact: 'levels' } }, { level: 10, levels: [] })).toBe(true);
  });
});

describe('an unknown operator', () => {
  it('is the error RULES_INVALID naming the operator', () => {
    let err: unknown;
    try {
      compileCondition({ fact: 'level', operator: 'between', value: [1, 2] }, slotOf);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PtaxError);
    expect([(err as PtaxError).code, (err as PtaxError).message]).toEqual(['RULES_INVALID', 'unknown operator between']);
  });
});
