/**
 * The batch fast path: the same calculation as `Calculator.calculate`, arranged for
 * millions of rows. Three things make it faster, none of which can change an answer:
 *
 * 1. Place cache. What `prepare` works out from a row's state, county and requested year
 *    (state look-up, county look-up, program choice, rule year, carried-forward note,
 *    compiled program, county facts) is taken from `prepare` itself on the first row with
 *    that (state, county, year) text and reused for the next rows with the same text. It
 *    is used only when the state's program choice reads county facts alone (checked per
 *    state) and not for a row that gives its own county rate; every cache miss checks
 *    that the fact array filled here equals the one `prepare` built, slot for slot; on
 *    any difference the fast path switches itself off and every row goes through `prepare`.
 * 2. Result columns. A batch row needs a dozen flat figures, not the nested result
 *    object: only the result leaves for those columns are computed (and, first, any
 *    leaf that can throw, so a row fails exactly when `calculate` fails), rounded as
 *    `compile.ts` rounds result leaves and written into the output buffer as JSON
 *    prints numbers; steps that nothing printed depends on (and that cannot throw) are
 *    not run; the rows of a program are evaluated in one reused fact array.
 * 3. The compiled closures: validations and steps as `evaluate` runs them, leaves via
 *    `compileNode`. (Generating one JavaScript function per program from the rules, with
 *    `new Function`, was measured at about 3× the throughput but is not allowed: no code is
 *    ever made from rule text.)
 *
 * Nothing is memoised per input row: every row is evaluated. NDJSON output (the whole
 * result object) uses the place cache and the exported `evaluate`.
 */
import { OPTIONAL_NUMBERS, evaluate, inputFacts, type Calculator, type CalcInput, type CalcResult } from './calculate.js';
import type { CompiledProgram } from './compile.js';
import { conditionFacts, type Facts, type Predicate } from './conditions.js';
import { slugOf } from './counties.js';
import { compileNode, exprNames, type Binding, type Fn, type Node } from './expr.js';
import { valueAt } from './params.js';
import { DECIMALS } from './round.js';
import { PtaxError } from './errors.js';
import { COUNTY_FACTS, INPUT_FACTS, type Expr, type Lang, type ProgramDef, type ResultGroup, type ResultLeaf, type ResultUnit } from './types.js';
import { CsvOut } from './csv-out.js';
import { RESULT_FIELDS } from './generated/results.js';

/**
 * The flat result columns of a CSV batch row: column name and result path, the fields of
 * rules/results.yaml with a `column`, in its order: the place's (county name, program,
 * rules' year), then result leaves, then the notes, joined.
 */
export const RESULT_COLUMNS: ReadonlyArray<{ name: string; path: readonly string[] }> =
  RESULT_FIELDS.flatMap((f): Array<{ name: string; path: readonly string[] }> => ('column' in f ? [{ name: f.column, path: f.path }] : []));
/** The columns a place gives (written once per place as its prefix), in this order. */
const PLACE_COLUMNS = ['county', 'program', 'year'];
if (RESULT_COLUMNS.slice(0, 3).map((c) => c.path.join('.')).join() !== PLACE_COLUMNS.join() || RESULT_COLUMNS.at(-1)?.path.join('.') !== 'notes') {
  throw new Error(`rules/results.yaml: the batch columns must start with ${PLACE_COLUMNS.join(', ')} and end with notes`);
}
const LEAF_COLUMNS = RESULT_COLUMNS.slice(3, -1);
/** Notes are joined into one cell with this separator. */
export const NOTE_SEPARATOR = ' | ';

/** Numeric inputs (those `prepare` checks): a non-finite one goes the slow way, where `prepare` refuses it with its own message. */
const NUMERIC_INPUTS = ['value', ...OPTIONAL_NUMBERS] as const;

/** Whether every numeric input is absent or finite. */
function finite(x: CalcInput): boolean {
  for (const k of NUMERIC_INPUTS) { const n = x[k]; if (n !== null && n !== undefined && !Number.isFinite(n)) return false; }
  return true;
}

