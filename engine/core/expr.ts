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
export interface Node {
  fn: Fn;
  constant?: number;
  slot?: number;
  leaves?: Leaves;
  chain?: Chain;
}

/**
 * A binary operator whose two operands are each a constant or a plain fact (not both
 * constants: those fold), such as `value - exemption`; a parent can fuse it, so that
 * `max(0, value - exemption)` or `a * b / 100` is one closure, not two.
 */
export interface Leaves {
  op: string;
  shape: 'ks' | 'sk' | 'ss';
  x: number;
  y: number;
}

/**
 * A left-to-right run of operators whose right operands are each a constant or a plain
 * fact: `a + b + c + d`, `value * share * rate / 100`, `min(x, y) / value * 100`. The first
 * operand is a constant (`head` 0, in `k`), a fact (1, its slot in `slot`) or any other node
 * (2, called). Evaluated by runChain in one loop, in the tree's order of operations.
 */
export interface Chain {
  head: 0 | 1 | 2;
  k: number;
  slot: number;
  fn: Fn;
  /** Per operator: 0 +, 1 −, 2 ×, 3 ÷; its operand's slot, or −1 for the constant in `ks`. */
  ops: number[];
  slots: number[];
  ks: number[];
}

const OP_CODE: Record<string, number> = { '+': 0, '-': 1, '*': 2, '/': 3 };

/** A chain's value: exactly `((first op1 x1) op2 x2) …`, each operator JS's own. */
function runChain(v: Facts, c: Chain): number {
  let r: any = c.head === 0 ? c.k : c.head === 1 ? v[c.slot] : c.fn(v);
  const { ops, slots, ks } = c;
  for (let i = 0; i < ops.length; i++) {
    const s = slots[i]!;
    const x: any = s >= 0 ? v[s] : ks[i];
    switch (ops[i]) {
      case 0:
        r = r + x;
        break;
      case 1:
        r = r - x;
        break;
      case 2:
        r = r * x;
        break;
      default:
        r = r / x;
    }
  }
  return r;
}

/** The chain `l op r` extends, when r is a constant or a plain fact. */
function chainOf(op: string, l: Node, r: Node): Chain | undefined {
  if (r.constant === undefined && r.slot === undefined) return undefined;
  const base: Chain =
    l.chain ??
    (l.constant !== undefined
      ? { head: 0, k: l.constant, slot: -1, fn: l.fn, ops: [], slots: [], ks: [] }
      : l.slot !== undefined
        ? { head: 1, k: 0, slot: l.slot, fn: l.fn, ops: [], slots: [], ks: [] }
        : { head: 2, k: 0, slot: -1, fn: l.fn, ops: [], slots: [], ks: [] });
  return {
    ...base,
    ops: [...base.ops, OP_CODE[op]!],
    slots: [...base.slots, r.slot ?? -1],
    ks: [...base.ks, r.constant ?? 0],
  };
}

export const FUNCTIONS = ['min', 'max', 'floor', 'pow', 'band'] as const;

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
      if (b.kind === 'fact') {
        const s = b.slot;
        return { fn: (v) => v[s], slot: s };
      }
      throw new PtaxError(
        'RULES_INVALID',
        `${e.name} is a ${b.kind === 'table' ? 'table: index it, e.g. ' + e.name + '[key]' : 'band table: use band(' + e.name + ', x)'}`,
      );
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

/**
 * Each operator as one closure per operand shape: k a constant (captured as a number),
 * s a plain fact (read from its slot), f any other node (called). Every shape has its
 * own closure, so `a * b / 100` is one call per operator, and two constants fold (kk).
 */
