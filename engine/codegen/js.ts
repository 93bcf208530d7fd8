/**
 * Build-time compiler: one program for one year, from the checked syntax tree in the
 * bundle, to the source of a plain JavaScript module (CommonJS, so the engine can load it
 * synchronously with `require`). Fact slots become locals, scalar parameters constants,
 * tables and band tables module constants, conditions `if`s and `?:`. Nothing here runs
 * at calculation time: the source is written to dist/ by scripts/build-rules.ts and loaded
 * as an ordinary module (engine/codegen/node.ts); the interpreter (compile.ts) stays the
 * reference and engine/codegen/js.test.ts proves the two equal.
 *
 * Semantics follow compile.ts / expr.ts / conditions.ts to the letter: the same operators in
 * the same order (JS arithmetic is not associative), the same constant folding (done here,
 * with the same JS operations, and printed as exact literals), json-rules-engine's
 * operators, the same errors and messages, the same result shape and rounding.
 */
import { createHash } from 'node:crypto';
import { periodStart, valueAt } from '../core/params.js';
import { DECIMALS } from '../core/round.js';
import { PtaxError } from '../core/errors.js';
import { RESULT_FIELDS } from '../generated/results.js';
import { factsOf, inputFactsOf } from '../core/registry.js';
import {
  COUNTY_FACTS,
  type Band,
  type Bundle,
  type Condition,
  type Expr,
  type ProgramDef,
  type ResultGroup,
  type ResultLeaf,
  type ResultUnit,
} from '../core/types.js';

/**
 * The batch's result columns besides the place's and the notes (rules/results.yaml: the
 * fields with a `column`, without the first three and the last), in order.
 */
export const BATCH_COLUMNS: ReadonlyArray<readonly string[]> = RESULT_FIELDS.flatMap((f): Array<readonly string[]> => ('column' in f ? [f.path] : [])).slice(
  3,
  -1,
);

/** Bumped when the generated code's shape or the runtime it expects changes: old modules then no longer match. */
export const CODEGEN_VERSION = 4;

type Binding = { kind: 'scalar'; value: number } | { kind: 'table'; id: string; table: Record<string, number> } | { kind: 'bands'; id: string; bands: Band[] };

/** What a generated module is made from: the program, the parameter values in force, the version. */
export function programHash(bundle: Bundle, programId: string, year: number): string {
  const program = bundle.programs[programId];
  if (!program) throw new PtaxError('RULES_INVALID', `no program ${programId}`);
  const date = periodStart(program.period, year);
  const params = Object.entries(program.parameters).map(([alias, pid]) => {
    const p = bundle.parameters[pid];
    const e = p ? valueAt(p, date) : undefined;
    return [alias, pid, p?.type, e?.effective ?? null, e?.value ?? null, e?.bands ?? null];
  });
  const text = JSON.stringify([CODEGEN_VERSION, inputFactsOf(bundle), COUNTY_FACTS, BATCH_COLUMNS, year, date, program, params]);
  return createHash('sha256').update(text).digest('hex');
}

/** A number as an exact JavaScript literal (negative numbers and −0 in parentheses). */
export function numLit(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '(-Infinity)';
  if (Object.is(n, -0)) return '(-0)';
  return n < 0 ? `(${String(n)})` : String(n);
}
const lit = (x: unknown): string => (typeof x === 'number' ? numLit(x) : JSON.stringify(x));

/** An expression's code, and its value when it is known at compile time (folded as expr.ts folds). */
interface Code {
  code: string;
  k?: number;
}

export interface GeneratedModule {
  file: string;
  source: string;
  hash: string;
}

/** The generated module's file name for a program and year. */
export const moduleName = (programId: string, year: number): string => `${programId}@${year}.cjs`;

