/**
 * The lowered form of a program (issue 27): one program for one year, after the build's
 * checks, as a small explicit tree that the interpreter walks (walk.ts) and the JavaScript
 * and SQL generators print (engine/codegen/js.ts, engine/sql/generate.ts). Everything the
 * three back-ends used to decide each on its own is decided here, once:
 *
 * - names are resolved: a parameter is the value in force on the period's first day (a
 *   number, a table, a band list), a fact or step is its slot in the fact array;
 * - constants are folded with JavaScript's own arithmetic (`100 * 12 / 4` is one number);
 * - each node is typed (`number`, `boolean`, `choice` for a text, `any` for a fact whose
 *   type the declarations leave open) and annotated: `nullAsZero` where an operand may be
 *   null (JavaScript reads it as 0, SQL needs COALESCE), `guard` on a division whose
 *   divisor may be 0 (±Infinity or NaN, never an error), `raises` on a table look-up or a
 *   band that can fail at run time (NO_VALUE), `round` on a result leaf, and the step id
 *   and citation on each step.
 *
 * The form is plain JSON (no functions, no Maps): `JSON.stringify` of a ProgramIR is the
 * whole program. It lives in engine/core because the browser's interpreter lowers the
 * program it runs; engine/build/ir.ts lowers every program and year of a bundle for the
 * build (the generators, the guides). docs/rule-language.md documents it beside the syntax.
 */
import type { Band, Bundle, Condition, ConditionValue, Expr, Label, ParamEntry, ProgramDef, Reference, ResultGroup, ResultLeaf, ResultUnit } from './types.js';
import { PtaxError } from './errors.js';
import { periodStart, valueAt } from './params.js';
import { DECIMALS } from './round.js';
import { factsOf, registryOf } from './registry.js';
import { COUNTY_FACTS, COUNTY_FLAGS } from './types.js';

/** A value's type: a number, a boolean, a choice (text), or any (a fact the declarations do not type). */
export type IrType = 'number' | 'boolean' | 'choice' | 'any';

/** What a formula reads or computes. Every node that is not `const` or `read` gives a number. */
export type Num =
  | { op: 'const'; value: number }
  /** A fact, a step or (in conditions) a scalar parameter's slot; `nullable`: the slot may hold null. */
  | { op: 'read'; slot: number; name: string; type: IrType; nullable: boolean }
  | { op: 'neg'; arg: Num; nullAsZero: boolean }
  | { op: '+' | '-' | '*' | '/'; left: Num; right: Num; nullAsZero: boolean; guard?: true }
  | { op: 'min' | 'max'; args: Num[]; nullAsZero: boolean }
  | { op: 'floor'; arg: Num; nullAsZero: boolean }
  | { op: 'pow'; base: Num; exp: Num; nullAsZero: boolean }
  /** `table[key]` with a key read at run time: NO_VALUE "<id> has no value for <key>" when the table has none. */
  | { op: 'entry'; id: string; table: Record<string, number>; key: Num; raises: 'NO_VALUE' }
  /** `band(bands, x)`: the first band x fits (`below` exclusive, `at_most` inclusive, neither: below Infinity); none: NO_VALUE. */
  | { op: 'band'; id: string; bands: Band[]; arg: Num; nullAsZero: boolean; raises: 'NO_VALUE' };

export const ARITHMETIC = ['+', '-', '*', '/'] as const;
export const FUNCTIONS = ['min', 'max', 'floor', 'pow', 'band'] as const;
export const OPERATORS = [
  'equal',
  'notEqual',
  'lessThan',
  'lessThanInclusive',
  'greaterThan',
  'greaterThanInclusive',
  'in',
  'notIn',
  'contains',
  'doesNotContain',
] as const;
export type Operator = (typeof OPERATORS)[number];

/** A literal a condition compares with (json-rules-engine's `value`). */
export interface Literal {
  op: 'literal';
  value: Exclude<ConditionValue, { fact: string }>;
}