type Shape = 'k' | 's' | 'f';
type Build = (x: any, y: any) => (v: any[]) => number;
const OPS: Record<string, { kk: (a: number, b: number) => number } & Record<Exclude<`${Shape}${Shape}`, 'kk'>, Build>> = {
  '+': {
    kk: (a, b) => a + b,
    ks: (k, j) => (v) => k + v[j],
    kf: (k, b) => (v) => k + b(v),
    sk: (i, k) => (v) => v[i] + k,
    ss: (i, j) => (v) => v[i] + v[j],
    sf: (i, b) => (v) => v[i] + b(v),
    fk: (a, k) => (v) => a(v) + k,
    fs: (a, j) => (v) => a(v) + v[j],
    ff: (a, b) => (v) => a(v) + b(v),
  },
  '-': {
    kk: (a, b) => a - b,
    ks: (k, j) => (v) => k - v[j],
    kf: (k, b) => (v) => k - b(v),
    sk: (i, k) => (v) => v[i] - k,
    ss: (i, j) => (v) => v[i] - v[j],
    sf: (i, b) => (v) => v[i] - b(v),
    fk: (a, k) => (v) => a(v) - k,
    fs: (a, j) => (v) => a(v) - v[j],
    ff: (a, b) => (v) => a(v) - b(v),
  },
  '*': {
    kk: (a, b) => a * b,
    ks: (k, j) => (v) => k * v[j],
    kf: (k, b) => (v) => k * b(v),
    sk: (i, k) => (v) => v[i] * k,
    ss: (i, j) => (v) => v[i] * v[j],
    sf: (i, b) => (v) => v[i] * b(v),
    fk: (a, k) => (v) => a(v) * k,
    fs: (a, j) => (v) => a(v) * v[j],
    ff: (a, b) => (v) => a(v) * b(v),
  },
  '/': {
    kk: (a, b) => a / b,
    ks: (k, j) => (v) => k / v[j],
    kf: (k, b) => (v) => k / b(v),
    sk: (i, k) => (v) => v[i] / k,
    ss: (i, j) => (v) => v[i] / v[j],
    sf: (i, b) => (v) => v[i] / b(v),
    fk: (a, k) => (v) => a(v) / k,
    fs: (a, j) => (v) => a(v) / v[j],
    ff: (a, b) => (v) => a(v) / b(v),
  },
};

/** A node's shape and what its closure captures: the constant, the slot or the function. */
const operand = (n: Node): [Shape, unknown] => (n.constant !== undefined ? ['k', n.constant] : n.slot !== undefined ? ['s', n.slot] : ['f', n.fn]);

function binary(op: string, l: Node, r: Node): Node {
  const ops = OPS[op];
  if (!ops) throw new PtaxError('RULES_INVALID', `unknown operator ${op}`);
  const [p, x] = operand(l),
    [q, y] = operand(r);
  if (p === 'k' && q === 'k') return constant(ops.kk(x as number, y as number));
  const chain = chainOf(op, l, r);
  const fused = fuse(op, l, r);
  if (fused) return { fn: fused, chain };
  // Three or more operators in a row (two after a fact or constant): one loop, not a call each.
  if (chain && (chain.ops.length >= 3 || (chain.ops.length === 2 && chain.head !== 2))) {
    const c = chain;
    return { fn: (v) => runChain(v, c), chain };
  }
  const shape = `${p}${q}` as Exclude<`${Shape}${Shape}`, 'kk'>;
  const fn = ops[shape](x, y);
  return shape === 'ks' || shape === 'sk' || shape === 'ss' ? { fn, leaves: { op, shape, x: x as number, y: y as number }, chain } : { fn, chain };
}

/**
 * Three-node shapes as one closure, same order of operations as the tree (JS arithmetic is
 * not associative: `a * b / k` is `(a * b) / k`, never `a * (b / k)`):
 * `a * b / k` with a and b facts or constants, and `(a - b) * c` with a, b facts and c a
 * fact or a constant.
 */
function fuse(op: string, l: Node, r: Node): Fn | undefined {
  const a = l.leaves;
  if (!a) return undefined;
  const { x: i, y: j } = a;
  if (op === '/' && a.op === '*' && r.constant !== undefined) {
    const k = r.constant;
    if (a.shape === 'ss') return (v) => ((v[i] as number) * (v[j] as number)) / k;
    if (a.shape === 'sk') return (v) => ((v[i] as number) * j) / k;
    return (v) => (i * (v[j] as number)) / k;
  }
  if (op === '*' && a.op === '-' && a.shape === 'ss') {
    if (r.slot !== undefined) {
      const m = r.slot;
      return (v) => ((v[i] as number) - (v[j] as number)) * (v[m] as number);
    }
    if (r.constant !== undefined) {
      const k = r.constant;
      return (v) => ((v[i] as number) - (v[j] as number)) * k;
    }
  }
  return undefined;
}

