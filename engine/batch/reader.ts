/**
 * The batch row reader: CSV records and NDJSON lines in, one result row out per row, for
 * `ptax calc --batch` (cli/batch.ts opens the files and streams, and gives this reader the
 * bytes) and for every test and tool that reads a roll. No file or stream here: bytes in
 * (`push`, `end`), bytes out (a CsvOut the caller drains).
 *
 * - Columns (CSV header names, NDJSON keys) are state, county and the `column` of each
 *   input rules/inputs.yaml declares (the calc flags), kebab or camel case
 *   (`senior-income`, `seniorIncome`; case, `-` and `_` are ignored). Other columns are
 *   passed through untouched (named once by `warn`, so a misspelt flag is noticed).
 *   An empty cell is a flag not given (an empty `value` is the default 350,000, as in
 *   `ptax calc`).
 * - CSV out: the input row as it was, then RESULT_COLUMNS (engine/batch/batch.ts, from
 *   rules/results.yaml), then `error` and `errorCode`. NDJSON out: the input object's keys,
 *   then `result` (the object `ptax calc --json` prints) or `error` ({code, message}).
 * - A bad row gets its error and the run goes on; output rows = input rows (blank lines
 *   are not rows). A bad header or a record that never ends throws a PtaxError.
 *
 * The CSV reader is our own: csv-parse's streaming API, only parsing the 1,000,000-row
 * benchmark file (records counted, nothing else), measured 210,000 to 235,000 rows/s on
 * this machine, under half the 500,000 rows/s target before any calculation. Ours is
 * RFC 4180: quoted fields with "" and line breaks, CRLF, LF or a lone CR, a UTF-8 byte
 * order mark. One reader, one coercion, one printer: every record is split as bytes
 * (`split`; a plain row, the commonest, is split and its cells read in one pass,
 * `plainRow`, with the same outcome); every cell is read by engine/core/cells.ts `readCell` (the one reading of
 * money, booleans, years and choices, shared with the CLI flags, share links and the web),
 * the commonest ones (digits, true/false, plain text) straight from the bytes (`cell`),
 * giving what `readCell` gives; every row is printed by CsvOut. A row's place is found by
 * the bytes of its state, county and year cells (`PlaceKeys`) and its facts written by slot
 * (`fastColumns`), or, with `fast: false`, the row goes to the engine as an input
 * (`Calculator.prepare`'s way); the two give the same output (engine/batch/reader.test.ts
 * compares them byte for byte).
 */
import { StringDecoder } from 'node:string_decoder';
import { inputFacts, inputFromFlags, type Calculator, type CalcInput, type FlagInput } from '../core/calculate.js';
import { PtaxError, isPtaxError } from '../core/errors.js';
import { localized } from '../core/messages.js';
import { type Bundle, type Lang } from '../core/types.js';
import { declaredInputs, inputFactsOf } from '../core/registry.js';
import { BatchCalculator, RESULT_COLUMNS, type Place } from './batch.js';
import { CsvOut, csvEscape } from './csv-out.js';
import { ERROR_COLUMNS, checkHeaderNames } from './header.js';
import { INPUT_COLUMNS, columnsOf, normalize, readCell, readJsonValue, type CellSpec } from '../core/cells.js';

export type BatchFormat = 'csv' | 'ndjson';
type Spec = CellSpec;

const SPEC_BY_NAME = new Map(INPUT_COLUMNS.map((s) => [normalize(s.name), s]));
/** A bundle's own columns by normalized name (its declarations: a rules folder may declare more inputs). */
const specsCache = new WeakMap<Bundle, Map<string, CellSpec>>();
function specsOf(bundle: Bundle): Map<string, CellSpec> {
  let m = specsCache.get(bundle);
  if (!m) specsCache.set(bundle, (m = new Map(columnsOf(declaredInputs(bundle)).map((s) => [normalize(s.name), s]))));
  return m;
}
/** The batch column a header name (or NDJSON key) reads, whatever its case and separators; undefined: passed through. */
export const columnOf = (name: string): CellSpec | undefined => SPEC_BY_NAME.get(normalize(name));
export { ERROR_COLUMNS };