/** json-rules-engine's conditions: all / any / not, and one test of a fact against a literal or another fact. */
export type Cond =
  | { op: 'all'; args: Cond[] }
  | { op: 'any'; args: Cond[] }
  | { op: 'not'; arg: Cond }
  | { op: 'test'; operator: Operator; fact: Extract<Num, { op: 'read' | 'const' }>; value: Literal | Extract<Num, { op: 'read' | 'const' }> };

/** A case's value: a formula, or a text (a choice). */
export type CaseValue = Num | { op: 'text'; value: string };

export type StepBody = { kind: 'formula'; expr: Num } | { kind: 'condition'; cond: Cond } | { kind: 'cases'; cases: Array<{ when?: Cond; value: CaseValue }> };

export interface StepIR {
  id: string;
  slot: number;
  type: IrType;
  body: StepBody;
  /** Whether evaluating the step can raise (a table look-up or a band). */
  raises: boolean;
  label: Label;
  reference?: Reference[];
}

export interface LeafIR {
  kind: 'leaf';
  expr: Num;
  unit: ResultUnit;
  /** Decimals the value is rounded to (round.ts roundTo); absent for text and counts, which are given as they are. */
  round?: number;
}
/** A group of the result; `drop`: a member left out when its value is 0 (`value`) or its `amount` is 0 (`amount`). */
export interface GroupIR {
  kind: 'group';
  drop?: 'value' | 'amount';
  entries: Array<[string, LeafIR | GroupIR]>;
}

/** A parameter as the program reads it in this year. */
export interface ParamIR {
  alias: string;
  id: string;
  file: string;
  effective: string;
  reference: ParamEntry['reference'];
  kind: 'scalar' | 'table' | 'bands';
  value?: number;
  table?: Record<string, number>;
  bands?: Band[];
}

export interface ProgramIR {
  format: 1;
  program: string;
  file: string;
  year: number;
  /** The period's first day: the date the parameters are in force on. */
  date: string;
  /** The fact array: the bundle's input facts and the county facts, then scalar parameters, then steps (a slot per name). */
  slots: string[];
  /** The fact array before inputs are filled: null, but a scalar parameter's value in its slot. */
  template: Array<number | null>;
  /** Number of input and county facts (the first slots). */
  facts: number;
  params: ParamIR[];
  validations: Array<{ when: Cond; code: string; message: Label }>;
  steps: StepIR[];
  notes: Array<{ when: Cond; text: Label }>;
  result: GroupIR;
}

/** What a name is bound to while lowering: a slot, or a parameter in force. */
export type Binding =
  | { kind: 'fact'; slot: number; type?: IrType; nullable?: boolean }
  | { kind: 'scalar'; value: number }
  | { kind: 'table'; id: string; table: Record<string, number> }
  | { kind: 'bands'; id: string; bands: Band[] };
export type Resolve = (name: string) => Binding;

const invalid = (message: string) => new PtaxError('RULES_INVALID', message);
const k = (value: number): Num => ({ op: 'const', value });
const isConst = (n: Num): n is { op: 'const'; value: number } => n.op === 'const';
/** Whether a node may give null: only a read of a slot may (every operator gives a number). */
const mayBeNull = (n: Num): boolean => n.op === 'read' && n.nullable;

/** The value of a binary operator, JavaScript's own: folding and walking must agree to the bit. */
export function arith(op: '+' | '-' | '*' | '/', a: number, b: number): number {
  return op === '+' ? a + b : op === '-' ? a - b : op === '*' ? a * b : a / b;
}