/**
 * 0: read from the row (as `inputFacts` reads it), 3: the same for every row of a place,
 * copied from the facts `prepare` built for its first row (`year`: the year asked for,
 * else the rules' year; the year asked for is part of the place's key).
 */
type Kind = 0 | 3;
const PLACE_FACTS = new Set(['year']);

/** A result cell written straight into the output: its text, then a comma. */
type CellWriter = (v: Facts, w: CsvOut) => void;

/**
 * How one compiled program makes a CSV row: the steps the row's cells, notes and errors
 * depend on (steps read only by other result leaves or the explanation are left out, so
 * long as they cannot throw), result leaves that can throw (run first), the cell writers
 * and the notes.
 */
interface Plan {
  steps: Array<{ slot: number; run: Fn }>;
  throwing: Fn[];
  cells: CellWriter[];
  /** Each note as UTF-8, whether it can stand in a cell unquoted, and its text inside quotes ("" for "). */
  notes: Array<{ test: Predicate; bytes: Buffer; plain: boolean; quoted: Buffer }>;
  /** Room for the indices of the notes that hold (reused from row to row). */
  held: Int32Array;
  /**
   * The fact array the plan's rows are evaluated in, reused from row to row and place to
   * place (one array stays in the processor's cache; one per place would not): each row
   * writes its input facts and its place's own facts (county facts, year), the
   * parameters stay, and every step writes its slot before any later step reads it (the
   * loader lets a step read only earlier ones; validations read no step).
   */
  scratch: unknown[];
}

/** What the first row of a (state, county, year) text learned from `prepare`. */
export interface Place {
  compiled: CompiledProgram;
  /** The county facts, as `prepare` filled them. */
  county: unknown[];
  /** The input facts `prepare` filled for the first row (only kind 3 ones are reused). */
  inputs: unknown[];
  state: string;
  countyName: string;
  /** The engine's own notes for the place (rules carried forward to a later year). */
  notes: string[];
  /** countyName,program,rulesYear, (CSV, UTF-8). */
  prefix: Buffer;
  plan: Plan;
  /** The place's notes joined for a CSV cell, as UTF-8 (none: undefined), whether they can stand unquoted, and inside quotes. */
  noteBytes: Buffer | undefined;
  notePlain: boolean;
  noteQuoted: Buffer | undefined;
  /** The place's own facts (county facts, year), in the order of `BatchCalculator.ownSlots`. */
  own: unknown[];
}

/** Texts remembered; beyond this the map starts again (bounded memory, whatever the input). */
const MAX_PLACES = 100_000;

export interface BatchCalculatorOptions {
  lang?: Lang;
}

export class BatchCalculator {
  /** Places by county text, then (a short list) by state text and year asked for (-1: none). */
  private places = new Map<string, Array<{ state: string; year: number; place: Place }>>();
  private nPlaces = 0;
  /** Places by state code, county slug and year asked for. */
  private bySlug = new Map<string, Place>();
  /** One Place per outcome of `prepare` (many spellings of a county share it). */
  private canonical = new Map<string, Place>();
  private plans = new Map<CompiledProgram, Plan>();
  private kinds: Kind[];
  /** The input fact slots a row fills (all but the place facts). */
  private rowSlots: Int32Array;
  /** The slots of a place's own facts: the place facts (year), then the county facts. */
  private ownSlots: Int32Array;
  /** Why the place cache is off (null while it is on). */
  fastOff: string | null = null;
  /** States whose program choice reads input facts: their rows always go through `prepare`. */
  private inputChosen = new Set<string>();
  private readonly nIn = INPUT_FACTS.length;
  private readonly nCounty = COUNTY_FACTS.length;
  readonly lang: Lang;