const NDJSON_RESERVED = ['result', 'error'];

/** The longest record (a line, or a quoted field's lines): longer is a broken file. */
export const MAX_RECORD = 8 << 20;
/** Room for a row's result cells: a dozen numbers, names and the notes (rule texts). */
const ROW_ROOM = 1 << 16;

/**
 * A row reader for one header: read cells (by position) → the flags object → the
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

export interface BatchReaderOptions {
  format?: BatchFormat;
  lang?: Lang;
  /** Places by the bytes of their cells and facts by slot (default); false: every row to the engine as an input (for tests comparing the two). */
  fast?: boolean;
  /** Where the passed-through columns are named (default: nowhere). */
  warn?: (line: string) => void;
  /** The input's name in messages (default "the input"). */
  name?: string;
}

/**
 * Reads a roll pushed as bytes (any chunking: a record or a UTF-8 character may straddle
 * two chunks) and writes each row's result into `out` (the caller takes the bytes with
 * `out.take()` after each push). The format is `format`, else sniffed from the first
 * non-blank character (`{`: NDJSON).
 */
export class BatchReader {
  rows = 0;
  /** Rows whose place was found by the bytes of their cells and facts written by slot; the others went to the engine as an input. */
  inPlace = 0;
  errors = 0;
  /** Rows read in one pass (`plainRow`); the others were split first, then read cell by cell. */
  plain = 0;
  readonly out = new CsvOut();
  private readonly engine: BatchCalculator;
  private format: BatchFormat | undefined;
  private readonly warn: (s: string) => void;
  private readonly fast: boolean;
  private readonly name: string;
  private header: Array<Spec | undefined> | null = null;
  private headerLen = 0;
  private readonly emptyResult = ','.repeat(RESULT_COLUMNS.length - 1);
  private line = 0; // physical lines read, for messages
  private unused: string[] = [];
  private ndjsonUnused = new Set<string>();
  private pending: Buffer = EMPTY; // bytes not handled yet: an incomplete CSV record, or all of it before the format is known
  private ndText = ''; // NDJSON text not handled yet
  private readonly decoder = new StringDecoder('utf8');
  private sniffed: boolean;
  private bomChecked = false;

  constructor(calc: Calculator, o: BatchReaderOptions = {}) {
    this.engine = new BatchCalculator(calc, { lang: o.lang ?? 'en' });
    this.bundle = calc.bundle;
    this.specByName = specsOf(calc.bundle);
    this.facts = emptyFacts(calc.bundle).slice();
    this.format = o.format;
    this.sniffed = o.format !== undefined;
    this.warn = o.warn ?? (() => {});
    this.fast = o.fast ?? true;
    this.name = o.name ?? 'the input';
  }

  get fastOff(): string | null {
    return this.engine.fastOff;
  }

  /**
   * Reads every complete record of the bytes pushed so far; keeps the rest for the next push.
   * CSV is read as bytes (`feedCsvBytes`); NDJSON as text. The chunk is not kept: what is
   * left of it is copied into the reader's own buffer, so the caller may read the next
   * chunk into the same memory.
   */
  push(chunk: Buffer | string): void {
    try {
      this.pushIn(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
    } finally {
      this.pending = this.keep(this.pending);
    }
  }

  /** The bytes left for the next push (`pending`, an incomplete record), and the join of them and the next chunk. */
  private carry: Buffer = EMPTY;
  /** `rest` copied to the start of `carry` (a view of it, or of a chunk, as `feedCsvBytes` returns it). */
  private keep(rest: Buffer): Buffer {
    if (!rest.length) return EMPTY;
    if (rest.buffer === this.carry.buffer && rest.byteOffset === this.carry.byteOffset) return rest;
    if (this.carry.length < rest.length) this.carry = Buffer.allocUnsafe(Math.max(rest.length, 1 << 12));
    rest.copy(this.carry, 0); // copy handles a rest inside carry itself
    return this.carry.subarray(0, rest.length);
  }
  /** The pending bytes (at the start of `carry`) and then `bytes`, in `carry` (grown as needed); `bytes` itself when nothing is pending. */
  private joined(bytes: Buffer): Buffer {
    const n = this.pending.length;
    if (!n) return bytes;
    if (this.carry.length < n + bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(n + bytes.length, this.carry.length * 2));
      this.pending.copy(grown, 0);
      this.carry = grown;
    }
    bytes.copy(this.carry, n);
    return this.carry.subarray(0, n + bytes.length);
  }