export function generateProgram(bundle: Bundle, programId: string, year: number): GeneratedModule {
  const program = bundle.programs[programId];
  if (!program) throw new PtaxError('RULES_INVALID', `no program ${programId}`);
  const date = periodStart(program.period, year);
  const hash = programHash(bundle, programId, year);
  const consts: string[] = [];
  const bindings = new Map<string, Binding>();
  const files = new Set<string>([program.file]);
  for (const [alias, pid] of Object.entries(program.parameters)) {
    const p = bundle.parameters[pid]!;
    const entry = valueAt(p, date);
    if (!entry) throw new PtaxError('NO_VALUE', `${pid} has no value in force on ${date}`);
    files.add(p.file);
    if (p.type === 'scalar') bindings.set(alias, { kind: 'scalar', value: entry.value as number });
    else if (p.type === 'by_key') bindings.set(alias, { kind: 'table', id: pid, table: entry.value as Record<string, number> });
    else bindings.set(alias, { kind: 'bands', id: pid, bands: entry.bands! });
  }
  // Names: input and county facts and steps are locals; scalar parameters are constants.
  const local = new Map<string, string>();
  const slotOfFact = new Map<string, number>();
  const allFacts = factsOf(bundle);
  allFacts.forEach((f, i) => {
    local.set(f, `f${i}`);
    slotOfFact.set(f, i);
  });
  const nFacts = allFacts.length;
  // Slots as compileProgram numbers them: facts, then scalar parameters, then steps.
  let slot = nFacts;
  for (const b of bindings.values()) if (b.kind === 'scalar') slot++;
  const stepSlot = new Map<string, number>();
  program.steps.forEach((s, i) => {
    stepSlot.set(s.id, slot + i);
    local.set(s.id, `s${i}`);
  });
  const usedFacts = new Set<number>();
  const defined = new Set<string>();

  const tableNames = new Map<string, string>();
  const tableConst = (alias: string, b: Binding & { kind: 'table' }): string => {
    let n = tableNames.get(alias);
    if (!n) {
      n = `T${tableNames.size}`;
      tableNames.set(alias, n);
      // JSON.parse, as the bundle is read: a key such as __proto__ stays an own property.
      consts.push(`const ${n} = JSON.parse(${JSON.stringify(JSON.stringify(b.table))});`);
    }
    return n;
  };
  const bandNames = new Map<string, string>();
  const bandConst = (alias: string, b: Binding & { kind: 'bands' }): string => {
    let n = bandNames.get(alias);
    if (!n) {
      n = `B${bandNames.size}`;
      bandNames.set(alias, n);
      consts.push(`const ${n} = rt.bands(${JSON.stringify(b.id)}, ${JSON.stringify(b.bands)});`);
    }
    return n;
  };

  /** A fact, parameter or step read by name (as compile.ts's slotOf: scalar parameters have slots too). */
  const read = (name: string): Code => {
    const b = bindings.get(name);
    if (b?.kind === 'scalar') return { code: numLit(b.value), k: b.value };
    if (b)
      throw new PtaxError(
        'RULES_INVALID',
        `${name} is a ${b.kind === 'table' ? 'table: index it, e.g. ' + name + '[key]' : 'band table: use band(' + name + ', x)'}`,
      );
    const l = local.get(name);
    if (l === undefined) throw new PtaxError('RULES_INVALID', `${program.id}: unknown fact ${name}`);
    const fs = slotOfFact.get(name);
    if (fs !== undefined) usedFacts.add(fs);
    // A step is a local from its definition on: reading it earlier (the interpreter would read
    // whatever its slot held) is refused here, and the program stays with the interpreter.
    else if (!defined.has(name)) throw new PtaxError('RULES_INVALID', `${program.id}: ${name} is read before it is computed`);
    return { code: l };
  };
  /** A name a condition reads: scalar parameters by value (their slot holds it), else the local. */
  const condRead = (name: string): string => {
    const b = bindings.get(name);
    if (b?.kind === 'scalar') return numLit(b.value);
    if (b) throw new PtaxError('RULES_INVALID', `${program.id}: unknown fact ${name}`);
    return read(name).code;
  };

  const expr = (e: Expr): Code => {
    switch (e.type) {
      case 'Literal':
        return { code: numLit(e.value), k: e.value };
      case 'Identifier':
        return read(e.name);
      case 'UnaryExpression': {
        const a = expr(e.argument);
        if (a.k !== undefined) {
          const k = -a.k;
          return { code: numLit(k), k };
        }
        return { code: `(-${a.code})` };
      }
      case 'BinaryExpression': {
        const l = expr(e.left),
          r = expr(e.right);
        const op = e.operator;
        if (!['+', '-', '*', '/'].includes(op)) throw new PtaxError('RULES_INVALID', `unknown operator ${op}`);
        if (l.k !== undefined && r.k !== undefined) {
          const k = op === '+' ? l.k + r.k : op === '-' ? l.k - r.k : op === '*' ? l.k * r.k : l.k / r.k;
          return { code: numLit(k), k };
        }
        return { code: `(${l.code} ${op} ${r.code})` };
      }
      case 'MemberExpression': {
        if (e.object.type !== 'Identifier') throw new PtaxError('RULES_INVALID', 'only a parameter table can be indexed');
        const b = bindings.get(e.object.name);
        if (b?.kind !== 'table') throw new PtaxError('RULES_INVALID', `${e.object.name} is not a table`);
        if (!e.computed) {
          if (e.property.type !== 'Identifier') throw new PtaxError('RULES_INVALID', 'bad table key');
          const x = b.table[e.property.name];
          if (x === undefined) throw new PtaxError('NO_VALUE', `${b.id} has no value for ${e.property.name}`);
          return { code: numLit(x), k: x };
        }
        const t = tableConst(e.object.name, b);
        const key = expr(e.property);
        return { code: `rt.entry(${t}, ${JSON.stringify(b.id)}, ${key.code})` };
      }
      case 'CallExpression':
        return call(e.callee.name, e.arguments);
    }
  };

  const call = (name: string, args: Expr[]): Code => {
    if (!['min', 'max', 'floor', 'pow', 'band'].includes(name)) throw new PtaxError('RULES_INVALID', `${name}() is not a function of the rule language`);
    if (name === 'band') {
      if (args.length !== 2 || args[0]!.type !== 'Identifier')
        throw new PtaxError('RULES_INVALID', 'band(parameter, value) takes a band parameter and a value');
      const tname = (args[0] as { name: string }).name;
      const b = bindings.get(tname);
      if (b?.kind !== 'bands') throw new PtaxError('RULES_INVALID', `${tname} is not a band parameter`);
      const c = bandConst(tname, b);
      return { code: `${c}(${expr(args[1]!).code})` };
    }
    if (name === 'pow') {
      if (args.length !== 2) throw new PtaxError('RULES_INVALID', 'pow() takes a base and an exponent');
      const [b, x] = args.map(expr) as [Code, Code];
      if (b.k !== undefined && x.k !== undefined) {
        const k = b.k ** x.k;
        return { code: numLit(k), k };
      }
      // The power at run time, as the interpreter computes it (never folded by the JS compiler).
      return { code: `rt.pow(${b.code}, ${x.code})` };
    }
    const arity = name === 'floor' ? args.length === 1 : args.length >= 2;
    if (!arity) throw new PtaxError('RULES_INVALID', `${name}() takes ${name === 'floor' ? 'one value' : 'two or more values'}`);
    const parts = args.map(expr);
    if (parts.every((p) => p.k !== undefined)) {
      const ks = parts.map((p) => p.k!);
      const k = name === 'min' ? Math.min(...ks) : name === 'max' ? Math.max(...ks) : Math.floor(ks[0]!);
      return { code: numLit(k), k };
    }
    if (name === 'floor') return { code: `Math.floor(${parts[0]!.code})` };
    const fn = name === 'min' ? 'Math.min' : 'Math.max';
    // Left to right, two at a time, as the interpreter folds them.
    return { code: parts.slice(1).reduce((acc, p) => `${fn}(${acc}, ${p.code})`, parts[0]!.code) };
  };

  const cond = (c: Condition): string => {
    if ('all' in c) return c.all.length === 0 ? 'true' : c.all.length === 1 ? cond(c.all[0]!) : `(${c.all.map(cond).join(' && ')})`;
    if ('any' in c) return c.any.length === 0 ? 'false' : c.any.length === 1 ? cond(c.any[0]!) : `(${c.any.map(cond).join(' || ')})`;
    if ('not' in c) return `!${cond(c.not)}`;
    const a = condRead(c.fact);
    const v = c.value;
    const ref = typeof v === 'object' && v !== null && !Array.isArray(v);
    const b = ref ? condRead((v as { fact: string }).fact) : lit(v);
    switch (c.operator) {
      case 'equal':
        return `(${a} === ${b})`;
      case 'notEqual':
        return `(${a} !== ${b})`;
      case 'in':
        if (!ref && Array.isArray(v)) return v.length ? `(${v.map((x) => `${a} === ${lit(x)}`).join(' || ')})` : 'false';
        return `rt.op.in(${a}, ${b})`;
      case 'notIn':
        if (!ref && Array.isArray(v)) return v.length ? `(${v.map((x) => `${a} !== ${lit(x)}`).join(' && ')})` : 'true';
        return `rt.op.notIn(${a}, ${b})`;
      case 'lessThan':
        return `(typeof ${a} === 'number' ? ${a} < ${b} : rt.isNumeric(${a}) && ${a} < ${b})`;
      case 'lessThanInclusive':
        return `(typeof ${a} === 'number' ? ${a} <= ${b} : rt.isNumeric(${a}) && ${a} <= ${b})`;
      case 'greaterThan':
        return `(typeof ${a} === 'number' ? ${a} > ${b} : rt.isNumeric(${a}) && ${a} > ${b})`;
      case 'greaterThanInclusive':
        return `(typeof ${a} === 'number' ? ${a} >= ${b} : rt.isNumeric(${a}) && ${a} >= ${b})`;
      case 'contains':
        return `rt.op.contains(${a}, ${b})`;
      case 'doesNotContain':
        return `rt.op.doesNotContain(${a}, ${b})`;
      default:
        throw new PtaxError('RULES_INVALID', `unknown operator ${c.operator}`);
    }
  };

  // Validations, then every step as a local, then the slots written back (for --explain).
  const body: string[] = [];
  program.validations.forEach((x, i) => {
    consts.push(`const M${i} = ${JSON.stringify(x.message)};`);
    body.push(`if (${cond(x.when)}) throw rt.error(${JSON.stringify(x.code)}, M${i}[lang]);`);
  });
  program.steps.forEach((s, i) => {
    let code: string;
    if (s.formula) code = expr(s.formula.ast).code;
    else if (s.condition) code = cond(s.condition);
    else {
      code = s.cases!.reduceRight<string>((rest, c) => {
        const value = c.formula ? expr(c.formula.ast).code : lit(c.value!);
        return c.when ? `(${cond(c.when)} ? ${value} : ${rest})` : value;
      }, 'null');
    }
    body.push(`const s${i} = ${code};`);
    defined.add(s.id);
  });
  const writeBack = program.steps.map((s, i) => `v[${stepSlot.get(s.id)}] = s${i};`).join(' ');

  // The result tree, as compileResult builds it: every leaf into a local in the tree's order
  // (so the first leaf that throws is the interpreter's first), the groups that leave out
  // zeros filled by statements, then one object literal (no closure per call).
  const pre: string[] = [];
  let nLeaf = 0;
  let nGroup = 0;
  const result = (g: ResultGroup, drop: 'value' | 'amount' | undefined, top: boolean): { code: string; amount?: string } => {
    const entries = Object.entries(g);
    for (const [key] of entries) if (key === '__proto__') throw new PtaxError('RULES_INVALID', 'a result field cannot be named __proto__');
    const parts = entries.map(([key, node]) => {
      if (typeof node.unit === 'string') {
        const r = `r${nLeaf++}`;
        pre.push(`const ${r} = ${leaf(node as ResultLeaf)};`);
        return { key, leaf: true, code: r, amount: undefined as string | undefined };
      }
      const child = !top ? undefined : key === 'exemptions' ? 'value' : key === 'exemptionBreakdown' ? 'amount' : undefined;
      return { key, leaf: false, ...result(node as ResultGroup, child, false) };
    });
    const amount = parts.find((p) => p.key === 'amount' && p.leaf)?.code;
    if (!drop) return { code: `{ ${parts.map((p) => `${JSON.stringify(p.key)}: ${p.code}`).join(', ')} }`, amount };
    const o = `g${nGroup++}`;
    pre.push(`const ${o} = {};`);
    for (const p of parts) {
      // compileResult's zeroValue (x === 0) and zeroAmount (x?.amount === 0): a group is never
      // 0, and only a group with an `amount` leaf has an amount.
      const test = drop === 'value' ? (p.leaf ? `${p.code} !== 0` : '') : p.amount ? `${p.amount} !== 0` : '';
      pre.push(`${test ? `if (${test}) ` : ''}${o}[${JSON.stringify(p.key)}] = ${p.code};`);
    }
    return { code: o, amount };
  };
  const leaf = (l: ResultLeaf): string => {
    const c = expr(l.formula.ast).code;
    const unit: ResultUnit = l.unit;
    if (unit === 'text' || unit === 'count') return c;
    return `roundTo(${c}, ${DECIMALS[unit]})`;
  };
  const resultCode = result(program.result, undefined, true).code;
  // A batch row: every leaf that can throw first, in the tree's order (so a row fails as
  // the result fails), then the batch columns' leaves, unrounded (the printer rounds them).
  const leaves: ResultLeaf[] = [];
  const walkLeaves = (g: ResultGroup): void => {
    for (const node of Object.values(g)) {
      if (typeof node.unit === 'string') leaves.push(node as ResultLeaf);
      else walkLeaves(node as ResultGroup);
    }
  };
  walkLeaves(program.result);
  const throwing = leaves.filter((l) => canThrow(l.formula.ast)).map((l) => `${expr(l.formula.ast).code};`);
  // A number goes to `nums` (unboxed); anything else to `other`, its bit set in nums[n].
  const cells = BATCH_COLUMNS.flatMap((path, i) => {
    const l = leafAt(program.result, path);
    return l
      ? [`x = ${expr(l.formula.ast).code}; if (typeof x === 'number') nums[${i}] = x; else { nums[${i}] = NaN; other[${i}] = x; odd |= ${2 ** i}; }`]
      : [];
  });
  if (BATCH_COLUMNS.length > 30) throw new PtaxError('RULES_INVALID', 'more than 30 batch columns');
  program.notes.forEach((n, i) => consts.push(`const N${i} = ${JSON.stringify(n.text)};`));
  const notesCode = program.notes.map((n, i) => `if (${cond(n.when)}) notes.push(N${i}[lang]);`).join('\n      ');
  // The batch row's notes as one number, bit i for note i (the batch keeps each set's cell).
  if (program.notes.length > 30) throw new PtaxError('RULES_INVALID', `${program.id}: more than 30 notes`);
  const noteBits = program.notes.map((n, i) => `if (${cond(n.when)}) bits |= ${2 ** i};`).join('\n        ');

  const reads = [...usedFacts].sort((a, b) => a - b).map((i) => `f${i} = v[${i}]`);
  const source = `'use strict';
// Generated by ptax (engine/codegen/js.ts) from the checked rules: do not edit.
// program: ${program.id}, year: ${year} (parameters in force on ${date})
// rules: ${[...files].sort().join(', ')}
// hash: ${hash}
const hash = ${JSON.stringify(hash)};
module.exports = {
  hash,
  program: ${JSON.stringify(program.id)},
  year: ${year},
  /** rt: the engine's runtime (engine/codegen/runtime.ts). */
  make(rt) {
    const roundTo = rt.roundTo;
    ${consts.join('\n    ')}
    /**
     * The program on a filled fact array: validations, then steps. For a batch row (nums
     * given): the leaves that can throw (so a row fails as the result would), the batch
     * columns, unrounded, into nums (numbers) or other, and the notes that apply as bits
     * (bit i for notes[i]). Else: the steps written back to their slots when keepSteps,
     * and the result object with its notes.
     */
    function evaluate(v, lang, keepSteps, nums, other) {
      ${reads.length ? `const ${reads.join(', ')};` : ''}
      ${body.join('\n      ')}
      if (nums !== undefined) {
        ${throwing.join('\n        ')}
        let x, odd = 0;
        ${cells.join('\n        ')}
        nums[${BATCH_COLUMNS.length}] = odd;
        let bits = 0;
        ${noteBits}
        return bits;
      }
      ${writeBack ? `if (keepSteps) { ${writeBack} }` : ''}
      ${pre.join('\n      ')}
      const result = ${resultCode};
      const notes = [];
      ${notesCode}
      result.notes = notes;
      return result;
    }
    return { hash, evaluate, notes: [${program.notes.map((_, i) => `N${i}`).join(', ')}] };
  },
};
`;
  return { file: moduleName(programId, year), source, hash };
}

