/**
 * The rule language's arithmetic on its own (a formula with a resolver of names): lowered
 * (ir.ts) and walked (walk.ts), as a program's steps are. For callers and tests that have
 * a single formula rather than a program.
 */
import type { Band, Expr } from './types.js';
import { FUNCTIONS, lowerExpr, type Binding, type Num, type Resolve } from './ir.js';
import { band, valueOf, type Facts } from './walk.js';

export { FUNCTIONS };
export type { Binding, Resolve };
export type Fn = (v: Facts) => any;

/** A compiled formula: its function; its value when known at compile time; or the slot it reads when it is a plain fact. */
export interface Node {
  fn: Fn;
  constant?: number;
  slot?: number;
  ir: Num;
}

export function compileExpr(ast: Expr, resolve: Resolve): Fn {
  return compileNode(ast, resolve).fn;
}

export function compileNode(ast: Expr, resolve: Resolve): Node {
  const ir = lowerExpr(ast, resolve);
  const fn: Fn = (v) => valueOf(ir, v);
  if (ir.op === 'const') return { fn, constant: ir.value, ir };
  if (ir.op === 'read') return { fn, slot: ir.slot, ir };
  return { fn, ir };
}

/**
 * A band table's look-up as a function of the value (the generated programs' runtime): the
 * bounds read once, `below` (a band with neither bound: below Infinity) and `at_most`, NaN
 * where a band has none (no comparison with NaN holds), so each call is one loop of two
 * comparisons; walk.ts's band() for the value no band takes (the same NO_VALUE error).
 */
export function bandPicker(id: string, bands: Band[]): (x: number) => number {
  const rows = bands.map((b) => ({ below: b.below ?? (b.at_most === undefined ? Infinity : NaN), atMost: b.at_most ?? NaN, value: b.value }));
  return (x) => {
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      if (x < r.below || x <= r.atMost) return r.value;
    }
    return band(id, bands, x);
  };
}

/** Names an expression reads (identifiers, table names, band names), excluding static table keys. */
export function exprNames(e: Expr, out: string[] = []): string[] {
  switch (e.type) {
    case 'Identifier':
      out.push(e.name);
      break;
    case 'BinaryExpression':
      exprNames(e.left, out);
      exprNames(e.right, out);
      break;
    case 'UnaryExpression':
      exprNames(e.argument, out);
      break;
    case 'CallExpression':
      e.arguments.forEach((a) => exprNames(a, out));
      break;
    case 'MemberExpression':
      exprNames(e.object, out);
      if (e.computed) exprNames(e.property, out);
      break;
  }
  return out;
}