  private pushIn(bytes: Buffer): void {
    let pending = this.joined(bytes);
    this.pending = pending;
    if (!this.bomChecked) {
      if (pending.length < 3) return;
      this.bomChecked = true;
      if (pending[0] === 0xef && pending[1] === 0xbb && pending[2] === 0xbf) this.pending = pending = pending.subarray(3);
    }
    if (!this.sniffed) {
      const m = /\S/.exec(pending.toString('utf8', 0, Math.min(pending.length, 1 << 16)));
      if (!m) return;
      this.format = m[0] === '{' ? 'ndjson' : 'csv';
      this.sniffed = true;
    }
    if (this.format === 'ndjson') {
      this.ndText = this.feedNdjson(this.ndText + this.decoder.write(pending), false);
      this.pending = EMPTY;
    } else this.pending = this.feedCsvBytes(pending, false);
    if (this.ndText.length > MAX_RECORD || this.pending.length > MAX_RECORD)
      throw new PtaxError('RECORD_TOO_LONG', `${this.name}: line ${this.line + 1}: a record longer than ${MAX_RECORD >> 20} MiB (an unclosed quote?)`);
  }

  /** The input has ended: reads what is left (a last record without a line break). */
  end(): void {
    let pending = this.pending;
    if (!this.bomChecked && pending.length === 3 && pending[0] === 0xef && pending[1] === 0xbb && pending[2] === 0xbf) pending = EMPTY;
    if (!this.sniffed) this.format = /^\s*\{/.test(pending.toString('utf8')) ? 'ndjson' : 'csv';
    this.pending = EMPTY;
    if (this.format === 'ndjson') this.feedNdjson(this.ndText + this.decoder.write(pending) + this.decoder.end(), true);
    else this.feedCsvBytes(pending, true);
    this.ndText = '';
    if (this.format === 'csv' && !this.header)
      throw new PtaxError('BAD_HEADER', `${this.name} is empty: a CSV batch needs a header line (state,county,value,…)`);
  }

  /** Writes text (a whole row or header). */
  private write(s: string): void {
    this.out.ensure(s.length * 3);
    this.out.str(s);
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
      if (this.kinds !== null) {
        // A plain row (no quote, every cell as `cell` reads it straight from the bytes): one pass.
        const next = this.plainRow(buf, p, final);
        if (next >= 0) {
          this.line++;
          this.rows++;
          this.plain++;
          this.csvRow(buf, p, undefined);
          p = next;
          continue;
        }
        if (next === -1) break; // the record goes on in the next chunk
      }
      const next = this.split(buf, p, final);
      if (next === -1) break; // the record goes on in the next chunk
      this.line += this.lines;
      this.csvRecord(buf, p);
      p = next;
    }
    return p >= n ? EMPTY : buf.subarray(p);
  }

