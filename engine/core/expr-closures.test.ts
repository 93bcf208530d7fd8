/**
 * The formula compiler's specialised closures, checked against plain JS arithmetic:
 * every operator with every kind of operand (a constant, a plain fact, any other
 * expression), what is known at compile time, the names a formula reads, and the
 * errors a malformed syntax tree gets. Syntax trees are written by hand here, so that
 * any number can be a literal (the loader allows only 0, 1, 4, 12 and 100).
 */
import { describe, expect, it } from 'vitest';
import { bandPicker, compileExpr, compileNode, exprNames, type Binding } from './expr.js';
import { parseFormula } from '../build/load.js';
import { PtaxError } from './errors.js';
import type { Expr } from './types.js';

const lit = (value: number): Expr => ({ type: 'Literal', value });
const id = (name: string): Expr => ({ type: 'Identifier', name });
const bin = (operator: '+' | '-' | '*' | '/', left: Expr, right: Expr): Expr => ({ type: 'BinaryExpression', operator, left, right });
const neg = (argument: Expr): Expr => ({ type: 'UnaryExpression', operator: '-', argument });
const call = (name: string, ...args: Expr[]): Expr => ({ type: 'CallExpression', callee: { type: 'Identifier', name }, arguments: args });
const member = (object: Expr, property: Expr, computed: boolean): Expr => ({ type: 'MemberExpression', object, property, computed });

/** Facts by slot: x, y, negX (−x), negY (−y), cls. Parameters: kx, ky (scalars), ratio (table), bands. */
const SLOTS = ['x', 'y', 'negX', 'negY', 'cls'];
function resolver(scalars: Record<string, number>) {
  return (name: string): Binding => {
    if (name in scalars) return { kind: 'scalar', value: scalars[name]! };
    if (name === 'ratio') return { kind: 'table', id: 'test.ratio', table: { class1: 0.06, class2: 0.45 } };
    if (name === 'bands')
      return {
        kind: 'bands',
        id: 'test.bands',
        bands: [
          { below: 10, value: 1 },
          { at_most: 20, value: 2 },
        ],
      };
    const slot = SLOTS.indexOf(name);
    if (slot < 0) throw new PtaxError('RULES_INVALID', `unknown fact ${name}`);
    return { kind: 'fact', slot };
  };
}

function error(f: () => unknown): PtaxError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(PtaxError);
    return e as PtaxError;
  }
  throw new Error('expected a PtaxError');
}

describe('every operator with every kind of operand gives plain JS arithmetic', () => {
  // The same number written four ways: a literal, a scalar parameter (both constants at
  // compile time), a fact (read from its slot) and an expression (−(−x), called).
  const x = 7.5,
    y = 2;
  const kinds = {
    literal: (n: 'x' | 'y') => lit(n === 'x' ? x : y),
    parameter: (n: 'x' | 'y') => id(n === 'x' ? 'kx' : 'ky'),
    fact: (n: 'x' | 'y') => id(n),
    expression: (n: 'x' | 'y') => neg(id(n === 'x' ? 'negX' : 'negY')),
  };
  const resolve = resolver({ kx: x, ky: y });
  const facts = [x, y, -x, -y, null];
  const want = { '+': x + y, '-': x - y, '*': x * y, '/': x / y }; // 9.5, 5.5, 15, 3.75
  for (const op of ['+', '-', '*', '/'] as const) {
    for (const [lk, left] of Object.entries(kinds)) {
      for (const [rk, right] of Object.entries(kinds)) {
        it(`${lk} ${op} ${rk} = ${want[op]}`, () => {
          const n = compileNode(bin(op, left('x'), right('y')), resolve);
          expect(n.fn(facts)).toBe(want[op]);
          // Two constants fold: the value is known when the formula is compiled.
          const constants = ['literal', 'parameter'];
          expect(n.constant).toBe(constants.includes(lk) && constants.includes(rk) ? want[op] : undefined);
          expect(n.slot).toBeUndefined();
        });
      }
    }
  }

  it('the operands keep their order: the left one is x (7.5), the right one y (2)', () => {
    const f = (src: string) => compileExpr(parseFormula(src).ast, resolver({}))([12, 4, -12, -4, null]);
    expect(f('x - y')).toBe(8);
    expect(f('y - x')).toBe(-8);
    expect(f('x / y')).toBe(3);
    expect(f('y / x')).toBe(1 / 3);
    expect(f('12 / y')).toBe(3);
    expect(f('x / 4')).toBe(3);
    expect(f('100 - x')).toBe(88);
    expect(f('-negX - 4')).toBe(8);
    expect(f('100 - -negY')).toBe(96);
    expect(f('100 / -negY')).toBe(25);
    expect(f('-negX / y')).toBe(3);
    expect(f('x / -negY')).toBe(3);
  });

  it('a longer formula mixes the kinds: (x + 4) * (y - ky) / 100 - kx', () => {
    const f = compileExpr(parseFormula('(x + kx) * (y - ky) / 100 - kx').ast, resolver({ kx: 2.5, ky: 0.5 }));
    expect(f([10, 4.5, -10, -4.5, null])).toBe(((10 + 2.5) * (4.5 - 0.5)) / 100 - 2.5); // 12.5 × 4 / 100 − 2.5 = −2
  });

  it('an operator outside + − × / is rejected when compiled', () => {
    const e = error(() => compileExpr({ type: 'BinaryExpression', operator: '%' as '+', left: id('x'), right: id('y') }, resolver({})));
    expect(e.code).toBe('RULES_INVALID');
    expect(e.message).toBe('unknown operator %');
  });
});