/** A formula's syntax tree lowered: names resolved, constants folded, nodes annotated. */
export function lowerExpr(e: Expr, resolve: Resolve): Num {
  switch (e.type) {
    case 'Literal':
      return k(e.value);
    case 'Identifier':
      return lowerName(e.name, resolve);
    case 'UnaryExpression': {
      const a = lowerExpr(e.argument, resolve);
      return isConst(a) ? k(-a.value) : { op: 'neg', arg: a, nullAsZero: mayBeNull(a) };
    }
    case 'BinaryExpression': {
      const op = e.operator;
      if (!(ARITHMETIC as readonly string[]).includes(op)) throw invalid(`unknown operator ${op}`);
      const l = lowerExpr(e.left, resolve),
        r = lowerExpr(e.right, resolve);
      if (isConst(l) && isConst(r)) return k(arith(op, l.value, r.value));
      const guard = op === '/' && (!isConst(r) || r.value === 0) ? { guard: true as const } : {};
      return { op, left: l, right: r, nullAsZero: mayBeNull(l) || mayBeNull(r), ...guard };
    }
    case 'MemberExpression':
      return lowerMember(e, resolve);
    case 'CallExpression':
      return lowerCall(e.callee.name, e.arguments, resolve);
  }
}

function lowerName(name: string, resolve: Resolve): Num {
  const b = resolve(name);
  if (b.kind === 'scalar') return k(b.value);
  if (b.kind === 'fact') return { op: 'read', slot: b.slot, name, type: b.type ?? 'any', nullable: b.nullable ?? true };
  throw invalid(`${name} is a ${b.kind === 'table' ? 'table: index it, e.g. ' + name + '[key]' : 'band table: use band(' + name + ', x)'}`);
}

function lowerMember(e: Extract<Expr, { type: 'MemberExpression' }>, resolve: Resolve): Num {
  if (e.object.type !== 'Identifier') throw invalid('only a parameter table can be indexed');
  const b = resolve(e.object.name);
  if (b.kind !== 'table') throw invalid(`${e.object.name} is not a table`);
  if (!e.computed) {
    if (e.property.type !== 'Identifier') throw invalid('bad table key');
    const x = b.table[e.property.name];
    if (x === undefined) throw new PtaxError('NO_VALUE', `${b.id} has no value for ${e.property.name}`);
    return k(x);
  }
  return { op: 'entry', id: b.id, table: b.table, key: lowerExpr(e.property, resolve), raises: 'NO_VALUE' };
}

function lowerCall(name: string, args: Expr[], resolve: Resolve): Num {
  if (!(FUNCTIONS as readonly string[]).includes(name)) throw invalid(`${name}() is not a function of the rule language (${FUNCTIONS.join(', ')})`);
  if (name === 'band') {
    if (args.length !== 2 || args[0]!.type !== 'Identifier') throw invalid('band(parameter, value) takes a band parameter and a value');
    const table = (args[0] as { name: string }).name;
    const b = resolve(table);
    if (b.kind !== 'bands') throw invalid(`${table} is not a band parameter`);
    const arg = lowerExpr(args[1]!, resolve);
    // Even a last band with neither bound (below Infinity) misses NaN and Infinity.
    return { op: 'band', id: b.id, bands: b.bands, arg, nullAsZero: mayBeNull(arg), raises: 'NO_VALUE' };
  }
  if (name === 'pow') {
    if (args.length !== 2) throw invalid('pow() takes a base and an exponent');
    const [base, exp] = args.map((a) => lowerExpr(a, resolve)) as [Num, Num];
    if (isConst(base) && isConst(exp)) return k(base.value ** exp.value);
    return { op: 'pow', base, exp, nullAsZero: mayBeNull(base) || mayBeNull(exp) };
  }
  const arity = name === 'floor' ? args.length === 1 : args.length >= 2;
  if (!arity) throw invalid(`${name}() takes ${name === 'floor' ? 'one value' : 'two or more values'}`);
  const parts = args.map((a) => lowerExpr(a, resolve));
  const nullAsZero = parts.some(mayBeNull);
  if (name === 'floor') {
    const a = parts[0]!;
    return isConst(a) ? k(Math.floor(a.value)) : { op: 'floor', arg: a, nullAsZero };
  }
  if (parts.every(isConst)) {
    const ks = parts.map((p) => (p as { value: number }).value);
    return k(name === 'min' ? Math.min(...ks) : Math.max(...ks));
  }
  return { op: name as 'min' | 'max', args: parts, nullAsZero };
}

