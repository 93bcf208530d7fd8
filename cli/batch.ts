/**
 * `ptax calc --batch <file.csv|file.ndjson|->`: one property per row in, one result per
 * row out, in the same format, streamed in constant memory.
 *
 * - Columns (CSV header names, NDJSON keys) are state, county and the `column` of each
 *   input rules/inputs.yaml declares (the calc flags), kebab or camel case
 *   (`senior-income`, `seniorIncome`; case, `-` and `_` are ignored). Other columns are
 *   passed through untouched (named once on stderr, so a misspelt flag is noticed).
 *   An empty cell is a flag not given (an empty `value` is the default 350,000, as in
 *   `ptax calc`).
 * - CSV out: the input row as it was, then RESULT_COLUMNS (engine/batch/batch.ts, from
 *   rules/results.yaml), then
 *   `error` and `errorCode`. NDJSON out: the input object's keys, then `result` (the
 *   object `ptax calc --json` prints) or `error` ({code, message}).
 * - A bad row gets its error and the run goes on; output rows = input rows (blank lines
 *   are not rows). A summary goes to stderr. --strict: exit 1 if any row was bad.
 * - A file that cannot be read, a bad header, or a record that never ends: one line on
 *   stderr, exit 2 (thrown as a PtaxError; cli/main.ts prints it).
 *
 * The CSV reader is our own: csv-parse's streaming API, only parsing the 1,000,000-row
 * benchmark file (records counted, nothing else), measured 210,000 to 235,000 rows/s on
 * this machine, under half the 500,000 rows/s target before any calculation. Ours is
 * RFC 4180: quoted fields with "" and line breaks, CRLF, LF or a lone CR, a UTF-8 byte
 * order mark. One reader, one coercion, one printer: every record is split as bytes
 * (`split`); every cell is read by `parseCell` (money by engine/core/money.ts parseMoney),
 * the commonest ones (digits, true/false, plain text) straight from the bytes (`cell`);
 * every row is printed by engine/batch (CsvOut). A row's place is found by the bytes of its
 * state, county and year cells and its facts written by slot (`fastColumns`), or, with
 * `fast: false`, the row goes to the engine as an input (`Calculator.prepare`'s way); the
 * two give the same output (cli/batch-reader.test.ts compares them byte for byte).
 */
import { createReadStream, createWriteStream, realpathSync } from 'node:fs';
import { once } from 'node:events';
import { extname } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { inputFacts, inputFromFlags, type Calculator, type CalcInput, type FlagInput } from '../engine/node.js';
import { BatchCalculator, RESULT_COLUMNS, csvEscape, type Place } from '../engine/node.js';
import { CsvOut, loadSqlRunner } from '../engine/node.js';
import { PtaxError, isPtaxError } from '../engine/node.js';
import { declaredInputs, inputFactsOf, type Bundle, type GeneratedInput, type Lang } from '../engine/node.js';
import { INPUTS } from '../engine/node.js';
import { parseAmount, parseYear, type AmountField } from './parse.js';
import { inputError, localized, type MessageKey, type MessageValue } from '../engine/node.js';

export type BatchFormat = 'csv' | 'ndjson';
export interface BatchOptions {
  /** A path, or `-` for standard input. */
  file: string;
  format?: BatchFormat;
  /** A path; default standard output. */
  out?: string;
  strict?: boolean;
  lang?: Lang;
  /** Places by the bytes of their cells and facts by slot (default); false: every row to the engine as an input (for tests comparing the two). */
  fast?: boolean;
}
export interface BatchIO {
  stdin?: Readable;
  stdout?: Writable;
  stderr?: (line: string) => void;
}
export interface BatchSummary {
  rows: number;
  ok: number;
  errors: number;
  seconds: number;
  exitCode: number;
  /** Rows whose place was found by the bytes of their cells and facts written by slot; the others went to the engine as an input. */
  inPlace: number;
}

/** star: a choice the rules do not check (`--star`), checked against its values here. */
type Kind = 'text' | 'amount' | 'year' | 'bool' | 'star';
/**
 * key: the flag (camelCase; `year` is not a FlagInput field but the year argument); name:
 * the column; what: the column's name in messages (an amount: its name in
 * engine/core/messages.ts, `field.<what>`, in the output's language); values: a star column's.
 */
interface Spec {
  key: string;
  name: string;
  kind: Kind;
  what: string;
  values?: readonly string[];
}
/** The kind of cell a declared input reads (rules/inputs.yaml). */
function kindOf(x: GeneratedInput): Kind {
  switch (x.type) {
    case 'money':
    case 'number':
    case 'integer':
      return 'amount';
    case 'year':
      return 'year';
    case 'boolean':
      return 'bool';
    case 'choice':
      return x.checkedByRules ? 'text' : 'star';
    default:
      return 'text';
  }
}
/**
 * The columns read: state and county, then every input rules/inputs.yaml gives a column,
 * in its order. The county rate is not an input fact but the county's: with that column,
 * every row goes to the engine as an input (fastColumns).
 */
const columnsOf = (inputs: readonly GeneratedInput[]): readonly Spec[] => [
  { key: 'state', name: 'state', kind: 'text', what: 'state' },
  { key: 'county', name: 'county', kind: 'text', what: 'county' },
  ...inputs.flatMap((x): Spec[] => {
    if (x.column === undefined) return [];
    const kind = kindOf(x);
    return [
      {
        key: x.key,
        name: x.column,
        kind,
        what: kind === 'amount' ? x.id : x.flag,
        ...(kind === 'star' && 'values' in x ? { values: x.values as readonly string[] } : {}),
      },
    ];
  }),
];
/** `senior-income`, `seniorIncome`, `SENIOR_INCOME` → `seniorincome`. */
export const normalize = (name: string): string =>
  name
    .trim()
    .toLowerCase()
    .replace(/[-_\s]/g, '');