describe('what is known at compile time', () => {
  const resolve = resolver({ kx: 2.5, ky: -4 });
  const node = (src: string) => compileNode(parseFormula(src).ast, resolve);

  it('literals, scalar parameters and static table keys are constants', () => {
    expect(node('12').constant).toBe(12);
    expect(node('kx').constant).toBe(2.5);
    expect(node('ratio.class2').constant).toBe(0.45);
  });

  it('a plain fact is its slot; any other formula of facts is neither slot nor constant', () => {
    expect(node('y').slot).toBe(1);
    expect(node('y').fn([0, 42])).toBe(42);
    expect(node('y').constant).toBeUndefined();
    for (const src of ['-y', 'y * 1', 'ratio[cls]', 'min(y, 4)', 'floor(y)', 'band(bands, y)']) {
      expect(node(src).constant, src).toBeUndefined();
      expect(node(src).slot, src).toBeUndefined();
    }
  });

  it('minus, min, max and floor of constants are folded', () => {
    expect(node('-kx').constant).toBe(-2.5);
    expect(node('- -kx').constant).toBe(2.5);
    expect(node('min(kx, 4)').constant).toBe(2.5);
    expect(node('min(12, ky, kx)').constant).toBe(-4);
    expect(node('max(kx, 4)').constant).toBe(4);
    expect(node('max(ky, kx, 1, 0)').constant).toBe(2.5);
    expect(node('floor(kx)').constant).toBe(2);
    expect(node('floor(ky / 12)').constant).toBe(-1); // floor(−0.33…)
    expect(node('min(ratio.class1, ratio.class2) * 100').constant).toBe(6);
  });

  it('the same functions of facts give the same values as folded', () => {
    const f = (src: string, x: number, y: number) => node(src).fn([x, y, -x, -y, null]);
    expect(f('-x', 2.5, 0)).toBe(-2.5);
    expect(f('min(x, 4)', 2.5, 0)).toBe(2.5);
    expect(f('min(12, y, x)', 2.5, -4)).toBe(-4);
    expect(f('max(x, 4)', 2.5, 0)).toBe(4);
    expect(f('max(y, x, 1, 0)', 2.5, -4)).toBe(2.5);
    expect(f('max(y, 0, x)', -1, -4)).toBe(0);
    expect(f('floor(x)', 2.5, 0)).toBe(2);
    expect(f('floor(y / 12)', 0, -4)).toBe(-1);
  });
});

describe('names a formula reads', () => {
  it('facts, parameters, tables and bands, in order, with repeats; not a static table key', () => {
    const ast = parseFormula('-x + min(y, kx) * ratio[cls] + ratio.class1 - floor(band(bands, negX) / negY)').ast;
    expect(exprNames(ast)).toEqual(['x', 'y', 'kx', 'ratio', 'cls', 'ratio', 'bands', 'negX', 'negY']);
  });

  it('appends to a list given', () => {
    expect(exprNames(parseFormula('-(a)').ast, ['z'])).toEqual(['z', 'a']);
    expect(exprNames(parseFormula('12').ast)).toEqual([]);
  });
});