/**
 * min and max of two nodes, one closure per shape (k a constant, s a plain fact, f any
 * other node, called), calling Math.min / Math.max themselves so NaN, null and −0 come out
 * as they always have. Two constants fold before these are reached.
 */
const MIN: Record<Exclude<`${Shape}${Shape}`, 'kk'>, Build> = {
  ks: (k, j) => (v) => Math.min(k, v[j]),
  kf: (k, b) => (v) => Math.min(k, b(v)),
  sk: (i, k) => (v) => Math.min(v[i], k),
  ss: (i, j) => (v) => Math.min(v[i], v[j]),
  sf: (i, b) => (v) => Math.min(v[i], b(v)),
  fk: (a, k) => (v) => Math.min(a(v), k),
  fs: (a, j) => (v) => Math.min(a(v), v[j]),
  ff: (a, b) => (v) => Math.min(a(v), b(v)),
};
const MAX: Record<Exclude<`${Shape}${Shape}`, 'kk'>, Build> = {
  ks: (k, j) => (v) => Math.max(k, v[j]),
  kf: (k, b) => (v) => Math.max(k, b(v)),
  sk: (i, k) => (v) => Math.max(v[i], k),
  ss: (i, j) => (v) => Math.max(v[i], v[j]),
  sf: (i, b) => (v) => Math.max(v[i], b(v)),
  fk: (a, k) => (v) => Math.max(a(v), k),
  fs: (a, j) => (v) => Math.max(a(v), v[j]),
  ff: (a, b) => (v) => Math.max(a(v), b(v)),
};

/** min / max of two nodes; `max(0, a - b)` and `max(a - k, 0)` (a, b facts, k constants) are one closure. */
function minMax2(name: 'min' | 'max', l: Node, r: Node): Fn {
  const d = r.leaves,
    e = l.leaves;
  if (l.constant !== undefined && d && d.op === '-' && d.shape !== 'ks') {
    const k = l.constant,
      { x: i, y: j } = d;
    if (d.shape === 'ss')
      return name === 'max' ? (v) => Math.max(k, (v[i] as number) - (v[j] as number)) : (v) => Math.min(k, (v[i] as number) - (v[j] as number));
    return name === 'max' ? (v) => Math.max(k, (v[i] as number) - j) : (v) => Math.min(k, (v[i] as number) - j);
  }
  if (r.constant !== undefined && e && e.op === '-' && e.shape !== 'ks') {
    const k = r.constant,
      { x: i, y: j } = e;
    if (e.shape === 'ss')
      return name === 'max' ? (v) => Math.max((v[i] as number) - (v[j] as number), k) : (v) => Math.min((v[i] as number) - (v[j] as number), k);
    return name === 'max' ? (v) => Math.max((v[i] as number) - j, k) : (v) => Math.min((v[i] as number) - j, k);
  }
  // A constant and a run of operators: max(0, a - b - c), max(0, tax1 + tax2 + tax3).
  if (l.constant !== undefined && r.chain && r.chain.ops.length >= 2) {
    const k = l.constant,
      c = r.chain;
    return name === 'max' ? (v) => Math.max(k, runChain(v, c)) : (v) => Math.min(k, runChain(v, c));
  }
  if (r.constant !== undefined && l.chain && l.chain.ops.length >= 2) {
    const k = r.constant,
      c = l.chain;
    return name === 'max' ? (v) => Math.max(runChain(v, c), k) : (v) => Math.min(runChain(v, c), k);
  }
  const [p, x] = operand(l),
    [q, y] = operand(r);
  return (name === 'max' ? MAX : MIN)[`${p}${q}` as Exclude<`${Shape}${Shape}`, 'kk'>](x, y);
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
  const k = node(e.property, resolve);
  if (k.slot !== undefined) {
    const i = k.slot;
    return {
      fn: (v) => {
        const x = table[v[i] as string];
        return x === undefined ? entry(v[i]) : x;
      },
    };
  }
  const key = k.fn;
  return { fn: (v) => entry(key(v)) };
}