  /**
   * The record that starts at `p` split and its cells read in one pass, when it is a plain
   * row: as many fields as the header, none quoted, every cell one that `cell` reads
   * straight from the bytes (empty; up to 13 digits for an amount, four for a year;
   * true/false; ASCII text with nothing to trim, a star column's one of its values). Sets
   * what `split` and the cell loop of `csvRecord` set (the fields' bounds, `recEnd`,
   * `vals`, the fact slots) to the same values; returns where the next record starts, -1
   * when the buffer ends inside it and more input may come, or -2 when it is not a plain
   * row (`split` and `csvRecord` read it, from the start). A blank line is not a plain row.
   */
  private plainRow(buf: Buffer, p: number, final: boolean): number {
    const kinds = this.kinds!;
    const cols = this.cols!;
    const slots = cols.slots,
      empties = cols.empties;
    const h = this.eager!;
    const fs = this.fs,
      fe = this.fe,
      fq = this.fq;
    const vals = this.vals,
      facts = this.facts;
    const n = buf.length;
    const last = kinds.length - 1;
    let i = p;
    for (let k = 0; ; k++) {
      const s = i;
      const kind = kinds[k]!;
      let x: unknown = undefined;
      if (kind === K_AMOUNT || kind === K_YEAR) {
        let v = 0;
        for (; i < n; i++) {
          const d = buf[i]! - 48;
          if (d < 0 || d > 9) break;
          v = v * 10 + d;
        }
        if (i > s) {
          if (kind === K_AMOUNT ? i - s > 13 : i - s !== 4) return -2;
          x = v;
        }
      } else {
        for (; i < n; i++) {
          const c = buf[i]!;
          if (c <= 44 && (c === 44 || c === 10 || c === 13 || c === 34)) break; // digits and letters are above the comma
        }
        if (i > s && kind !== K_PASS) {
          if (kind === K_BOOL) {
            const b = buf[s],
              len = i - s;
            if (len === 4 && b === 116 && buf[s + 1] === 114 && buf[s + 2] === 117 && buf[s + 3] === 101) x = true;
            else if (len === 5 && b === 102 && buf[s + 1] === 97 && buf[s + 2] === 108 && buf[s + 3] === 115 && buf[s + 4] === 101) x = false;
            else return -2;
          } else if (kind === K_TEXT || kind === K_STAR) {
            const a = buf[s]!,
              z = buf[i - 1]!;
            if (!(a > 32 && z > 32 && a < 128 && z < 128)) return -2;
            const t = this.intern(buf, s, i, k);
            if (kind === K_STAR && !h[k]!.values!.includes(t)) return -2;
            x = t;
          }
        }
      }
      fs[k] = s;
      fe[k] = i;
      fq[k] = 0;
      if (kind !== K_PASS && kind !== K_PLACE) {
        vals[k] = x;
        const slot = slots[k]!;
        if (slot !== -1) facts[slot] = x === undefined ? empties[k] : x;
      }
      if (i >= n) {
        if (!final) return -1;
        if (k !== last) return -2;
        this.nf = k + 1;
        this.recEnd = n;
        this.problem = undefined;
        return n;
      }
      const c = buf[i]!;
      if (c === 44) {
        if (k === last) return -2;
        i++;
        continue;
      }
      if (k !== last || (c !== 10 && c !== 13)) return -2; // a quote, a non-digit in a number, or a short row
      this.nf = k + 1;
      this.recEnd = i;
      this.problem = undefined;
      if (c === 13) {
        if (i + 1 >= n && !final) return -1;
        return i + 1 < n && buf[i + 1] === 10 ? i + 2 : i + 1;
      }
      return i + 1;
    }
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
        for (; j < n; j++) {
          const c = buf[j]!;
          if (c <= 44 && (c === 44 || c === 10 || c === 13)) break; // digits and letters are above the comma
        }
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
   * A cell read as `readCell` (engine/core/cells.ts) reads it: the commonest cells (empty, plain digits, true,
   * false, a four-digit year, text with nothing to trim) straight from the bytes, any
   * other through `readCell`.
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
          const t = this.intern(buf, s, e, k);
          if (kind === 'text' || spec.values!.includes(t)) return t;
        }
      }
    }
    return readCell(spec, this.text(buf, k));
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
    // With `fastColumns`, each cell is written into its fact slot too (the facts of a row whose place is found by its cells' bytes).
    const cols = this.cols;
    const slots = cols ? cols.slots : NO_SLOTS,
      empties = cols ? cols.empties : vals;
    const facts = this.facts;
    let err: unknown;
    for (let k = 0; k < nf; k++) {
      const spec = h[k];
      if (spec === undefined) continue;
      try {
        const x = this.cell(spec, buf, k);
        vals[k] = x;
        const slot = slots.length ? slots[k]! : -1;
        if (slot !== -1) facts[slot] = x === undefined ? empties[k] : x;
      } catch (x) {
        err = x;
        break;
      }
    }
    this.csvRow(buf, p, err);
  }

  /**
   * A row whose cells are read (into `vals` and the fact slots; `err`: the first bad
   * cell's error): its place found, its result cells or its error written.
   */
  private csvRow(buf: Buffer, p: number, err: unknown): void {
    const cols = this.cols;
    const e = this.recEnd;
    const w = this.out;
    w.ensure(e - p + ROW_ROOM);
    const at = w.pos;
    w.range(buf, p, e);
    w.byte(44);
    try {
      if (err !== undefined) throw err;
      let e = -1;
      if (cols && !this.engine.fastOff) e = this.entryOfBytes(buf);
      const keys = this.placeKeys;
      const table = keys.table;
      const at = keys.at;
      const no = e === -1 ? -1 : table[at + 5]!;
      if (no !== -1) {
        // A place: its number and its prefix's bytes, beside its key's in the table's arena.
        this.inPlace++;
        const ps = table[at + 2]! + (table[at + 3]! >> 1);
        this.engine.csvPlaced(no, this.facts, w, keys.arena, ps, ps + table[at + 6]!);
      } else {
        const place = e === -1 ? null : keys.places[e];
        if (place instanceof Error) throw place;
        this.readPlace(buf);
        this.engine.csvInto(this.rowInput!(this.vals), w);
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
   * The entry (`PlaceKeys`) of the current row by the bytes of its state, county and year
   * cells: remembered (hash, then the bytes compared), or asked of the engine with the
   * row's values (the engine's own cache, or `prepare`) and added. Its place is numbered
   * (`BatchCalculator.numberOf`), or it holds the error `prepare` gave for those cells, or
   * null when the row must go to the engine as an input (a state that chooses its program
   * by input facts). -1: the row goes to the engine as an input (a cell with "" inside).
   */
  private entryOfBytes(buf: Buffer): number {
    const { state, county, year } = this.cols!;
    const fq = this.fq;
    if (fq[state]! > 1 || fq[county]! > 1 || (year !== -1 && fq[year]! > 1)) return -1;
    const fs = this.fs,
      fe = this.fe;
    const ys = year === -1 ? 0 : fs[year]!,
      ye = year === -1 ? 0 : fe[year]!;
    const keys = this.placeKeys;
    const found = keys.find(buf, fs[state]!, fe[state]!, fs[county]!, fe[county]!, ys, ye);
    if (found !== -1) return found;
    // First row with these cells: the engine decides, from the row's cells and facts (the input object made only if `prepare` needs it).
    this.readPlace(buf);
    const vals = this.vals;
    const facts = this.facts;
    const y = year === -1 ? undefined : (vals[year] as number | undefined);
    const input = (): CalcInput => {
      // A copy of one object of the input's keys (one shape for every first row; keys added one by one made a dictionary each time).
      const names = inputFactsOf(this.bundle);
      const o: Record<string, unknown> = { ...(this.inputShape ??= Object.fromEntries(['state', 'county', 'year', ...names].map((k) => [k, undefined]))) };
      o.state = vals[state];
      o.county = vals[county];
      o.year = y;
      for (let i = 0; i < names.length; i++) if (names[i] !== 'year') o[names[i]!] = facts[i];
      return o as unknown as CalcInput;
    };
    let place: Place | PtaxError | null;
    try {
      place = this.engine.placeOfRow(vals[state], vals[county], y, facts, input) ?? null;
    } catch (x) {
      if (!isPtaxError(x)) throw x;
      place = x as PtaxError;
    }
    if (keys.full) {
      keys.clear(); // bounded memory, whatever the input; the places' numbers go with it
      this.engine.resetNumbers();
    }
    if (place === null || place instanceof Error) keys.add(buf, fs[state]!, fe[state]!, fs[county]!, fe[county]!, ys, ye, place);
    else keys.add(buf, fs[state]!, fe[state]!, fs[county]!, fe[county]!, ys, ye, place, place.prefix, this.engine.numberOf(place));
    return keys.places.length - 1;
  }
  private placeKeys = new PlaceKeys();
  /** The keys of the input object a first row makes (`entryOfBytes`), in order, each undefined. */
  private inputShape: Record<string, undefined> | undefined;

  /**
   * A short text cell of column `k` as a string, the same string for the same bytes (a few
   * remembered per column: a class or STAR column has a handful of values, and the state
   * and county cells read for first rows do not crowd them out).
   */
  private intern(buf: Buffer, s: number, e: number, k: number): string {
    const n = e - s;
    const keys = (this.internKeys[k] ??= []);
    next: for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (key.length !== n) continue;
      for (let j = 0; j < n; j++) if (key[j] !== buf[s + j]) continue next;
      return this.internTexts[k]![i]!;
    }
    const t = buf.toString('utf8', s, e);
    if (keys.length < 16) {
      keys.push(Buffer.from(buf.subarray(s, e)));
      (this.internTexts[k] ??= []).push(t);
    }
    return t;
  }
  private internKeys: Buffer[][] = [];
  private internTexts: string[][] = [];

  /** By header position, how `plainRow` reads each cell (K_…); null: every record is read by `split` and `csvRecord`. */
  private kinds: Int8Array | null = null;
  /** How the header's columns map to fact slots, or null: every row goes to the engine as an input. */
  private cols: FastColumns | null = null;
  /** The current row's input facts (INPUT_FACTS order); a column not in the header keeps its empty value. */
  private facts: unknown[];
  private readonly bundle: Bundle;
  /** The bundle's columns by normalized name. */
  private readonly specByName: Map<string, CellSpec>;

  private csvError(input: string, code: string, message: string): void {
    this.errors++;
    this.write(input + ',' + this.emptyResult + ',' + csvEscape(message) + ',' + code + '\n');
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
    const seen = checkHeaderNames(fields);
    const specs = fields.map((f) => {
      const name = f.trim();
      const spec = this.specByName.get(normalize(name));
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
    // The plain rows' one-pass reader needs the fact slots (and a field array as long as the header).
    if (cols && !this.engine.fastOff) {
      while (this.fs.length < specs.length + 1) this.growFields();
      this.kinds = Int8Array.from(specs, (x, k) =>
        k === cols.state || k === cols.county
          ? K_PLACE
          : !x
            ? K_PASS
            : x.kind === 'amount'
              ? K_AMOUNT
              : x.kind === 'year'
                ? K_YEAR
                : x.kind === 'bool'
                  ? K_BOOL
                  : x.kind === 'star'
                    ? K_STAR
                    : K_TEXT,
      );
    }
    if (this.unused.length) this.warn(`ptax: columns passed through, not used by the calculation: ${this.unused.join(', ')}`);
    this.write(raw + ',' + [...RESULT_COLUMNS.map((c) => c.name), ...ERROR_COLUMNS].join(',') + '\n');
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
        const v = readJsonValue(spec, x);
        if (spec.key === 'year') year = v as number | undefined;
        else flags[spec.key] = v;
      }
      input = inputFromFlags(flags as unknown as FlagInput, year, this.bundle);
      const result = this.engine.result(input);
      this.write(open + '"result":' + JSON.stringify(result) + '}\n');
    } catch (err) {
      this.rowFailed(err, (code, message) => this.ndjsonError(open.slice(0, -1) || '{', code, message));
    }
  }

  private ndjsonError(head: string, code: string, message: string): void {
    this.errors++;
    this.write((head.length > 1 ? head + ',' : head) + '"error":' + JSON.stringify({ code, message }) + '}\n');
  }
}