/** The columns of the rules the code was built with (engine/generated/inputs.ts). */
export const INPUT_COLUMNS: readonly Spec[] = columnsOf(INPUTS as unknown as GeneratedInput[]);
/** A bundle's own columns by normalized name (its declarations: a rules folder may declare more inputs). */
const specsCache = new WeakMap<Bundle, Map<string, Spec>>();
function specsOf(bundle: Bundle): Map<string, Spec> {
  let m = specsCache.get(bundle);
  if (!m) specsCache.set(bundle, (m = new Map(columnsOf(declaredInputs(bundle)).map((s) => [normalize(s.name), s]))));
  return m;
}
export const ERROR_COLUMNS = ['error', 'errorCode'] as const;
const OUTPUT_NAMES = new Set([...RESULT_COLUMNS.map((c) => normalize(c.name)), ...ERROR_COLUMNS.map(normalize)]);
const NDJSON_RESERVED = ['result', 'error'];

const MAX_RECORD = 8 << 20;
/** Room for a row's result cells: a dozen numbers, names and the notes (rule texts). */
const ROW_ROOM = 1 << 16; // a record (a line, or a quoted field's lines) longer than this is a broken file

/**
 * A cell's text as the value of its flag; empty is "not given" (undefined). The one
 * reading of a cell (CSV, and NDJSON strings): money and numbers by parseAmount
 * (engine/core/money.ts parseMoney), years by parseYear. `readCell` reads the commonest
 * cells straight from the bytes, giving what this gives.
 */
function parseCell(spec: Spec, raw: string): unknown {
  const s = raw.trim();
  if (s === '') return undefined;
  switch (spec.kind) {
    case 'text':
      return s;
    case 'amount':
      return parseAmount(s, spec.what as AmountField);
    case 'year':
      return parseYear(s);
    case 'star':
      if (!spec.values!.includes(s)) throw inputError('INVALID_STAR', 'badStar', { raw });
      return s;
    case 'bool':
      return parseBool(spec, s, raw);
  }
}

function parseBool(spec: Spec, s: string, raw: unknown): boolean {
  switch (s.length <= 5 ? s.toLowerCase() : '') {
    case 'true':
    case 'yes':
    case '1':
      return true;
    case 'false':
    case 'no':
    case '0':
      return false;
  }
  throw inputError('INVALID_BOOLEAN', 'badBoolean', { field: fieldName(spec), raw: JSON.stringify(raw) });
}

/**
 * A row reader for one header: parsed cells (by position) → the flags object → the
 * input, as `inputFromFlags` makes it.
 */
function rowReader(specs: Array<Spec | undefined>, bundle: Bundle): (vals: unknown[]) => CalcInput {
  const cols = specs.flatMap((spec, i): Array<[string, number]> => (spec && spec.key !== 'year' ? [[spec.key, i]] : []));
  const yearAt = specs.findIndex((spec) => spec?.key === 'year');
  return (v) => {
    const flags: Record<string, unknown> = {};
    for (const [key, i] of cols) flags[key] = v[i];
    return inputFromFlags(flags as unknown as FlagInput, yearAt === -1 ? undefined : (v[yearAt] as number | undefined), bundle);
  };
}

/** An NDJSON value as the value of its flag: numbers and booleans as they are, strings as CSV cells, null as not given. */
function parseJsonValue(spec: Spec, x: unknown): unknown {
  if (x === null || x === undefined) return undefined;
  if (typeof x === 'string') return parseCell(spec, x);
  if (spec.kind === 'amount' && typeof x === 'number') return x;
  if (spec.kind === 'year' && typeof x === 'number') return parseYear(String(x));
  if (spec.kind === 'bool' && typeof x === 'boolean') return x;
  if (spec.kind === 'bool' && (x === 0 || x === 1)) return x === 1;
  throw inputError('INVALID_FIELD', 'badField', {
    field: fieldName(spec),
    kind: { key: spec.kind === 'bool' ? 'kind.bool' : spec.kind === 'amount' || spec.kind === 'year' ? 'kind.number' : 'kind.text' },
    raw: JSON.stringify(x) ?? String(x),
  });
}

/** A column's name in a message: an amount's name (in the output's language), else the column's own name. */
const fieldName = (spec: Spec): MessageValue => (spec.kind === 'amount' ? { key: `field.${spec.what}` as MessageKey } : spec.what);

const reasonOf = (e: unknown): string => {
  const code = (e as NodeJS.ErrnoException)?.code;
  return code === 'ENOENT'
    ? 'no such file'
    : code === 'EISDIR'
      ? 'it is a directory'
      : code === 'EACCES'
        ? 'permission denied'
        : ((e as Error)?.message ?? String(e));
};

export function detectFormat(file: string): BatchFormat | undefined {
  const ext = extname(file).toLowerCase();
  return ext === '.csv' ? 'csv' : ext === '.ndjson' || ext === '.jsonl' ? 'ndjson' : undefined;
}

/**
 * Buffered output with backpressure: the rows of one input chunk are written at once, and
 * `flush` waits for 'drain' when the stream asks for it before the next chunk is read.
 */
class Output {
  readonly w = new CsvOut();
  error: unknown;
  constructor(private readonly stream: Writable) {
    stream.on('error', (e) => {
      this.error ??= e;
    });
  }
  /** Writes text (a whole row or header). */
  text(s: string): void {
    this.w.ensure(s.length * 3);
    this.w.str(s);
  }
  async flush(): Promise<void> {
    if (this.error) throw this.error;
    for (const b of this.w.take()) if (!this.stream.write(b)) await once(this.stream, 'drain');
  }
}

export class BatchRun {
  rows = 0;
  inPlace = 0;
  errors = 0;
  private readonly engine: BatchCalculator;
  private format: BatchFormat | undefined;
  private header: Array<Spec | undefined> | null = null;
  private headerLen = 0;
  private readonly emptyResult = ','.repeat(RESULT_COLUMNS.length - 1);
  private line = 0; // physical lines read, for messages
  private unused: string[] = [];
  private ndjsonUnused = new Set<string>();

  /** fast: places by the bytes of their cells and facts by slot (off: every row to the engine as an input; the tests compare the two). */
  private readonly bundle: Bundle;
  private readonly specByName: Map<string, Spec>;
  constructor(
    calc: Calculator,
    private readonly out: Output,
    private readonly warn: (s: string) => void,
    format: BatchFormat | undefined,
    lang: Lang,
    private readonly fast = true,
  ) {
    this.engine = new BatchCalculator(calc, { lang });
    this.format = format;
    this.bundle = calc.bundle;
    this.specByName = specsOf(calc.bundle);
    this.facts = emptyFacts(calc.bundle).slice();
  }

