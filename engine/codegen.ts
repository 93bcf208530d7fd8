/**
 * Batch fast path, part 2: one compiled program (one program, one year) as a single
 * generated JavaScript function that runs its validations and steps and prints the CSV
 * result cells, instead of a tree of closures. The semantics are those of expr.ts and
 * conditions.ts, operator for operator (the same JavaScript operations in the same
 * order, the same table and band look-ups, the same errors); anything this generator
 * does not know (a new function, operator or binding kind, or slots laid out otherwise
 * than compile.ts lays them out today) makes `generate` return null and the batch uses
 * the closures. cli/batch.test.ts compares both ways on random inputs of every program.
 *
 * The code is built only from the rule bundle (trusted, validated at build time), never
 * from input rows: names become slot numbers, strings and numbers become JSON literals.
 */
import type { CompiledProgram } from './compile.js';
import type { CsvOut } from './csv-out.js';
import { bandPicker } from './expr.js';
import { valueAt } from './params.js';
import { PtaxError } from './errors.js';
import { COUNTY_FACTS, INPUT_FACTS, type Bundle, type Condition, type ConditionValue, type Expr, type Label, type Lang, type ResultUnit } from './types.js';

/**
 * (facts, the place's carried-forward note or '', output) → writes the CSV cells of the
 * leaves, then the notes cell. Nothing is written unless the row succeeds (every check
 * and every value comes before the first write).
 */
export type CellsFn = (v: unknown[], note: string, w: CsvOut) => void;

export interface Leaf { expr: Expr; unit: ResultUnit }

class Unsupported extends Error {}

/** Helpers the generated code calls; passed in, so the code reads no global state. */
export interface Helpers {
  roundTo: (x: number, d: number) => number;
  num: (x: number) => string;
  csvEscape: (s: string) => string;
}

export function generate(bundle: Bundle, c: CompiledProgram, leaves: Array<Leaf | null>, throwing: Expr[], lang: Lang, sep: string, h: Helpers): CellsFn | null {
  try {
    return build(bundle, c, leaves, throwing, lang, sep, h);
  } catch (e) {
    if (e instanceof Unsupported || e instanceof PtaxError) return null;
    throw e;
  }
}

