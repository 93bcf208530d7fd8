/**
 * The reference walker (walk.ts) node by node, on hand-built lowered forms (ir.ts) and
 * figures anyone can check with a pencil: each operator, each function, each condition
 * operator with json-rules-engine's own quirks (a text that parses as a number is numeric,
 * null is not), bands' edges, tables, cases, dropping groups, rounding, validations and
 * notes in both languages. engine/ir-random.test.ts checks the walker against the generated
 * JavaScript on random programs; these tests pin what both must give.
 */
import { describe, expect, it } from 'vitest';
import type { Cond, GroupIR, LeafIR, Num, Operator, ProgramIR, StepIR } from './ir.js';
import { PtaxError } from './errors.js';
import { COMPARE, band, entry, holds, isNumeric, leafValue, resultOf, run, stepValue, valueOf } from './walk.js';

const k = (value: number): Num => ({ op: 'const', value });
const rd = (slot: number): Extract<Num, { op: 'read' }> => ({ op: 'read', slot, name: `x${slot}`, type: 'any', nullable: true });
const bin = (op: '+' | '-' | '*' | '/', left: Num, right: Num): Num => ({ op, left, right, nullAsZero: true });
const test = (operator: Operator, slot: number, value: unknown): Cond => ({
  op: 'test',
  operator,
  fact: rd(slot),
  value: { op: 'literal', value: value as never },
});
const T: Cond = { op: 'all', args: [] }; // holds
const F: Cond = { op: 'any', args: [] }; // does not hold
const leaf = (expr: Num, round?: number): LeafIR => ({
  kind: 'leaf',
  expr,
  unit: round === undefined ? 'count' : 'usd',
  ...(round === undefined ? {} : { round }),
});

/** The error a function throws, as `code: message`. */
function thrown(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(PtaxError);
    return `${(e as PtaxError).code}: ${(e as PtaxError).message}`;
  }
  return 'no error';
}

describe('valueOf: each node with JavaScript’s own arithmetic', () => {
  const v = [7, 2, null, -3, 'class1'];
  it('constants, texts and reads', () => {
    expect(valueOf(k(4.5), v)).toBe(4.5);
    expect(valueOf({ op: 'text', value: 'basic' }, v)).toBe('basic');
    expect(valueOf(rd(0), v)).toBe(7);
    expect(valueOf(rd(2), v)).toBeNull();
    expect(valueOf(rd(4), v)).toBe('class1');
  });
  it('the four operators and minus; null reads as 0 in arithmetic', () => {
    expect(valueOf(bin('+', rd(0), rd(1)), v)).toBe(9); // 7 + 2
    expect(valueOf(bin('-', rd(0), rd(1)), v)).toBe(5); // 7 − 2
    expect(valueOf(bin('*', rd(0), rd(1)), v)).toBe(14); // 7 × 2
    expect(valueOf(bin('/', rd(0), rd(1)), v)).toBe(3.5); // 7 ÷ 2
    expect(valueOf(bin('+', rd(2), rd(1)), v)).toBe(2); // null + 2 = 0 + 2
    expect(valueOf(bin('*', rd(0), rd(2)), v)).toBe(0); // 7 × null = 0
    expect(valueOf({ op: 'neg', arg: rd(3), nullAsZero: false }, v)).toBe(3); // −(−3)
    expect(valueOf({ op: 'neg', arg: rd(2), nullAsZero: true }, v)).toBe(-0); // −null = −0
  });
  it('division by 0 gives ±Infinity or NaN, never an error', () => {
    expect(valueOf(bin('/', rd(0), k(0)), v)).toBe(Infinity); // 7 ÷ 0
    expect(valueOf(bin('/', rd(3), rd(2)), v)).toBe(-Infinity); // −3 ÷ null
    expect(valueOf(bin('/', rd(2), k(0)), v)).toBeNaN(); // null ÷ 0 = 0 ÷ 0
  });
  it('min and max take their arguments left to right, two at a time', () => {
    const args = [rd(0), rd(3), rd(1)]; // 7, −3, 2
    expect(valueOf({ op: 'min', args, nullAsZero: false }, v)).toBe(-3);
    expect(valueOf({ op: 'max', args, nullAsZero: false }, v)).toBe(7);
    // The first argument is not skipped and the last is reached: min(−3, 7) and max(2, 7, −3).
    expect(valueOf({ op: 'min', args: [rd(3), rd(0)], nullAsZero: false }, v)).toBe(-3);
    expect(valueOf({ op: 'max', args: [rd(1), rd(3), rd(0)], nullAsZero: false }, v)).toBe(7);
    expect(valueOf({ op: 'min', args: [rd(1), rd(0), rd(3)], nullAsZero: false }, v)).toBe(-3);
    // Math.min(0, −0) is −0; Math.max(null, −3) is 0.
    expect(valueOf({ op: 'min', args: [k(0), k(-0)], nullAsZero: false }, v)).toBe(-0);
    expect(valueOf({ op: 'max', args: [rd(2), rd(3)], nullAsZero: true }, v)).toBe(0);
  });
  it('floor, pow', () => {
    expect(valueOf({ op: 'floor', arg: bin('/', rd(0), rd(1)), nullAsZero: false }, v)).toBe(3); // floor(3.5)
    expect(valueOf({ op: 'floor', arg: k(-2.5), nullAsZero: false }, v)).toBe(-3);
    expect(valueOf({ op: 'pow', base: rd(1), exp: k(10), nullAsZero: false }, v)).toBe(1024); // 2^10
    expect(valueOf({ op: 'pow', base: rd(0), exp: k(0.5), nullAsZero: false }, v)).toBeCloseTo(2.6457513110645907, 15); // √7
  });
  it('a table entry by a key read at run time, and a band', () => {
    const table = { class1: 0.2, class2: 0.1 };
    expect(valueOf({ op: 'entry', id: 'p.t', table, key: rd(4), raises: 'NO_VALUE' }, v)).toBe(0.2);
    expect(thrown(() => valueOf({ op: 'entry', id: 'p.t', table, key: rd(0), raises: 'NO_VALUE' }, v))).toBe('NO_VALUE: p.t has no value for 7');
    const bands = [{ below: 5, value: 1 }, { value: 2 }];
    expect(valueOf({ op: 'band', id: 'p.b', bands, arg: rd(0), nullAsZero: false, raises: 'NO_VALUE' }, v)).toBe(2); // 7 ≥ 5
    expect(valueOf({ op: 'band', id: 'p.b', bands, arg: rd(1), nullAsZero: false, raises: 'NO_VALUE' }, v)).toBe(1); // 2 < 5
  });
});

