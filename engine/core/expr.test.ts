/**
 * The formula interpreter: jsep syntax trees (parsed by the loader's parseFormula)
 * compiled to closures over a fact array. Facts give the numbers a formula may not
 * write (figures belong in parameters), so every case below is plain arithmetic.
 */
import { describe, expect, it } from 'vitest';
import { bandPicker, compileExpr, type Binding } from './expr.js';
import { parseFormula } from '../build/load.js';
import { PtaxError } from './errors.js';
import type { Band } from './types.js';

const VETERAN_BANDS: Band[] = [{ below: 20, value: 1 }, { below: 40, value: 2 }, { below: 60, value: 3 }, { below: 80, value: 4 }, { value: 5 }];
const ABATEMENT_BANDS: Band[] = [{ at_most: 50000, value: 28.1 }, { at_most: 55000, value: 25.2 }, { at_most: 60000, value: 22.5 }, { value: 17.5 }];
const RATIO = { class1: 0.06, class2: 0.45, class3: 0.45, class4: 0.45 };

/** Facts by slot: a, b, c, d, cls, level, av. */
const SLOTS = ['a', 'b', 'c', 'd', 'cls', 'level', 'av'];
function facts(v: Partial<Record<string, unknown>>): unknown[] {
  return SLOTS.map((s) => v[s] ?? null);
}

/** Parameters: k (a scalar 2.5), ratio (a table), vet and abate (bands). */
function resolver(scalars: Record<string, number> = { k: 2.5 }) {
  return (name: string): Binding => {
    if (name in scalars) return { kind: 'scalar', value: scalars[name]! };
    if (name === 'ratio') return { kind: 'table', id: 'ny.nyc.assessment_ratio', table: RATIO };
    if (name === 'vet') return { kind: 'bands', id: 'ny.nyc.veteran_multiplier', bands: VETERAN_BANDS };
    if (name === 'abate') return { kind: 'bands', id: 'ny.nyc.abatement_rate', bands: ABATEMENT_BANDS };
    const slot = SLOTS.indexOf(name);
    if (slot < 0) throw new PtaxError('RULES_INVALID', `unknown fact ${name}`);
    return { kind: 'fact', slot };
  };
}

const evalF = (src: string, v: Partial<Record<string, unknown>>, scalars?: Record<string, number>) =>
  compileExpr(parseFormula(src).ast, resolver(scalars))(facts(v));

describe('arithmetic and precedence', () => {
  const v = { a: 2, b: 3, c: 4, d: 24 };
  it.each([
    ['a + b * c', 14], //           2 + 3×4 = 14 (× before +)
    ['(a + b) * c', 20], //         (2+3)×4 = 20
    ['a * b + c', 10], //           2×3 + 4 = 10
    ['a - b - c', -5], //           (2−3)−4 = −5 (left to right)
    ['a - (b - c)', 3], //          2 − (3−4) = 3
    ['d / c / a', 3], //            (24/4)/2 = 3, not 24/(4/2) = 12
    ['d / (c / a)', 12], //         24/(4/2) = 12
    ['d - a * b / c', 22.5], //     24 − (2×3)/4 = 22.5
    ['a + b * c - d / a', 2], //    2 + 12 − 12 = 2
    ['100 * a / 4 + 12 - 1', 61], // 200/4 + 12 − 1 = 61
  ])('%s = %d', (src, want) => {
    expect(evalF(src, v)).toBe(want);
  });

  it('unary minus', () => {
    expect(evalF('-a + b', { a: 2, b: 3 })).toBe(1); //        −2 + 3
    expect(evalF('-(a + b)', { a: 2, b: 3 })).toBe(-5); //     −(2+3)
    expect(evalF('a * -b', { a: 2, b: 3 })).toBe(-6); //       2 × (−3)
    expect(evalF('- -a', { a: 2 })).toBe(2); //                −(−2)
    expect(evalF('a - -b', { a: 2, b: 3 })).toBe(5); //        2 − (−3)
    expect(evalF('-a * b', { a: 2, b: 3 })).toBe(-6); //       (−2) × 3
  });

  it('division keeps full precision; 1/0 is Infinity, not an error', () => {
    expect(evalF('a / b', { a: 1, b: 3 })).toBe(1 / 3);
    expect(evalF('a / 0', { a: 1 })).toBe(Infinity);
  });

  it('scalar parameters are numbers in the formula', () => {
    expect(evalF('k * a', { a: 4 })).toBe(10); // 2.5 × 4
    expect(evalF('a - k', { a: 4 })).toBe(1.5); // 4 − 2.5
    expect(evalF('k / a', { a: 4 })).toBe(0.625); // 2.5 / 4
    expect(evalF('12 - k', {})).toBe(9.5); // 12 − 2.5, all constant
  });
});