/** Whether evaluating an expression can throw: a computed table look-up or a band. */
function canThrow(e: Expr): boolean {
  switch (e.type) {
    case 'MemberExpression':
      return e.computed || canThrow(e.object);
    case 'CallExpression':
      return e.callee.name === 'band' || e.arguments.some(canThrow);
    case 'BinaryExpression':
      return canThrow(e.left) || canThrow(e.right);
    case 'UnaryExpression':
      return canThrow(e.argument);
    default:
      return false;
  }
}

function leafAt(tree: ResultGroup, path: readonly string[]): ResultLeaf | undefined {
  let node: ResultGroup | ResultLeaf | undefined = tree;
  for (const k of path) {
    if (!node || typeof (node as ResultLeaf).unit === 'string') return undefined;
    node = (node as ResultGroup)[k];
  }
  return node && typeof (node as ResultLeaf).unit === 'string' ? (node as ResultLeaf) : undefined;
}

/** Every program and year of the bundle, generated (a program whose rules cannot be compiled is left out, with the reason). */
export function generateAll(bundle: Bundle): { modules: GeneratedModule[]; skipped: string[] } {
  const modules: GeneratedModule[] = [];
  const skipped: string[] = [];
  for (const p of Object.values(bundle.programs)) {
    for (const y of p.years) {
      try {
        modules.push(generateProgram(bundle, p.id, y));
      } catch (e) {
        skipped.push(`${p.id}@${y}: ${(e as Error).message}`);
      }
    }
  }
  return { modules, skipped };
}

export type { ProgramDef };