  get fastOff(): string | null {
    return this.engine.fastOff;
  }

  /**
   * Reads every chunk (bytes); flushes (and waits for the output to drain) after each.
   * CSV is read as bytes (see `feedCsvBytes`); NDJSON as text.
   */
  async run(chunks: AsyncIterable<Buffer | string>, name: string): Promise<void> {
    let pending: Buffer = EMPTY; // bytes not handled yet: an incomplete CSV record, or all of it before the format is known
    let text = ''; // NDJSON text not handled yet
    const decoder = new StringDecoder('utf8');
    let sniffed = this.format !== undefined;
    let bomChecked = false;
    try {
      for await (const chunk of chunks) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
        pending = pending.length ? Buffer.concat([pending, bytes]) : bytes;
        if (!bomChecked) {
          if (pending.length < 3) continue;
          bomChecked = true;
          if (pending[0] === 0xef && pending[1] === 0xbb && pending[2] === 0xbf) pending = pending.subarray(3);
        }
        if (!sniffed) {
          const m = /\S/.exec(pending.toString('utf8', 0, Math.min(pending.length, 1 << 16)));
          if (!m) continue;
          this.format = m[0] === '{' ? 'ndjson' : 'csv';
          sniffed = true;
        }
        if (this.format === 'ndjson') {
          text = this.feedNdjson(text + decoder.write(pending), false);
          pending = EMPTY;
        } else pending = this.feedCsvBytes(pending, false);
        if (text.length > MAX_RECORD || pending.length > MAX_RECORD)
          throw new PtaxError('RECORD_TOO_LONG', `${name}: line ${this.line + 1}: a record longer than ${MAX_RECORD >> 20} MiB (an unclosed quote?)`);
        await this.out.flush();
      }
    } catch (e) {
      if (isPtaxError(e) || e === this.out.error) throw e;
      throw new PtaxError('UNREADABLE', `Cannot read ${name}: ${reasonOf(e)}`);
    }
    if (!bomChecked && pending.length === 3 && pending[0] === 0xef && pending[1] === 0xbb && pending[2] === 0xbf) pending = EMPTY;
    if (!sniffed) this.format = /^\s*\{/.test(pending.toString('utf8')) ? 'ndjson' : 'csv';
    if (this.format === 'ndjson') this.feedNdjson(text + decoder.write(pending) + decoder.end(), true);
    else this.feedCsvBytes(pending, true);
    if (this.format === 'csv' && !this.header) throw new PtaxError('BAD_HEADER', `${name} is empty: a CSV batch needs a header line (state,county,value,…)`);
    await this.out.flush();
  }

  private feedNdjson(buf: string, final: boolean): string {
    let p = 0;
    const n = buf.length;
    while (p < n) {
      let nl = buf.indexOf('\n', p);
      if (nl === -1) {
        if (!final) break;
        nl = n;
      }
      this.line++;
      const text = buf.slice(p, nl).trim();
      p = nl + 1;
      if (text) this.ndjsonRow(text);
    }
    return p >= n ? '' : buf.slice(p);
  }

  /**
   * Handles every complete CSV record of `buf` (bytes); returns what is left (an
   * incomplete record). Each record is split once (`split`), then read (`csvRow`).
   */
  private feedCsvBytes(buf: Buffer, final: boolean): Buffer {
    let p = 0;
    const n = buf.length;
    while (p < n) {
      const next = this.split(buf, p, final);
      if (next === -1) break; // the record goes on in the next chunk
      this.line += this.lines;
      this.csvRecord(buf, p);
      p = next;
    }
    return p >= n ? EMPTY : buf.subarray(p);
  }

  /**
   * The CSV reader (RFC 4180): splits the record that starts at `p` into its fields'
   * bounds (`fs`, `fe`: a quoted field's text without its quotes; `fq`: 0 plain, 1 quoted,
   * 2 quoted with "" inside, 3 a problem field whose text is in `texts`), sets `recEnd`
   * (before the line break), `lines` and `problem`; returns where the next record starts,
   * or -1 when the buffer ends inside the record and more input may come. A record ends at
   * a line feed, a carriage return and line feed, or a lone carriage return, outside quotes.
   * Bytes: quotes, commas and line breaks are ASCII, and UTF-8 never uses ASCII bytes
   * inside a character, so fields are cut where a reader of characters cuts them.
   */
  private split(buf: Buffer, p: number, final: boolean): number {
    const n = buf.length;
    let i = p;
    let nf = 0;
    let lines = 1;
    this.problem = undefined;
    for (;;) {
      if (nf === this.fs.length) this.growFields();
      if (i < n && buf[i] === 34) {
        // A quoted field: to its closing quote ("" is a quote inside it).
        let from = i + 1;
        let kind = 1;
        let q: number;
        for (;;) {
          q = buf.indexOf(34, from);
          if (q === -1) {
            if (!final) return -1;
            this.problem ??= 'a quoted field is not closed';
            q = n;
            break;
          }
          if (q + 1 < n && buf[q + 1] === 34) {
            kind = 2;
            from = q + 2;
            continue;
          }
          if (q + 1 >= n && !final) return -1; // a "" may straddle the chunk boundary
          break;
        }
        lines += count10(buf, i + 1, q);
        this.fs[nf] = i + 1;
        this.fe[nf] = q;
        i = Math.min(q + 1, n);
        let j = i;
        while (j < n && ENDS_FIELD[buf[j]!] === 0) j++;
        if (j > i) {
          this.problem ??= `text after the closing quote of field ${nf + 1}`;
          this.texts[nf] = unquote(buf, this.fs[nf]!, q, kind) + buf.toString('utf8', i, j);
          kind = 3;
          i = j;
        }
        this.fq[nf++] = kind;
      } else {
        let j = i;
        while (j < n && ENDS_FIELD[buf[j]!] === 0) j++;
        this.fs[nf] = i;
        this.fe[nf] = j;
        this.fq[nf++] = 0;
        i = j;
      }
      this.nf = nf;
      this.lines = lines;
      if (i >= n) {
        if (!final) return -1;
        this.recEnd = n;
        return n;
      }
      const c = buf[i];
      if (c === 44) {
        i++;
        continue;
      }
      this.recEnd = i;
      if (c === 13) {
        if (i + 1 >= n && !final) return -1;
        return i + 1 < n && buf[i + 1] === 10 ? i + 2 : i + 1;
      }
      return i + 1;
    }
  }
  private growFields(): void {
    const m = this.fs.length * 2;
    const grow = (a: Int32Array) => {
      const b = new Int32Array(m);
      b.set(a);
      return b;
    };
    this.fs = grow(this.fs);
    this.fe = grow(this.fe);
    const q = new Uint8Array(m);
    q.set(this.fq);
    this.fq = q;
  }
  /** The current record's fields: where each starts and ends, and how it was written (see `split`). */
  private fs = new Int32Array(64);
  private fe = new Int32Array(64);
  private fq = new Uint8Array(64);
  private texts: string[] = [];
  private nf = 0;
  private recEnd = 0;
  private lines = 0;
  private problem: string | undefined;