describe('entry and band', () => {
  it('entry: an own key’s value; a missing key is NO_VALUE with the key in the message', () => {
    expect(entry({ a: 0, b: 3 }, 'p.t', 'a')).toBe(0); // 0 is a value, not a missing one
    expect(entry({ a: 0, b: 3 }, 'p.t', 'b')).toBe(3);
    expect(thrown(() => entry({ a: 0 }, 'p.t', null))).toBe('NO_VALUE: p.t has no value for null');
  });
  it('below is exclusive, at_most inclusive, the first band that fits wins', () => {
    const bands = [
      { below: 10, value: 1 },
      { at_most: 20, value: 2 },
      { below: 30, value: 3 },
    ];
    expect(band('p.b', bands, 9.99)).toBe(1);
    expect(band('p.b', bands, 10)).toBe(2); // not below 10, at most 20
    expect(band('p.b', bands, 20)).toBe(2); // at most 20 includes 20
    expect(band('p.b', bands, 20.5)).toBe(3);
    expect(band('p.b', bands, -1e300)).toBe(1);
    expect(thrown(() => band('p.b', bands, 30))).toBe('NO_VALUE: p.b has no band for 30'); // below 30 excludes 30
  });
  it('a band with neither bound takes every number below Infinity; NaN and Infinity fit none', () => {
    const bands = [{ below: 0, value: 5 }, { value: 6 }];
    expect(band('p.b', bands, 1e300)).toBe(6);
    expect(band('p.b', bands, -0)).toBe(6); // −0 is not below 0
    expect(thrown(() => band('p.b', bands, Infinity))).toBe('NO_VALUE: p.b has no band for Infinity');
    expect(thrown(() => band('p.b', bands, NaN))).toBe('NO_VALUE: p.b has no band for NaN');
    expect(thrown(() => band('p.b', [], 1))).toBe('NO_VALUE: p.b has no band for 1');
  });
  it('a band with both bounds fits below OR at most', () => {
    // below 10 or at most 15: 12 fits by at_most, 14 too; 16 fits neither.
    const bands = [{ below: 10, at_most: 15, value: 1 }];
    expect(band('p.b', bands, 12)).toBe(1);
    expect(band('p.b', bands, 15)).toBe(1);
    expect(thrown(() => band('p.b', bands, 16))).toBe('NO_VALUE: p.b has no band for 16');
  });
  it('a band with only at_most has no implicit below Infinity', () => {
    expect(thrown(() => band('p.b', [{ at_most: 5, value: 1 }], 6))).toBe('NO_VALUE: p.b has no band for 6');
    expect(band('p.b', [{ at_most: 5, value: 1 }], 5)).toBe(1);
  });
});

