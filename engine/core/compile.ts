/**
 * One program for one year, ready to run: lowered once (ir.ts: parameters resolved to the
 * values in force, names to slots, constants folded) and walked by the reference
 * interpreter (walk.ts). Compiled once, evaluated synchronously any number of times.
 */
import { conditionFacts, type Facts, type Predicate } from './conditions.js';
import { exprNames, type Binding, type Fn } from './expr.js';
import { lowerProgram, type ProgramIR } from './ir.js';
import { holds, resultOf, stepValue } from './walk.js';
import { PtaxError } from './errors.js';
import type { GeneratedProgram } from '../codegen/runtime.js';
import type { SentenceNames } from './sentence.js';
import { type Bundle, type Condition, type Label, type ParamEntry, type ProgramDef, type Reference } from './types.js';

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
  /** The lowered program the functions below walk. */
  ir: ProgramIR;
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

/** `lowered`: the program's lowered form for this year made at build time (the web's data package), else it is lowered here. */
export function compileProgram(bundle: Bundle, programId: string, year: number, lowered?: ProgramIR): CompiledProgram {
  const program = bundle.programs[programId];
  if (!program) throw new PtaxError('RULES_INVALID', `no program ${programId}`);
  const ir = lowered ?? lowerProgram(bundle, programId, year);
  const slots = new Map(ir.slots.map((name, i) => [name, i]));
  const bindings = new Map<string, Binding>(
    ir.params.map((p): [string, Binding] => [
      p.alias,
      p.kind === 'scalar'
        ? { kind: 'scalar', value: p.value! }
        : p.kind === 'table'
          ? { kind: 'table', id: p.id, table: p.table! }
          : { kind: 'bands', id: p.id, bands: p.bands! },
    ]),
  );
  const used = new Map(ir.params.map((p) => [p.alias, { id: p.id, effective: p.effective, reference: p.reference, file: p.file }]));

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
    program,
    year,
    date: ir.date,
    ir,
    template: ir.template,
    steps: ir.steps.map((s) => ({ slot: s.slot, run: (v: Facts) => stepValue(s, v) })),
    stepInfo,
    names: { slots, bindings, params: program.parameters, steps: ir.steps },
    validations: ir.validations.map((x) => ({ test: (v: Facts) => holds(x.when, v), code: x.code, message: x.message })),
    notes: ir.notes.map((n) => ({ test: (v: Facts) => holds(n.when, v), text: n.text })),
    result: (v) => resultOf(ir.result, v),
  };
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