function build(bundle: Bundle, c: CompiledProgram, leaves: Array<Leaf | null>, throwing: Expr[], lang: Lang, sep: string, h: Helpers): CellsFn {
  const program = c.program;
  // The slots as compileProgram lays them out; checked against the compiled program.
  const slots = new Map<string, number>();
  let n = 0;
  for (const f of [...INPUT_FACTS, ...COUNTY_FACTS]) slots.set(f, n++);
  const scalars = new Map<string, number>();
  const tables = new Map<string, { id: string; table: Record<string, number> }>();
  const bands = new Map<string, { id: string; pick: (x: number) => number }>();
  for (const [alias, pid] of Object.entries(program.parameters)) {
    const p = bundle.parameters[pid];
    const entry = p && valueAt(p, c.date);
    if (!p || !entry) throw new Unsupported();
    if (p.type === 'scalar') {
      if (c.template[n] !== entry.value) throw new Unsupported();
      scalars.set(alias, entry.value as number);
      slots.set(alias, n++);
    } else if (p.type === 'by_key') tables.set(alias, { id: pid, table: entry.value as Record<string, number> });
    else if (p.type === 'bands') bands.set(alias, { id: pid, pick: bandPicker(pid, entry.bands!) });
    else throw new Unsupported();
  }
  program.steps.forEach((s, i) => {
    if (c.steps[i]?.slot !== n) throw new Unsupported();
    slots.set(s.id, n++);
  });
  if (n !== c.template.length || c.steps.length !== program.steps.length) throw new Unsupported();

  const consts: unknown[] = [];
  const lit = (x: unknown): string => {
    if (typeof x === 'number' && Number.isFinite(x) && !Object.is(x, -0)) return x < 0 ? `(${x})` : String(x);
    if (typeof x === 'string' || typeof x === 'boolean' || x === null) return JSON.stringify(x);
    consts.push(x);
    return `K[${consts.length - 1}]`;
  };
  const read = new Set<number>(); // input and county slots read from v
  const nFacts = INPUT_FACTS.length + COUNTY_FACTS.length;
  const stepSlot = new Set(program.steps.map((s) => slots.get(s.id)!));
  // Steps computed so far: a step read before its turn (by a validation, or a step before
  // it) reads what the closures would find in its slot then, the template's value.
  const defined = new Set<number>();
  const fact = (name: string): string => {
    const s = slots.get(name);
    if (s === undefined) throw new Unsupported();
    if (scalars.has(name)) return lit(c.template[s]); // conditions read a scalar's slot: its value
    if (s < nFacts) { read.add(s); return `f${s}`; }
    if (!stepSlot.has(s)) throw new Unsupported();
    return defined.has(s) ? `s${s}` : lit(c.template[s]);
  };
  const tableUse: string[] = [];
  const bandUse: Array<(x: number) => number> = [];

  const expr = (e: Expr): string => {
    switch (e.type) {
      case 'Literal': return lit(e.value);
      case 'Identifier': {
        if (scalars.has(e.name)) return lit(scalars.get(e.name));
        if (tables.has(e.name) || bands.has(e.name)) throw new Unsupported(); // compile.ts refuses it too
        return fact(e.name);
      }
      case 'UnaryExpression':
        if (e.operator !== '-') throw new Unsupported();
        return `(-${expr(e.argument)})`;
      case 'BinaryExpression':
        if (!['+', '-', '*', '/'].includes(e.operator)) throw new Unsupported();
        return `(${expr(e.left)} ${e.operator} ${expr(e.right)})`;
      case 'MemberExpression': {
        if (e.object.type !== 'Identifier') throw new Unsupported();
        const t = tables.get(e.object.name);
        if (!t) throw new Unsupported();
        if (!e.computed) {
          if (e.property.type !== 'Identifier') throw new Unsupported();
          const x = t.table[e.property.name];
          if (x === undefined) throw new Unsupported(); // compile.ts fails at compile time
          return lit(x);
        }
        let k = tableUse.indexOf(e.object.name);
        if (k === -1) k = tableUse.push(e.object.name) - 1;
        return `T${k}(${expr(e.property)})`;
      }
      case 'CallExpression': {
        const args = e.arguments;
        switch (e.callee.name) {
          case 'band': {
            if (args.length !== 2 || args[0]!.type !== 'Identifier') throw new Unsupported();
            const b = bands.get((args[0] as { name: string }).name);
            if (!b) throw new Unsupported();
            bandUse.push(b.pick);
            return `B[${bandUse.length - 1}](${expr(args[1]!)})`;
          }
          case 'floor':
            if (args.length !== 1) throw new Unsupported();
            return `Math.floor(${expr(args[0]!)})`;
          case 'min': case 'max':
            if (args.length < 2) throw new Unsupported();
            // Pairwise, as expr.ts folds them: Math.min(Math.min(a, b), c).
            return args.slice(1).reduce((acc, a) => `Math.${e.callee.name}(${acc}, ${expr(a)})`, expr(args[0]!));
          case 'pow':
            if (args.length !== 2) throw new Unsupported();
            return `(${expr(args[0]!)} ** ${expr(args[1]!)})`;
          default: throw new Unsupported();
        }
      }
      default: throw new Unsupported();
    }
  };

  const scalarLiteral = (x: ConditionValue): string => {
    if (x === null || typeof x === 'string' || typeof x === 'boolean' || (typeof x === 'number' && Number.isFinite(x))) return lit(x);
    throw new Unsupported();
  };
  const cond = (cd: Condition): string => {
    if ('all' in cd) return cd.all.length ? `(${cd.all.map(cond).join(' && ')})` : 'true';
    if ('any' in cd) return cd.any.length ? `(${cd.any.map(cond).join(' || ')})` : 'false';
    if ('not' in cd) return `(!${cond(cd.not)})`;
    const a = fact(cd.fact);
    const v = cd.value;
    const isRef = typeof v === 'object' && v !== null && !Array.isArray(v);
    const b = isRef ? fact((v as { fact: string }).fact) : null;
    switch (cd.operator) {
      case 'equal': return b ? `(${a} === ${b})` : `(${a} === ${scalarLiteral(v)})`;
      case 'notEqual': return b ? `(${a} !== ${b})` : `(${a} !== ${scalarLiteral(v)})`;
      case 'in': case 'notIn': {
        const yes = cd.operator === 'in';
        if (b) return yes ? `(${b}.indexOf(${a}) > -1)` : `(${b}.indexOf(${a}) === -1)`;
        if (!Array.isArray(v)) throw new Unsupported();
        // indexOf is strict equality, element by element.
        if (!v.length) return yes ? 'false' : 'true';
        return yes ? `(${v.map((x) => `${a} === ${scalarLiteral(x)}`).join(' || ')})` : `(${v.map((x) => `${a} !== ${scalarLiteral(x)}`).join(' && ')})`;
      }
      case 'contains': return `(Array.isArray(${a}) && ${a}.indexOf(${b ?? scalarLiteral(v)}) > -1)`;
      case 'doesNotContain': return `(Array.isArray(${a}) && ${a}.indexOf(${b ?? scalarLiteral(v)}) === -1)`;
      // isNumeric, with its number case inline.
      case 'lessThan': return `((typeof ${a} === "number" ? ${a} === ${a} : isNumeric(${a})) && ${a} < ${b ?? scalarLiteral(v)})`;
      case 'lessThanInclusive': return `((typeof ${a} === "number" ? ${a} === ${a} : isNumeric(${a})) && ${a} <= ${b ?? scalarLiteral(v)})`;
      case 'greaterThan': return `((typeof ${a} === "number" ? ${a} === ${a} : isNumeric(${a})) && ${a} > ${b ?? scalarLiteral(v)})`;
      case 'greaterThanInclusive': return `((typeof ${a} === "number" ? ${a} === ${a} : isNumeric(${a})) && ${a} >= ${b ?? scalarLiteral(v)})`;
      default: throw new Unsupported();
    }
  };

  const body: string[] = [];
  const messages: Label[] = [];
  const codes: string[] = [];
  program.validations.forEach((x) => {
    codes.push(x.code);
    messages.push(x.message);
    body.push(`if (${cond(x.when)}) fail(${codes.length - 1});`);
  });
  for (const s of program.steps) {
    const slot = slots.get(s.id)!;
    let code: string;
    if (s.formula) code = expr(s.formula.ast);
    else if (s.condition) code = cond(s.condition);
    else if (s.cases) {
      // The first case whose `when` holds, or that has none; no case: null.
      code = 'null';
      const cases = s.cases;
      const last = cases.findIndex((k) => !k.when);
      const used = last === -1 ? cases : cases.slice(0, last + 1);
      for (let i = used.length - 1; i >= 0; i--) {
        const k = used[i]!;
        const run = k.formula ? expr(k.formula.ast) : lit(k.value!);
        code = k.when ? `(${cond(k.when)} ? ${run} : ${code})` : run;
      }
    } else throw new Unsupported();
    body.push(`const s${slot} = ${code};`);
    defined.add(slot);
  }
  // Result leaves that can throw (a table or band look-up) run first, in the result's
  // order, as building the result object runs them, so a row fails exactly when it would.
  for (const e of throwing) body.push(`void ${expr(e)};`);
  const cells = leaves.map((leaf, i) => {
    if (!leaf) return '';
    const x = `r${i}`;
    body.push(`const ${x} = ${expr(leaf.expr)};`);
    switch (leaf.unit) {
      case 'usd': return `w.decimal(roundTo(${x}, 2), 2, num);`;
      case 'percent': return `w.decimal(roundTo(${x}, 6), 6, num);`;
      case 'fraction': return `w.decimal(roundTo(${x}, 8), 8, num);`;
      case 'count': return `if (${x} !== null && ${x} !== undefined) w.str(num(${x}));`;
      case 'text': return `if (${x} !== null && ${x} !== undefined) w.field(String(${x}));`;
      default: throw new Unsupported();
    }
  });
  // Which notes hold, as bits; the notes cell of each combination is encoded once.
  if (program.notes.length > 20) throw new Unsupported();
  body.push('let mask = 0;');
  program.notes.forEach((note, i) => body.push(`if (${cond(note.when)}) mask |= ${2 ** i};`));
  const texts = program.notes.map((x) => x.text[lang]);
  const noteCells: Buffer[] = [];
  const noteCell = (mask: number): Buffer => {
    let b = noteCells[mask];
    if (!b) {
      const s = texts.filter((_, i) => mask & (2 ** i)).join(sep);
      noteCells[mask] = b = Buffer.from(h.csvEscape(s), 'utf8');
    }
    return b;
  };
  for (const cell of cells) body.push(cell, 'w.byte(44);');
  // A place's carried-forward note comes last (rare: only for a year after the last one).
  body.push(`if (note) { const t = noteText(mask); w.field(t ? t + ${lit(sep)} + note : note); } else if (mask) w.bytes(noteCell(mask));`);

  const head = [...read].sort((a, b) => a - b).map((s) => `const f${s} = v[${s}];`);
  const tableFns = tableUse.map((name, k) => {
    const t = tables.get(name)!;
    consts.push(t.table);
    const tk = consts.length - 1;
    return `const T${k} = (key) => { const x = K[${tk}][key]; if (x === undefined) noValue(${lit(t.id)}, key); return x; };`;
  });
  const src = [
    '"use strict";',
    'const { roundTo, num } = H;',
    'const isNumeric = (x) => typeof x === "number" ? x === x : Number.parseFloat(x).toString() !== "NaN";',
    ...tableFns,
    'return function cells(v, note, w) {',
    ...head, ...body,
    '};',
  ].join('\n');
  const fail = (k: number): never => { throw new PtaxError(codes[k]!, messages[k]![lang]); };
  const noValue = (id: string, key: unknown): never => { throw new PtaxError('NO_VALUE', `${id} has no value for ${String(key)}`); };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const noteText = (mask: number): string => texts.filter((_, i) => mask & (2 ** i)).join(sep);
  return new Function('H', 'K', 'B', 'fail', 'noValue', 'noteCell', 'noteText', src)(h, consts, bandUse, fail, noValue, noteCell, noteText) as CellsFn;
}