const isFactRef = (v: ConditionValue): v is { fact: string } => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A condition lowered. A name it reads is a slot (a scalar parameter: its value, which its
 * slot holds); a table or band parameter is not a fact.
 */
export function lowerCond(c: Condition, resolve: Resolve, owner = ''): Cond {
  if ('all' in c) return { op: 'all', args: c.all.map((x) => lowerCond(x, resolve, owner)) };
  if ('any' in c) return { op: 'any', args: c.any.map((x) => lowerCond(x, resolve, owner)) };
  if ('not' in c) return { op: 'not', arg: lowerCond(c.not, resolve, owner) };
  if (!(OPERATORS as readonly string[]).includes(c.operator)) throw invalid(`unknown operator ${c.operator}`);
  const read = (name: string): Extract<Num, { op: 'read' | 'const' }> => {
    const b = resolve(name);
    if (b.kind === 'scalar') return k(b.value) as { op: 'const'; value: number };
    if (b.kind !== 'fact') throw invalid(`${owner}unknown fact ${name}`);
    return { op: 'read', slot: b.slot, name, type: b.type ?? 'any', nullable: b.nullable ?? true };
  };
  const value = c.value;
  return {
    op: 'test',
    operator: c.operator as Operator,
    fact: read(c.fact),
    value: isFactRef(value) ? read(value.fact) : { op: 'literal', value },
  };
}

/** The type of a formula: a read has its fact's; anything else is a number. */
export const typeOf = (n: CaseValue): IrType => (n.op === 'text' ? 'choice' : n.op === 'read' ? n.type : 'number');

/** Whether evaluating a formula can raise at run time. */
export function raises(n: CaseValue): boolean {
  switch (n.op) {
    case 'entry':
      return true;
    case 'band':
      return true;
    case 'neg':
    case 'floor':
      return raises(n.arg);
    case 'min':
    case 'max':
      return n.args.some(raises);
    case 'pow':
      return raises(n.base) || raises(n.exp);
    case '+':
    case '-':
    case '*':
    case '/':
      return raises(n.left) || raises(n.right);
    default:
      return false;
  }
}

/** The declared type of each input and county fact of a bundle. */
function factTypes(bundle: Bundle): Map<string, { type: IrType; nullable: boolean }> {
  const out = new Map<string, { type: IrType; nullable: boolean }>();
  for (const e of registryOf(bundle).table) {
    const type: IrType = e.type === 'boolean' ? 'boolean' : e.type === 'text' ? 'choice' : 'number';
    // A boolean input is read !!x; an input with a default is never null; the year is put in.
    out.set(e.fact, { type, nullable: !(e.type === 'boolean' || e.default !== undefined || e.fact === 'year') });
  }
  for (const f of COUNTY_FACTS) {
    const flag = (COUNTY_FLAGS as readonly string[]).includes(f);
    out.set(f, { type: flag ? 'boolean' : f === 'schoolUnit' || f === 'cityUnit' ? 'choice' : 'number', nullable: !flag });
  }
  return out;
}

