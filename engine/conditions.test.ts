/**
 * Conditions in json-rules-engine's format, compiled to synchronous predicates. The
 * expected answers are json-rules-engine's default operators (v7): numeric operators
 * first check the fact with numberValidator (parseFloat(fact) is not NaN), so a null or
 * boolean fact is never less or greater than anything, although JS says null <= 0.
 */
import { describe, expect, it } from 'vitest';
import { compileCondition, conditionFacts, OPERATORS } from './conditions.js';
import type { Condition, ConditionValue } from './types.js';

const FACTS = ['value', 'seniorIncome', 'limit', 'propertyClass', 'starType', 'homestead', 'over65', 'list', 'level'];
const slotOf = (f: string) => {
  const i = FACTS.indexOf(f);
  if (i < 0) throw new Error(`no slot for ${f}`);
  return i;
};
const test = (c: Condition, v: Record<string, unknown>) => compileCondition(c, slotOf)(FACTS.map((f) => (f in v ? v[f] : null)));
const leaf = (fact: string, operator: string, value: ConditionValue): Condition => ({ fact, operator, value });

describe('equal / notEqual are strict', () => {
  it.each([
    ['class1', 'class1', true],
    ['class1', 'class2', false],
    [null, null, true],
    [0, null, false],
    [0, false, false], // no coercion: 0 is not false
    [1, '1', false], //  nor 1 "1"
    [true, true, true],
    [107300, 107300, true],
  ])('%j equal %j → %s', (fact, value, want) => {
    expect(test(leaf('value', 'equal', value as ConditionValue), { value: fact })).toBe(want);
    expect(test(leaf('value', 'notEqual', value as ConditionValue), { value: fact })).toBe(!want);
  });
});

describe('numeric operators', () => {
  // The Enhanced STAR income limit, 107,300: ≤ qualifies, 107,301 does not.
  it.each([
    [107299, true, true, false, false],
    [107300, false, true, false, true],
    [107301, false, false, true, true],
    [0, true, true, false, false],
    [-5000, true, true, false, false],
  ])('%d against 107300: < %s, ≤ %s, > %s, ≥ %s', (x, lt, le, gt, ge) => {
    expect(test(leaf('seniorIncome', 'lessThan', 107300), { seniorIncome: x })).toBe(lt);
    expect(test(leaf('seniorIncome', 'lessThanInclusive', 107300), { seniorIncome: x })).toBe(le);
    expect(test(leaf('seniorIncome', 'greaterThan', 107300), { seniorIncome: x })).toBe(gt);
    expect(test(leaf('seniorIncome', 'greaterThanInclusive', 107300), { seniorIncome: x })).toBe(ge);
  });

  it('a null fact is false for every numeric operator, even null <= 0 (true in JS)', () => {
    expect(null! <= 0).toBe(true); // what plain JS would say
    for (const op of ['lessThan', 'lessThanInclusive', 'greaterThan', 'greaterThanInclusive']) {
      expect(test(leaf('seniorIncome', op, 0), { seniorIncome: null }), op).toBe(false);
      expect(test(leaf('seniorIncome', op, -1), { seniorIncome: null }), op).toBe(false);
      expect(test(leaf('seniorIncome', op, 1), { seniorIncome: null }), op).toBe(false);
    }
    // The NYC validation "seniorIncome lessThan 0" does not fire when no income is given.
    expect(test({ all: [leaf('seniorIncome', 'lessThan', 0)] }, { seniorIncome: null })).toBe(false);
  });

  it('booleans, empty and non-numeric strings are not numbers; numeric strings are', () => {
    expect(true < (5 as unknown as boolean)).toBe(true); // plain JS: true < 5
    expect(test(leaf('value', 'lessThan', 5), { value: true })).toBe(false);
    expect(test(leaf('value', 'greaterThanInclusive', 0), { value: false })).toBe(false);
    expect(test(leaf('value', 'lessThan', 5), { value: '' })).toBe(false);
    expect(test(leaf('value', 'greaterThan', 0), { value: 'class1' })).toBe(false);
    expect(test(leaf('value', 'lessThan', 10), { value: '5' })).toBe(true); // parseFloat('5') = 5
    // '5abc' passes numberValidator (parseFloat stops at 'a': 5) but '5abc' < 10 compares NaN: false.
    expect(test(leaf('value', 'lessThan', 10), { value: '5abc' })).toBe(false);
    expect(test(leaf('value', 'lessThan', 10), { value: Number.NaN })).toBe(false);
    expect(test(leaf('value', 'greaterThan', 50000000), { value: Infinity })).toBe(true);
  });

  it('comparing with a null value compares with 0 (JS coercion), as json-rules-engine does', () => {
    expect(test(leaf('value', 'greaterThan', null), { value: 1 })).toBe(true); // 1 > null ⇔ 1 > 0
    expect(test(leaf('value', 'lessThanInclusive', null), { value: 0 })).toBe(true); // 0 <= 0
  });
});

describe('in / notIn', () => {
  const classes = ['class1', 'class2', 'class3', 'class4'];
  it.each([
    ['class1', true],
    ['class4', true],
    ['class9', false],
    ['CLASS1', false],
    [null, false],
    ['', false],
  ])('%j in [class1…class4] → %s', (x, want) => {
    expect(test(leaf('propertyClass', 'in', classes), { propertyClass: x })).toBe(want);
    expect(test(leaf('propertyClass', 'notIn', classes), { propertyClass: x })).toBe(!want);
  });

  it('veteran levels: numbers match numbers only', () => {
    const levels = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
    expect(test(leaf('level', 'notIn', levels), { level: 10 })).toBe(false);
    expect(test(leaf('level', 'notIn', levels), { level: 15 })).toBe(true);
    expect(test(leaf('level', 'notIn', levels), { level: '10' })).toBe(true); // '10' is not 10
    expect(test(leaf('level', 'in', [null, 0]), { level: null })).toBe(true);
  });
});