describe('isNumeric: json-rules-engine’s numberValidator', () => {
  it.each<[unknown, boolean]>([
    [0, true],
    [-2.5, true],
    [Infinity, true],
    [NaN, false],
    [null, false],
    [undefined, false],
    [true, false],
    [false, false],
    ['12', true],
    ['1.5abc', true], // parseFloat reads the leading number
    ['abc', false],
    ['', false],
    ['class1', false],
    [-0, true],
    [1e21, true], // '1e+21' parses back
    [[7], true], // as json-rules-engine: parseFloat('7')
  ])('%s: %s', (x, want) => {
    expect(isNumeric(x)).toBe(want);
  });
});

describe('COMPARE: json-rules-engine’s default operators', () => {
  it('equal and notEqual are strict', () => {
    expect(COMPARE.equal(1, 1)).toBe(true);
    expect(COMPARE.equal(1, '1')).toBe(false);
    expect(COMPARE.notEqual(1, '1')).toBe(true);
    expect(COMPARE.notEqual('a', 'a')).toBe(false);
  });
  it('in and notIn look the fact up in the list', () => {
    expect(COMPARE.in('a', ['b', 'a'])).toBe(true); // index 1
    expect(COMPARE.in('b', ['b'])).toBe(true); // index 0 > −1
    expect(COMPARE.in('c', ['b', 'a'])).toBe(false);
    expect(COMPARE.notIn('c', ['b', 'a'])).toBe(true);
    expect(COMPARE.notIn('b', ['b', 'a'])).toBe(false);
  });
  it('contains and doesNotContain need an array fact', () => {
    expect(COMPARE.contains(['x', 'y'], 'y')).toBe(true);
    expect(COMPARE.contains(['x'], 'x')).toBe(true);
    expect(COMPARE.contains(['x', 'y'], 'z')).toBe(false);
    expect(COMPARE.contains('xyz', 'y')).toBe(false); // a text is not an array
    expect(COMPARE.doesNotContain(['x', 'y'], 'z')).toBe(true);
    expect(COMPARE.doesNotContain(['x', 'y'], 'x')).toBe(false);
    expect(COMPARE.doesNotContain('xyz', 'z')).toBe(false); // not an array: false, not true
  });
  it('the order operators: numeric facts only, edges exact', () => {
    expect([COMPARE.lessThan(1, 2), COMPARE.lessThan(2, 2), COMPARE.lessThan(3, 2)]).toEqual([true, false, false]);
    expect([COMPARE.lessThanInclusive(1, 2), COMPARE.lessThanInclusive(2, 2), COMPARE.lessThanInclusive(3, 2)]).toEqual([true, true, false]);
    expect([COMPARE.greaterThan(1, 2), COMPARE.greaterThan(2, 2), COMPARE.greaterThan(3, 2)]).toEqual([false, false, true]);
    expect([COMPARE.greaterThanInclusive(1, 2), COMPARE.greaterThanInclusive(2, 2), COMPARE.greaterThanInclusive(3, 2)]).toEqual([false, true, true]);
    // null < 5 is true in JavaScript, but null is not numeric: false. '3' < 5 is numeric and true.
    expect(COMPARE.lessThan(null, 5)).toBe(false);
    expect(COMPARE.lessThanInclusive(null, 5)).toBe(false);
    expect(COMPARE.greaterThanInclusive(null, -5)).toBe(false);
    expect(COMPARE.greaterThan(true, 0)).toBe(false);
    expect(COMPARE.lessThan('3', 5)).toBe(true);
    expect(COMPARE.greaterThan('7', 5)).toBe(true);
  });
});

