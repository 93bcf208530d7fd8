/**
 * Build-time printer: one program for one year, lowered (engine/core/ir.ts: parameters in
 * force, constants folded, names resolved to slots), printed as the source of a plain
 * JavaScript module (CommonJS, so the engine can load it synchronously with `require`).
 * Fact slots become locals, tables and band tables module constants, conditions `if`s and
 * `?:`. Each node of the lowered form is printed as the JavaScript operator or runtime call
 * the interpreter (engine/core/walk.ts) evaluates it with: the printer decides nothing of
 * the semantics. Nothing here runs at calculation time: the source is written to dist/ by
 * scripts/build-rules.ts and loaded as an ordinary module (engine/codegen/node.ts);
 * engine/codegen/js.test.ts and engine/ir-random.test.ts prove the two equal.
 */
import { createHash } from 'node:crypto';
import { periodStart, valueAt } from '../core/params.js';
import { PtaxError } from '../core/errors.js';
import { RESULT_FIELDS } from '../generated/results.js';
import { inputFactsOf } from '../core/registry.js';
import { leavesOf, raises, type CaseValue, type Cond, type GroupIR, type LeafIR, type ProgramIR, type StepIR } from '../core/ir.js';
import { lowered } from '../build/ir.js';
import { COUNTY_FACTS, type Band, type Bundle, type ProgramDef } from '../core/types.js';

/**
 * The batch's result columns besides the place's and the notes (rules/results.yaml: the
 * fields with a `column`, without the first three and the last), in order.
 */
export const BATCH_COLUMNS: ReadonlyArray<readonly string[]> = RESULT_FIELDS.flatMap((f): Array<readonly string[]> => ('column' in f ? [f.path] : [])).slice(
  3,
  -1,
);

/** Bumped when the generated code's shape or the runtime it expects changes: old modules then no longer match. */
export const CODEGEN_VERSION = 5;

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

/** A number as an exact JavaScript literal (negative numbers and −0 in parentheses; String gives NaN, Infinity, -Infinity). */
export function numLit(n: number): string {
  if (Object.is(n, -0)) return '(-0)';
  return n < 0 ? `(${String(n)})` : String(n);
}
const lit = (x: unknown): string => (typeof x === 'number' ? numLit(x) : JSON.stringify(x));

export interface GeneratedModule {
  file: string;
  source: string;
  hash: string;
}

/** The generated module's file name for a program and year. */
export const moduleName = (programId: string, year: number): string => `${programId}@${year}.cjs`;

/**
 * What printing one program collects besides its code: the module's constants (tables,
 * bands, messages, notes), the facts it reads and the steps defined so far.
 */
class Printer {
  readonly consts: string[] = [];
  readonly usedFacts = new Set<number>();
  readonly defined = new Set<number>();
  private readonly tables = new Map<string, string>();
  private readonly bands = new Map<string, string>();
  private readonly stepIndex: Map<number, number>;
  constructor(readonly ir: ProgramIR) {
    this.stepIndex = new Map(ir.steps.map((s, i) => [s.slot, i]));
  }

  /** A slot read: a fact is a local read once at the top; a step is its local from its definition on. */
  read(n: { slot: number; name: string }): string {
    if (n.slot < this.ir.facts) {
      this.usedFacts.add(n.slot);
      return `f${n.slot}`;
    }
    // Reading a step before it is computed (the interpreter would read whatever its slot
    // held) is refused here, and the program stays with the interpreter. (A scalar
    // parameter's slot is never read: the lowering folds it into a constant.)
    if (!this.defined.has(n.slot)) throw new PtaxError('RULES_INVALID', `${this.ir.program}: ${n.name} is read before it is computed`);
    return `s${this.stepIndex.get(n.slot)}`;
  }

  private table(id: string, table: Record<string, number>): string {
    let n = this.tables.get(id);
    if (!n) {
      this.tables.set(id, (n = `T${this.tables.size}`));
      // JSON.parse, as the bundle is read: a key such as __proto__ stays an own property.
      this.consts.push(`const ${n} = JSON.parse(${JSON.stringify(JSON.stringify(table))});`);
    }
    return n;
  }

  private band(id: string, bands: Band[]): string {
    let n = this.bands.get(id);
    if (!n) {
      this.bands.set(id, (n = `B${this.bands.size}`));
      this.consts.push(`const ${n} = rt.bands(${JSON.stringify(id)}, ${JSON.stringify(bands)});`);
    }
    return n;
  }