  /** Field k of the current record as text. */
  private text(buf: Buffer, k: number): string {
    const kind = this.fq[k]!;
    return kind === 3 ? this.texts[k]! : unquote(buf, this.fs[k]!, this.fe[k]!, kind);
  }

  /**
   * A cell read as `parseCell` reads it: the commonest cells (empty, plain digits, true,
   * false, a four-digit year, text with nothing to trim) straight from the bytes, any
   * other through `parseCell`.
   */
  private cell(spec: Spec, buf: Buffer, k: number): unknown {
    const s = this.fs[k]!,
      e = this.fe[k]!,
      n = e - s;
    if (this.fq[k]! < 2) {
      if (n === 0) return undefined;
      const kind = spec.kind;
      if ((kind === 'amount' && n <= 13) || (kind === 'year' && n === 4)) {
        // Up to 13 digits: below parseMoney's largest amount, exact, the same number.
        let x = 0;
        let i = s;
        for (; i < e; i++) {
          const d = buf[i]! - 48;
          if (d < 0 || d > 9) break;
          x = x * 10 + d;
        }
        if (i === e) return x;
      } else if (kind === 'bool') {
        const b = buf[s];
        if (n === 4 && b === 116 && buf[s + 1] === 114 && buf[s + 2] === 117 && buf[s + 3] === 101) return true;
        if (n === 5 && b === 102 && buf[s + 1] === 97 && buf[s + 2] === 108 && buf[s + 3] === 115 && buf[s + 4] === 101) return false;
      } else if (kind === 'text' || kind === 'star') {
        // ASCII with no space at either end: nothing for trim() to remove.
        const a = buf[s]!,
          z = buf[e - 1]!;
        if (a > 32 && z > 32 && a < 128 && z < 128) {
          const t = this.intern(buf, s, e);
          if (kind === 'text' || spec.values!.includes(t)) return t;
        }
      }
    }
    return parseCell(spec, this.text(buf, k));
  }

  /**
   * One CSV record: the header, a blank line (not a row), or a row. A row's cells are read
   * in column order (the first bad one is the row's error); its place is found by the bytes
   * of its state, county and year cells (`placeOfBytes`) and its facts written by slot
   * when the header allows it (`fastColumns`), else the row goes to the engine as an input.
   */
  private csvRecord(buf: Buffer, p: number): void {
    const nf = this.nf;
    if (nf === 1 && this.fq[0] === 0 && this.fe[0] === this.fs[0]) return; // a blank line
    if (!this.header) {
      const fields = Array.from({ length: nf }, (_, k) => this.text(buf, k));
      this.readHeader(fields, buf.toString('utf8', p, this.recEnd), this.problem);
      return;
    }
    this.rows++;
    let problem = this.problem;
    if (nf !== this.headerLen || problem) {
      // Keep the output rectangular: pad or cut the row to the header's width.
      let input = buf.toString('utf8', p, this.recEnd);
      if (nf !== this.headerLen) {
        const f = Array.from({ length: Math.min(nf, this.headerLen) }, (_, k) => this.text(buf, k));
        while (f.length < this.headerLen) f.push('');
        input = f.map(csvEscape).join(',');
        problem ??= `line ${this.line}: ${nf} fields, the header has ${this.headerLen}`;
      }
      return this.csvError(input, 'INVALID_ROW', problem!);
    }
    const h = this.eager!;
    const vals = this.vals;
    let err: unknown;
    for (let k = 0; k < nf; k++) {
      const spec = h[k];
      if (spec === undefined) continue;
      try {
        vals[k] = this.cell(spec, buf, k);
      } catch (x) {
        err = x;
        break;
      }
    }
    const e = this.recEnd;
    const w = this.out.w;
    w.ensure(e - p + ROW_ROOM);
    const at = w.pos;
    w.range(buf, p, e);
    w.byte(44);
    try {
      if (err !== undefined) throw err;
      const cols = this.cols;
      let place: Place | PtaxError | null = null;
      if (cols && !this.engine.fastOff) {
        const { slots, empties } = cols;
        const facts = this.facts;
        for (let k = 0; k < nf; k++) {
          const slot = slots[k]!;
          if (slot !== -1) facts[slot] = vals[k] === undefined ? empties[k] : vals[k];
        }
        place = this.placeOfBytes(buf);
      }
      if (place instanceof Error) throw place;
      if (place) {
        this.inPlace++;
        this.engine.csvFacts(place, this.facts, w);
      } else {
        this.readPlace(buf);
        this.engine.csvInto(this.rowInput!(vals), w);
      }
    } catch (x) {
      w.pos = at;
      this.rowFailed(x, (code, message) => this.csvError(buf.toString('utf8', p, e), code, message));
      return;
    }
    w.byte(44);
    w.byte(44);
    w.byte(10);
  }

