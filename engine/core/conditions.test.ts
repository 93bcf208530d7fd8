/**
 * Conditions in json-rules-engine's format, compiled to synchronous predicates. The
 * expected answers are json-rules-engine's default operators (v7): numeric operators
 * first check the fact with numberValidator (parseFloat(fact) is not NaN), so a null or
 * boolean fact is never less or greater than anything, although JS says null <= 0.
 */
import { describe, expect, it } from 'vitest';
import { compileCondition, conditionFacts, OPERATORS } from './conditions.js';
import { compileProgram } from './compile.js';
import { parseFormula } from '../build/load.js';
import { INPUT_FACTS, type Bundle, type ProgramDef } from './types.js';
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
    expect(test(leaf('value', 'lessThanInclusive', 0), { value: undefined })).toBe(false); // undefined <= 0 is false in JS too, but for NaN
    expect(test(leaf('value', 'greaterThanInclusive', 0), { value: 'null' })).toBe(false); // the text "null" parses as NaN, as null does
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
  it("the operators are json-rules-engine's ten defaults", () => {
    expect([...OPERATORS].sort()).toEqual([
      'contains',
      'doesNotContain',
      'equal',
      'greaterThan',
      'greaterThanInclusive',
      'in',
      'lessThan',
      'lessThanInclusive',
      'notEqual',
      'notIn',
    ]);
  });
  it('conditionFacts lists every fact read, in order, with fact references', () => {
    const c: Condition = {
      all: [
        leaf('starType', 'equal', 'enhanced'),
        { any: [leaf('seniorIncome', 'lessThanInclusive', { fact: 'limit' }), { not: leaf('over65', 'equal', true) }] },
      ],
    };
    expect(conditionFacts(c)).toEqual(['starType', 'seniorIncome', 'limit', 'over65']);
  });
});

describe('single equality tests and their pairs', () => {
  const node = (c: Condition) => ({ fn: compileCondition(c, slotOf) });
  const facts = (v: Record<string, unknown>) => FACTS.map((f) => (f in v ? v[f] : null));

  it('not of an equality test is strict inequality: 0 is not false, null is not undefined-ish', () => {
    const notFalse = node({ not: leaf('homestead', 'equal', false) }).fn;
    expect(notFalse(facts({ homestead: false }))).toBe(false);
    expect(notFalse(facts({ homestead: 0 }))).toBe(true);
    expect(notFalse(facts({ homestead: null }))).toBe(true);
    expect(notFalse(facts({ homestead: true }))).toBe(true);
  });

  // all / any of two tests, each equal or notEqual: every combination against the truth table.
  const pairs: Array<[string, string]> = [
    ['equal', 'equal'],
    ['equal', 'notEqual'],
    ['notEqual', 'equal'],
    ['notEqual', 'notEqual'],
  ];
  const rows = [
    { homestead: true, starType: 'basic' },
    { homestead: true, starType: 'enhanced' },
    { homestead: false, starType: 'basic' },
    { homestead: false, starType: null },
    { homestead: 1, starType: 'basic' }, // 1 is not true
  ];
  for (const [o1, o2] of pairs) {
    it(`all / any of homestead ${o1} true, starType ${o2} basic`, () => {
      const a = leaf('homestead', o1, true),
        b = leaf('starType', o2, 'basic');
      for (const r of rows) {
        const x = o1 === 'equal' ? r.homestead === true : r.homestead !== true;
        const y = o2 === 'equal' ? r.starType === 'basic' : r.starType !== 'basic';
        expect(test({ all: [a, b] }, r), JSON.stringify(r)).toBe(x && y);
        expect(test({ any: [a, b] }, r), JSON.stringify(r)).toBe(x || y);
      }
    });
  }

  it('all of a test and another condition; the other is read only when the test holds', () => {
    const c: Condition = { all: [leaf('homestead', 'equal', true), leaf('value', 'greaterThan', 0)] };
    expect(test(c, { homestead: true, value: 5 })).toBe(true);
    expect(test(c, { homestead: true, value: 0 })).toBe(false);
    expect(test(c, { homestead: false, value: 5 })).toBe(false);
    expect(test(c, { homestead: 'true', value: 5 })).toBe(false);
  });

  it('numeric operators: a number fact is compared directly, anything else goes through numberValidator', () => {
    // Against a constant and against another fact, every operator.
    const cases: Array<[unknown, boolean, boolean, boolean, boolean]> = [
      // fact vs 10:   <      <=     >      >=
      [5, true, true, false, false],
      [10, false, true, false, true],
      [10.5, false, false, true, true],
      [Number.NaN, false, false, false, false],
      [-Infinity, true, true, false, false],
      ['5', true, true, false, false], // numeric string: JS compares 5 with 10
      ['20', false, false, true, true],
      ['5abc', false, false, false, false], // passes numberValidator, but NaN compares false
      ['abc', false, false, false, false],
      [null, false, false, false, false], // null <= 10 in JS, but not a number
      [true, false, false, false, false], // true < 10 in JS, but not a number
      [false, false, false, false, false],
    ];
    const ops = ['lessThan', 'lessThanInclusive', 'greaterThan', 'greaterThanInclusive'];
    for (const [x, ...want] of cases) {
      ops.forEach((op, i) => {
        expect(test(leaf('value', op, 10), { value: x }), `${String(x)} ${op} 10`).toBe(want[i]);
        expect(test(leaf('value', op, { fact: 'limit' }), { value: x, limit: 10 }), `${String(x)} ${op} limit`).toBe(want[i]);
      });
    }
  });
});