  constructor(readonly calc: Calculator, options: BatchCalculatorOptions = {}) {
    this.lang = options.lang ?? 'en';
    const kinds: Kind[] = INPUT_FACTS.map((f) => (PLACE_FACTS.has(f) ? 3 : 0));
    this.kinds = kinds;
    this.rowSlots = Int32Array.from(kinds.flatMap((k, i) => (k === 3 ? [] : [i])));
    this.ownSlots = Int32Array.from([...kinds.flatMap((k, i) => (k === 3 ? [i] : [])), ...COUNTY_FACTS.map((_, j) => INPUT_FACTS.length + j)]);
    const countyOnly = new Set<string>(COUNTY_FACTS);
    for (const s of Object.values(calc.bundle.states)) {
      const read = s.programs.flatMap((p) => (p.when ? conditionFacts(p.when) : []));
      if (read.some((f) => !countyOnly.has(f))) this.inputChosen.add(s.code);
    }
  }

  /** The CSV result cells of one input as text (see `csvInto`). */
  csv(input: CalcInput): string {
    const w = (this.textOut ??= new CsvOut());
    w.ensure(1 << 16);
    const start = w.pos;
    try {
      this.csvInto(input, w);
      return w.buf.toString('utf8', start, w.pos);
    } finally {
      w.pos = start; // the buffer is reused for the next call
    }
  }
  private textOut: CsvOut | undefined;

  /**
   * Writes the CSV result cells of one input (RESULT_COLUMNS, comma-separated) into `w`,
   * which has room for them (`ensure`). Throws the same PtaxError as
   * `Calculator.calculate` for a bad input, having written nothing.
   */
  csvInto(input: CalcInput, w: CsvOut): void {
    const place = this.fastOff ? undefined : this.placeOf(input);
    if (place) {
      this.csvFacts(place, inputFacts(input), w);
      return;
    }
    const prep = this.calc.prepare(input, this.lang);
    this.write(this.placeFrom(prep), prep.facts, w);
  }

  /**
   * The same as `csvInto` for a row already read as its input facts (INPUT_FACTS order,
   * as `inputFacts` gives them; the place facts, `year`, are the place's own and not
   * read) of a place from `placeOf`.
   */
  csvFacts(place: Place, facts: ArrayLike<unknown>, w: CsvOut): void {
    const v = place.plan.scratch;
    const rowSlots = this.rowSlots;
    for (let j = 0; j < rowSlots.length; j++) { const i = rowSlots[j]!; v[i] = facts[i]; }
    const ownSlots = this.ownSlots, own = place.own;
    for (let j = 0; j < ownSlots.length; j++) v[ownSlots[j]!] = own[j];
    this.write(place, v, w);
  }

  /** Validations, the plan's steps, throwing leaves, then the cells and notes. */
  private write(p: Place, v: Facts, w: CsvOut): void {
    const c = p.compiled;
    const plan = p.plan;
    const vals = c.validations;
    for (let i = 0; i < vals.length; i++) { const val = vals[i]!; if (val.test(v)) throw new PtaxError(val.code, val.message[this.lang]); }
    const steps = plan.steps;
    for (let i = 0; i < steps.length; i++) { const s = steps[i]!; v[s.slot] = s.run(v); }
    const throwing = plan.throwing;
    for (let i = 0; i < throwing.length; i++) throwing[i]!(v);
    w.bytes(p.prefix);
    const cells = plan.cells;
    for (let i = 0; i < cells.length; i++) cells[i]!(v, w);
    // The notes that hold, joined into one cell (quoted as a whole when one of them needs it).
    const notes = plan.notes;
    const held = plan.held;
    let k = 0;
    let quote = false;
    for (let i = 0; i < notes.length; i++) if (notes[i]!.test(v)) { held[k++] = i; if (!notes[i]!.plain) quote = true; }
    const own = p.noteBytes;
    if (k === 0 && own === undefined) return;
    if (own !== undefined && !p.notePlain) quote = true;
    if (quote) w.byte(34);
    for (let j = 0; j < k; j++) {
      if (j) w.bytes(SEPARATOR);
      const n = notes[held[j]!]!;
      w.bytes(quote ? n.quoted : n.bytes);
    }
    if (own !== undefined) {
      if (k) w.bytes(SEPARATOR);
      w.bytes(quote ? p.noteQuoted! : own);
    }
    if (quote) w.byte(34);
  }