function call(name: string, args: Expr[], resolve: Resolve): Node {
  if (!(FUNCTIONS as readonly string[]).includes(name))
    throw new PtaxError('RULES_INVALID', `${name}() is not a function of the rule language (${FUNCTIONS.join(', ')})`);
  if (name === 'band') {
    if (args.length !== 2 || args[0]!.type !== 'Identifier') throw new PtaxError('RULES_INVALID', 'band(parameter, value) takes a band parameter and a value');
    const [table, x] = args as [{ type: 'Identifier'; name: string }, Expr];
    const b = resolve(table.name);
    if (b.kind !== 'bands') throw new PtaxError('RULES_INVALID', `${table.name} is not a band parameter`);
    const bands = bandTable(b.bands),
      id = b.id;
    const n = node(x, resolve);
    if (n.slot !== undefined) {
      const i = n.slot;
      return { fn: (v) => pickBand(id, bands, v[i] as number) };
    }
    const f = n.fn;
    return { fn: (v) => pickBand(id, bands, f(v)) };
  }
  if (name === 'pow') {
    // pow(base, exponent): compound growth such as a yearly cap (1.02 ^ years).
    if (args.length !== 2) throw new PtaxError('RULES_INVALID', 'pow() takes a base and an exponent');
    const [b, x] = args.map((a) => node(a, resolve)) as [Node, Node];
    if (b.constant !== undefined && x.constant !== undefined) return constant(b.constant ** x.constant);
    const [bf, xf] = [b.fn, x.fn];
    return { fn: (v) => bf(v) ** xf(v) };
  }
  // What is left is floor, min or max.
  const arity = name === 'floor' ? args.length === 1 : args.length >= 2;
  if (!arity) throw new PtaxError('RULES_INVALID', `${name}() takes ${name === 'floor' ? 'one value' : 'two or more values'}`);
  const parts = args.map((a) => node(a, resolve));
  const fns = parts.map((p) => p.fn);
  if (parts.every((p) => p.constant !== undefined)) {
    const ks = parts.map((p) => p.constant!);
    if (name === 'min') return constant(Math.min(...ks));
    if (name === 'max') return constant(Math.max(...ks));
    return constant(Math.floor(ks[0]!)); // floor, of the one value the arity check allows
  }
  if (name === 'floor') {
    const f = fns[0]!;
    return { fn: (v) => Math.floor(f(v)) };
  }
  if (parts.length === 2) return { fn: minMax2(name as 'min' | 'max', parts[0]!, parts[1]!) };
  if (name === 'min')
    return {
      fn: (v) => {
        let r = fns[0]!(v);
        for (let i = 1; i < fns.length; i++) r = Math.min(r, fns[i]!(v));
        return r;
      },
    };
  return {
    fn: (v) => {
      let r = fns[0]!(v);
      for (let i = 1; i < fns.length; i++) r = Math.max(r, fns[i]!(v));
      return r;
    },
  };
}

/** Bands in order: `below` is an exclusive upper bound, `at_most` inclusive, none: the rest. */
export function bandPicker(id: string, bands: Band[]): (x: number) => number {
  const table = bandTable(bands);
  return (x) => pickBand(id, table, x);
}

interface BandRow {
  below: number;
  atMost: number;
  value: number;
}
const bandTable = (bands: Band[]): BandRow[] =>
  bands.map((b) => ({ below: b.below ?? (b.at_most === undefined ? Infinity : NaN), atMost: b.at_most ?? NaN, value: b.value }));

/** One function for every band table (not a closure per table), so callers can inline it. */
function pickBand(id: string, table: BandRow[], x: number): number {
  for (let i = 0; i < table.length; i++) {
    const b = table[i]!;
    if (x < b.below || x <= b.atMost) return b.value;
  }
  throw new PtaxError('NO_VALUE', `${id} has no band for ${x}`);
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