/**
 * A `cases` step is one closure per shape (compile.ts): the `when` test inlined when it is a
 * single equality test (equal, notEqual or not equal), the values inlined when constants
 * or plain facts. Every shape is checked here against the rule: first case that holds gives
 * the value; none: null.
 */
describe('cases steps: first case whose when holds, every shape', () => {
  const f = (src: string) => parseFormula(src);
  const label = (en: string) => ({ en, es: en });
  // Values: a string value, a literal, a scalar parameter, a plain fact, another formula.
  const values = {
    text: { value: 'basic' },
    literal: { formula: f('100') },
    parameter: { formula: f('limit') },
    fact: { formula: f('value') },
    formula: { formula: f('value * 4') },
  } as const;
  const valueOf = (k: keyof typeof values, value: number): unknown => ({ text: 'basic', literal: 100, parameter: 50000, fact: value, formula: value * 4 })[k];
  // Tests: equality inlined (equal, notEqual, not equal) and any other condition (called).
  const whens: Record<string, { when: Condition; holds: (h: unknown, cls: unknown) => boolean }> = {
    equal: { when: { all: [leaf('homestead', 'equal', true)] }, holds: (h) => h === true },
    notEqual: { when: { all: [leaf('propertyClass', 'notEqual', null)] }, holds: (_, c) => c !== null },
    notEqualNot: { when: { not: leaf('homestead', 'equal', true) }, holds: (h) => h !== true },
    in: { when: leaf('propertyClass', 'in', ['class1', 'class2']), holds: (_, c) => c === 'class1' || c === 'class2' },
  };
  const kinds = Object.keys(values) as Array<keyof typeof values>;
  const steps: ProgramDef['steps'] = [];
  const expected: Array<(value: number, h: unknown, cls: unknown) => unknown> = [];
  for (const [wn, w] of Object.entries(whens)) {
    for (const a of kinds) {
      for (const b of kinds) {
        steps.push({ id: `s${steps.length}`, label: label(`${wn} ${a} ${b}`), cases: [{ when: w.when, ...values[a] }, values[b]] });
        expected.push((value, h, cls) => (w.holds(h, cls) ? valueOf(a, value) : valueOf(b, value)));
      }
      // No otherwise: null when the test does not hold.
      steps.push({ id: `s${steps.length}`, label: label(`${wn} ${a} none`), cases: [{ when: w.when, ...values[a] }] });
      expected.push((value, h, cls) => (w.holds(h, cls) ? valueOf(a, value) : null));
    }
  }
  // Three cases: the first that holds, a case without `when` ends the chain, one case alone.
  steps.push({
    id: 'chain',
    label: label('chain'),
    cases: [{ when: whens.equal!.when, value: 'first' }, { when: whens.in!.when, formula: f('value') }, { formula: f('0') }],
  });
  expected.push((value, h, cls) => (h === true ? 'first' : cls === 'class1' || cls === 'class2' ? value : 0));
  steps.push({ id: 'early', label: label('early'), cases: [{ when: whens.notEqual!.when, formula: f('limit') }, { formula: f('value') }, { value: 'never' }] });
  expected.push((value, _h, cls) => (cls !== null ? 50000 : value));
  steps.push({ id: 'alone', label: label('alone'), cases: [{ formula: f('value') }] });
  expected.push((value) => value);
  steps.push({ id: 'aloneText', label: label('aloneText'), cases: [{ value: 'none' }] });
  expected.push(() => 'none');

  const program: ProgramDef = {
    id: 'test.cases',
    file: 'rules/test/cases.yaml',
    description: 'cases',
    label: label('cases'),
    period: { start: '01-01', fiscal: false },
    years: [2025],
    parameters: { limit: 'test.limit' },
    validations: [],
    steps,
    notes: [],
    result: {},
  };
  const bundle = {
    format: 1,
    states: {},
    programs: { 'test.cases': program },
    parameters: {
      'test.limit': {
        id: 'test.limit',
        file: 'x.yaml',
        description: '',
        label: label('limit'),
        unit: 'usd',
        type: 'scalar',
        values: [{ effective: '2020-01-01', value: 50000, reference: [], last_verified: '2024-01-01' }],
      },
    },
  } as unknown as Bundle;
  const c = compileProgram(bundle, 'test.cases', 2025);
  const run = (value: number, homestead: unknown, propertyClass: unknown) => {
    const v = c.template.slice();
    v[INPUT_FACTS.indexOf('value')] = value;
    v[INPUT_FACTS.indexOf('homestead')] = homestead;
    v[INPUT_FACTS.indexOf('propertyClass')] = propertyClass;
    for (const s of c.steps) v[s.slot] = s.run(v);
    return c.steps.map((s) => v[s.slot]);
  };
  it.each([
    [1000, true, 'class1'],
    [1000, false, 'class1'],
    [250, true, null],
    [250, false, null],
    [7, 1, 'class3'], // 1 is not true
    [7, 'true', 'class2'],
  ])('value %d, homestead %j, class %j', (value, h, cls) => {
    const got = run(value, h, cls);
    steps.forEach((s, i) => expect(got[i], `${s.id}: ${s.label.en}`).toBe(expected[i]!(value, h, cls)));
  });
});