  /**
   * The place of the current row by the bytes of its state, county and year cells:
   * remembered (hash, then the bytes compared), or asked of the engine with the row's
   * values (the engine's own cache, or `prepare`). The error `prepare` gave for those
   * cells, or null when the row must go to the engine as an input (a cell with "" inside,
   * or a state that chooses its program by input facts).
   */
  private placeOfBytes(buf: Buffer): Place | PtaxError | null {
    const { state, county, year } = this.cols!;
    const fq = this.fq;
    if (fq[state]! > 1 || fq[county]! > 1 || (year !== -1 && fq[year]! > 1)) return null;
    const fs = this.fs,
      fe = this.fe;
    const ys = year === -1 ? 0 : fs[year]!,
      ye = year === -1 ? 0 : fe[year]!;
    const keys = this.placeKeys;
    const found = keys.find(buf, fs[state]!, fe[state]!, fs[county]!, fe[county]!, ys, ye);
    if (found !== -1) return keys.places[found]!;
    // First row with these cells: the engine decides, from the row's input.
    this.readPlace(buf);
    const vals = this.vals;
    const input: Record<string, unknown> = { state: vals[state], county: vals[county], year: year === -1 ? undefined : vals[year] };
    inputFactsOf(this.bundle).forEach((f, i) => {
      if (f !== 'year') input[f] = this.facts[i];
    });
    let place: Place | PtaxError | null;
    try {
      place = this.engine.placeOf(input as unknown as CalcInput) ?? null;
    } catch (x) {
      if (!isPtaxError(x)) throw x;
      place = x as PtaxError;
    }
    keys.add(buf, fs[state]!, fe[state]!, fs[county]!, fe[county]!, ys, ye, place);
    return place;
  }
  private placeKeys = new PlaceKeys();

  /** A short text cell as a string, the same string for the same bytes (a few dozen remembered). */
  private intern(buf: Buffer, s: number, e: number): string {
    const n = e - s;
    const keys = this.internKeys;
    next: for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      if (k.length !== n) continue;
      for (let j = 0; j < n; j++) if (k[j] !== buf[s + j]) continue next;
      return this.internTexts[i]!;
    }
    const t = buf.toString('utf8', s, e);
    if (keys.length < 64) {
      keys.push(Buffer.from(buf.subarray(s, e)));
      this.internTexts.push(t);
    }
    return t;
  }
  private internKeys: Buffer[] = [];
  private internTexts: string[] = [];

  /** How the header's columns map to fact slots, or null: every row goes to the engine as an input. */
  private cols: FastColumns | null = null;
  /** The current row's input facts (INPUT_FACTS order); a column not in the header keeps its empty value. */
  private facts: unknown[];

  private csvError(input: string, code: string, message: string): void {
    this.errors++;
    this.out.text(input + ',' + this.emptyResult + ',' + csvEscape(message) + ',' + code + '\n');
  }

  /** A bad row's error, its message in the output's language. */
  private rowFailed(err: unknown, write: (code: string, message: string) => void): void {
    if (isPtaxError(err)) {
      const e = localized(err, this.engine.lang);
      write(e.code, e.message);
    } else write('INTERNAL', `internal error: ${(err as Error)?.message ?? String(err)}`);
  }

  /**
   * The state and county cells of the current row, read when they are needed: a row whose
   * place is found by their bytes needs them not (text cells: reading them cannot fail).
   */
  private readPlace(buf: Buffer): void {
    if (!this.cols) return;
    const { state, county } = this.cols;
    this.vals[state] = this.cell(this.header![state]!, buf, state);
    this.vals[county] = this.cell(this.header![county]!, buf, county);
  }
  /** The header's columns read as a row is read: all, but the state and county with `cols` (see `readPlace`). */
  private eager: Array<Spec | undefined> | null = null;

  /** The read cells of the current row, by position (reused from row to row). */
  private vals: unknown[] = [];
  /** The header's row reader: read cells → CalcInput (made once per header, see `rowReader`). */
  private rowInput: ((vals: unknown[]) => CalcInput) | null = null;

  private readHeader(fields: string[], raw: string, problem?: string): void {
    if (problem) throw new PtaxError('BAD_HEADER', `header: ${problem}`);
    const seen = new Map<string, string>();
    const specs = fields.map((f) => {
      const name = f.trim();
      if (!name) throw new PtaxError('BAD_HEADER', `header: column ${fields.indexOf(f) + 1} has no name`);
      const k = normalize(name);
      if (seen.has(k)) throw new PtaxError('BAD_HEADER', `header: "${name}" and "${seen.get(k)}" are the same column`);
      if (OUTPUT_NAMES.has(k)) throw new PtaxError('BAD_HEADER', `header: "${name}" is an output column of ptax; rename it`);
      seen.set(k, name);
      const spec = this.specByName.get(k);
      if (!spec) this.unused.push(name);
      return spec;
    });
    for (const need of ['state', 'county']) {
      if (!seen.has(need))
        throw new PtaxError('BAD_HEADER', `header: no "${need}" column (the header is: ${raw.length > 200 ? raw.slice(0, 200) + '…' : raw})`);
    }
    this.header = specs;
    this.headerLen = fields.length;
    this.rowInput = rowReader(specs, this.bundle);
    this.cols = this.fast ? fastColumns(specs, this.bundle) : null;
    const cols = this.cols;
    this.eager = cols ? specs.map((x, k) => (k === cols.state || k === cols.county ? undefined : x)) : specs;
    if (this.unused.length) this.warn(`ptax: columns passed through, not used by the calculation: ${this.unused.join(', ')}`);
    this.out.text(raw + ',' + [...RESULT_COLUMNS.map((c) => c.name), ...ERROR_COLUMNS].join(',') + '\n');
  }

  private ndjsonRow(text: string): void {
    this.rows++;
    let obj: unknown;
    try {
      obj = JSON.parse(text);
    } catch (e) {
      return this.ndjsonError(`{"input":${JSON.stringify(text)}`, 'INVALID_JSON', `line ${this.line}: not JSON (${(e as Error).message})`);
    }
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
      return this.ndjsonError(`{"input":${JSON.stringify(obj)}`, 'INVALID_ROW', `line ${this.line}: a row must be a JSON object`);
    }
    const o = obj as Record<string, unknown>;
    const head = JSON.stringify(o).slice(0, -1); // the input's keys, then ours
    const open = head.length > 1 ? head + ',' : head;
    const reserved = NDJSON_RESERVED.find((k) => Object.hasOwn(o, k));
    if (reserved) return this.ndjsonError(open.slice(0, -1) || '{', 'INVALID_ROW', `line ${this.line}: the key "${reserved}" is ptax's output; rename it`);
    let input: CalcInput;
    try {
      const flags: Record<string, unknown> = {};
      let year: number | undefined;
      const seen = new Map<string, string>();
      for (const [key, x] of Object.entries(o)) {
        const k = normalize(key);
        const spec = this.specByName.get(k);
        if (!spec) {
          if (this.ndjsonUnused.size < 20 && !this.ndjsonUnused.has(key)) {
            this.ndjsonUnused.add(key);
            this.warn(`ptax: key passed through, not used by the calculation: ${key}`);
          }
          continue;
        }
        if (seen.has(k)) throw new PtaxError('INVALID_ROW', `"${key}" and "${seen.get(k)}" are the same field`);
        seen.set(k, key);
        const v = parseJsonValue(spec, x);
        if (spec.key === 'year') year = v as number | undefined;
        else flags[spec.key] = v;
      }
      input = inputFromFlags(flags as unknown as FlagInput, year, this.bundle);
      const result = this.engine.result(input);
      this.out.text(open + '"result":' + JSON.stringify(result) + '}\n');
    } catch (err) {
      this.rowFailed(err, (code, message) => this.ndjsonError(open.slice(0, -1) || '{', code, message));
    }
  }

  private ndjsonError(head: string, code: string, message: string): void {
    this.errors++;
    this.out.text((head.length > 1 ? head + ',' : head) + '"error":' + JSON.stringify({ code, message }) + '}\n');
  }
}