describe('holds: all, any, not and tests', () => {
  const v = [5, 'a', null];
  it('all and any of none; every and some', () => {
    expect(holds(T, v)).toBe(true);
    expect(holds(F, v)).toBe(false);
    expect(holds({ op: 'all', args: [T, F] }, v)).toBe(false);
    expect(holds({ op: 'all', args: [T, T] }, v)).toBe(true);
    expect(holds({ op: 'any', args: [F, T] }, v)).toBe(true);
    expect(holds({ op: 'any', args: [F, F] }, v)).toBe(false);
    expect(holds({ op: 'not', arg: F }, v)).toBe(true);
    expect(holds({ op: 'not', arg: T }, v)).toBe(false);
  });
  it('a test reads its fact and compares with the literal or another fact', () => {
    expect(holds(test('greaterThan', 0, 4), v)).toBe(true); // 5 > 4
    expect(holds(test('greaterThan', 0, 5), v)).toBe(false);
    expect(holds(test('in', 1, ['b', 'a']), v)).toBe(true);
    expect(holds(test('equal', 2, null), v)).toBe(true);
    const factVsFact = (operator: Operator, a: number, b: number): Cond => ({ op: 'test', operator, fact: rd(a), value: rd(b) });
    expect(holds(factVsFact('lessThan', 0, 3), [5, 0, 0, 6])).toBe(true); // 5 < 6
    expect(holds(factVsFact('lessThan', 0, 3), [5, 0, 0, 5])).toBe(false); // 5 < 5
    // A constant (a scalar parameter) on the right is its value.
    expect(holds({ op: 'test', operator: 'equal', fact: rd(0), value: k(5) }, v)).toBe(true);
  });
});

describe('stepValue: formula, condition, cases', () => {
  const step = (body: StepIR['body']): StepIR => ({ id: 's', slot: 9, type: 'any', body, raises: false, label: { en: 's', es: 's' } });
  it('a formula’s and a condition’s value', () => {
    expect(stepValue(step({ kind: 'formula', expr: bin('*', rd(0), k(3)) }), [4])).toBe(12); // 4 × 3
    expect(stepValue(step({ kind: 'condition', cond: test('equal', 0, 4) }), [4])).toBe(true);
    expect(stepValue(step({ kind: 'condition', cond: test('equal', 0, 4) }), [5])).toBe(false);
  });
  it('the first case whose when holds; a case without when always holds; none: null', () => {
    const cases = {
      kind: 'cases' as const,
      cases: [
        { when: test('lessThan', 0, 10), value: k(1) },
        { when: test('lessThan', 0, 20), value: k(2) },
      ],
    };
    expect(stepValue(step(cases), [5])).toBe(1); // 5 < 10: the first, though the second holds too
    expect(stepValue(step(cases), [15])).toBe(2);
    expect(stepValue(step(cases), [25])).toBeNull();
    const withDefault = { kind: 'cases' as const, cases: [...cases.cases, { value: { op: 'text' as const, value: 'other' } }] };
    expect(stepValue(step(withDefault), [25])).toBe('other');
    expect(stepValue(step(withDefault), [15])).toBe(2);
  });
});

describe('resultOf and leafValue', () => {
  it('a leaf is rounded as its unit says, or given as it is', () => {
    expect(leafValue(leaf(k(920.535), 2), [])).toBe(920.54); // half a cent up, despite binary noise
    expect(leafValue(leaf(k(-1.005), 2), [])).toBe(-1.01); // half away from zero
    expect(leafValue(leaf(k(1.23456789)), [])).toBe(1.23456789); // a count is not rounded
  });
  it('every entry in order; a value-dropping group leaves out its zeros, an amount-dropping one its zero amounts', () => {
    const g: GroupIR = {
      kind: 'group',
      entries: [
        ['tax', leaf(bin('*', rd(0), k(0.02)), 2)], // 1000 × 0.02 = 20
        [
          'exemptions',
          {
            kind: 'group',
            drop: 'value',
            entries: [
              ['star', leaf(k(0), 2)],
              ['vet', leaf(k(300), 2)],
              ['other', leaf(rd(1))], // null: kept (only 0 is dropped)
            ],
          },
        ],
        [
          'exemptionBreakdown',
          {
            kind: 'group',
            drop: 'amount',
            entries: [
              ['star', { kind: 'group', entries: [['amount', leaf(k(0), 2)]] }],
              ['vet', { kind: 'group', entries: [['amount', leaf(k(300), 2)]] }],
              ['plain', leaf(k(0))], // a leaf has no amount: kept
            ],
          },
        ],
        ['zero', leaf(k(0))], // no drop here: kept
      ],
    };
    const r = resultOf(g, [1000, null]);
    expect(r).toEqual({
      tax: 20,
      exemptions: { vet: 300, other: null },
      exemptionBreakdown: { vet: { amount: 300 }, plain: 0 },
      zero: 0,
    });
    expect(Object.keys(r)).toEqual(['tax', 'exemptions', 'exemptionBreakdown', 'zero']);
  });
  it('a group that drops nothing keeps a member whose amount is 0; an amount-dropping group keeps a null leaf', () => {
    const zeroAmount: GroupIR = { kind: 'group', entries: [['amount', leaf(k(0), 2)]] };
    expect(resultOf({ kind: 'group', entries: [['x', zeroAmount]] }, [])).toEqual({ x: { amount: 0 } });
    // A value-dropping group drops a 0, never a group (a group is not 0).
    expect(resultOf({ kind: 'group', drop: 'value', entries: [['x', zeroAmount]] }, [])).toEqual({ x: { amount: 0 } });
    expect(resultOf({ kind: 'group', drop: 'amount', entries: [['x', leaf(rd(0))]] }, [null])).toEqual({ x: null });
  });
});

