/**
 * Compiles one program for one year into plain functions over a fact array: parameters
 * are resolved to the values in force, names to slots, conditions and formulas to
 * closures. Compiled once, evaluated synchronously any number of times.
 */
import { compileCondition, compileConditionNode, conditionFacts, type CondNode, type Facts, type Predicate } from './conditions.js';
import { compileExpr, compileNode, exprNames, type Binding, type Fn, type Node } from './expr.js';
import { periodStart, valueAt } from './params.js';
import { DECIMALS, roundTo } from './round.js';
import { PtaxError } from './errors.js';
import type { GeneratedProgram } from '../codegen/runtime.js';
import type { SentenceNames } from './sentence.js';
import { factsOf } from './registry.js';
import {
  type Bundle,
  type Condition,
  type Expr,
  type Label,
  type ParamEntry,
  type ProgramDef,
  type Reference,
  type ResultGroup,
  type ResultLeaf,
  type ResultUnit,
} from './types.js';

export interface ParamUse {
  id: string;
  effective: string;
  reference: ParamEntry['reference'];
  file: string;
}
/** A step as the explanation shows it; `reference` is the statute section the step applies, when the program gives one. */
export interface StepInfo {
  rule: string;
  label: Label;
  expression: string;
  params: ParamUse[];
  reference?: Reference[];
}

export interface CompiledProgram {
  program: ProgramDef;
  year: number;
  date: string;
  /** Fact slots: the bundle's input facts first (registry.ts), then COUNTY_FACTS, then scalar parameters, then steps. */
  template: unknown[];
  validations: Array<{ test: Predicate; code: string; message: Label }>;
  steps: Array<{ slot: number; run: Fn }>;
  stepInfo: StepInfo[];
  notes: Array<{ test: Predicate; text: Label }>;
  /** Builds the rounded result object from evaluated facts. */
  result: (v: Facts) => Record<string, unknown>;
  /** The same program as generated code (engine/codegen), when a module matching these rules was found. */
  generated?: GeneratedProgram;
  /** Where each name lives (slots, parameter bindings): for the explanation's sentences (sentence.ts). */
  names: SentenceNames;
}

/**
 * `closures: 'on first use'` (Calculator, when a generated module of the program matches):
 * the fact layout now, the closures (validations, steps, notes, result, step information)
 * the first time one of them is read; the generated module runs the program, so a `ptax calc`
 * start does not compile the closures it would not call (~7 ms; issue 23). Compiling them
 * then throws the same errors as compiling them now would.
 */
export function compileProgram(bundle: Bundle, programId: string, year: number, closures: 'now' | 'on first use' = 'now'): CompiledProgram {
  const program = bundle.programs[programId];
  if (!program) throw new PtaxError('RULES_INVALID', `no program ${programId}`);
  const date = periodStart(program.period, year);
  const slots = new Map<string, number>();
  const bindings = new Map<string, Binding>();
  const template: unknown[] = [];
  const addSlot = (name: string, value: unknown): void => {
    slots.set(name, template.length);
    template.push(value);
  };
  for (const f of factsOf(bundle)) addSlot(f, null);
  const used = new Map<string, ParamUse>();
  for (const [alias, pid] of Object.entries(program.parameters)) {
    const p = bundle.parameters[pid]!;
    const entry = valueAt(p, date);
    if (!entry) throw new PtaxError('NO_VALUE', `${pid} has no value in force on ${date}`);
    used.set(alias, { id: pid, effective: entry.effective, reference: entry.reference, file: p.file });
    if (p.type === 'scalar') {
      addSlot(alias, entry.value);
      bindings.set(alias, { kind: 'scalar', value: entry.value as number });
    } else if (p.type === 'by_key') bindings.set(alias, { kind: 'table', id: pid, table: entry.value as Record<string, number> });
    else bindings.set(alias, { kind: 'bands', id: pid, bands: entry.bands! });
  }
  for (const s of program.steps) addSlot(s.id, null);

  const slotOf = (name: string): number => {
    const s = slots.get(name);
    if (s === undefined) throw new PtaxError('RULES_INVALID', `${program.id}: unknown fact ${name}`);
    return s;
  };
  const resolve = (name: string): Binding => bindings.get(name) ?? { kind: 'fact', slot: slotOf(name) };
  const expr = (e: Expr): Fn => compileExpr(e, resolve);
  const cond = (c: Condition): Predicate => compileCondition(c, slotOf);

  const compileClosures = () => {
    const steps = program.steps.map((s) => {
      const slot = slotOf(s.id);
      if (s.formula) return { slot, run: expr(s.formula.ast) };
      if (s.condition) return { slot, run: compileConditionNode(s.condition, slotOf).fn as Fn };
      const cases = s.cases!.map((c): Case => ({
        when: c.when ? compileConditionNode(c.when, slotOf) : undefined,
        run: c.formula ? caseValue(compileNode(c.formula.ast, resolve)) : { k: c.value! },
      }));
      return { slot, run: casesFn(cases) };
    });

    const stepInfo = program.steps.map((s): StepInfo => {
      const names: string[] = [];
      if (s.formula) exprNames(s.formula.ast, names);
      if (s.condition) conditionFacts(s.condition, names);
      s.cases?.forEach((c) => {
        if (c.when) conditionFacts(c.when, names);
        if (c.formula) exprNames(c.formula.ast, names);
      });
      const params = [...new Set(names)].flatMap((n) => (used.has(n) ? [used.get(n)!] : []));
      return { rule: `${program.id}.${s.id}`, label: s.label, expression: describeStep(s), params, ...(s.reference ? { reference: s.reference } : {}) };
    });

    return {
      steps,
      stepInfo,
      validations: program.validations.map((x) => ({ test: cond(x.when), code: x.code, message: x.message })),
      notes: program.notes.map((n) => ({ test: cond(n.when), text: n.text })),
      result: compileResult(program.result, (e: Expr) => compileNode(e, resolve)),
    };
  };
  const layout = { program, year, date, template, names: { slots, bindings, params: program.parameters } };
  if (closures === 'now') return { ...layout, ...compileClosures() };
  let compiled: ReturnType<typeof compileClosures> | undefined;
  const get = <K extends keyof ReturnType<typeof compileClosures>>(k: K) => ({ enumerable: true, get: () => (compiled ??= compileClosures())[k] });
  return Object.defineProperties(layout as Partial<CompiledProgram>, {
    steps: get('steps'),
    stepInfo: get('stepInfo'),
    validations: get('validations'),
    notes: get('notes'),
    result: get('result'),
  }) as CompiledProgram;
}

