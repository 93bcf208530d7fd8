/**
 * Compiles the rule language's arithmetic (already parsed to a syntax tree at build
 * time) into plain closures over a fact array. Names resolve once, at compile time:
 * parameters become constants or tables, facts and steps become array slots.
 */
import type { Band, Expr } from './types.js';
import type { Facts } from './conditions.js';
import { PtaxError } from './errors.js';

export type Fn = (v: Facts) => any;
export type Binding =
  | { kind: 'fact'; slot: number }
  | { kind: 'scalar'; value: number }
  | { kind: 'table'; id: string; table: Record<string, number> }
  | { kind: 'bands'; id: string; bands: Band[] };
export type Resolve = (name: string) => Binding;

/**
 * A compiled node: a function; its value when it is known at compile time; or the slot
 * it reads when it is a plain fact. Knowing those lets a parent fuse them into itself,
 * so `a * b / 100` is one closure call, not five.
 */
export interface Node { fn: Fn; constant?: number; slot?: number }

export const FUNCTIONS = ['min', 'max', 'floor', 'band'] as const;

export function compileExpr(ast: Expr, resolve: Resolve): Fn {
  return node(ast, resolve).fn;
}

/** The compiled node itself, for callers that can use a plain slot directly. */
export function compileNode(ast: Expr, resolve: Resolve): Node {
  return node(ast, resolve);
}

const constant = (value: number): Node => ({ fn: () => value, constant: value });

function node(e: Expr, resolve: Resolve): Node {
  switch (e.type) {
    case 'Literal':
      return constant(e.value);
    case 'Identifier': {
      const b = resolve(e.name);
      if (b.kind === 'scalar') return constant(b.value);
      if (b.kind === 'fact') { const s = b.slot; return { fn: (v) => v[s], slot: s }; }
      throw new PtaxError('RULES_INVALID', `${e.name} is a ${b.kind === 'table' ? 'table: index it, e.g. ' + e.name + '[key]' : 'band table: use band(' + e.name + ', x)'}`);
    }
    case 'UnaryExpression': {
      const a = node(e.argument, resolve);
      if (a.constant !== undefined) return constant(-a.constant);
      const f = a.fn;
      return { fn: (v) => -f(v) };
    }
    case 'BinaryExpression':
      return binary(e.operator, node(e.left, resolve), node(e.right, resolve));
    case 'MemberExpression':
      return member(e, resolve);
    case 'CallExpression':
      return call(e.callee.name, e.arguments, resolve);
  }
}

function binary(op: string, l: Node, r: Node): Node {
  if (l.constant !== undefined && r.constant !== undefined) return constant(arith(op, l.constant, r.constant));
  const fused = fuse(op, l, r);
  if (fused) return { fn: fused };
  const a = l.fn, b = r.fn;
  // A constant operand is captured as a number, saving a call per evaluation.
  if (r.constant !== undefined) {
    const k = r.constant;
    switch (op) {
      case '+': return { fn: (v) => a(v) + k };
      case '-': return { fn: (v) => a(v) - k };
      case '*': return { fn: (v) => a(v) * k };
      case '/': return { fn: (v) => a(v) / k };
    }
  }
  if (l.constant !== undefined) {
    const k = l.constant;
    switch (op) {
      case '+': return { fn: (v) => k + b(v) };
      case '-': return { fn: (v) => k - b(v) };
      case '*': return { fn: (v) => k * b(v) };
      case '/': return { fn: (v) => k / b(v) };
    }
  }
  switch (op) {
    case '+': return { fn: (v) => a(v) + b(v) };
    case '-': return { fn: (v) => a(v) - b(v) };
    case '*': return { fn: (v) => a(v) * b(v) };
    case '/': return { fn: (v) => a(v) / b(v) };
  }
  throw new PtaxError('RULES_INVALID', `unknown operator ${op}`);
}

/** Slot-and-slot, slot-and-constant and constant-and-slot operations as single closures. */
function fuse(op: string, l: Node, r: Node): Fn | undefined {
  const i = l.slot, j = r.slot;
  if (i !== undefined && j !== undefined) {
    switch (op) {
      case '+': return (v) => (v[i] as number) + (v[j] as number);
      case '-': return (v) => (v[i] as number) - (v[j] as number);
      case '*': return (v) => (v[i] as number) * (v[j] as number);
      case '/': return (v) => (v[i] as number) / (v[j] as number);
    }
  }
  if (i !== undefined && r.constant !== undefined) {
    const k = r.constant;
    switch (op) {
      case '+': return (v) => (v[i] as number) + k;
      case '-': return (v) => (v[i] as number) - k;
      case '*': return (v) => (v[i] as number) * k;
      case '/': return (v) => (v[i] as number) / k;
    }
  }
  if (l.constant !== undefined && j !== undefined) {
    const k = l.constant;
    switch (op) {
      case '+': return (v) => k + (v[j] as number);
      case '-': return (v) => k - (v[j] as number);
      case '*': return (v) => k * (v[j] as number);
      case '/': return (v) => k / (v[j] as number);
    }
  }
  return undefined;
}