describe('min, max, floor', () => {
  const v = { a: 7, b: -3, c: 12.5, d: 0 };
  it('min and max of 2, 3 and 4 values', () => {
    expect(evalF('min(a, b)', v)).toBe(-3);
    expect(evalF('max(a, b)', v)).toBe(7);
    expect(evalF('min(a, b, c)', v)).toBe(-3);
    expect(evalF('max(a, b, c)', v)).toBe(12.5);
    expect(evalF('min(a, c, d, b)', v)).toBe(-3); // the smallest comes last
    expect(evalF('max(b, d, a, c)', v)).toBe(12.5); // the largest comes last
    expect(evalF('min(c, a, 4, 12)', v)).toBe(4); // a constant among facts
    expect(evalF('max(0, b)', v)).toBe(0); // max(0, …) floors at 0, as finalTax does
  });

  it('min and max of constants are folded to the same values', () => {
    expect(evalF('min(12, 4, 100)', {})).toBe(4);
    expect(evalF('max(12, 4, 100, 1)', {})).toBe(100);
  });

  it('floor rounds toward minus infinity', () => {
    expect(evalF('floor(a / 4)', { a: 7 })).toBe(1); // floor(1.75)
    expect(evalF('floor(-a / 4)', { a: 7 })).toBe(-2); // floor(−1.75)
    expect(evalF('floor(a)', { a: 12 })).toBe(12);
    expect(evalF('floor(100 / 12)', {})).toBe(8); // folded: floor(8.33…)
  });

  it('floor takes one value, min and max at least two', () => {
    expect(() => evalF('floor(a, b)', { a: 1, b: 2 })).toThrow('floor() takes one value');
    expect(() => evalF('min(a)', { a: 1 })).toThrowError(PtaxError);
    expect(() => evalF('max(a)', { a: 1 })).toThrowError(PtaxError);
  });

  // BUG: min() and max() with no argument are folded to Infinity / −Infinity instead of
  // being rejected (min(a) with one non-constant argument is rejected).
  it('min() with no argument is an error, not Infinity', () => {
    expect(() => evalF('min()', {})).toThrowError(PtaxError);
  });
});

describe('band()', () => {
  it('`below` is an exclusive bound: exactly on the bound takes the next band', () => {
    // Veterans' multiplier: below 20 → 1, below 40 → 2, below 60 → 3, below 80 → 4, else 5.
    const want: Array<[number, number]> = [
      [0, 1],
      [10, 1],
      [19.999, 1],
      [20, 2],
      [39, 2],
      [40, 3],
      [60, 4],
      [79.9, 4],
      [80, 5],
      [100, 5],
    ];
    for (const [level, m] of want) expect(evalF('band(vet, level)', { level }), `level ${level}`).toBe(m);
  });

  it('`at_most` is an inclusive bound: exactly on the bound stays in the band', () => {
    // Co-op/condo abatement: ≤ 50,000 → 28.1, ≤ 55,000 → 25.2, ≤ 60,000 → 22.5, else 17.5.
    const want: Array<[number, number]> = [
      [0, 28.1],
      [50000, 28.1],
      [50000.01, 25.2],
      [55000, 25.2],
      [55000.0035, 22.5],
      [60000, 22.5],
      [60000.003, 17.5],
      [450000, 17.5],
    ];
    for (const [av, pct] of want) expect(evalF('band(abate, av)', { av }), `AV ${av}`).toBe(pct);
  });

  it('the argument can be an expression: band(abate, av * 4)', () => {
    expect(evalF('band(abate, av * 4)', { av: 12500 })).toBe(28.1); // 50,000, on the bound
    expect(evalF('band(abate, av * 4)', { av: 12500.01 })).toBe(25.2); // 50,000.04
  });

  it('a value above every bound with no open last band is an error naming the parameter', () => {
    const pick = bandPicker('test.bands', [
      { below: 10, value: 1 },
      { at_most: 20, value: 2 },
    ]);
    expect(pick(9.99)).toBe(1);
    expect(pick(10)).toBe(2);
    expect(pick(20)).toBe(2);
    expect(() => pick(20.5)).toThrow('test.bands has no band for 20.5');
  });

  it('band() needs a band parameter and a value', () => {
    expect(() => evalF('band(ratio, av)', { av: 1 })).toThrow('ratio is not a band parameter');
    expect(() => evalF('band(vet)', {})).toThrow('band(parameter, value) takes a band parameter and a value');
    expect(() => evalF('band(a * 1, av)', { a: 1, av: 1 })).toThrow('band(parameter, value) takes a band parameter and a value');
  });
});

