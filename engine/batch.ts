/**
 * The batch fast path: the same calculation as `Calculator.calculate`, arranged for
 * millions of rows. Three things make it faster, none of which can change an answer:
 *
 * 1. Place cache. What `prepare` works out from a row's state, county and requested year
 *    (state look-up, county look-up, program choice, rule year, carried-forward note,
 *    compiled program, county facts) is taken from `prepare` itself on the first row with
 *    that (state, county, year) text and reused for the next rows with the same text. It
 *    is used only when the state's program choice reads county facts alone (checked per
 *    state), and every cache miss checks that the fact array filled here equals the one
 *    `prepare` built, slot for slot; on any difference the fast path switches itself off
 *    and every row goes through `prepare`.
 * 2. Result columns. A batch row needs a dozen flat figures, not the nested result
 *    object: the result leaves for those columns are compiled once per program and year
 *    with the rules' own compiler (`compileNode`) and rounded like `compile.ts` rounds
 *    result leaves, so building and flattening the object is skipped.
 * 3. Steps, validations and notes are the compiled program's own closures, run on the
 *    filled fact array exactly as `evaluate` runs them.
 *
 * Nothing is memoised per input row: every row is evaluated.
 */
import { evaluate, type Calculator, type CalcInput, type CalcResult } from './calculate.js';
import type { CompiledProgram } from './compile.js';
import { conditionFacts, type Facts } from './conditions.js';
import { compileNode, type Binding, type Fn } from './expr.js';
import { valueAt } from './params.js';
import { DECIMALS, roundTo } from './round.js';
import { PtaxError } from './errors.js';
import { COUNTY_FACTS, INPUT_FACTS, type Expr, type Lang, type ResultGroup, type ResultLeaf, type ResultUnit } from './types.js';

/** The flat result columns of a CSV batch row: column name and result path. */
export const RESULT_COLUMNS: ReadonlyArray<{ name: string; path: string[] }> = [
  { name: 'countyName', path: ['county'] },
  { name: 'program', path: ['program'] },
  { name: 'rulesYear', path: ['year'] },
  ...['annualTax', 'monthlyTax', 'effectiveRate', 'baseAssessedValue', 'finalAssessedValue', 'taxableValue', 'exemptionSavings']
    .map((k) => ({ name: k, path: [k] })),
  ...['school', 'county', 'city', 'special'].map((k) => ({ name: `countyBreakdown.${k}`, path: ['countyBreakdown', k] })),
  { name: 'potentialSavings', path: ['potentialSavings'] },
  { name: 'notes', path: ['notes'] },
];
/** Notes are joined into one cell with this separator. */
export const NOTE_SEPARATOR = ' | ';

/** How `prepare` turns an input into a fact: known facts only (an unknown one turns the fast path off). */
const BOOLEAN_FACTS = new Set(['homestead', 'over65', 'seniorCitizen', 'disabled', 'coldWarVeteran']);
/** Facts read as `x ?? null` (their CalcInput field has the fact's name). */
const NULLABLE_FACTS = new Set(['value', 'propertyClass', 'seniorIncome', 'starType', 'priorAssessed', 'purchasePrice', 'purchaseYear',
  'melloRoos', 'taxAmount', 'paymentYear', 'paymentMonth', 'paymentDay', 'sellerTax']);
/** Numeric inputs: a non-finite one goes the slow way, where `prepare` refuses it with its own message. */
const NUMERIC_INPUTS = ['value', 'seniorIncome', 'veteranDisability', 'priorAssessed', 'purchasePrice', 'purchaseYear',
  'melloRoos', 'taxAmount', 'paymentYear', 'paymentMonth', 'paymentDay', 'sellerTax'] as const;

/**
 * 0: boolean (!!x), 1: x ?? null, 2: veteranDisability (x ?? 0), 3: the same for every row of
 * a place, copied from the facts `prepare` built for its first row (`year`: the year asked
 * for, else the rules' year; the year asked for is part of the place's key).
 */
type Kind = 0 | 1 | 2 | 3;
const PLACE_FACTS = new Set(['year']);

/** A compiled program's flat result cells (formatted, CSV-escaped) and its notes. */
interface Columns { cells: Array<Fn | null>; notes: CompiledProgram['notes'] }

/** What the first row of a (state, county, year) text learned from `prepare`. */
export interface Place {
  compiled: CompiledProgram;
  /** The county facts, then the input facts of kind 3, as `prepare` filled them. */
  county: FactsSlice;
  inputs: FactsSlice;
  state: string;
  countyName: string;
  note: string | undefined;
  columns: Columns;
}
type FactsSlice = unknown[];

/** The outcome of one row: its place and its evaluated facts. */
export interface Evaluated { place: Place; v: Facts }