  /** A formula: each node of the lowered form as the JavaScript operator or runtime call it is. */
  expr(n: CaseValue): string {
    switch (n.op) {
      case 'const':
        return numLit(n.value);
      case 'text':
        return JSON.stringify(n.value);
      case 'read':
        return this.read(n);
      case 'neg':
        return `(-${this.expr(n.arg)})`;
      case '+':
      case '-':
      case '*':
      case '/':
        return `(${this.expr(n.left)} ${n.op} ${this.expr(n.right)})`;
      case 'min':
      case 'max': {
        const fn = n.op === 'min' ? 'Math.min' : 'Math.max';
        // Left to right, two at a time, as the interpreter walks them.
        return n.args.slice(1).reduce((acc, a) => `${fn}(${acc}, ${this.expr(a)})`, this.expr(n.args[0]!));
      }
      case 'floor':
        return `Math.floor(${this.expr(n.arg)})`;
      case 'pow':
        // The power at run time, as the interpreter computes it (never folded by the JS compiler).
        return `rt.pow(${this.expr(n.base)}, ${this.expr(n.exp)})`;
      case 'entry':
        return `rt.entry(${this.table(n.id, n.table)}, ${JSON.stringify(n.id)}, ${this.expr(n.key)})`;
      case 'band':
        return `${this.band(n.id, n.bands)}(${this.expr(n.arg)})`;
    }
  }

  /** A condition: json-rules-engine's operators as the runtime (engine/codegen/runtime.ts) and walk.ts have them. */
  cond(c: Cond): string {
    switch (c.op) {
      case 'all':
        return c.args.length === 0 ? 'true' : c.args.length === 1 ? this.cond(c.args[0]!) : `(${c.args.map((x) => this.cond(x)).join(' && ')})`;
      case 'any':
        return c.args.length === 0 ? 'false' : c.args.length === 1 ? this.cond(c.args[0]!) : `(${c.args.map((x) => this.cond(x)).join(' || ')})`;
      case 'not':
        return `!${this.cond(c.arg)}`;
      case 'test':
        return this.test(c);
    }
  }

  private test(c: Extract<Cond, { op: 'test' }>): string {
    const a = this.expr(c.fact);
    const list = c.value.op === 'literal' && Array.isArray(c.value.value) ? c.value.value : undefined;
    const b = c.value.op === 'literal' ? lit(c.value.value) : this.expr(c.value);
    const order = (op: string) => `(typeof ${a} === 'number' ? ${a} ${op} ${b} : rt.isNumeric(${a}) && ${a} ${op} ${b})`;
    switch (c.operator) {
      case 'equal':
        return `(${a} === ${b})`;
      case 'notEqual':
        return `(${a} !== ${b})`;
      case 'in':
        if (list) return list.length ? `(${list.map((x) => `${a} === ${lit(x)}`).join(' || ')})` : 'false';
        return `rt.op.in(${a}, ${b})`;
      case 'notIn':
        if (list) return list.length ? `(${list.map((x) => `${a} !== ${lit(x)}`).join(' && ')})` : 'true';
        return `rt.op.notIn(${a}, ${b})`;
      case 'lessThan':
        return order('<');
      case 'lessThanInclusive':
        return order('<=');
      case 'greaterThan':
        return order('>');
      case 'greaterThanInclusive':
        return order('>=');
      case 'contains':
        return `rt.op.contains(${a}, ${b})`;
      case 'doesNotContain':
        return `rt.op.doesNotContain(${a}, ${b})`;
    }
  }

  /** A step's value: a formula, a condition, or its cases as `when ? value : rest` (none: null). */
  step(s: StepIR): string {
    const b = s.body;
    if (b.kind === 'formula') return this.expr(b.expr);
    if (b.kind === 'condition') return this.cond(b.cond);
    return b.cases.reduceRight<string>((rest, c) => (c.when ? `(${this.cond(c.when)} ? ${this.expr(c.value)} : ${rest})` : this.expr(c.value)), 'null');
  }

  leaf(l: LeafIR): string {
    const c = this.expr(l.expr);
    return l.round === undefined ? c : `roundTo(${c}, ${l.round})`;
  }
}

/**
 * The result tree, as walk.ts builds it: every leaf into a local in the tree's order (so the
 * first leaf that throws is the interpreter's first), the groups that leave out zeros filled
 * by statements, then one object literal (no closure per call).
 */
function printResult(p: Printer, root: GroupIR): { pre: string[]; code: string } {
  const pre: string[] = [];
  let nLeaf = 0;
  let nGroup = 0;
  const group = (g: GroupIR): { code: string; amount?: string } => {
    for (const [key] of g.entries) if (key === '__proto__') throw new PtaxError('RULES_INVALID', 'a result field cannot be named __proto__');
    const parts = g.entries.map(([key, node]) => {
      if (node.kind === 'leaf') {
        const r = `r${nLeaf++}`;
        pre.push(`const ${r} = ${p.leaf(node)};`);
        return { key, leaf: true, code: r, amount: undefined as string | undefined };
      }
      return { key, leaf: false, ...group(node) };
    });
    const amount = parts.find((x) => x.key === 'amount' && x.leaf)?.code;
    if (!g.drop) return { code: `{ ${parts.map((x) => `${JSON.stringify(x.key)}: ${x.code}`).join(', ')} }`, amount };
    const o = `g${nGroup++}`;
    pre.push(`const ${o} = {};`);
    for (const x of parts) {
      // drop value: a member that is 0 (a group never is); drop amount: a member whose
      // `amount` is 0 (only a group with an `amount` leaf has one).
      const test = g.drop === 'value' ? (x.leaf ? `${x.code} !== 0` : '') : x.amount ? `${x.amount} !== 0` : '';
      pre.push(`${test ? `if (${test}) ` : ''}${o}[${JSON.stringify(x.key)}] = ${x.code};`);
    }
    return { code: o, amount };
  };
  return { pre, code: group(root).code };
}