/**
 * A roll read whole (tests and tools): its output as text and the counts. The same reader
 * as `ptax calc --batch` (which pushes the file's chunks as they come); `chunks` cuts the
 * input in pieces of these sizes (cycled) to test records cut anywhere.
 */
export function readBatch(
  calc: Calculator,
  input: Buffer | string,
  o: BatchReaderOptions & { chunks?: number[] } = {},
): { out: string; rows: number; ok: number; errors: number; inPlace: number; fastOff: string | null } {
  const reader = new BatchReader(calc, o);
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  const sizes = o.chunks ?? [bytes.length || 1];
  const parts: Buffer[] = [];
  // Each chunk copied into one buffer, as ptax calc --batch reads a file (cli/batch.ts): the
  // next chunk overwrites it, so a reader that kept a chunk's bytes would read others.
  const chunk = Buffer.allocUnsafe(Math.min(Math.max(...sizes), bytes.length || 1));
  for (let p = 0, i = 0; p < bytes.length; i++) {
    const n = sizes[i % sizes.length]!;
    reader.push(chunk.subarray(0, bytes.copy(chunk, 0, p, p + n)));
    parts.push(...reader.out.take());
    p += n;
  }
  reader.end();
  parts.push(...reader.out.take());
  return {
    out: Buffer.concat(parts).toString('utf8'),
    rows: reader.rows,
    ok: reader.rows - reader.errors,
    errors: reader.errors,
    inPlace: reader.inPlace,
    fastOff: reader.fastOff,
  };
}