describe('errors name the problem', () => {
  const resolve = resolver({ kx: 2.5 });
  const compile = (e: Expr) => compileExpr(e, resolve);

  it('a table or band parameter used as a number', () => {
    let e = error(() => compile(id('ratio')));
    expect([e.code, e.message]).toEqual(['RULES_INVALID', 'ratio is a table: index it, e.g. ratio[key]']);
    e = error(() => compile(bin('+', id('bands'), lit(1))));
    expect([e.code, e.message]).toEqual(['RULES_INVALID', 'bands is a band table: use band(bands, x)']);
  });

  it('indexing something that is not a parameter table', () => {
    let e = error(() => compile(member(id('kx'), id('cls'), true)));
    expect([e.code, e.message]).toEqual(['RULES_INVALID', 'kx is not a table']);
    e = error(() => compile(member(call('min', id('x'), id('y')), id('cls'), true)));
    expect([e.code, e.message]).toEqual(['RULES_INVALID', 'only a parameter table can be indexed']);
    e = error(() => compile(member(id('ratio'), lit(1), false)));
    expect([e.code, e.message]).toEqual(['RULES_INVALID', 'bad table key']);
  });

  it('a missing table key is NO_VALUE: at compile time for a static key, at run time for a fact', () => {
    let e = error(() => compile(member(id('ratio'), id('class9'), false)));
    expect([e.code, e.message]).toEqual(['NO_VALUE', 'test.ratio has no value for class9']);
    const f = compile(member(id('ratio'), id('cls'), true));
    expect(f([0, 0, 0, 0, 'class2'])).toBe(0.45);
    e = error(() => f([0, 0, 0, 0, 'class3']));
    expect([e.code, e.message]).toEqual(['NO_VALUE', 'test.ratio has no value for class3']);
  });

  it('an unknown function, listing the ones there are', () => {
    const e = error(() => compile(call('sqrt', id('x'))));
    expect([e.code, e.message]).toEqual(['RULES_INVALID', 'sqrt() is not a function of the rule language (min, max, floor, pow, band)']);
  });

  it('the wrong number of arguments', () => {
    const cases: Array<[Expr, string]> = [
      [call('floor'), 'floor() takes one value'],
      [call('floor', id('x'), id('y')), 'floor() takes one value'],
      [call('min', id('x')), 'min() takes two or more values'],
      [call('max'), 'max() takes two or more values'],
      [call('max', lit(3)), 'max() takes two or more values'],
      [call('band', id('bands')), 'band(parameter, value) takes a band parameter and a value'],
      [call('band', id('bands'), id('x'), id('y')), 'band(parameter, value) takes a band parameter and a value'],
      [call('band', lit(1), id('x')), 'band(parameter, value) takes a band parameter and a value'],
    ];
    for (const [ast, message] of cases) {
      const e = error(() => compile(ast));
      expect([e.code, e.message]).toEqual(['RULES_INVALID', message]);
    }
  });

  it('band() of a parameter that is not a band table', () => {
    for (const name of ['ratio', 'kx', 'x']) {
      const e = error(() => compile(call('band', id(name), id('y'))));
      expect([e.code, e.message]).toEqual(['RULES_INVALID', `${name} is not a band parameter`]);
    }
  });
});

