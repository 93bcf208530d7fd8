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
 * 2. One program function. A row is evaluated by the function `ptax calc` evaluates with:
 *    the program's generated `evaluate` (engine/codegen), asked for the batch columns
 *    instead of the result object (the same validations and steps, every leaf that can
 *    throw, then only the batch columns' leaves and the notes as bits), or, when no module
 *    matches the rules, the interpreter's `evaluate` and the columns read from its result.
 *    Either way the cells are printed by one printer (`CsvOut`), in one reused fact array
 *    per program (a place's own facts written into it when the row before was of another place;
 *    a generated program's rows write only the facts it reads, `GeneratedProgram.reads`).
 *    The reader finds a CSV row's place by the bytes of its cells (engine/batch/reader.ts
 *    PlaceKeys) and hands its number (`numberOf`): what the row needs of its place is in
 *    one run of slots (`csvPlaced`), not spread over a Place and its arrays and buffers
 *    (a roll of every state's counties in random order is bound by cache misses).
 *
 * Nothing is memoised per input row: every row is evaluated. NDJSON output (the whole
 * result object) uses the place cache and the exported `evaluate`.
 */
import { OPTIONAL_NUMBERS, evaluate, inputFacts, type Calculator, type CalcInput, type CalcResult } from '../core/calculate.js';
import type { CompiledProgram } from '../core/compile.js';
import { conditionFacts, type Facts } from '../core/conditions.js';
import { countyKey, slugOf } from '../core/counties.js';
import { DECIMALS } from '../core/round.js';
import { inputFactsOf } from '../core/registry.js';
import { COUNTY_FACTS, type Lang, type ResultGroup, type ResultLeaf, type ResultUnit } from '../core/types.js';
import { CsvOut, csvEscape } from './csv-out.js';
import { BATCH_COLUMNS } from '../codegen/js.js';
import type { GeneratedProgram } from '../codegen/runtime.js';
import { RESULT_COLUMNS } from './header.js';

/** The result columns (defined in ./header.js, a light module the SQL engines read too). */
export { RESULT_COLUMNS };

/** The columns a place gives (written once per place as its prefix), in this order. */
const PLACE_COLUMNS = ['county', 'program', 'year'];
if (
  RESULT_COLUMNS.slice(0, 3)
    .map((c) => c.path.join('.'))
    .join() !== PLACE_COLUMNS.join() ||
  RESULT_COLUMNS.at(-1)?.path.join('.') !== 'notes'
) {
  throw new Error(`rules/results.yaml: the batch columns must start with ${PLACE_COLUMNS.join(', ')} and end with notes`);
}
const LEAF_COLUMNS = RESULT_COLUMNS.slice(3, -1);
if (LEAF_COLUMNS.map((c) => c.path.join('.')).join() !== BATCH_COLUMNS.map((p) => p.join('.')).join())
  throw new Error('engine/codegen/js.ts: BATCH_COLUMNS differ from the batch columns');
/** Notes are joined into one cell with this separator. */
export const NOTE_SEPARATOR = ' | ';

/** Numeric inputs (those `prepare` checks): a non-finite one goes the slow way, where `prepare` refuses it with its own message. */
const NUMERIC_INPUTS = ['value', ...OPTIONAL_NUMBERS] as const;

/** Whether every numeric input is absent or finite. */
function finite(x: CalcInput): boolean {
  for (const k of NUMERIC_INPUTS) {
    const n = x[k];
    if (n !== null && n !== undefined && !Number.isFinite(n)) return false;
  }
  return true;
}

/**
 * 0: read from the row (as `inputFacts` reads it), 3: the same for every row of a place,
 * copied from the facts `prepare` built for its first row (`year`: the year asked for,
 * else the rules' year; the year asked for is part of the place's key).
 */
type Kind = 0 | 3;
const PLACE_FACTS = new Set(['year']);
/** The county facts, as a set (a program choice reading only these is made by the county). */
const COUNTY_ONLY = new Set<string>(COUNTY_FACTS);

/**
 * How the rows of one compiled program are printed: the result columns' getters and units
 * (null: the program has no such leaf, an empty cell), and the fact array its rows are
 * evaluated in, reused from row to row and place to place (one array stays in the
 * processor's cache): each row writes its input facts and its place's own facts (county
 * facts, year), the parameters stay, and `evaluate` writes every step before a later one
 * reads it (the loader lets a step read only earlier ones; validations read no step).
 */
interface Columns {
  cells: Array<{ get: (r: Record<string, any>) => unknown; unit: ResultUnit } | null>;
  /**
   * Per column, how a generated row's value is printed: the unit's decimals (an amount or
   * rate), -2 by `CsvOut.cell` (text, count), -1 no such leaf (an empty cell). Its bit in the
   * row's odd cells is `1 << i`: the generator allows at most 30 columns (engine/codegen/js.ts).
   */
  how: Int8Array;
  /** The notes cell (CSV bytes) by the bits of the program's notes that apply, for places without notes of their own. */
  noteCells: Map<number, Buffer>;
  /** The notes cells' caches of places with notes of their own, by those notes (`noteCellsOf`). */
  byOwn: Map<string, Map<number, Buffer>>;
  /**
   * The fact array the program's rows are evaluated in, reused from row to row and place to
   * place (one array per program, not per place: a roll of every state's counties has
   * thousands of places, and an array each made every row's facts a cache miss): the
   * program's template; each row writes its input facts, and its place's own facts (`own`)
   * when the previous row was of another place; the parameters stay, and the program
   * computes every step before a later one reads it (the loader lets a step read only
   * earlier ones; validations read no step).
   */
  scratch: unknown[];
  /** The place whose own facts are in `scratch` now: a Place, or its number (`numberOf`). */
  owner: Place | number | null;
  /** The program's generated function (undefined: the interpreter runs it). */
  g: GeneratedProgram | undefined;
  /**
   * What `csvPlaced` writes into `scratch`: the own facts (their positions in `ownSlots`)
   * and the row's facts (slots) the generated function reads (`GeneratedProgram.reads`;
   * all of them when it does not say). A county-level estimate reads the value and four
   * county facts: a row writes five slots, not 36 (its 24 input facts and the place's 12).
   */
  ownRead: Int32Array;
  /** The slots of those own facts (`ownSlots[ownRead[k]]`). */
  ownAt: Int32Array;
  rowRead: Int32Array;
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
  columns: Columns;
  /** The notes cell (CSV bytes) by the bits of the program's notes that apply, for a place with notes of its own. */
  noteCells: Map<number, Buffer>;
  /** The place's own facts (the place facts, then the county facts: `ownSlots`' order), written into its program's fact array (`Columns.scratch`). */
  own: unknown[];
  /** Its number for the reader's look-up (`numberOf`), valid while `gen` is the calculator's. */
  no: number;
  gen: number;
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
  /**
   * Places by state code, then the county's keys (`countyKeys`), then the year asked for
   * (-1: none): maps of strings the engine made once (a state's code, a county text's keys),
   * whose hashes V8 keeps, not one key string built and hashed again for every first row.
   */
  private bySlug = new Map<string, Map<string, Map<number, Place>>>();
  private nBySlug = 0;
  /**
   * One Place per outcome of `prepare` (many spellings of a county, and the year asked for
   * and none, share it): places by what names them (state, county, program, year, notes,
   * the place facts), then compared fact by fact (`samePlace`).
   */
  private canonical = new Map<string, Place[]>();
  private nCanonical = 0;
  /** State codes by the state cell's text, as `Calculator.state` finds them (successes only). */
  private codes = new Map<string, string>();
  private columnsByProgram = new Map<CompiledProgram, Columns>();
  /** The batch columns of the current row, as a generated program writes them: numbers, and the odd bits in the last slot; other values. */
  private readonly nums = new Float64Array(LEAF_COLUMNS.length + 1);
  private readonly other: unknown[] = [];
  private kinds: Kind[];
  /** The input fact slots a row fills (all but the place facts). */
  private rowSlots: Int32Array;
  /** The slots of a place's own facts: the place facts (year), then the county facts. */
  private ownSlots: Int32Array;
  /** Why the place cache is off (null while it is on). */
  fastOff: string | null = null;
  /**
   * Whether a state's program choice reads input facts (its rows then always go through
   * `prepare`), by state code, worked out on the state's first row: a roll of one state reads
   * that state's rules alone (all 52 were read here before, ~20 ms of every batch's start).
   */
  private inputChosenBy = new Map<string, boolean>();
  private inputChosen(code: string): boolean {
    let chosen = this.inputChosenBy.get(code);
    if (chosen === undefined) {
      const read = this.calc.bundle.states[code]?.programs.flatMap((p) => (p.when ? conditionFacts(p.when) : [])) ?? [];
      chosen = read.some((f) => !COUNTY_ONLY.has(f));
      this.inputChosenBy.set(code, chosen);
    }
    return chosen;
  }
  private readonly nIn: number;
  private readonly nCounty = COUNTY_FACTS.length;
  readonly lang: Lang;

  constructor(
    readonly calc: Calculator,
    options: BatchCalculatorOptions = {},
  ) {
    this.lang = options.lang ?? 'en';
    const ownFacts = inputFactsOf(calc.bundle);
    this.nIn = ownFacts.length;
    const kinds: Kind[] = ownFacts.map((f) => (PLACE_FACTS.has(f) ? 3 : 0));
    this.kinds = kinds;
    this.rowSlots = Int32Array.from(kinds.flatMap((k, i) => (k === 3 ? [] : [i])));
    this.ownSlots = Int32Array.from([...kinds.flatMap((k, i) => (k === 3 ? [i] : [])), ...COUNTY_FACTS.map((_, j) => ownFacts.length + j)]);
    this.factSlots = {
      numeric: Int32Array.from(NUMERIC_INPUTS.map((k) => ownFacts.indexOf(k)).filter((i) => i !== -1)),
      countyRate: ownFacts.indexOf('countyRate'),
    };
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
      this.csvFacts(place, inputFacts(input, this.calc.bundle), w);
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
    const cols = place.columns;
    const v = cols.scratch;
    if (cols.owner !== place) {
      const ownSlots = this.ownSlots,
        own = place.own;
      for (let j = 0; j < ownSlots.length; j++) v[ownSlots[j]!] = own[j];
      cols.owner = place;
    }
    const rowSlots = this.rowSlots;
    for (let j = 0; j < rowSlots.length; j++) {
      const i = rowSlots[j]!;
      v[i] = facts[i];
    }
    this.write(place, v, w);
  }

  /**
   * Places by number, for the reader's look-up of a row's place by the bytes of its cells
   * (engine/batch/reader.ts PlaceKeys): what a row of a place needs, side by side in one
   * array, a run of slots a place (its number is where its run starts): its program's
   * columns, the Place itself when its rows take the general way (no generated function;
   * else null), the cache of its notes cells and its own notes (the program's cache and
   * none, for a place without notes of its own), then the own facts its program reads
   * (`Columns.ownRead`: a county-level place's run is 8 slots, one cache line, where all
   * its own facts made 16). A roll of every state's counties has some 20,000 place keys in
   * random order: a row that reads one run of slots, where it read a Place, its facts
   * array, its prefix buffer and its notes, touches a few cache lines instead of a dozen.
   */
  private byNo: unknown[] = [];
  private nNumbered = 0;
  private gen = 1;

  /** The number of a place (given on first asking, until `resetNumbers`). */
  numberOf(place: Place): number {
    if (place.gen === this.gen) return place.no;
    const cols = place.columns;
    const ownRead = cols.ownRead;
    const no = this.nNumbered;
    this.nNumbered = no + 4 + ownRead.length;
    place.no = no;
    place.gen = this.gen;
    const all = this.byNo;
    all[no] = cols;
    all[no + 1] = cols.g ? null : place;
    const notes = place.notes.length !== 0;
    all[no + 2] = notes ? place.noteCells : cols.noteCells;
    all[no + 3] = notes ? place.notes : NO_NOTES;
    const own = place.own;
    for (let k = 0; k < ownRead.length; k++) all[no + 4 + k] = own[ownRead[k]!];
    return no;
  }

  /** Forgets every number (the reader's table of places started again). */
  resetNumbers(): void {
    this.gen++;
    this.nNumbered = 0;
    this.byNo.length = 0;
    for (const cols of this.columnsByProgram.values()) cols.owner = null;
  }

  /**
   * `csvFacts` for a place by its number (`numberOf`), its prefix (county name, program,
   * rules' year, as CSV) given as bytes [ps, pe) of `src`.
   */
  csvPlaced(no: number, facts: ArrayLike<unknown>, w: CsvOut, src: Uint8Array, ps: number, pe: number): void {
    const all = this.byNo;
    const base = no;
    const general = all[base + 1] as Place | null;
    if (general !== null) {
      this.csvFacts(general, facts, w);
      return;
    }
    const cols = all[base] as Columns;
    const v = cols.scratch;
    // Only the facts the program reads (its generated function reads no other slot).
    if (cols.owner !== no) {
      const ownAt = cols.ownAt;
      for (let k = 0; k < ownAt.length; k++) v[ownAt[k]!] = all[base + 4 + k];
      cols.owner = no;
    }
    const rowRead = cols.rowRead;
    for (let k = 0; k < rowRead.length; k++) {
      const i = rowRead[k]!;
      v[i] = facts[i];
    }
    const g = cols.g!;
    const bits = g.evaluate(v, this.lang, false, this.nums, this.other);
    const o = w.buf;
    let p = w.pos;
    for (let i = ps; i < pe; i++) o[p++] = src[i]!;
    w.pos = p;
    this.cellsOf(g, cols, bits, all[base + 2] as Map<number, Buffer>, all[base + 3] as readonly string[], w);
  }

  /**
   * The row through the program's one function (`evaluate`: the generated module when it
   * matches the rules, else the interpreter; it throws the row's error before anything is
   * written), then its cells printed from the result: the place's prefix, the result
   * columns, the notes (the program's, then the place's) joined into one cell.
   */
  private write(p: Place, v: Facts, w: CsvOut): void {
    const g = p.compiled.generated;
    const cells = p.columns.cells;
    if (g) {
      // The generated program asked for a batch row: only the columns' leaves made, the
      // notes as bits; the notes cell of each set of bits is kept by the place.
      const nums = this.nums,
        other = this.other;
      const bits = g.evaluate(v, this.lang, false, nums, other);
      w.bytes(p.prefix);
      // Most places have no notes of their own: their cells are the program's (one small map, in cache).
      const own = p.notes;
      this.cellsOf(g, p.columns, bits, own.length ? p.noteCells : p.columns.noteCells, own, w);
    } else {
      const r = evaluate(p.compiled, v, this.lang, false);
      w.bytes(p.prefix);
      for (let i = 0; i < cells.length; i++) {
        const c = cells[i];
        if (c) w.cell(c.get(r), c.unit);
        w.byte(44);
      }
      if (r.notes.length || p.notes.length) w.bytes(notesCell(r.notes, p.notes));
    }
  }

  /**
   * A generated row's cells after its prefix: the batch columns from `nums` and `other`,
   * then its notes cell (the notes of `bits`, then the place's `own`), kept in `cache`.
   */
  private cellsOf(g: GeneratedProgram, cols: Columns, bits: number, cache: Map<number, Buffer>, own: readonly string[], w: CsvOut): void {
    const nums = this.nums,
      other = this.other;
    const how = cols.how;
    const cells = cols.cells;
    const n = how.length;
    const odd = nums[n]!;
    for (let i = 0; i < n; i++) {
      const d = how[i]!;
      if (d !== -1) {
        if (odd !== 0 && (odd & (1 << i)) !== 0) w.cell(other[i], cells[i]!.unit);
        else if (d >= 0) w.amount(nums[i]!, d);
        else w.cell(nums[i]!, cells[i]!.unit);
      }
      w.byte(44);
    }
    if (bits === 0 && own.length === 0) return;
    let cell = cache.get(bits);
    if (cell === undefined) {
      cell = notesCell(
        g.notes.flatMap((n, i) => (bits & (2 ** i) ? [n[this.lang]] : [])),
        own,
      );
      if (cache.size < 256) cache.set(bits, cell);
    }
    w.bytes(cell);
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
   * `placeOf` for a CSV row read by the reader (engine/batch/reader.ts), given as its state,
   * county and year cells (as read) and its input facts (`inputFactsOf` order), the input
   * object made by `input` only when it is needed: a first row whose place was seen before
   * under another spelling (some half of a roll's first rows) is found by the state's code
   * and the county's keys alone, as `placeOf` finds it, without the input object, the text
   * cache or `prepare`. The same place as `placeOf(input())` (the same checks first).
   */
  placeOfRow(state: unknown, county: unknown, year: number | undefined, facts: ArrayLike<unknown>, input: () => CalcInput): Place | undefined {
    const f = this.factSlots;
    for (let j = 0; j < f.numeric.length; j++) {
      const n = facts[f.numeric[j]!];
      if (n !== null && n !== undefined && !Number.isFinite(n)) return undefined;
    }
    if (f.countyRate !== -1 && facts[f.countyRate] !== null && facts[f.countyRate] !== undefined) return undefined;
    let code = this.codes.get(state as string);
    if (code === undefined) {
      try {
        code = this.calc.state(state as string).code;
      } catch {
        return this.placeOf(input()); // `prepare` throws the state's error
      }
      if (this.codes.size < 1000 && typeof state === 'string') this.codes.set(state, code);
    }
    if (this.inputChosen(code)) return undefined;
    const keys = this.countyKeys(String(county));
    return this.slugPlace(code, keys, year ?? -1) ?? this.placeOf(input(), code, keys);
  }

  /** The place of a state code, county keys and year asked for (-1: none), if known. */
  private slugPlace(code: string, keys: string, year: number): Place | undefined {
    return this.bySlug.get(code)?.get(keys)?.get(year);
  }
  /** Where `placeOf`'s checks read the input facts: the numeric ones (`finite`) and the county rate (-1: no such fact). */
  private readonly factSlots: { numeric: Int32Array; countyRate: number };

  /**
   * The place of an input's (state, county, year) text, from the cache or, for the first
   * row of a place, from `prepare` (which throws its PtaxError for a bad state, county or
   * year). Undefined when the row must go through `prepare` itself: the place cache is
   * off, a number is not finite, or the state chooses its program by input facts.
   * `knownCode` and `knownKeys`: the state's code and the county's keys (`countyKeys`),
   * given by `placeOfRow`, which has looked them up already and found no place.
   */
  placeOf(input: CalcInput, knownCode?: string, knownKeys?: string): Place | undefined {
    // A county rate given in the row is not the place's: such rows go through `prepare`.
    if (!finite(input) || (input.countyRate !== null && input.countyRate !== undefined)) return undefined;
    // The state's code, worked out once here (given by `placeOfRow`, which has looked it up);
    // an unknown state is left to `prepare`, which throws its error in the row's language.
    let code = knownCode;
    if (code === undefined) {
      try {
        code = this.calc.state(input.state).code;
      } catch {
        code = undefined;
      }
    }
    if (code !== undefined && this.inputChosen(code)) return undefined;
    const year = input.year ?? -1;
    // The texts seen (`placeOfRow`'s caller, the reader, keeps its own by the cells' bytes).
    const list = knownCode === undefined ? this.places.get(input.county) : undefined;
    if (list) {
      for (let i = 0; i < list.length; i++) {
        const e = list[i]!;
        if (e.year === year && e.state === input.state) return e.place;
      }
    }
    // Another spelling of a place already seen: on its success path `prepare` reads the
    // state as Calculator.state reads it (trimmed, upper case) and the county as findCounty
    // reads it (by slugOf, then by countyKey: "Kings", "kings county" and "KINGS" are one
    // county), and nothing else of the text. Both keys: two spellings with one slug can
    // have two countyKeys ("Doña" and "Do a" are both "do-a").
    // (`placeOfRow` has worked out the county's keys and looked them up already.)
    let keys = knownKeys;
    if (keys === undefined && code !== undefined) {
      try {
        keys = this.countyKeys(String(input.county));
      } catch {
        code = undefined;
      }
      const known = code === undefined ? undefined : this.slugPlace(code, keys!, year);
      if (known) return this.remember(input, year, known);
    }
    // First row of this place: `prepare` does the work (and throws for a bad state, county or year).
    const prep = this.calc.prepare(input, this.lang);
    let place = this.placeFrom(prep);
    const mine = this.fill(place, input);
    if (mine.length !== prep.facts.length || mine.some((x, i) => !Object.is(x, prep.facts[i]))) {
      this.fastOff = `the facts filled for ${prep.state} ${prep.county} differ from prepare's`;
      return undefined;
    }
    place = this.canonicalOf(place);
    if (code !== undefined && this.nBySlug < MAX_PLACES) {
      let byKeys = this.bySlug.get(code);
      if (!byKeys) this.bySlug.set(code, (byKeys = new Map()));
      let byYear = byKeys.get(keys!);
      if (!byYear) byKeys.set(keys!, (byYear = new Map()));
      if (!byYear.has(year)) this.nBySlug++;
      byYear.set(year, place);
      // No year asked and the year it resolves to are one place (the engine's `year` reads both
      // as that year, with no note): the first row of either serves the other.
      const twin = this.sameYearAs(place, year);
      if (twin !== undefined && !byYear.has(twin) && this.nBySlug < MAX_PLACES) {
        byYear.set(twin, place);
        this.nBySlug++;
      }
    }
    return knownCode === undefined ? this.remember(input, year, place) : place;
  }

  /**
   * The other year key (-1: none asked) of the same place as `year` asked, when `Calculator.year`
   * reads the two alike: none asked gives the program's last year, and that year asked gives
   * it too, neither with a note (and the year fact is that year both ways). Else undefined.
   */
  private sameYearAs(place: Place, year: number): number | undefined {
    const c = place.compiled;
    try {
      const other = year === -1 ? c.year : -1;
      const a = this.calc.year(c.program.id, year === -1 ? undefined : year);
      const b = this.calc.year(c.program.id, other === -1 ? undefined : other);
      return a.year === c.year && b.year === c.year && a.note === undefined && b.note === undefined ? other : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The one Place equal to `place` in everything it holds (its state, county name, compiled
   * program, the engine's notes, its own facts: the place facts and the county facts,
   * compared with Object.is), or `place` itself, remembered, when there is none yet.
   */
  private canonicalOf(place: Place): Place {
    const key = `${place.state}\u0001${place.countyName}\u0001${this.programKey(place.compiled)}\u0001${place.notes.join('\u0002')}`;
    let list = this.canonical.get(key);
    if (list) {
      for (const other of list) if (samePlace(other, place)) return other;
    } else if (this.nCanonical < MAX_PLACES) this.canonical.set(key, (list = []));
    if (list && this.nCanonical < MAX_PLACES) {
      list.push(place);
      this.nCanonical++;
    }
    return place;
  }

  /**
   * `slugOf` and `countyKey` of a county's text, remembered: a roll of every state's
   * counties spells each in two or three ways, asked for with two or three years, and
   * many names are in several states ("Lincoln", "Washington"), so a text comes back.
   */
  private countyKeys(county: string): string {
    let k = this.keysOfText.get(county);
    if (k === undefined) {
      if (this.keysOfText.size >= MAX_PLACES) this.keysOfText.clear(); // bounded memory, whatever the input
      this.keysOfText.set(county, (k = `${slugOf(county)}\u0001${countyKey(county)}`));
    }
    return k;
  }
  private keysOfText = new Map<string, string>();

  private remember(input: CalcInput, year: number, place: Place): Place {
    if (this.nPlaces++ >= MAX_PLACES) {
      this.places.clear();
      this.nPlaces = 1;
    } // bounded memory, whatever the input
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
    const place: Place = {
      compiled: c,
      county: prep.facts.slice(this.nIn, this.nIn + this.nCounty),
      inputs: prep.facts.slice(0, this.nIn),
      state: prep.state,
      countyName: prep.county,
      notes: prep.notes,
      prefix: Buffer.from(`${csvEscape(prep.county)},${csvEscape(c.program.id)},${c.year},`, 'utf8'),
      columns: this.columnsOf(c),
      noteCells: prep.notes.length ? this.noteCellsOf(c, prep.notes) : NO_CELLS,
      own: [],
      no: -1,
      gen: 0,
    };
    const ownSlots = this.ownSlots;
    for (let j = 0; j < ownSlots.length; j++) place.own.push(prep.facts[ownSlots[j]!]);
    return place;
  }

  /**
   * The cache of notes cells for the places of a program with these notes of their own: one
   * per program and notes (the places of a later year asked for share the note that carries
   * the rules forward), not one per place.
   */
  private noteCellsOf(c: CompiledProgram, notes: readonly string[]): Map<number, Buffer> {
    const byOwn = this.columnsOf(c).byOwn;
    const key = notes.join('\u0001');
    let cells = byOwn.get(key);
    if (!cells) {
      if (byOwn.size >= 256) byOwn.clear(); // bounded memory, whatever the input
      byOwn.set(key, (cells = new Map()));
    }
    return cells;
  }

  /**
   * A copy of the program's template with the input facts and the county facts in their
   * slots (the place facts, `year`, as the place has them).
   */
  private fill(place: Place, input: CalcInput): Facts {
    const v = place.compiled.template.slice();
    const facts = inputFacts(input, this.calc.bundle);
    const kinds = this.kinds;
    for (let i = 0; i < this.nIn; i++) v[i] = kinds[i] === 3 ? place.inputs[i] : facts[i];
    const county = place.county;
    for (let j = 0; j < county.length; j++) v[this.nIn + j] = county[j];
    return v;
  }

  /** How one compiled program's rows are printed. */
  private columnsOf(c: CompiledProgram): Columns {
    let cols = this.columnsByProgram.get(c);
    if (cols) return cols;
    const cells = LEAF_COLUMNS.map(({ path }) => {
      const leaf = leafAt(c.program.result, path);
      return leaf ? { get: getter(path), unit: leaf.unit } : null;
    });
    const reads = c.generated?.reads;
    const read = (slot: number) => !reads || reads.includes(slot);
    const ownSlots = [...this.ownSlots];
    cols = {
      ownRead: Int32Array.from(ownSlots.flatMap((slot, j) => (read(slot) ? [j] : []))),
      ownAt: Int32Array.from(ownSlots.filter(read)),
      rowRead: Int32Array.from([...this.rowSlots].filter(read)),
      cells,
      how: Int8Array.from(cells, (x) => (!x ? -1 : x.unit === 'text' || x.unit === 'count' ? -2 : DECIMALS[x.unit])),
      noteCells: new Map(),
      byOwn: new Map(),
      scratch: c.template.slice(),
      owner: null,
      g: c.generated,
    };
    this.columnsByProgram.set(c, cols);
    return cols;
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
 * A result leaf read from the result object. Under `exemptions` the result leaves out an
 * amount of 0 (compile.ts): an absent one there is 0. An `exemptionBreakdown` entry left
 * out takes its other fields with it: such a column cannot be printed from the result.
 */
function getter(path: readonly string[]): (r: Record<string, any>) => unknown {
  if (path[0] === 'exemptionBreakdown') throw new Error('rules/results.yaml: an exemptionBreakdown field cannot be a batch column');
  const [a, b] = path as [string, string?];
  const zero = a === 'exemptions';
  if (path.length === 1) return (r) => r[a];
  if (path.length === 2) return zero ? (r) => r[a]?.[b!] ?? 0 : (r) => r[a]?.[b!];
  return (r) => {
    let x: any = r;
    for (const k of path) x = x?.[k];
    return x ?? (zero ? 0 : undefined);
  };
}

/** Whether two places of one name (`canonicalOf`) have the same own facts: the place facts (year) and the county facts. */
function samePlace(a: Place, b: Place): boolean {
  const x = a.own,
    y = b.own;
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (!Object.is(x[i], y[i])) return false;
  return true;
}

const NO_NOTES: readonly string[] = [];
/** The notes cells' cache of a place without notes of its own (never read: its program's is). */
const NO_CELLS = new Map<number, Buffer>();

/** The notes cell: the program's notes, then the place's, joined, as CSV bytes. */
function notesCell(notes: readonly string[], own: readonly string[]): Buffer {
  return Buffer.from(csvEscape([...notes, ...own].join(NOTE_SEPARATOR)), 'utf8');
}