const EMPTY = Buffer.alloc(0);
/** How `plainRow` reads a column: passed through, the state or county cell (bytes only, read when needed), an amount, a year, a boolean, text, a star choice. */
const K_PASS = 0,
  K_PLACE = 1,
  K_AMOUNT = 2,
  K_YEAR = 3,
  K_BOOL = 4,
  K_TEXT = 5,
  K_STAR = 6;
const NO_SLOTS = new Int32Array(0);
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

/**
 * Places by the bytes of a row's state, county and year cells: an open-addressed table
 * of hashes (FNV-1a) with each entry's record in its slot, the cells' bytes (and, for a
 * place, its prefix cells and its number, `BatchCalculator.numberOf`) kept one after
 * another in one arena. A look-up reads a slot and a few adjacent bytes, not a map, a
 * list, an object and a buffer: a roll of every state's counties in random order has some
 * 20,000 keys, and each scattered object a row touches is a cache miss (the same rows
 * sorted by state took about two thirds of the CPU time). Bounded: past MAX_KEYS entries
 * it starts again (and the places' numbers with it).
 *
 * The state and county cells match whatever the case of their ASCII letters ("NY" and
 * "ny", "Kings" and "KINGS"): the engine reads a state upper-cased and a county through
 * countyKey, which lower-cases it, so such cells give one place (a roll that spells its
 * places several ways makes a third as many first rows). An entry that is not a place
 * (an error, whose message quotes the cell as written, or null) matches its own bytes only.
 */