/**
 * A case's value as a closure captures it: `k` a value known at compile time (a string
 * value, a literal, a scalar parameter), `s` a plain fact read from its slot, `f` any other
 * formula, called.
 */
type CaseValue = { k: unknown; s?: undefined; f?: undefined } | { s: number; f?: undefined } | { f: Fn; s?: undefined };
interface Case {
  when?: CondNode;
  run: CaseValue;
}

const caseValue = (n: Node): CaseValue => (n.constant !== undefined ? { k: n.constant } : n.slot !== undefined ? { s: n.slot } : { f: n.fn });

/**
 * The first case whose `when` holds (or that has none) gives the value; none: null. Built as
 * a chain of `when ? run : rest` closures from the last case to the first. Each link is one
 * closure for its shape: a `when` that is a single equality test of one fact is inlined
 * (`v[i] === t`), and so is a value or rest that is a constant or a plain fact, so the
 * common two-case step (`if homestead: exemption; otherwise: 0`) is a single call.
 */
function casesFn(cases: Case[]): Fn {
  const last = cases.reduceRight<CaseValue>((rest, { when, run }) => (when ? { f: branch(when, run, rest) } : run), { k: null });
  if (last.f) return last.f;
  if (last.s !== undefined) {
    const i = last.s;
    return (v) => v[i];
  }
  const k = last.k;
  return () => k;
}

/** `when ? a : b` as one closure for the shapes of the test and of `a` and `b`. */
function branch(when: CondNode, a: CaseValue, b: CaseValue): Fn {
  if (when.test) {
    const { slot: i, value: t, negate } = when.test;
    // `v[i] !== t ? a : b` is `v[i] === t ? b : a`.
    const [y, n] = negate ? [b, a] : [a, b];
    if (y.f) {
      const f = y.f;
      if (n.f) {
        const g = n.f;
        return (v) => (v[i] === t ? f(v) : g(v));
      }
      if (n.s !== undefined) {
        const j = n.s;
        return (v) => (v[i] === t ? f(v) : v[j]);
      }
      const c = n.k;
      return (v) => (v[i] === t ? f(v) : c);
    }
    if (y.s !== undefined) {
      const s = y.s;
      if (n.f) {
        const g = n.f;
        return (v) => (v[i] === t ? v[s] : g(v));
      }
      if (n.s !== undefined) {
        const j = n.s;
        return (v) => (v[i] === t ? v[s] : v[j]);
      }
      const c = n.k;
      return (v) => (v[i] === t ? v[s] : c);
    }
    const k = y.k;
    if (n.f) {
      const g = n.f;
      return (v) => (v[i] === t ? k : g(v));
    }
    if (n.s !== undefined) {
      const j = n.s;
      return (v) => (v[i] === t ? k : v[j]);
    }
    const c = n.k;
    return (v) => (v[i] === t ? k : c);
  }
  const p = when.fn;
  if (a.f) {
    const f = a.f;
    if (b.f) {
      const g = b.f;
      return (v) => (p(v) ? f(v) : g(v));
    }
    if (b.s !== undefined) {
      const j = b.s;
      return (v) => (p(v) ? f(v) : v[j]);
    }
    const c = b.k;
    return (v) => (p(v) ? f(v) : c);
  }
  if (a.s !== undefined) {
    const s = a.s;
    if (b.f) {
      const g = b.f;
      return (v) => (p(v) ? v[s] : g(v));
    }
    if (b.s !== undefined) {
      const j = b.s;
      return (v) => (p(v) ? v[s] : v[j]);
    }
    const c = b.k;
    return (v) => (p(v) ? v[s] : c);
  }
  const k = a.k;
  if (b.f) {
    const g = b.f;
    return (v) => (p(v) ? k : g(v));
  }
  if (b.s !== undefined) {
    const j = b.s;
    return (v) => (p(v) ? k : v[j]);
  }
  const c = b.k;
  return (v) => (p(v) ? k : c);
}