  /** The full result object, equal to `Calculator.calculate(input)` (for NDJSON output). */
  result(input: CalcInput): CalcResult {
    const place = this.fastOff ? undefined : this.placeOf(input);
    if (!place) return this.calc.calculate(input, { lang: this.lang });
    const c = place.compiled;
    const v = this.fill(place, input);
    const out = { state: place.state, county: place.countyName, year: c.year, program: c.program.id, ...evaluate(c, v, this.lang) } as CalcResult;
    out.notes.push(...place.notes);
    return out;
  }

  /**
   * The place of an input's (state, county, year) text, from the cache or, for the first
   * row of a place, from `prepare` (which throws its PtaxError for a bad state, county or
   * year). Undefined when the row must go through `prepare` itself: the place cache is
   * off, a number is not finite, or the state chooses its program by input facts.
   */
  placeOf(input: CalcInput): Place | undefined {
    // A county rate given in the row is not the place's: such rows go through `prepare`.
    if (!finite(input) || (input.countyRate !== null && input.countyRate !== undefined)) return undefined;
    if (this.inputChosen.size && this.inputChosen.has(this.calc.state(input.state).code)) return undefined;
    const year = input.year ?? -1;
    const list = this.places.get(input.county);
    if (list) {
      for (let i = 0; i < list.length; i++) {
        const e = list[i]!;
        if (e.year === year && e.state === input.state) return e.place;
      }
    }
    // Another spelling of a place already seen: on its success path `prepare` reads the
    // state as Calculator.state reads it (trimmed, upper case) and the county as findCounty
    // reads it (slugOf: "Kings", "kings county" and "kings" are one county), and nothing
    // else of the text.
    let norm: string | undefined;
    try { norm = `${this.calc.state(input.state).code}\u0001${slugOf(String(input.county))}\u0001${year}`; } catch { norm = undefined; }
    const known = norm === undefined ? undefined : this.bySlug.get(norm);
    if (known) return this.remember(input, year, known);
    // First row of this place: `prepare` does the work (and throws for a bad state, county or year).
    const prep = this.calc.prepare(input, this.lang);
    let place = this.placeFrom(prep);
    const mine = this.fill(place, input);
    if (mine.length !== prep.facts.length || mine.some((x, i) => !Object.is(x, prep.facts[i]))) {
      this.fastOff = `the facts filled for ${prep.state} ${prep.county} differ from prepare's`;
      return undefined;
    }
    // Everything a Place holds, as text: equal texts, interchangeable places.
    const id = JSON.stringify([place.state, place.countyName, place.notes, place.county, place.inputs.map((x, i) => (this.kinds[i] === 3 ? x : null))]);
    const same = this.canonical.get(`${id}\u0001${this.programKey(place.compiled)}`);
    if (same) place = same;
    else if (this.canonical.size < MAX_PLACES) this.canonical.set(`${id}\u0001${this.programKey(place.compiled)}`, place);
    if (norm !== undefined && this.bySlug.size < MAX_PLACES) this.bySlug.set(norm, place);
    return this.remember(input, year, place);
  }

  private remember(input: CalcInput, year: number, place: Place): Place {
    if (this.nPlaces++ >= MAX_PLACES) { this.places.clear(); this.nPlaces = 1; } // bounded memory, whatever the input
    let entries = this.places.get(input.county);
    if (!entries) this.places.set(input.county, (entries = []));
    if (entries.length >= 64) entries.shift();
    entries.push({ state: input.state, year, place });
    return place;
  }

  private programIds = new Map<CompiledProgram, number>();
  private programKey(c: CompiledProgram): number {
    let k = this.programIds.get(c);
    if (k === undefined) this.programIds.set(c, (k = this.programIds.size));
    return k;
  }