export class PlaceKeys {
  static readonly MAX_KEYS = 1 << 16;
  /**
   * The open-addressed table, eight numbers a slot (32 bytes: a look-up reads one cache
   * line of it, where a table of hashes and a table of entries were two): the key's hash,
   * its entry number + 1 (0: an empty slot), where its bytes start in the arena, the length
   * of all three cells times 2 plus 1 when it is not a place (an error or null: it matches
   * its own bytes only), its state and county cells' lengths (`shapeOf`), its place's number
   * (`BatchCalculator.numberOf`, -1: none) and the length of its prefix (after the cells'
   * bytes in the arena); one unused. It starts small and doubles, at most three quarters
   * full (a roll of four states has a few thousand keys, one of every state's counties some
   * 20,000).
   */
  table = new Int32Array(SLOT << 11);
  /** The slot of the last key found or added (its first number). */
  at = 0;
  /** The entries' bytes: each key's three cells, then its place's prefix (the reader copies it from here, in cache after the key's comparison). */
  arena = new Uint8Array(1 << 16);
  private used = 0;
  readonly places: Array<Place | PtaxError | null> = [];

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

  /** Where a hash's probe starts in a table of this length (a slot's first number). */
  private static first(h: number, length: number): number {
    return ((Math.imul(h, 0x9e3779b1) >>> 0) & ((length >> 3) - 1)) << 3;
  }