/** Readable text of a condition, for explanations: `propertyClass in [class1, class2] and …`. */
export function describeCondition(c: Condition): string {
  if ('all' in c) return c.all.map((x) => wrap(x)).join(' and ');
  if ('any' in c) return c.any.map((x) => wrap(x)).join(' or ');
  if ('not' in c) return `not ${wrap(c.not)}`;
  const ops: Record<string, string> = {
    equal: '=',
    notEqual: '≠',
    lessThan: '<',
    lessThanInclusive: '≤',
    greaterThan: '>',
    greaterThanInclusive: '≥',
    in: 'in',
    notIn: 'not in',
    contains: 'contains',
    doesNotContain: 'does not contain',
  };
  const v = c.value;
  const val = Array.isArray(v) ? `[${v.join(', ')}]` : typeof v === 'object' && v !== null ? v.fact : String(v);
  return `${c.fact} ${ops[c.operator] ?? c.operator} ${val}`;
}
const wrap = (c: Condition) => ('all' in c || 'any' in c ? `(${describeCondition(c)})` : describeCondition(c));

function describeStep(s: ProgramDef['steps'][number]): string {
  if (s.formula) return s.formula.src;
  if (s.condition) return describeCondition(s.condition);
  return s.cases!.map((c) => `${c.when ? `if ${describeCondition(c.when)}: ` : 'otherwise: '}${c.formula ? c.formula.src : c.value}`).join('; ');
}

/**
 * The result tree. Two presentation conventions, at the top level only: under `exemptions` an amount of 0 is
 * left out, and under `exemptionBreakdown` an entry whose amount is 0 is left out.
 */
type Drop = (x: unknown) => boolean;
const zeroValue: Drop = (x) => x === 0;
const zeroAmount: Drop = (x) => (x as { amount?: unknown } | null)?.amount === 0;

function compileResult(tree: ResultGroup, expr: (e: Expr) => Node): (v: Facts) => Record<string, unknown> {
  const group = (g: ResultGroup, drop: Drop | undefined, top: boolean): ((v: Facts) => Record<string, unknown>) => {
    const parts = Object.entries(g).map(([key, node]) => {
      // A leaf's unit is a string; a group's members are objects (even one named `unit`).
      if (typeof node.unit === 'string') return { key, fn: leaf(expr((node as ResultLeaf).formula.ast), node.unit as ResultUnit) };
      const child = !top ? undefined : key === 'exemptions' ? zeroValue : key === 'exemptionBreakdown' ? zeroAmount : undefined;
      return { key, fn: group(node as ResultGroup, child, false) };
    });
    const keys = parts.map((p) => p.key);
    const fns = parts.map((p) => p.fn);
    const n = parts.length;
    if (!drop) {
      // Copying a template object gives every result the same hidden class, which keeps
      // the stores below fast; the keys always come out in the rule file's order.
      const shape: Record<string, unknown> = Object.fromEntries(keys.map((k) => [k, null]));
      return (v) => {
        const o = { ...shape };
        for (let i = 0; i < n; i++) o[keys[i]!] = fns[i]!(v);
        return o;
      };
    }
    return (v) => {
      const o: Record<string, unknown> = {};
      for (let i = 0; i < n; i++) {
        const x = fns[i]!(v);
        if (!drop(x)) o[keys[i]!] = x;
      }
      return o;
    };
  };
  return group(tree, undefined, true);
}

function leaf(n: Node, unit: ResultUnit): Fn {
  if (unit === 'text' || unit === 'count') return n.fn;
  const d = DECIMALS[unit];
  const fn = n.fn;
  return (v) => roundTo(fn(v), d);
}