function arith(op: string, a: number, b: number): number {
  switch (op) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/': return a / b;
  }
  throw new PtaxError('RULES_INVALID', `unknown operator ${op}`);
}

function member(e: Extract<Expr, { type: 'MemberExpression' }>, resolve: Resolve): Node {
  if (e.object.type !== 'Identifier') throw new PtaxError('RULES_INVALID', 'only a parameter table can be indexed');
  const b = resolve(e.object.name);
  if (b.kind !== 'table') throw new PtaxError('RULES_INVALID', `${e.object.name} is not a table`);
  const { table, id } = b;
  const entry = (key: unknown): number => {
    const x = table[key as string];
    if (x === undefined) throw new PtaxError('NO_VALUE', `${id} has no value for ${String(key)}`);
    return x;
  };
  if (!e.computed) {
    if (e.property.type !== 'Identifier') throw new PtaxError('RULES_INVALID', 'bad table key');
    return constant(entry(e.property.name));
  }
  const key = node(e.property, resolve).fn;
  return { fn: (v) => entry(key(v)) };
}

function call(name: string, args: Expr[], resolve: Resolve): Node {
  if (!(FUNCTIONS as readonly string[]).includes(name)) throw new PtaxError('RULES_INVALID', `${name}() is not a function of the rule language (${FUNCTIONS.join(', ')})`);
  if (name === 'band') {
    const [table, x] = args;
    if (args.length !== 2 || table?.type !== 'Identifier') throw new PtaxError('RULES_INVALID', 'band(parameter, value) takes a band parameter and a value');
    const b = resolve(table.name);
    if (b.kind !== 'bands') throw new PtaxError('RULES_INVALID', `${table.name} is not a band parameter`);
    const pick = bandPicker(b.id, b.bands);
    const f = node(x!, resolve).fn;
    return { fn: (v) => pick(f(v)) };
  }
  const arity = name === 'floor' ? args.length === 1 : (name === 'min' || name === 'max') ? args.length >= 2 : false;
  if (!arity) throw new PtaxError('RULES_INVALID', `${name}() takes ${name === 'floor' ? 'one value' : name === 'min' || name === 'max' ? 'two or more values' : 'no such arguments'}`);
  const parts = args.map((a) => node(a, resolve));
  const fns = parts.map((p) => p.fn);
  if (parts.every((p) => p.constant !== undefined)) {
    const ks = parts.map((p) => p.constant!);
    if (name === 'min') return constant(Math.min(...ks));
    if (name === 'max') return constant(Math.max(...ks));
    if (name === 'floor' && ks.length === 1) return constant(Math.floor(ks[0]!));
  }
  if (name === 'floor') {
    const f = fns[0]!;
    return { fn: (v) => Math.floor(f(v)) };
  }
  {
    const m = name === 'min' ? Math.min : Math.max;
    if (fns.length === 2) { const [a, b] = fns as [Fn, Fn]; return { fn: (v) => m(a(v), b(v)) }; }
    if (fns.length === 3) { const [a, b, c] = fns as [Fn, Fn, Fn]; return { fn: (v) => m(a(v), b(v), c(v)) }; }
    return { fn: (v) => { let r = fns[0]!(v); for (let i = 1; i < fns.length; i++) r = m(r, fns[i]!(v)); return r; } };
  }
}

/** Bands in order: `below` is an exclusive upper bound, `at_most` inclusive, none: the rest. */
export function bandPicker(id: string, bands: Band[]): (x: number) => number {
  const below = bands.map((b) => b.below ?? (b.at_most === undefined ? Infinity : NaN));
  const atMost = bands.map((b) => b.at_most ?? NaN);
  const values = bands.map((b) => b.value);
  const n = bands.length;
  return (x) => {
    for (let i = 0; i < n; i++) if (x < below[i]! || x <= atMost[i]!) return values[i]!;
    throw new PtaxError('NO_VALUE', `${id} has no band for ${x}`);
  };
}

/** Names an expression reads (identifiers, table names, band names), excluding static table keys. */
export function exprNames(e: Expr, out: string[] = []): string[] {
  switch (e.type) {
    case 'Identifier': out.push(e.name); break;
    case 'BinaryExpression': exprNames(e.left, out); exprNames(e.right, out); break;
    case 'UnaryExpression': exprNames(e.argument, out); break;
    case 'CallExpression': e.arguments.forEach((a) => exprNames(a, out)); break;
    case 'MemberExpression': exprNames(e.object, out); if (e.computed) exprNames(e.property, out); break;
  }
  return out;
}