describe('bandPicker', () => {
  it('mixes exclusive `below` and inclusive `at_most` bounds, in order', () => {
    const pick = bandPicker('test.mixed', [{ at_most: 10, value: 1 }, { below: 20, value: 2 }, { at_most: 20, value: 3 }, { value: 4 }]);
    expect([0, 10, 10.5, 19.99, 20, 20.01, 1e9].map(pick)).toEqual([1, 1, 2, 2, 3, 4, 4]);
  });

  it('the first band that fits wins, even if a later one would too', () => {
    const pick = bandPicker('test.order', [{ below: 100, value: 1 }, { below: 50, value: 2 }, { value: 3 }]);
    expect([10, 60, 100].map(pick)).toEqual([1, 1, 3]);
  });

  it('a value past the last bound is NO_VALUE, naming the parameter and the value', () => {
    const pick = bandPicker('test.closed', [
      { below: 1, value: 5 },
      { at_most: 2, value: 6 },
    ]);
    expect(pick(2)).toBe(6);
    const e = error(() => pick(2.25));
    expect([e.code, e.message]).toEqual(['NO_VALUE', 'test.closed has no band for 2.25']);
    expect(() => bandPicker('test.empty', [])(0)).toThrow('test.empty has no band for 0');
  });

  it('inside a formula, band() picks by the value of its expression', () => {
    const f = compileExpr(parseFormula('band(bands, x * 4) * 100').ast, resolver({}));
    expect(f([2.49])).toBe(100); //  9.96 → below 10 → 1
    expect(f([2.5])).toBe(200); //   10 → at most 20 → 2
    expect(f([5])).toBe(200); //     20 → at most 20 → 2
    expect(() => f([5.01])).toThrow('test.bands has no band for 20.04');
  });
});

/**
 * Fused shapes: a parent that reads its operands directly instead of calling them. Each is
 * checked with hand-worked figures, including what Math.min / Math.max do with NaN, null
 * (as 0) and −0, which a shortcut such as `a > b ? a : b` would get wrong.
 */