/** One program for one year, lowered. Errors as the interpreter always gave them: RULES_INVALID, NO_VALUE. */
export function lowerProgram(bundle: Bundle, programId: string, year: number): ProgramIR {
  const program = bundle.programs[programId];
  if (!program) throw invalid(`no program ${programId}`);
  const date = periodStart(program.period, year);
  const slots: string[] = [];
  const template: Array<number | null> = [];
  const slotOf = new Map<string, number>();
  const addSlot = (name: string, value: number | null): void => {
    slotOf.set(name, slots.length);
    slots.push(name);
    template.push(value);
  };
  const facts = factsOf(bundle);
  for (const f of facts) addSlot(f, null);
  const types = factTypes(bundle);
  const params: ParamIR[] = [];
  const bindings = new Map<string, Binding>();
  for (const [alias, pid] of Object.entries(program.parameters)) {
    const p = bundle.parameters[pid]!;
    const entry = valueAt(p, date);
    if (!entry) throw new PtaxError('NO_VALUE', `${pid} has no value in force on ${date}`);
    const use = { alias, id: pid, file: p.file, effective: entry.effective, reference: entry.reference };
    if (p.type === 'scalar') {
      addSlot(alias, entry.value as number);
      bindings.set(alias, { kind: 'scalar', value: entry.value as number });
      params.push({ ...use, kind: 'scalar', value: entry.value as number });
    } else if (p.type === 'by_key') {
      bindings.set(alias, { kind: 'table', id: pid, table: entry.value as Record<string, number> });
      params.push({ ...use, kind: 'table', table: entry.value as Record<string, number> });
    } else {
      bindings.set(alias, { kind: 'bands', id: pid, bands: entry.bands! });
      params.push({ ...use, kind: 'bands', bands: entry.bands! });
    }
  }
  for (const s of program.steps) addSlot(s.id, null);
  // Steps are typed as they are lowered, in order; a step read before it is lowered is `any`.
  const stepTypes = new Map<string, { type: IrType; nullable: boolean }>();
  const resolve: Resolve = (name) => {
    const b = bindings.get(name);
    if (b) return b;
    const slot = slotOf.get(name);
    if (slot === undefined) throw invalid(`${program.id}: unknown fact ${name}`);
    const t = types.get(name) ?? stepTypes.get(name) ?? { type: 'any', nullable: true };
    return { kind: 'fact', slot, ...t };
  };
  const cond = (c: Condition): Cond => lowerCond(c, resolve, `${program.id}: `);
  const expr = (e: Expr): Num => lowerExpr(e, resolve);

  const steps = program.steps.map((s): StepIR => {
    let body: StepBody;
    let type: IrType;
    let nullable = false;
    if (s.formula) {
      const x = expr(s.formula.ast);
      body = { kind: 'formula', expr: x };
      type = typeOf(x);
      nullable = mayBeNull(x);
    } else if (s.condition) {
      body = { kind: 'condition', cond: cond(s.condition) };
      type = 'boolean';
    } else {
      const cases = s.cases!.map((c) => ({
        ...(c.when ? { when: cond(c.when) } : {}),
        value: c.formula ? expr(c.formula.ast) : ({ op: 'text', value: c.value! } as const),
      }));
      body = { kind: 'cases', cases };
      const tys = new Set(cases.map((c) => typeOf(c.value)));
      type = tys.size === 1 ? [...tys][0]! : 'any';
      // No case without `when`: the step is null when none holds.
      nullable = !cases.some((c) => !c.when) || cases.some((c) => c.value.op !== 'text' && mayBeNull(c.value));
    }
    stepTypes.set(s.id, { type, nullable });
    const r = body.kind === 'formula' ? raises(body.expr) : body.kind === 'cases' ? body.cases.some((c) => raises(c.value)) : false;
    return { id: s.id, slot: slotOf.get(s.id)!, type, body, raises: r, label: s.label, ...(s.reference ? { reference: s.reference } : {}) };
  });
  const validations = program.validations.map((x) => ({ when: cond(x.when), code: x.code, message: x.message }));
  const notes = program.notes.map((n) => ({ when: cond(n.when), text: n.text }));
  const result = lowerResult(program.result, expr, undefined, true);
  return { format: 1, program: program.id, file: program.file, year, date, slots, template, facts: facts.length, params, validations, steps, notes, result };
}