const EMPTY = Buffer.alloc(0);
/** A byte with ASCII upper-case letters lowered (PlaceKeys: "NY" and "ny" are one state). */
const FOLD = Uint8Array.from({ length: 256 }, (_, c) => (c >= 65 && c <= 90 ? c + 32 : c));
/** 1 for the bytes that end an unquoted field: comma, line feed, carriage return. */
const ENDS_FIELD = Uint8Array.from({ length: 256 }, (_, c) => (c === 44 || c === 10 || c === 13 ? 1 : 0));

/** By header position: each column's fact slot (-1: none, or the state, county or year) and its empty value; where the place's cells are. */
interface FastColumns {
  slots: Int32Array;
  empties: unknown[];
  state: number;
  county: number;
  /** The year asked for (-1: no such column). */
  year: number;
}

/** The input facts of a row whose cells are all empty (the bundle's input fact order). */
const emptyCache = new WeakMap<Bundle, unknown[]>();
function emptyFacts(bundle: Bundle): unknown[] {
  let e = emptyCache.get(bundle);
  if (!e) emptyCache.set(bundle, (e = inputFacts(inputFromFlags({ state: '', county: '' }, undefined, bundle), bundle)));
  return e;
}

/**
 * Which input fact each column of a header sets, found by asking `inputFromFlags` and
 * `inputFacts` (the one mapping from flags to facts) which fact probe values of the flag
 * change. Null if a column's fact cannot be found that way: every row then goes to the
 * engine as an input.
 */
function fastColumns(specs: Array<Spec | undefined>, bundle: Bundle): FastColumns | null {
  const EMPTY_FACTS = emptyFacts(bundle);
  const n = specs.length;
  const cols: FastColumns = {
    slots: new Int32Array(n).fill(-1),
    empties: new Array<unknown>(n).fill(undefined),
    state: specs.findIndex((x) => x?.key === 'state'),
    county: specs.findIndex((x) => x?.key === 'county'),
    year: specs.findIndex((x) => x?.key === 'year'),
  };
  for (let i = 0; i < n; i++) {
    const spec = specs[i];
    if (!spec || spec.key === 'state' || spec.key === 'county' || spec.key === 'year') continue;
    const probes = spec.kind === 'bool' ? [true, false] : spec.kind === 'text' || spec.kind === 'star' ? ['\u0001'] : [7_777_777];
    let slot = -1;
    for (const probe of probes) {
      const facts = inputFacts(inputFromFlags({ state: '', county: '', [spec.key]: probe } as FlagInput, undefined, bundle), bundle);
      const changed = facts.flatMap((x, j) => (Object.is(x, EMPTY_FACTS[j]) ? [] : [j]));
      // One fact, the same for every probe, holding the probe (false may be the empty value itself).
      const j = changed.length === 1 ? changed[0]! : changed.length === 0 ? slot : -1;
      if (j === -1 || facts[j] !== probe || (slot !== -1 && j !== slot)) return null;
      slot = j;
    }
    if (slot === -1) return null;
    cols.slots[i] = slot;
    cols.empties[i] = EMPTY_FACTS[slot];
  }
  return cols;
}

/** A quoted field's text (without its quotes; kind 2: "" inside, each a quote). */
function unquote(buf: Buffer, s: number, e: number, kind: number): string {
  const t = buf.toString('utf8', s, e);
  return kind === 2 ? t.replace(/""/g, '"') : t;
}

function count10(buf: Buffer, s: number, e: number): number {
  let k = 0;
  for (let i = buf.indexOf(10, s); i !== -1 && i < e; i = buf.indexOf(10, i + 1)) k++;
  return k;
}

async function* chunksOf(stream: Readable): AsyncIterable<Buffer | string> {
  for await (const chunk of stream) yield chunk as Buffer | string;
}

/**
 * Runs a batch: opens the input and output, streams every row, writes the summary to
 * stderr. Returns the summary (exit code 0, or 1 with --strict and a bad row); throws a
 * PtaxError for what stops the run (exit 2).
 */