const MAX_PLACES = 10_000;

export class BatchCalculator {
  private places = new Map<string, Place>();
  private columnsByProgram = new Map<CompiledProgram, Columns>();
  private kinds: Kind[] | null;
  /** Why the fast path is off (null while it is on). */
  fastOff: string | null = null;
  /** States whose program choice reads input facts: their rows always go through `prepare`. */
  private inputChosen = new Set<string>();
  private readonly nIn = INPUT_FACTS.length;
  private readonly nCounty = COUNTY_FACTS.length;

  constructor(readonly calc: Calculator, readonly lang: Lang = 'en') {
    const kinds: Kind[] = [];
    for (const f of INPUT_FACTS as readonly string[]) {
      if (BOOLEAN_FACTS.has(f)) kinds.push(0);
      else if (f === 'veteranDisability') kinds.push(2);
      else if (PLACE_FACTS.has(f)) kinds.push(3);
      else if (NULLABLE_FACTS.has(f)) kinds.push(1);
      else { this.fastOff = `input fact ${f} is not known to the batch fast path`; break; }
    }
    this.kinds = this.fastOff ? null : kinds;
    const countyOnly = new Set<string>(COUNTY_FACTS);
    for (const s of Object.values(calc.bundle.states)) {
      const read = s.programs.flatMap((p) => (p.when ? conditionFacts(p.when) : []));
      if (read.some((f) => !countyOnly.has(f))) this.inputChosen.add(s.code);
    }
  }

  /**
   * Validations and steps for one input, on a fact array filled like `prepare` fills it.
   * Throws the same PtaxError as `Calculator.calculate` for a bad input.
   */
  evaluate(input: CalcInput): Evaluated {
    const place = this.fastOff ? undefined : this.placeOf(input);
    let v: Facts;
    let p: Place;
    if (place) {
      p = place;
      v = this.fill(place, input);
    } else {
      const prep = this.calc.prepare(input, this.lang);
      p = this.placeFrom(prep);
      v = prep.facts;
    }
    const c = p.compiled;
    for (const val of c.validations) if (val.test(v)) throw new PtaxError(val.code, val.message[this.lang]);
    const steps = c.steps;
    for (let i = 0; i < steps.length; i++) { const s = steps[i]!; v[s.slot] = s.run(v); }
    return { place: p, v };
  }

  /** The CSV cells of the result columns (after `evaluate`), joined by commas. */
  cells(e: Evaluated): string {
    const { place, v } = e;
    const cells = place.columns.cells;
    let out = '';
    for (let i = 0; i < cells.length; i++) {
      const f = cells[i];
      if (i) out += ',';
      if (f) out += f(v);
    }
    return out;
  }

  /** The notes of an evaluated row, as `Calculator.calculate` lists them. */
  notes(e: Evaluated): string[] {
    const out: string[] = [];
    for (const n of e.place.columns.notes) if (n.test(e.v)) out.push(n.text[this.lang]);
    if (e.place.note) out.push(e.place.note);
    return out;
  }

  /** The full result object, equal to `Calculator.calculate(input)` (for NDJSON output). */
  result(input: CalcInput): CalcResult {
    const place = this.fastOff ? undefined : this.placeOf(input);
    if (!place) return this.calc.calculate(input, { lang: this.lang });
    const c = place.compiled;
    const v = this.fill(place, input);
    const out = { state: place.state, county: place.countyName, year: c.year, program: c.program.id, ...evaluate(c, v, this.lang) } as CalcResult;
    if (place.note) out.notes.push(place.note);
    return out;
  }

  private placeOf(input: CalcInput): Place | undefined {
    for (const k of NUMERIC_INPUTS) {
      const x = (input as unknown as Record<string, unknown>)[k];
      if (x !== undefined && x !== null && !Number.isFinite(x)) return undefined;
    }
    if (this.inputChosen.size && this.inputChosen.has(this.calc.state(input.state).code)) return undefined;
    const key = `${input.state}\u0001${input.county}\u0001${input.year ?? ''}`;
    const hit = this.places.get(key);
    if (hit) return hit;
    // First row of this text: `prepare` does the work (and throws for a bad state, county or year).
    const prep = this.calc.prepare(input, this.lang);
    const place = this.placeFrom(prep);
    const mine = this.fill(place, input);
    if (mine.length !== prep.facts.length || mine.some((x, i) => !Object.is(x, prep.facts[i]))) {
      this.fastOff = `the facts filled for ${prep.state} ${prep.county} differ from prepare's`;
      return undefined;
    }
    if (this.places.size >= MAX_PLACES) this.places.clear(); // bounded memory, whatever the input
    this.places.set(key, place);
    return place;
  }