describe('fused closures give the same figures as the tree', () => {
  const resolve = resolver({ kx: 3, ky: 8, zero: 0, k100: 100 });
  // Facts by slot: x, y, negX, negY, cls.
  const at = (ast: Expr, x: unknown, y: unknown, negX: unknown = null, negY: unknown = null, cls: unknown = null) =>
    compileNode(ast, resolve).fn([x, y, negX, negY, cls]);

  it('the lowered form keeps the tree: a binary operator of two facts reads both slots; of two constants it is folded', () => {
    expect(compileNode(bin('-', id('x'), id('y')), resolve).ir).toMatchObject({ op: '-', left: { op: 'read', slot: 0 }, right: { op: 'read', slot: 1 } });
    expect(compileNode(bin('*', id('x'), id('kx')), resolve).ir).toMatchObject({ op: '*', left: { op: 'read', slot: 0 }, right: { op: 'const', value: 3 } });
    expect(compileNode(bin('/', lit(100), id('y')), resolve).ir).toMatchObject({ op: '/', left: { op: 'const', value: 100 }, guard: true });
    expect(compileNode(bin('-', id('kx'), id('ky')), resolve).ir).toEqual({ op: 'const', value: -5 }); // 3 − 8, folded
    expect(compileNode(bin('-', neg(id('negX')), id('y')), resolve).ir).toMatchObject({ op: '-', left: { op: 'neg' } });
  });

  it('max(0, a − b): 5 − 8 → 0, 8 − 5 → 3; NaN stays NaN; null is 0', () => {
    const ast = call('max', lit(0), bin('-', id('x'), id('y')));
    expect(at(ast, 5, 8)).toBe(0);
    expect(at(ast, 8, 5)).toBe(3);
    expect(at(ast, 8.5, 0.25)).toBe(8.25);
    expect(at(ast, Number.NaN, 5)).toBeNaN();
    expect(at(ast, 5, null)).toBe(5); // 5 − null = 5
    expect(at(ast, null, 3)).toBe(0); // null − 3 = −3
    // The same with the 0 a parameter, and the constant on the right.
    expect(at(call('max', id('zero'), bin('-', id('x'), id('y'))), 5, 8)).toBe(0);
    expect(at(call('max', bin('-', id('x'), id('y')), lit(0)), 5, 8)).toBe(0);
    expect(at(call('max', bin('-', id('x'), id('y')), lit(0)), 8, 5)).toBe(3);
    expect(at(call('max', bin('-', id('x'), id('y')), lit(0)), Number.NaN, 5)).toBeNaN();
  });

  it('max / min of a constant and a fact minus a constant: max(x − 8, 0), min(0, x − 8)', () => {
    expect(at(call('max', bin('-', id('x'), id('ky')), lit(0)), 5, 0)).toBe(0);
    expect(at(call('max', bin('-', id('x'), id('ky')), lit(0)), 10, 0)).toBe(2);
    expect(at(call('max', lit(0), bin('-', id('x'), lit(8))), 10, 0)).toBe(2);
    expect(at(call('min', lit(0), bin('-', id('x'), lit(8))), 10, 0)).toBe(0);
    expect(at(call('min', lit(0), bin('-', id('x'), lit(8))), 5, 0)).toBe(-3);
    expect(at(call('min', bin('-', id('x'), lit(8)), lit(1)), 5, 0)).toBe(-3);
    expect(at(call('min', bin('-', id('x'), lit(8)), lit(1)), 50, 0)).toBe(1);
    expect(at(call('min', bin('-', id('x'), lit(8)), lit(1)), Number.NaN, 0)).toBeNaN();
    // A constant minus a fact is not fused, and is still right: max(0, 8 − x).
    expect(at(call('max', lit(0), bin('-', lit(8), id('x'))), 5, 0)).toBe(3);
  });

  it('−0 as Math.min / Math.max give it: min(0, a − b) with a = −0, b = 0 is −0; max of it is 0', () => {
    expect(at(call('min', lit(0), bin('-', id('x'), id('y'))), -0, 0)).toBe(-0);
    expect(at(call('max', lit(0), bin('-', id('x'), id('y'))), -0, 0)).toBe(0);
    expect(at(call('min', bin('-', id('x'), id('y')), lit(0)), -0, 0)).toBe(-0);
    expect(at(call('max', bin('-', id('x'), id('y')), lit(0)), -0, 0)).toBe(0);
    expect(at(call('max', lit(-0), bin('-', id('x'), id('y'))), -0, 0)).toBe(-0);
  });

  // min and max of two operands, every shape but two constants. The left operand is the
  // number a: a literal, the fact x, or −negX (called); the right one b: a literal, the
  // fact y, or −negY.
  const left = { constant: (a: number) => lit(a), fact: () => id('x'), expression: () => neg(id('negX')) };
  const right = { constant: (b: number) => lit(b), fact: () => id('y'), expression: () => neg(id('negY')) };
  const figures: Array<[number, number, number, number]> = [
    // a, b, min, max
    [2, 5, 2, 5],
    [5, 2, 2, 5],
    [-0, 0, -0, 0], // `a < b ? a : b` would give 0, `a > b ? a : b` would give 0 too: the last one wins
    [0, -0, -0, 0],
    [Number.NaN, 1, Number.NaN, Number.NaN],
    [1, Number.NaN, Number.NaN, Number.NaN],
  ];
  for (const [lk, l] of Object.entries(left)) {
    for (const [rk, r] of Object.entries(right)) {
      if (lk === 'constant' && rk === 'constant') continue;
      it(`min / max of a ${lk} and a ${rk}: NaN and −0 as Math.min / Math.max give them`, () => {
        for (const [a, b, lo, hi] of figures) {
          expect(at(call('min', l(a), r(b)), a, b, -a, -b), `min(${a}, ${b})`).toBe(lo);
          expect(at(call('max', l(a), r(b)), a, b, -a, -b), `max(${a}, ${b})`).toBe(hi);
        }
      });
    }
  }

  it('min / max of two different facts, null read as 0', () => {
    expect(at(call('min', id('x'), id('y')), -0, 0)).toBe(-0);
    expect(at(call('min', id('x'), id('y')), 0, -0)).toBe(-0);
    expect(at(call('max', id('x'), id('y')), -0, 0)).toBe(0);
    expect(at(call('max', id('x'), id('y')), 0, -0)).toBe(0);
    expect(at(call('min', id('x'), id('y')), 7, null)).toBe(0);
    expect(at(call('max', id('x'), id('y')), -7, null)).toBe(0);
    expect(at(call('max', id('x'), id('y')), 7, Number.NaN)).toBeNaN();
    expect(at(call('min', id('x'), lit(5)), null, 0)).toBe(0);
    expect(at(call('max', lit(-5), id('y')), 0, null)).toBe(0);
  });

  it('min / max of three or more still go left to right', () => {
    expect(at(call('min', id('x'), id('y'), lit(4)), 7, 5)).toBe(4);
    expect(at(call('max', id('x'), id('y'), lit(4)), 7, 5)).toBe(7);
    expect(at(call('min', id('x'), id('y'), lit(0)), -0, 1)).toBe(-0);
    expect(at(call('max', lit(-0), id('x'), id('y')), -0, -1)).toBe(-0);
    expect(at(call('max', id('x'), id('y'), lit(4)), Number.NaN, 5)).toBeNaN();
  });

  it('an operand that fails fails first: min(ratio[cls], band(bands, x)) names the table', () => {
    const f = compileNode(call('min', member(id('ratio'), id('cls'), true), call('band', id('bands'), id('x'))), resolve).fn;
    expect(f([10, 0, 0, 0, 'class1'])).toBe(0.06);
    const e = error(() => f([100, 0, 0, 0, 'class9']));
    expect(e.message).toBe('test.ratio has no value for class9');
  });

  it('a * b / k is (a * b) / k, not a * (b / k)', () => {
    // 3 × 1.1 / 10: (3 × 1.1) / 10 = 0.33, while 3 × (1.1 / 10) = 0.33000000000000007.
    expect((3 * 1.1) / 10).not.toBe(3 * (1.1 / 10));
    expect(at(bin('/', bin('*', id('x'), id('y')), lit(10)), 3, 1.1)).toBe(0.33);
    expect(at(bin('/', bin('*', id('x'), lit(1.1)), lit(10)), 3, 0)).toBe(0.33);
    expect(at(bin('/', bin('*', lit(3), id('y')), lit(10)), 0, 1.1)).toBe(0.33);
    expect(at(bin('/', bin('*', id('x'), id('y')), lit(10)), 3, 0.1)).toBe(0.030000000000000006);
    expect(at(bin('/', bin('*', id('x'), id('y')), id('k100')), 250000, 2.1)).toBe(5250);
    expect(at(bin('/', bin('*', id('x'), id('y')), lit(0)), 5, 1)).toBe(Infinity);
    expect(at(bin('/', bin('*', id('x'), id('y')), lit(100)), null, 1)).toBe(0);
    expect(at(bin('/', bin('*', id('x'), id('y')), lit(100)), Number.NaN, 1)).toBeNaN();
    // Divided by a fact: not fused, same figure.
    expect(at(bin('/', bin('*', id('x'), lit(1.1)), id('y')), 3, 10)).toBe(0.33);
  });

  it('(a − b) × c: (10 − 4) × 3 = 18, with c a fact or a constant', () => {
    expect(at(bin('*', bin('-', id('x'), id('y')), id('negX')), 10, 4, 3)).toBe(18);
    expect(at(bin('*', bin('-', id('x'), id('y')), lit(3)), 10, 4)).toBe(18);
    expect(at(bin('*', bin('-', id('x'), id('y')), id('kx')), 4, 10)).toBe(-18);
    // (0.3 − 0.1) × 10 = 1.9999999999999998, not 0.3 × 10 − 0.1 × 10 = 2.
    expect(at(bin('*', bin('-', id('x'), id('y')), lit(10)), 0.3, 0.1)).toBe((0.3 - 0.1) * 10);
    expect(at(bin('*', bin('-', id('x'), id('y')), lit(10)), 0.3, 0.1)).toBe(1.9999999999999998);
    expect(at(bin('*', bin('-', id('x'), id('y')), id('negX')), 10, 4, null)).toBe(0);
    expect(at(bin('*', bin('-', id('x'), id('y')), id('negX')), 10, 4, Number.NaN)).toBeNaN();
  });
});