  private placeFrom(prep: ReturnType<Calculator['prepare']>): Place {
    const c = prep.compiled;
    return {
      compiled: c,
      county: prep.facts.slice(this.nIn, this.nIn + this.nCounty),
      inputs: prep.facts.slice(0, this.nIn),
      state: prep.state,
      countyName: prep.county,
      notes: prep.notes,
      prefix: Buffer.from(`${csvEscape(prep.county)},${csvEscape(c.program.id)},${c.year},`, 'utf8'),
      plan: this.planOf(c),
      noteBytes: prep.notes.length ? Buffer.from(prep.notes.join(NOTE_SEPARATOR), 'utf8') : undefined,
      notePlain: prep.notes.every((n) => csvEscape(n) === n),
      noteQuoted: prep.notes.length ? Buffer.from(prep.notes.join(NOTE_SEPARATOR).replace(/"/g, '""'), 'utf8') : undefined,
      own: Array.from(this.ownSlots, (i) => prep.facts[i]),
    };
  }

  /**
   * A copy of the program's template with the input facts and the county facts in their
   * slots (the place facts, `year`, as the place has them).
   */
  private fill(place: Place, input: CalcInput): Facts {
    const v = place.compiled.template.slice();
    const facts = inputFacts(input);
    const kinds = this.kinds;
    for (let i = 0; i < this.nIn; i++) v[i] = kinds[i] === 3 ? place.inputs[i] : facts[i];
    const county = place.county;
    for (let j = 0; j < county.length; j++) v[this.nIn + j] = county[j];
    return v;
  }

  /** The CSV plan of one compiled program (closures). */
  private planOf(c: CompiledProgram): Plan {
    let plan = this.plans.get(c);
    if (plan) return plan;
    const leaves = LEAF_COLUMNS.map(({ path }) => leafAt(c.program.result, path) ?? null);
    const throwing = allLeaves(c.program.result).filter((l) => canThrow(l.formula.ast as Expr)).map((l) => l.formula.ast as Expr);
    const resolve = resolverOf(this.calc, c);
    // The steps something printed (or an error) depends on, found backwards: a step reads
    // only earlier ones. A step that can throw is always kept.
    const needed = new Set<string>();
    for (const l of leaves) if (l) for (const n of exprNames(l.formula.ast as Expr)) needed.add(n);
    for (const e of throwing) for (const n of exprNames(e)) needed.add(n);
    for (const n of c.program.notes) for (const f of conditionFacts(n.when)) needed.add(f);
    const keep = new Array<boolean>(c.steps.length).fill(false);
    for (let i = c.program.steps.length - 1; i >= 0; i--) {
      const s = c.program.steps[i]!;
      if (!needed.has(s.id) && !stepCanThrow(s)) continue;
      keep[i] = true;
      for (const n of stepNames(s)) needed.add(n);
    }
    plan = {
      steps: c.steps.filter((_, i) => keep[i]),
      throwing: throwing.map((e) => compileNode(e, resolve).fn),
      cells: leaves.map((l) => (l ? cellWriter(compileNode(l.formula.ast as Expr, resolve), l.unit) : comma)),
      notes: c.notes.map((n) => {
        const text = n.text[this.lang];
        return { test: n.test, bytes: Buffer.from(text, 'utf8'), plain: csvEscape(text) === text, quoted: Buffer.from(text.replace(/"/g, '""'), 'utf8') };
      }),
      held: new Int32Array(c.notes.length),
      scratch: c.template.slice(),
    };
    this.plans.set(c, plan);
    return plan;
  }
}

const SEPARATOR = Buffer.from(NOTE_SEPARATOR, 'utf8');
const comma: CellWriter = (_v, w) => w.byte(44);

/** Every name a step reads. */
function stepNames(s: ProgramDef['steps'][number]): string[] {
  const names: string[] = [];
  if (s.formula) exprNames(s.formula.ast as Expr, names);
  if (s.condition) conditionFacts(s.condition, names);
  for (const c of s.cases ?? []) {
    if (c.when) conditionFacts(c.when, names);
    if (c.formula) exprNames(c.formula.ast as Expr, names);
  }
  return names;
}

/** Whether evaluating a step can throw (conditions never do). */
function stepCanThrow(s: ProgramDef['steps'][number]): boolean {
  if (s.formula) return canThrow(s.formula.ast as Expr);
  return (s.cases ?? []).some((c) => c.formula !== undefined && canThrow(c.formula.ast as Expr));
}

/** Every leaf of a result tree, in the tree's order. */
function allLeaves(tree: ResultGroup, out: ResultLeaf[] = []): ResultLeaf[] {
  for (const node of Object.values(tree)) {
    if (typeof (node as ResultLeaf).unit === 'string') out.push(node as ResultLeaf);
    else allLeaves(node as ResultGroup, out);
  }
  return out;
}

/** Whether evaluating an expression can throw: a computed table look-up or a band. */
function canThrow(e: Expr): boolean {
  switch (e.type) {
    case 'MemberExpression': return e.computed || canThrow(e.object);
    case 'CallExpression': return e.callee.name === 'band' || e.arguments.some(canThrow);
    case 'BinaryExpression': return canThrow(e.left) || canThrow(e.right);
    case 'UnaryExpression': return canThrow(e.argument);
    default: return false;
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

/**
 * Names as `compileProgram` resolves them: parameters in force on the program's date
 * (scalars as constants, tables and bands by value), input and county facts by their
 * slots (the first ones, in INPUT_FACTS and COUNTY_FACTS order), steps by the slots the
 * compiled program gives them.
 */
function resolverOf(calc: Calculator, c: CompiledProgram): (name: string) => Binding {
  const slots = new Map<string, number>();
  [...INPUT_FACTS, ...COUNTY_FACTS].forEach((f, i) => slots.set(f, i));
  c.program.steps.forEach((s, i) => slots.set(s.id, c.steps[i]!.slot));
  const bindings = new Map<string, Binding>();
  for (const [alias, pid] of Object.entries(c.program.parameters)) {
    const p = calc.bundle.parameters[pid]!;
    const entry = valueAt(p, c.date)!;
    if (p.type === 'scalar') bindings.set(alias, { kind: 'scalar', value: entry.value as number });
    else if (p.type === 'by_key') bindings.set(alias, { kind: 'table', id: pid, table: entry.value as Record<string, number> });
    else bindings.set(alias, { kind: 'bands', id: pid, bands: entry.bands! });
  }
  return (name) => {
    const b = bindings.get(name);
    if (b) return b;
    const s = slots.get(name);
    if (s === undefined) throw new PtaxError('RULES_INVALID', `${c.program.id}: unknown fact ${name}`);
    return { kind: 'fact', slot: s };
  };
}

/**
 * A result leaf as its CSV cell and a comma: rounded as `compile.ts` rounds result
 * leaves, printed as JSON prints it (`CsvOut.rounded`), written into the output; a
 * constant one is printed once, here.
 */
function cellWriter(n: Node, unit: ResultUnit): CellWriter {
  const fn = n.fn;
  if (unit === 'text') return (v, w) => { const x = fn(v); if (x !== null && x !== undefined) w.field(String(x)); w.byte(44); };
  if (unit === 'count') return (v, w) => { const x = fn(v); if (x !== null && x !== undefined) w.str(num(x)); w.byte(44); };
  const d = DECIMALS[unit];
  if (n.constant !== undefined) {
    const once = new CsvOut();
    once.rounded(n.constant, d, num);
    once.byte(44);
    const text = Buffer.from(once.buf.subarray(0, once.pos));
    return (_v, w) => w.bytes(text);
  }
  const s = n.slot;
  if (s !== undefined) return (v, w) => { w.rounded(v[s] as number, d, num); w.byte(44); };
  return (v, w) => { w.rounded(fn(v), d, num); w.byte(44); };
}

/** A number as JSON prints it; what JSON prints as null (NaN, infinities) is an empty cell. */
const num = (x: number): string => (Number.isFinite(x) ? String(x) : '');

/** A CSV field, quoted when it holds a comma, quote or line break. */
export function csvEscape(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    if (ch === 44 || ch === 34 || ch === 10 || ch === 13) return `"${s.replace(/"/g, '""')}"`;
  }
  return s;
}