/**
 * A batch row: every leaf that can throw first, in the tree's order (so a row fails as the
 * result fails), then the batch columns' leaves, unrounded (the printer rounds them): a
 * number to `nums` (unboxed), anything else to `other`, its bit set in nums[n].
 */
function printBatch(p: Printer, ir: ProgramIR): { throwing: string[]; cells: string[] } {
  if (BATCH_COLUMNS.length > 30) throw new PtaxError('RULES_INVALID', 'more than 30 batch columns');
  const leaves = leavesOf(ir.result);
  const throwing = leaves.filter((l) => raises(l.leaf.expr)).map((l) => `${p.expr(l.leaf.expr)};`);
  const cells = BATCH_COLUMNS.flatMap((path, i) => {
    const l = leaves.find((x) => x.path.length === path.length && x.path.every((k, j) => k === path[j]));
    return l ? [`x = ${p.expr(l.leaf.expr)}; if (typeof x === 'number') nums[${i}] = x; else { nums[${i}] = NaN; other[${i}] = x; odd |= ${2 ** i}; }`] : [];
  });
  return { throwing, cells };
}

/** Validations, then every step as a local, then the slots written back (for --explain). */
function printBody(p: Printer, ir: ProgramIR): { body: string[]; writeBack: string } {
  const body: string[] = [];
  ir.validations.forEach((x, i) => {
    p.consts.push(`const M${i} = ${JSON.stringify(x.message)};`);
    body.push(`if (${p.cond(x.when)}) throw rt.error(${JSON.stringify(x.code)}, M${i}[lang]);`);
  });
  ir.steps.forEach((s, i) => {
    body.push(`const s${i} = ${p.step(s)};`);
    p.defined.add(s.slot);
  });
  return { body, writeBack: ir.steps.map((s, i) => `v[${s.slot}] = s${i};`).join(' ') };
}

/** The notes that hold, for a result (texts) and for a batch row (bit i for note i). */
function printNotes(p: Printer, ir: ProgramIR): { notes: string; bits: string } {
  if (ir.notes.length > 30) throw new PtaxError('RULES_INVALID', `${ir.program}: more than 30 notes`);
  ir.notes.forEach((n, i) => p.consts.push(`const N${i} = ${JSON.stringify(n.text)};`));
  return {
    notes: ir.notes.map((n, i) => `if (${p.cond(n.when)}) notes.push(N${i}[lang]);`).join('\n      '),
    bits: ir.notes.map((n, i) => `if (${p.cond(n.when)}) bits |= ${2 ** i};`).join('\n        '),
  };
}

/** One program and year as a module: the lowered form (engine/core/ir.ts) printed as JavaScript. */
export function generateProgram(bundle: Bundle, programId: string, year: number): GeneratedModule {
  const ir = lowered(bundle, programId, year);
  const hash = programHash(bundle, programId, year);
  const files = [...new Set([ir.file, ...ir.params.map((x) => x.file)])].sort();
  const p = new Printer(ir);
  const { body, writeBack } = printBody(p, ir);
  const result = printResult(p, ir.result);
  const batch = printBatch(p, ir);
  const notes = printNotes(p, ir);
  const reads = [...p.usedFacts].sort((a, b) => a - b).map((i) => `f${i} = v[${i}]`);
  const source = `'use strict';
// Generated by ptax (engine/codegen/js.ts) from the checked rules: do not edit.
// program: ${ir.program}, year: ${year} (parameters in force on ${ir.date})
// rules: ${files.join(', ')}
// hash: ${hash}
const hash = ${JSON.stringify(hash)};
module.exports = {
  hash,
  program: ${JSON.stringify(ir.program)},
  year: ${year},
  /** rt: the engine's runtime (engine/codegen/runtime.ts). */
  make(rt) {
    const roundTo = rt.roundTo;
    ${p.consts.join('\n    ')}
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
        ${batch.throwing.join('\n        ')}
        let x, odd = 0;
        ${batch.cells.join('\n        ')}
        nums[${BATCH_COLUMNS.length}] = odd;
        let bits = 0;
        ${notes.bits}
        return bits;
      }
      ${writeBack ? `if (keepSteps) { ${writeBack} }` : ''}
      ${result.pre.join('\n      ')}
      const result = ${result.code};
      const notes = [];
      ${notes.notes}
      result.notes = notes;
      return result;
    }
    return { hash, evaluate, notes: [${ir.notes.map((_, i) => `N${i}`).join(', ')}], reads: [${[...p.usedFacts].sort((a, b) => a - b).join(', ')}] };
  },
};
`;
  return { file: moduleName(programId, year), source, hash };
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