describe('runs of operators go in the order of the tree', () => {
  const resolve = resolver({ kx: 3, k100: 100 });
  const node = (ast: Expr) => compileNode(ast, resolve);
  // Facts by slot: x, y, negX, negY, cls.
  const at = (ast: Expr, ...facts: unknown[]) => node(ast).fn(facts);
  const sum4 = bin('+', bin('+', bin('+', id('x'), id('y')), id('negX')), id('negY'));

  it('a + b + c + d is ((a + b) + c) + d: 0.1 + 0.2 + 0.3 + 0 = 0.6000000000000001, not 0.6', () => {
    expect(at(sum4, 0.1, 0.2, 0.3, 0)).toBe(0.6000000000000001);
    expect(at(sum4, 0.1, 0.2, 0.3, 0)).toBe(0.1 + 0.2 + 0.3 + 0);
    expect(at(sum4, 1, 2, 3, 4)).toBe(10);
    expect(at(sum4, 1, null, 3, 4)).toBe(8); // null adds 0
    expect(at(sum4, 1, 2, Number.NaN, 4)).toBeNaN();
  });

  it('each operator is its own: 100 − x − y, x × 3 × y ÷ 100, x ÷ y × 100 − 1', () => {
    expect(at(bin('-', bin('-', lit(100), id('x')), id('y')), 30, 20)).toBe(50);
    const product = bin('/', bin('*', bin('*', id('x'), id('kx')), id('y')), id('k100'));
    expect(at(product, 250000, 0.0125)).toBe(93.75); // 250,000 × 3 × 0.0125 / 100
    expect(at(product, 1.1, 0.7)).toBe((1.1 * 3 * 0.7) / 100);
    const pct = bin('-', bin('*', bin('/', id('x'), id('y')), lit(100)), lit(1));
    expect(at(pct, 1, 3)).toBe((1 / 3) * 100 - 1); // 32.333333333333336
    expect(at(pct, 1, 0)).toBe(Infinity);
    expect(at(pct, 0, 0)).toBeNaN();
  });

  it('a run after any other node calls it once: min(x, y) / x * 100', () => {
    const ast = bin('*', bin('/', call('min', id('x'), id('y')), id('x')), lit(100));
    expect(at(ast, 200000, 50000)).toBe(25);
    expect(at(ast, 3, 1.1)).toBe((1.1 / 3) * 100);
  });

  it('max(0, a − b − c) and min(a + b + c, k): the run and the constant in one closure', () => {
    const rest = bin('-', bin('-', id('x'), id('y')), id('negX'));
    expect(at(call('max', lit(0), rest), 10, 4, 3)).toBe(3);
    expect(at(call('max', lit(0), rest), 1, 4, 3)).toBe(0);
    expect(at(call('max', lit(0), rest), Number.NaN, 4, 3)).toBeNaN();
    expect(at(call('min', lit(0), rest), -0, 0, 0)).toBe(-0); // −0 − 0 − 0 = −0; Math.min(0, −0) = −0
    expect(at(call('max', rest, lit(0)), -0, 0, 0)).toBe(0); // Math.max(−0, 0) = 0
    const sum = bin('+', bin('+', id('x'), id('y')), id('negX'));
    expect(at(call('min', sum, lit(5)), 1, 2, 1)).toBe(4);
    expect(at(call('min', sum, lit(5)), 1, 2, 3)).toBe(5);
    expect(at(call('max', sum, id('kx')), 1, null, 1)).toBe(3); // 1 + null + 1 = 2 < 3
    expect(at(call('min', lit(5), sum), 0.1, 0.2, 0.3)).toBe(0.6000000000000001);
  });

  it('an operand that is itself a formula: (a + b) − (c + d)', () => {
    const ast = bin('-', bin('+', id('x'), id('y')), bin('+', id('negX'), id('negY')));
    expect(at(ast, 1, 2, 3, 4)).toBe(-4);
  });
});

describe('band() and a table indexed by a plain fact read the slot directly', () => {
  const resolve = resolver({});
  it('band(bands, x): below 10 → 1, at most 20 → 2, past that NO_VALUE', () => {
    const f = compileNode(call('band', id('bands'), id('x')), resolve).fn;
    expect([0, 9.99, 10, 20].map((x) => f([x]))).toEqual([1, 1, 2, 2]);
    expect(f([-Infinity])).toBe(1);
    const e = error(() => f([20.01]));
    expect([e.code, e.message]).toEqual(['NO_VALUE', 'test.bands has no band for 20.01']);
    expect(() => f([Number.NaN])).toThrow('test.bands has no band for NaN');
    expect(f([null])).toBe(1); // null < 10
  });
  it('ratio[cls]: a key that is missing, or null, is NO_VALUE naming it', () => {
    const f = compileNode(member(id('ratio'), id('cls'), true), resolve).fn;
    expect(f([0, 0, 0, 0, 'class1'])).toBe(0.06);
    expect(() => f([0, 0, 0, 0, null])).toThrow('test.ratio has no value for null');
    expect(() => f([0, 0, 0, 0, 'class9'])).toThrow('test.ratio has no value for class9');
  });
});