describe('contains / doesNotContain need an array fact', () => {
  it('array facts', () => {
    expect(test(leaf('list', 'contains', 'nycClass'), { list: ['nycClass', 'topCoded'] })).toBe(true);
    expect(test(leaf('list', 'contains', 'estimated'), { list: ['nycClass'] })).toBe(false);
    expect(test(leaf('list', 'doesNotContain', 'estimated'), { list: ['nycClass'] })).toBe(true);
    expect(test(leaf('list', 'doesNotContain', 'nycClass'), { list: ['nycClass'] })).toBe(false);
  });
  it('anything else is false for both, even a string that contains the text', () => {
    for (const x of ['nycClass', null, 5, true]) {
      expect(test(leaf('list', 'contains', 'nycClass'), { list: x }), String(x)).toBe(false);
      expect(test(leaf('list', 'doesNotContain', 'nycClass'), { list: x }), String(x)).toBe(false);
    }
  });
});

describe('a fact compared with another fact', () => {
  const qualifies: Condition = {
    all: [leaf('seniorIncome', 'notEqual', null), leaf('seniorIncome', 'lessThanInclusive', { fact: 'limit' })],
  };
  it('income ≤ limit', () => {
    expect(test(qualifies, { seniorIncome: 107300, limit: 107300 })).toBe(true);
    expect(test(qualifies, { seniorIncome: 107301, limit: 107300 })).toBe(false);
    expect(test(qualifies, { seniorIncome: 0, limit: 107300 })).toBe(true);
    expect(test(qualifies, { seniorIncome: null, limit: 107300 })).toBe(false);
  });
  it('value > max market value; equal between facts', () => {
    expect(test(leaf('value', 'greaterThan', { fact: 'limit' }), { value: 50000001, limit: 50000000 })).toBe(true);
    expect(test(leaf('value', 'greaterThan', { fact: 'limit' }), { value: 50000000, limit: 50000000 })).toBe(false);
    expect(test(leaf('propertyClass', 'equal', { fact: 'starType' }), { propertyClass: null, starType: null })).toBe(true);
    expect(test(leaf('propertyClass', 'in', { fact: 'list' }), { propertyClass: 'class1', list: ['class1'] })).toBe(true);
  });
});

describe('nested all / any / not', () => {
  // The NYC "residential exemptions dropped" note: residential false and something asked.
  const requested: Condition = {
    any: [leaf('homestead', 'equal', true), leaf('over65', 'equal', true), leaf('starType', 'in', ['basic', 'enhanced'])],
  };
  const dropped: Condition = { all: [{ not: leaf('propertyClass', 'in', ['class1', 'class2']) }, requested] };

  it.each([
    [{ propertyClass: 'class3', homestead: true }, true],
    [{ propertyClass: 'class4', starType: 'enhanced' }, true],
    [{ propertyClass: 'class4', starType: 'none' }, false],
    [{ propertyClass: 'class1', homestead: true }, false],
    [{ propertyClass: 'class3' }, false],
    [{ propertyClass: null, over65: true }, true],
  ])('%j → %s', (v, want) => {
    expect(test(dropped, v)).toBe(want);
    expect(test({ not: dropped }, v)).toBe(!want);
  });

  it('any of one, all of one, all of three, any of three, and double negation', () => {
    const yes = leaf('homestead', 'equal', true);
    const no = leaf('over65', 'equal', true);
    const v = { homestead: true, over65: false };
    expect(test({ any: [yes] }, v)).toBe(true);
    expect(test({ all: [no] }, v)).toBe(false);
    expect(test({ all: [yes, yes, no] }, v)).toBe(false);
    expect(test({ all: [yes, yes, yes] }, v)).toBe(true);
    expect(test({ any: [no, no, yes] }, v)).toBe(true);
    expect(test({ any: [no, no, no] }, v)).toBe(false);
    expect(test({ not: { not: yes } }, v)).toBe(true);
    expect(test({ any: [{ all: [yes, { not: no }] }, no] }, v)).toBe(true);
  });
});

describe('compile errors and fact lists', () => {
  it('an unknown operator is rejected when compiling', () => {
    expect(() => compileCondition(leaf('value', 'lte', 0), slotOf)).toThrow('unknown operator lte');
  });
  it('an unknown fact is rejected by slotOf when compiling, not when evaluating', () => {
    expect(() => compileCondition({ all: [leaf('nope', 'equal', 1)] }, slotOf)).toThrow('no slot for nope');
  });
  it('the operators are json-rules-engine\'s ten defaults', () => {
    expect([...OPERATORS].sort()).toEqual(
      ['contains', 'doesNotContain', 'equal', 'greaterThan', 'greaterThanInclusive', 'in', 'lessThan', 'lessThanInclusive', 'notEqual', 'notIn'],
    );
  });
  it('conditionFacts lists every fact read, in order, with fact references', () => {
    const c: Condition = {
      all: [leaf('starType', 'equal', 'enhanced'), { any: [leaf('seniorIncome', 'lessThanInclusive', { fact: 'limit' }), { not: leaf('over65', 'equal', true) }] }],
    };
    expect(conditionFacts(c)).toEqual(['starType', 'seniorIncome', 'limit', 'over65']);
  });
});