describe('run: validations, steps, result, notes', () => {
  const program = (over: Partial<ProgramIR> = {}): ProgramIR => ({
    format: 1,
    program: 'p',
    file: 'rules/p.yaml',
    year: 2026,
    date: '2026-01-01',
    slots: ['value', 'rate', 'tax'],
    template: [null, null, null],
    facts: 2,
    params: [],
    validations: [
      { when: test('lessThan', 0, 0), code: 'NEGATIVE', message: { en: 'negative value', es: 'valor negativo' } },
      { when: test('lessThan', 0, 1), code: 'SMALL', message: { en: 'small value', es: 'valor pequeño' } },
    ],
    steps: [
      { id: 'tax', slot: 2, type: 'number', body: { kind: 'formula', expr: bin('*', rd(0), rd(1)) }, raises: false, label: { en: 'tax', es: 'impuesto' } },
    ],
    notes: [
      { when: test('greaterThan', 2, 100), text: { en: 'over 100', es: 'más de 100' } },
      { when: test('greaterThan', 2, 1000), text: { en: 'over 1000', es: 'más de 1000' } },
      { when: T, text: { en: 'always', es: 'siempre' } },
    ],
    result: { kind: 'group', entries: [['annualTax', leaf(rd(2), 2)]] },
    ...over,
  });
  it('the steps into their slots, the result, the notes that hold in order', () => {
    const v = [200000, 0.012345, null];
    // 200,000 × 0.012345 = 2,469 exactly.
    expect(run(program(), v)).toEqual({ annualTax: 2469, notes: ['over 100', 'over 1000', 'always'] });
    expect(v[2]).toBeCloseTo(2469, 9);
    expect(run(program(), [5000, 0.03, null], 'es')).toEqual({ annualTax: 150, notes: ['más de 100', 'siempre'] }); // 5,000 × 0.03
  });
  it('English unless told', () => {
    expect(run(program(), [10, 1, null]).notes).toEqual(['always']);
    expect(thrown(() => run(program(), [-1, 1, null]))).toBe('NEGATIVE: negative value');
  });
  it('the first validation that holds is the error, in the language asked', () => {
    // −1 is below 0 and below 1: the first one wins.
    expect(thrown(() => run(program(), [-1, 1, null], 'es'))).toBe('NEGATIVE: valor negativo');
    expect(thrown(() => run(program(), [0.5, 1, null], 'es'))).toBe('SMALL: valor pequeño');
  });
  it('a step reads the steps before it', () => {
    const p = program({
      slots: ['value', 'rate', 'tax', 'twice'],
      template: [null, null, null, null],
      steps: [
        ...program().steps,
        { id: 'twice', slot: 3, type: 'number', body: { kind: 'formula', expr: bin('*', rd(2), k(2)) }, raises: false, label: { en: 't', es: 't' } },
      ],
      notes: [],
      result: { kind: 'group', entries: [['annualTax', leaf(rd(3), 2)]] },
    });
    expect(run(p, [100, 0.5, null, null])).toEqual({ annualTax: 100, notes: [] }); // 100 × 0.5 × 2
  });
});