  private placeFrom(prep: ReturnType<Calculator['prepare']>): Place {
    return {
      compiled: prep.compiled,
      county: prep.facts.slice(this.nIn, this.nIn + this.nCounty),
      inputs: prep.facts.slice(0, this.nIn),
      state: prep.state,
      countyName: prep.county,
      note: prep.note,
      columns: this.columnsOf(prep.compiled, prep.county, prep.note),
    };
  }

  /** A copy of the program's template with the input facts and the county facts in their slots. */
  private fill(place: Place, input: CalcInput): Facts {
    const v = place.compiled.template.slice();
    const kinds = this.kinds!;
    const county = place.county;
    const inp = input as unknown as Record<string, unknown>;
    for (let i = 0; i < kinds.length; i++) {
      const k = kinds[i];
      if (k === 3) { v[i] = place.inputs[i]; continue; }
      const x = inp[INPUT_FACTS[i]!];
      v[i] = k === 0 ? !!x : k === 1 ? (x ?? null) : (x ?? 0);
    }
    for (let j = 0; j < county.length; j++) v[this.nIn + j] = county[j];
    return v;
  }

  /**
   * The cells for one place: constants (county name, program, year) as text; result leaves
   * compiled; notes evaluated per row. Cached per compiled program (the county name and
   * carried-forward note are per place, so they go into a per-place copy).
   */
  private columnsOf(c: CompiledProgram, countyName: string, note: string | undefined): Columns {
    let base = this.columnsByProgram.get(c);
    if (!base) {
      const resolve = resolverOf(this.calc, c);
      base = {
        notes: c.notes,
        cells: RESULT_COLUMNS.map(({ path }) => {
          if (path.length === 1 && (path[0] === 'county' || path[0] === 'program' || path[0] === 'year' || path[0] === 'notes')) return null;
          const leaf = leafAt(c.program.result, path);
          if (!leaf) return () => '';
          const n = compileNode(leaf.formula.ast as Expr, resolve);
          return cellFn(n.fn, leaf.unit);
        }),
      };
      this.columnsByProgram.set(c, base);
    }
    const lang = this.lang;
    const notes = c.notes;
    const cells = RESULT_COLUMNS.map(({ path }, i): Fn | null => {
      switch (path[0]) {
        case 'county': { const s = csvEscape(countyName); return () => s; }
        case 'program': { const s = csvEscape(c.program.id); return () => s; }
        case 'year': { const s = String(c.year); return () => s; }
        case 'notes': return (v) => {
          let s = '';
          for (const n of notes) if (n.test(v)) s = s ? s + NOTE_SEPARATOR + n.text[lang] : n.text[lang];
          if (note) s = s ? s + NOTE_SEPARATOR + note : note;
          return s ? csvEscape(s) : '';
        };
        default: return base!.cells[i]!;
      }
    });
    return { notes, cells };
  }
}

function leafAt(tree: ResultGroup, path: string[]): ResultLeaf | undefined {
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

/** A result leaf as its CSV cell: rounded as `compile.ts` rounds result leaves, printed as JSON prints it. */
function cellFn(fn: Fn, unit: ResultUnit): Fn {
  if (unit === 'text') return (v) => { const x = fn(v); return x === null || x === undefined ? '' : csvEscape(String(x)); };
  if (unit === 'count') return (v) => { const x = fn(v); return x === null || x === undefined ? '' : String(x); };
  const d = DECIMALS[unit];
  if (d === 2) return (v) => money(roundTo(fn(v), 2));
  return (v) => num(roundTo(fn(v), d));
}

/** A number as JSON prints it; what JSON prints as null (NaN, infinities) is an empty cell. */
const num = (x: number): string => (Number.isFinite(x) ? String(x) : '');

/**
 * A rounded amount of money as JSON prints it (`String`), from whole cents: 9231.6 →
 * "9231.6", 5 → "5". Exact for |x| below 2^53 cents; beyond that String() itself.
 */
export function money(x: number): string {
  if (!(x < 9e13 && x > -9e13)) return num(x);
  const neg = x < 0;
  const c = Math.round((neg ? -x : x) * 100);
  const whole = Math.floor(c / 100);
  const frac = c - whole * 100;
  const s = frac === 0 ? String(whole) : frac % 10 === 0 ? `${whole}.${frac / 10}` : `${whole}.${frac < 10 ? '0' : ''}${frac}`;
  return neg ? '-' + s : s;
}

/** A CSV field, quoted when it holds a comma, quote or line break. */
export function csvEscape(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    if (ch === 44 || ch === 34 || ch === 10 || ch === 13) return `"${s.replace(/"/g, '""')}"`;
  }
  return s;
}
