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
import { periodStart } from './params.js';
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

/**
 * The fact template of a program and year when it is known ahead (the rule build lowered the
 * program and wrote its template with the split: engine/build/bundle.ts), by bundle object;
 * the function answers undefined when it does not know (another program object, parameters
 * replaced): the program is then lowered.
 */
export type KnownTemplate = (programId: string, year: number) => Array<number | null> | undefined;
const KNOWN_TEMPLATES = new WeakMap<Bundle, KnownTemplate>();
/** Records the templates known for `bundle` (engine/build/bundle.ts readSplit). */
export function setKnownTemplates(bundle: Bundle, known: KnownTemplate): void {
  KNOWN_TEMPLATES.set(bundle, known);
}

/** What compileProgram computes from the lowering, besides program, year, date and template. */
const LOWERED = ['ir', 'steps', 'stepInfo', 'names', 'validations', 'notes', 'result'] as const;

/**
 * compileProgram, with the lowering put off until a field that needs it is read, when the
 * template is known ahead: a generated module runs the program (engine/codegen) from the
 * template alone, and lowering it costs a good part of a `ptax calc` start (issue 23).
 * Reading `ir`, `steps`, `stepInfo`, `names`, `validations`, `notes` or `result` (--explain,
 * the interpreter) lowers and compiles it then, once; the fields are then the same as
 * compileProgram's. Without a known template, compileProgram itself.
 */
export function compileProgramLazily(bundle: Bundle, programId: string, year: number): CompiledProgram {
  const program = bundle.programs[programId];
  if (!program) throw new PtaxError('RULES_INVALID', `no program ${programId}`);
  const template = KNOWN_TEMPLATES.get(bundle)?.(programId, year);
  if (!template) return compileProgram(bundle, programId, year);
  const out = { program, year, date: periodStart(program.period, year), template: template.slice() } as CompiledProgram;
  let full: CompiledProgram | undefined;
  for (const k of LOWERED)
    Object.defineProperty(out, k, {
      enumerable: true,
      configurable: true,
      get: () => (full ??= compileProgram(bundle, programId, year))[k],
      set: (v: unknown) => Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true }),
    });
  return out;
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