/**
 * The result tree. Two presentation conventions, at the top level only: under `exemptions`
 * a member whose value is 0 is left out, under `exemptionBreakdown` one whose amount is 0.
 */
function lowerResult(g: ResultGroup, expr: (e: Expr) => Num, drop: GroupIR['drop'], top: boolean): GroupIR {
  const entries = Object.entries(g).map(([key, node]): [string, LeafIR | GroupIR] => {
    // A leaf's unit is a string; a group's members are objects (even one named `unit`).
    if (typeof node.unit === 'string') {
      const l = node as ResultLeaf;
      const round = l.unit === 'text' || l.unit === 'count' ? {} : { round: DECIMALS[l.unit] };
      return [key, { kind: 'leaf', expr: expr(l.formula.ast), unit: l.unit, ...round }];
    }
    const child = !top ? undefined : key === 'exemptions' ? 'value' : key === 'exemptionBreakdown' ? 'amount' : undefined;
    return [key, lowerResult(node as ResultGroup, expr, child, false)];
  });
  return { kind: 'group', ...(drop ? { drop } : {}), entries };
}

/** Every leaf of a result tree with its path, in the tree's order. */
export function leavesOf(g: GroupIR, path: string[] = [], out: Array<{ path: string[]; leaf: LeafIR }> = []): Array<{ path: string[]; leaf: LeafIR }> {
  for (const [key, node] of g.entries) {
    if (node.kind === 'leaf') out.push({ path: [...path, key], leaf: node });
    else leavesOf(node, [...path, key], out);
  }
  return out;
}

/**
 * A lowered form as a data file carries it beside its program (the web's state packages,
 * web/scripts/build-data.mjs, so that the browser does not lower the program it runs): the
 * texts the program's own definition already holds are left out (each step's label and
 * citation, each validation's message, each note's text: two languages each, half the
 * form's size) and `unpackProgram` puts them back from the definition, by position.
 * unpackProgram(packProgram(ir), program) deep-equals ir (engine/core/ir-pack.test.ts; the
 * web's packages are compared with the engine's lowering in web/src/lib/lowered.test.ts).
 */
export interface PackedProgramIR extends Omit<ProgramIR, 'steps' | 'validations' | 'notes'> {
  steps: Array<Omit<StepIR, 'label' | 'reference'>>;
  validations: Array<{ when: Cond; code: string }>;
  notes: Array<{ when: Cond }>;
}

/** A lowered form without the texts its program holds (see PackedProgramIR). */
export function packProgram(ir: ProgramIR): PackedProgramIR {
  return {
    ...ir,
    steps: ir.steps.map(({ label: _label, reference: _reference, ...s }) => s),
    validations: ir.validations.map(({ message: _message, ...x }) => x),
    notes: ir.notes.map(({ text: _text, ...n }) => n),
  };
}

/**
 * The lowered form of `packed` with its texts back from its program's definition; a form
 * that does not fit the definition (another program, other steps) is RULES_INVALID.
 */
export function unpackProgram(packed: PackedProgramIR, program: ProgramDef): ProgramIR {
  const fits =
    packed.format === 1 &&
    packed.program === program.id &&
    packed.steps.length === program.steps.length &&
    packed.validations.length === program.validations.length &&
    packed.notes.length === program.notes.length &&
    packed.steps.every((s, i) => s.id === program.steps[i]!.id);
  if (!fits) throw invalid(`the lowered form of ${packed.program}@${packed.year} does not fit the program ${program.id}`);
  return {
    ...packed,
    steps: packed.steps.map((s, i) => {
      const def = program.steps[i]!;
      return { ...s, label: def.label, ...(def.reference ? { reference: def.reference } : {}) };
    }),
    validations: packed.validations.map((x, i) => ({ ...x, message: program.validations[i]!.message })),
    notes: packed.notes.map((n, i) => ({ ...n, text: program.notes[i]!.text })),
  };
}