export async function runBatch(calc: Calculator, o: BatchOptions, io: BatchIO = {}): Promise<BatchSummary> {
  const warn = io.stderr ?? ((s: string) => process.stderr.write(s + '\n'));
  const fromStdin = o.file === '-';
  const name = fromStdin ? 'standard input' : o.file;
  if (o.out && !fromStdin) {
    let same = false;
    try {
      same = realpathSync(o.out) === realpathSync(o.file);
    } catch {
      /* the output does not exist yet */
    }
    if (same) throw new PtaxError('USAGE', `--out ${o.out} is the input file; choose another output`);
  }
  // The input is opened first, so a missing file leaves no empty output behind.
  const source = fromStdin ? (io.stdin ?? process.stdin) : createReadStream(o.file, { highWaterMark: 1 << 18 });
  if (!fromStdin) {
    try {
      await once(source, 'open');
    } catch (e) {
      throw new PtaxError('UNREADABLE', `Cannot read ${name}: ${reasonOf(e)}`);
    }
  }
  let stream: Writable;
  let closeOut: (() => Promise<void>) | undefined;
  if (o.out) {
    const ws = createWriteStream(o.out);
    try {
      await once(ws, 'open');
    } catch (e) {
      throw new PtaxError('UNWRITABLE', `Cannot write ${o.out}: ${reasonOf(e)}`);
    }
    stream = ws;
    closeOut = async () => {
      ws.end();
      await once(ws, 'finish');
    };
  } else stream = io.stdout ?? process.stdout;
  const out = new Output(stream);
  const run = new BatchRun(calc, out, warn, o.format ?? (fromStdin ? undefined : detectFormat(o.file)), o.lang ?? 'en', o.fast ?? true);
  // Row errors are values here, never printed with a stack: building stacks for them
  // would cost more than calculating the row (this process runs only the batch).
  Error.stackTraceLimit = 0;
  const t0 = process.hrtime.bigint();
  try {
    await run.run(chunksOf(source), name);
    if (closeOut) await closeOut();
  } catch (e) {
    // A reader that stopped early (`| head`): stop too, quietly, as other tools do.
    if ((out.error as NodeJS.ErrnoException | undefined)?.code === 'EPIPE')
      return { rows: run.rows, ok: run.rows - run.errors, errors: run.errors, seconds: 0, exitCode: 0, inPlace: run.inPlace };
    if (out.error) throw new PtaxError('UNWRITABLE', `Cannot write ${o.out ?? 'the output'}: ${reasonOf(out.error)}`);
    throw e;
  } finally {
    if (!fromStdin) (source as Readable).destroy();
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const ok = run.rows - run.errors;
  const rate = seconds > 0 ? Math.round(run.rows / seconds) : run.rows;
  warn(
    `ptax batch: ${run.rows} rows, ${ok} ok, ${run.errors} errors, ${seconds.toFixed(3)} s, ${rate} rows/s${run.fastOff ? ` (fast path off: ${run.fastOff})` : ''}`,
  );
  const exitCode = o.strict && run.errors ? 1 : 0;
  return { rows: run.rows, ok, errors: run.errors, seconds, exitCode, inPlace: run.inPlace };
}

/** The calc options that belong to batch mode; every other calc option is a column instead. */
const BATCH_OPTIONS = ['batch', 'batchFormat', 'out', 'strict', 'lang', 'engine', 'db', 'table'];
const flagName = (k: string): string => '--' + k.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());

/**
 * `ptax calc --batch …` as called from cli/main.ts with commander's options: checks the
 * combination, runs, sets the exit code (1 with --strict and a bad row).
 */
export async function calcBatch(o: Record<string, unknown>, calc: () => Promise<Calculator>): Promise<void> {
  if (o.batch === undefined && !(o.engine === 'postgres' && o.table !== undefined)) {
    const given = ['batchFormat', 'out', 'strict', 'engine', 'db', 'table'].find((k) => o[k] !== undefined);
    throw new PtaxError('USAGE', `${flagName(given ?? 'batch')} needs --batch <file>`);
  }
  const extra = Object.keys(o).filter((k) => o[k] !== undefined && !BATCH_OPTIONS.includes(k));
  if (extra.length) {
    const f = flagName(extra[0]!);
    throw new PtaxError(
      'USAGE',
      ['--json', '--explain'].includes(f)
        ? `${f} does not apply to --batch (the output has the format of the input)`
        : `${f} cannot be used with --batch: give it as a column of the batch file`,
    );
  }
  if (o.engine !== undefined && o.engine !== 'node') {
    // The rules as SQL, run by DuckDB or PostgreSQL (engine/sql).
    const { runSqlBatch } = await loadSqlRunner();
    const s = await runSqlBatch((await calc()).bundle, {
      engine: o.engine as 'duckdb' | 'postgres',
      file: o.batch === undefined ? undefined : String(o.batch),
      out: o.out as string | undefined,
      db: o.db as string | undefined,
      table: o.table as string | undefined,
    });
    const rate = s.seconds > 0 ? Math.round(s.rows / s.seconds) : s.rows;
    process.stderr.write(
      `ptax batch (${o.engine}): ${s.rows} rows, ${Number.isNaN(s.errors) ? '(errors: see the errorCode column)' : `${s.rows - s.errors} ok, ${s.errors} errors`}, ${s.seconds.toFixed(3)} s, ${rate} rows/s\n`,
    );
    process.exitCode = o.strict && s.errors ? 1 : 0;
    return;
  }
  if (o.db !== undefined || o.table !== undefined) throw new PtaxError('USAGE', `${o.db !== undefined ? '--db' : '--table'} needs --engine postgres`);
  const summary = await runBatch(await calc(), {
    file: String(o.batch),
    format: o.batchFormat as BatchFormat | undefined,
    out: o.out as string | undefined,
    strict: !!o.strict,
    lang: (o.lang as Lang | undefined) ?? 'en',
  });
  process.exitCode = summary.exitCode;
}