describe('tables', () => {
  it('by a static key', () => {
    expect(evalF('ratio.class1', {})).toBe(0.06);
    expect(evalF('a * ratio.class2', { a: 1000000 })).toBe(450000); // 1,000,000 × 45%
  });

  it('by a fact', () => {
    expect(evalF('a * ratio[cls]', { a: 800000, cls: 'class1' })).toBeCloseTo(48000, 9); // 800,000 × 6%
    expect(evalF('ratio[cls]', { cls: 'class4' })).toBe(0.45);
  });

  it('a missing key is an error naming the parameter and the key', () => {
    const f = compileExpr(parseFormula('a * ratio[cls]').ast, resolver());
    expect(() => f(facts({ a: 1, cls: 'class9' }))).toThrow('ny.nyc.assessment_ratio has no value for class9');
    expect(() => f(facts({ a: 1, cls: null }))).toThrow('ny.nyc.assessment_ratio has no value for null');
    try {
      f(facts({ a: 1, cls: 'class9' }));
    } catch (e) {
      expect((e as PtaxError).code).toBe('NO_VALUE');
    }
    // A static key is checked when the formula is compiled.
    expect(() => compileExpr(parseFormula('ratio.class9').ast, resolver())).toThrow('ny.nyc.assessment_ratio has no value for class9');
  });

  it('only a table can be indexed, and a table must be indexed', () => {
    expect(() => evalF('k[cls]', { cls: 'class1' })).toThrow('k is not a table');
    expect(() => evalF('a * ratio', { a: 1 })).toThrow('ratio is a table: index it, e.g. ratio[key]');
    expect(() => evalF('vet + 1', {})).toThrow('vet is a band table: use band(vet, x)');
  });
});

describe('constant folding gives the same results', () => {
  // The same formulas, once with k, m, n as scalar parameters (folded at compile time)
  // and once with the same numbers as facts (evaluated each time).
  const formulas = [
    'k * 4 + 1',
    'k - m - n',
    'k / m / n',
    '-(k + m) * n',
    'min(k, m, n, 12)',
    'max(k, m)',
    'floor(k * n)',
    'k * 100 / 12',
    '12 - k * m',
    'min(k, m) + max(m, n, 0)',
    '-k',
    '(k + m) / (n - 1)',
  ];
  const values = [
    { k: 2.5, m: 0.584, n: 19.843 },
    { k: -7, m: 1e6, n: 0.1 },
    { k: 0, m: 3, n: 1 },
  ];
  for (const vals of values) {
    it.each(formulas)(`%s with ${JSON.stringify(vals)}`, (src) => {
      const ast = parseFormula(src).ast;
      const folded = compileExpr(ast, resolver(vals))([]); // no fact is read: the value is a constant
      const slots = { k: 0, m: 1, n: 2 } as Record<string, number>;
      const live = compileExpr(ast, (name) => ({ kind: 'fact', slot: slots[name]! }))([vals.k, vals.m, vals.n]);
      expect(folded).toBe(live);
    });
  }

  it('a folded formula is the plain JS arithmetic: k * 100 / 12 with k = 2.5 is 250/12', () => {
    expect(compileExpr(parseFormula('k * 100 / 12').ast, resolver())([])).toBe(250 / 12);
  });
});