  /** The entry of these cells (its slot in `at`), or -1. */
  find(buf: Uint8Array, ss: number, se: number, cs: number, ce: number, ys: number, ye: number): number {
    const h = PlaceKeys.hash(buf, ss, se, cs, ce, ys, ye);
    const table = this.table;
    const mask = table.length - 1;
    const arena = this.arena;
    const shape = PlaceKeys.shapeOf(ss, se, cs, ce);
    const len2 = (se - ss + ce - cs + ye - ys) << 1;
    next: for (let i = PlaceKeys.first(h, table.length); ; i = (i + SLOT) & mask) {
      const e = table[i + 1]! - 1;
      if (e === -1) return -1;
      if (table[i] !== h || (table[i + 3]! & ~1) !== len2 || table[i + 4] !== shape) continue;
      let q = table[i + 2]!;
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
      if ((table[i + 3]! & 1) === 1) {
        // Not a place: the cells as written, byte for byte.
        q = table[i + 2]!;
        for (let k = ss; k < se; k++) if (arena[q++] !== buf[k]) continue next;
        for (let k = cs; k < ce; k++) if (arena[q++] !== buf[k]) continue next;
      }
      this.at = i;
      return e;
    }
  }

  /** Whether the next `add` starts the table again. */
  get full(): boolean {
    return this.places.length >= PlaceKeys.MAX_KEYS;
  }

  /**
   * A new entry (its slot in `at`): the cells' bytes, what they stand for, and for a place
   * its prefix's bytes and its number (`BatchCalculator.numberOf`).
   */
  add(
    buf: Uint8Array,
    ss: number,
    se: number,
    cs: number,
    ce: number,
    ys: number,
    ye: number,
    place: Place | PtaxError | null,
    prefix: Uint8Array = EMPTY,
    no = -1,
  ): void {
    if (this.full) this.clear(); // bounded memory, whatever the input
    const len = se - ss + ce - cs + ye - ys;
    if (this.used + len + prefix.length > this.arena.length) {
      const a = new Uint8Array(Math.max(this.arena.length * 2, this.used + len + prefix.length));
      a.set(this.arena.subarray(0, this.used));
      this.arena = a;
    }
    if ((this.places.length + 1) * 4 > (this.table.length >> 3) * 3) this.grow();
    const e = this.places.length;
    this.places.push(place);
    // Hashed again: `add` follows a `find` that missed, a few thousand times in a run.
    const h = PlaceKeys.hash(buf, ss, se, cs, ce, ys, ye);
    const table = this.table;
    const mask = table.length - 1;
    let i = PlaceKeys.first(h, table.length);
    while (table[i + 1] !== 0) i = (i + SLOT) & mask;
    table[i] = h;
    table[i + 1] = e + 1;
    table[i + 2] = this.used;
    table[i + 3] = (len << 1) | (place === null || place instanceof Error ? 1 : 0);
    table[i + 4] = PlaceKeys.shapeOf(ss, se, cs, ce);
    table[i + 5] = no;
    table[i + 6] = prefix.length;
    this.at = i;
    const arena = this.arena;
    let q = this.used;
    for (let k = ss; k < se; k++) arena[q++] = buf[k]!;
    for (let k = cs; k < ce; k++) arena[q++] = buf[k]!;
    for (let k = ys; k < ye; k++) arena[q++] = buf[k]!;
    arena.set(prefix, q);
    this.used = q + prefix.length;
  }

  /** Twice the table, every slot put again. */
  private grow(): void {
    const old = this.table;
    const table = new Int32Array(old.length * 2);
    const mask = table.length - 1;
    for (let j = 0; j < old.length; j += SLOT) {
      if (old[j + 1] === 0) continue;
      let i = PlaceKeys.first(old[j]!, table.length);
      while (table[i + 1] !== 0) i = (i + SLOT) & mask;
      // The slot's numbers one by one: a subarray per entry cost ~1 µs each (30 ms of a 1M roll's 20,000 keys).
      for (let k = 0; k < SLOT; k++) table[i + k] = old[j + k]!;
    }
    this.table = table;
  }

  /** Every entry forgotten. */
  clear(): void {
    this.table.fill(0);
    this.places.length = 0;
    this.used = 0;
  }
}

/** Numbers per PlaceKeys slot. */
const SLOT = 8;