/**
 * Places by the bytes of a row's state, county and year cells: an open-addressed table
 * of hashes (FNV-1a) and entry numbers, the cells' bytes kept one after another in one
 * arena. A look-up reads a few adjacent bytes, not a map, a list, an object and a buffer
 * (a million look-ups of scattered objects cost about twice as much). Bounded: past
 * MAX_KEYS entries it starts again.
 *
 * The state and county cells match whatever the case of their ASCII letters ("NY" and
 * "ny", "Kings" and "KINGS"): the engine reads a state upper-cased and a county through
 * countyKey, which lower-cases it, so such cells give one place (a roll that spells its
 * places several ways makes a third as many first rows). An entry that is not a place
 * (an error, whose message quotes the cell as written, or null) matches its own bytes only.
 */
export class PlaceKeys {
  static readonly MAX_KEYS = 1 << 16;
  /** The table starts small and doubles (a roll has a few thousand places: a small table stays in the processor's cache). */
  private hashes = new Int32Array(1 << 10);
  /** Entry number + 1 per table place (0: empty). */
  private index = new Int32Array(1 << 10);
  private arena = new Uint8Array(1 << 16);
  private used = 0;
  /** Per entry: where its bytes start in the arena, its state and county cells' lengths (`shapeOf`), and the length of all three. */
  private readonly starts: number[] = [];
  private readonly shapes: number[] = [];
  private readonly lens: number[] = [];
  private readonly entryHashes: number[] = [];
  readonly places: Array<Place | PtaxError | null> = [];
  /** Per entry: 1 when it is not a place (an error or null) and matches its own bytes only. */
  private readonly exact: number[] = [];

  private static hash(buf: Uint8Array, ss: number, se: number, cs: number, ce: number, ys: number, ye: number): number {
    let h = 0x811c9dc5;
    // Bytes with bit 5 set: "A" and "a" hash alike (so do a few other pairs: a hash may collide).
    for (let k = ss; k < se; k++) h = Math.imul(h ^ (buf[k]! | 32), 0x01000193);
    h = Math.imul(h ^ 256, 0x01000193); // a separator no byte equals
    for (let k = cs; k < ce; k++) h = Math.imul(h ^ (buf[k]! | 32), 0x01000193);
    h = Math.imul(h ^ 256, 0x01000193);
    for (let k = ys; k < ye; k++) h = Math.imul(h ^ buf[k]!, 0x01000193);
    return h;
  }

  /** The lengths of the state and county cells in one number (each below 2^15: a line is shorter). */
  private static shapeOf(ss: number, se: number, cs: number, ce: number): number {
    return ((se - ss) << 15) | (ce - cs);
  }

  /** Where a hash's probe starts in the table. */
  private first(h: number): number {
    return (Math.imul(h, 0x9e3779b1) >>> 0) & (this.index.length - 1);
  }

  /** The entry of these cells, or -1. */
  find(buf: Uint8Array, ss: number, se: number, cs: number, ce: number, ys: number, ye: number): number {
    const h = PlaceKeys.hash(buf, ss, se, cs, ce, ys, ye);
    const mask = this.index.length - 1;
    const arena = this.arena;
    const shape = PlaceKeys.shapeOf(ss, se, cs, ce);
    const len = se - ss + ce - cs + ye - ys;
    next: for (let i = this.first(h); ; i = (i + 1) & mask) {
      const e = this.index[i]! - 1;
      if (e === -1) return -1;
      if (this.hashes[i] !== h || this.lens[e] !== len || this.shapes[e] !== shape) continue;
      let q = this.starts[e]!;
      for (let k = ss; k < se; k++) {
        const a = arena[q++]!,
          b = buf[k]!;
        if (a !== b && FOLD[a] !== FOLD[b]) continue next;
      }
      for (let k = cs; k < ce; k++) {
        const a = arena[q++]!,
          b = buf[k]!;
        if (a !== b && FOLD[a] !== FOLD[b]) continue next;
      }
      for (let k = ys; k < ye; k++) if (arena[q++] !== buf[k]) continue next;
      if (this.exact[e] === 1) {
        // Not a place: the cells as written, byte for byte.
        q = this.starts[e]!;
        for (let k = ss; k < se; k++) if (arena[q++] !== buf[k]) continue next;
        for (let k = cs; k < ce; k++) if (arena[q++] !== buf[k]) continue next;
      }
      return e;
    }
  }

  add(buf: Uint8Array, ss: number, se: number, cs: number, ce: number, ys: number, ye: number, place: Place | PtaxError | null): void {
    if (this.places.length >= PlaceKeys.MAX_KEYS) this.clear(); // bounded memory, whatever the input
    const len = se - ss + ce - cs + ye - ys;
    if (this.used + len > this.arena.length) {
      const a = new Uint8Array(Math.max(this.arena.length * 2, this.used + len));
      a.set(this.arena.subarray(0, this.used));
      this.arena = a;
    }
    const e = this.places.length;
    this.starts.push(this.used);
    this.lens.push(len);
    this.shapes.push(PlaceKeys.shapeOf(ss, se, cs, ce));
    this.places.push(place);
    this.exact.push(place === null || place instanceof Error ? 1 : 0);
    const arena = this.arena;
    let q = this.used;
    for (let k = ss; k < se; k++) arena[q++] = buf[k]!;
    for (let k = cs; k < ce; k++) arena[q++] = buf[k]!;
    for (let k = ys; k < ye; k++) arena[q++] = buf[k]!;
    this.used = q;
    // Hashed again: `add` follows a `find` that missed, a few thousand times in a run.
    const h = PlaceKeys.hash(buf, ss, se, cs, ce, ys, ye);
    this.entryHashes.push(h);
    if (this.places.length * 2 > this.index.length) this.grow();
    else this.put(h, e);
  }

  private put(h: number, e: number): void {
    const mask = this.index.length - 1;
    let i = this.first(h);
    while (this.index[i] !== 0) i = (i + 1) & mask;
    this.hashes[i] = h;
    this.index[i] = e + 1;
  }

  /** Twice the table, every entry put again. */
  private grow(): void {
    this.hashes = new Int32Array(this.index.length * 2);
    this.index = new Int32Array(this.index.length * 2);
    this.entryHashes.forEach((h, e) => this.put(h, e));
  }

  private clear(): void {
    this.index.fill(0);
    this.starts.length = this.lens.length = this.shapes.length = this.places.length = this.exact.length = this.entryHashes.length = 0;
    this.used = 0;
  }
}
