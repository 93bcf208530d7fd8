/**
 * `ptax calc --batch <file.csv|file.ndjson|->`: one property per row in, one result per
 * row out, in the same format, streamed in constant memory.
 *
 * - Columns (CSV header names, NDJSON keys) are the calc flags, kebab or camel case
 *   (`senior-income`, `seniorIncome`; case, `-` and `_` are ignored). Other columns are
 *   passed through untouched (named once on stderr, so a misspelt flag is noticed).
 *   An empty cell is a flag not given (an empty `value` is the default 350,000, as in
 *   `ptax calc`).
 * - CSV out: the input row as it was, then RESULT_COLUMNS (engine/batch.ts), then
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
 * RFC 4180: quoted fields with "" and line breaks, CRLF or LF, a UTF-8 byte order mark;
 * a line without a quote is read cell by cell in place.
 */
import { createReadStream, createWriteStream, realpathSync } from 'node:fs';
import { once } from 'node:events';
import { extname, resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { inputFromFlags, type Calculator, type CalcInput, type FlagInput } from '../engine/calculate.js';
import { BatchCalculator, RESULT_COLUMNS, csvEscape } from '../engine/batch.js';
import { CsvOut } from '../engine/csv-out.js';
import { PtaxError, isPtaxError } from '../engine/errors.js';
import type { Lang } from '../engine/types.js';
import { parseAmount, parseYear } from './parse.js';

export type BatchFormat = 'csv' | 'ndjson';
export interface BatchOptions {
  /** A path, or `-` for standard input. */
  file: string;
  format?: BatchFormat;
  /** A path; default standard output. */
  out?: string;
  strict?: boolean;
  lang?: Lang;
}
export interface BatchIO {
  stdin?: Readable;
  stdout?: Writable;
  stderr?: (line: string) => void;
}
export interface BatchSummary { rows: number; ok: number; errors: number; seconds: number; exitCode: number }

type Kind = 'text' | 'amount' | 'year' | 'bool' | 'star';
interface Spec { key: string; kind: Kind; what: string }
/** The columns read, by flag name (camelCase; `year` is not a FlagInput field but the year argument). */
export const INPUT_COLUMNS: readonly Spec[] = [
  { key: 'state', kind: 'text', what: 'state' },
  { key: 'county', kind: 'text', what: 'county' },
  { key: 'value', kind: 'amount', what: 'Home value' },
  { key: 'class', kind: 'text', what: 'class' },
  { key: 'year', kind: 'year', what: 'year' },
  { key: 'homestead', kind: 'bool', what: 'homestead' },
  { key: 'over65', kind: 'bool', what: 'over65' },
  { key: 'seniorIncome', kind: 'amount', what: 'Senior income' },
  { key: 'seniorCitizen', kind: 'bool', what: 'senior-citizen' },
  { key: 'disabled', kind: 'bool', what: 'disabled' },
  { key: 'veteranDisability', kind: 'amount', what: 'Veteran disability level' },
  { key: 'coldWarVeteran', kind: 'bool', what: 'cold-war-veteran' },
  { key: 'star', kind: 'star', what: 'star' },
  { key: 'priorAssessed', kind: 'amount', what: 'Prior assessed value' },
  { key: 'purchasePrice', kind: 'amount', what: 'Purchase price' },
  { key: 'purchaseYear', kind: 'year', what: 'purchase-year' },
  { key: 'melloRoos', kind: 'amount', what: 'Mello-Roos amount' },
];
/** `senior-income`, `seniorIncome`, `SENIOR_INCOME` → `seniorincome`. */
export const normalize = (name: string): string => name.trim().toLowerCase().replace(/[-_\s]/g, '');
const SPEC_BY_NAME = new Map(INPUT_COLUMNS.map((s) => [normalize(s.key), s]));
export const ERROR_COLUMNS = ['error', 'errorCode'] as const;
const OUTPUT_NAMES = new Set([...RESULT_COLUMNS.map((c) => normalize(c.name)), ...ERROR_COLUMNS.map(normalize)]);
const NDJSON_RESERVED = ['result', 'error'];

const MAX_RECORD = 8 << 20;
/** Room for a row's result cells: a dozen numbers, names and the notes (rule texts). */
const ROW_ROOM = 1 << 16; // a record (a line, or a quoted field's lines) longer than this is a broken file

/** A cell's text as the value of its flag; empty is "not given" (undefined). */
function parseCell(spec: Spec, raw: string): unknown {
  const n = raw.length;
  if (n === 0) return undefined;
  // Fast paths for the commonest cells: plain digits (what parseAmount would accept as
  // \d+), and true/false exactly as written.
  if (spec.kind === 'amount' && n < 16) {
    let digits = true;
    for (let i = 0; i < n; i++) { const c = raw.charCodeAt(i); if (c < 48 || c > 57) { digits = false; break; } }
    if (digits) return +raw;
  } else if (spec.kind === 'bool') {
    if (raw === 'true') return true;
    if (raw === 'false') return false;
  } else if (spec.kind === 'text') {
    const a = raw.charCodeAt(0), z = raw.charCodeAt(n - 1);
    if (a > 32 && z > 32 && a !== 160 && z !== 160 && a < 0x1680 && z < 0x1680) return raw; // nothing for trim() to remove
  }
  const s = raw.trim();
  if (s === '') return undefined;
  switch (spec.kind) {
    case 'text': return s;
    case 'amount': return parseAmount(s, spec.what);
    case 'year': return parseYear(s);
    case 'star':
      if (s !== 'none' && s !== 'basic' && s !== 'enhanced') throw new PtaxError('INVALID_STAR', `star must be none, basic or enhanced (got "${raw}")`);
      return s;
    case 'bool': return parseBool(spec, s, raw);
  }
}

function parseBool(spec: Spec, s: string, raw: unknown): boolean {
  switch (s.length <= 5 ? s.toLowerCase() : '') {
    case 'true': case 'yes': case '1': return true;
    case 'false': case 'no': case '0': return false;
  }
  throw new PtaxError('INVALID_BOOLEAN', `${spec.what} must be true/false, yes/no, 1/0 or empty (got ${JSON.stringify(raw)})`);
}

/**
 * A row reader for one header: a function that builds the flags object literally (one
 * shape for every row) from the parsed cells by position and passes it to
 * `inputFromFlags`. Generated from the header's known columns only (names from
 * INPUT_COLUMNS, positions as numbers); no cell text ever becomes code.
 */
function rowReader(specs: Array<Spec | undefined>): (vals: unknown[]) => CalcInput {
  const parts: string[] = [];
  let year = 'undefined';
  specs.forEach((spec, i) => {
    if (!spec) return;
    if (spec.key === 'year') year = `v[${i}]`;
    else parts.push(`${spec.key}: v[${i}]`);
  });
  const src = `return (v) => inputFromFlags({ ${parts.join(', ')} }, ${year});`;
  return new Function('inputFromFlags', src)(inputFromFlags) as (vals: unknown[]) => CalcInput;
}

/**
 * The cell raw[s, e) parsed as `parseCell` parses it, without cutting it out for the
 * commonest cells: empty, plain digits, true, false, a four-digit year.
 */
function readCell(spec: Spec, raw: string, s: number, e: number): unknown {
  const n = e - s;
  if (n === 0) return undefined;
  const kind = spec.kind;
  if ((kind === 'amount' && n < 16) || (kind === 'year' && n === 4)) {
    let x = 0;
    let i = s;
    for (; i < e; i++) { const c = raw.charCodeAt(i); if (c < 48 || c > 57) break; x = x * 10 + (c - 48); }
    if (i === e) return x;
  } else if (kind === 'bool') {
    const c = raw.charCodeAt(s);
    if (n === 4 && c === 116 && raw.charCodeAt(s + 1) === 114 && raw.charCodeAt(s + 2) === 117 && raw.charCodeAt(s + 3) === 101) return true;
    if (n === 5 && c === 102 && raw.charCodeAt(s + 1) === 97 && raw.charCodeAt(s + 2) === 108 && raw.charCodeAt(s + 3) === 115 && raw.charCodeAt(s + 4) === 101) return false;
  }
  return parseCell(spec, raw.slice(s, e));
}

/** An NDJSON value as the value of its flag: numbers and booleans as they are, strings as CSV cells, null as not given. */
function parseJsonValue(spec: Spec, x: unknown): unknown {
  if (x === null || x === undefined) return undefined;
  if (typeof x === 'string') return parseCell(spec, x);
  if (spec.kind === 'amount' && typeof x === 'number') return x;
  if (spec.kind === 'year' && typeof x === 'number') return parseYear(String(x));
  if (spec.kind === 'bool' && typeof x === 'boolean') return x;
  if (spec.kind === 'bool' && (x === 0 || x === 1)) return x === 1;
  throw new PtaxError('INVALID_FIELD', `${spec.what} must be ${spec.kind === 'bool' ? 'true or false' : spec.kind === 'amount' || spec.kind === 'year' ? 'a number' : 'text'} (got ${JSON.stringify(x)})`);
}

const reasonOf = (e: unknown): string => {
  const code = (e as NodeJS.ErrnoException)?.code;
  return code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (e as Error)?.message ?? String(e);
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
    stream.on('error', (e) => { this.error ??= e; });
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
  errors = 0;
  private readonly engine: BatchCalculator;
  private format: BatchFormat | undefined;
  private header: Array<Spec | undefined> | null = null;
  private headerLen = 0;
  private readonly emptyResult = ','.repeat(RESULT_COLUMNS.length - 1);
  private line = 0; // physical lines read, for messages
  private unused: string[] = [];
  private ndjsonUnused = new Set<string>();

  constructor(calc: Calculator, private readonly out: Output, private readonly warn: (s: string) => void, format: BatchFormat | undefined, lang: Lang) {
    this.engine = new BatchCalculator(calc, { lang });
    this.format = format;
  }

  get fastOff(): string | null { return this.engine.fastOff; }

  /** Reads every chunk; flushes (and waits for the output to drain) after each. */
  async run(chunks: AsyncIterable<string>, name: string): Promise<void> {
    let pending = '';
    let sniffed = this.format !== undefined;
    try {
      let first = true;
      for await (const chunk of chunks) {
        pending = pending ? pending + chunk : first && chunk.charCodeAt(0) === 0xfeff ? chunk.slice(1) : chunk;
        first = false;
        if (!sniffed) {
          const m = /\S/.exec(pending);
          if (!m) continue;
          this.format = pending[m.index] === '{' ? 'ndjson' : 'csv';
          sniffed = true;
        }
        pending = this.feed(pending, false);
        if (pending.length > MAX_RECORD) throw new PtaxError('RECORD_TOO_LONG', `${name}: line ${this.line + 1}: a record longer than ${MAX_RECORD >> 20} MiB (an unclosed quote?)`);
        await this.out.flush();
      }
    } catch (e) {
      if (isPtaxError(e) || e === this.out.error) throw e;
      throw new PtaxError('UNREADABLE', `Cannot read ${name}: ${reasonOf(e)}`);
    }
    if (!sniffed) this.format = 'csv';
    this.feed(pending, true);
    if (this.format === 'csv' && !this.header) throw new PtaxError('BAD_HEADER', `${name} is empty: a CSV batch needs a header line (state,county,value,…)`);
    await this.out.flush();
  }

  /** Handles every complete record of `buf`; returns what is left (an incomplete record). */
  private feed(buf: string, final: boolean): string {
    return this.format === 'csv' ? this.feedCsv(buf, final) : this.feedNdjson(buf, final);
  }

  private feedNdjson(buf: string, final: boolean): string {
    let p = 0;
    const n = buf.length;
    while (p < n) {
      let nl = buf.indexOf('\n', p);
      if (nl === -1) { if (!final) break; nl = n; }
      this.line++;
      const text = buf.slice(p, nl).trim();
      p = nl + 1;
      if (text) this.ndjsonRow(text);
    }
    return p >= n ? '' : buf.slice(p);
  }

  private feedCsv(buf: string, final: boolean): string {
    let p = 0;
    const n = buf.length;
    let quote = -2; // position of the next '"' at or after p (-1: none); -2: not looked for yet
    while (p < n) {
      let nl = buf.indexOf('\n', p);
      if (nl === -1) { if (!final) break; nl = n; }
      if (quote !== -1 && quote < p) quote = buf.indexOf('"', p);
      if (quote === -1 || quote > nl) {
        // A line without quotes: the record is the line.
        this.line++;
        const end = nl > p && buf.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
        const raw = buf.slice(p, end);
        p = nl + 1;
        if (raw.length) this.csvRecord(raw, null);
      } else {
        const r = parseQuoted(buf, p, final);
        if (!r) break; // the record goes on in the next chunk
        this.line += r.lines;
        const raw = buf.slice(p, r.end);
        p = r.next;
        this.csvRecord(raw, r.fields, r.problem);
      }
    }
    return p >= n ? '' : buf.slice(p);
  }

  private csvRecord(raw: string, quoted: string[] | null, problem?: string): void {
    if (!this.header) {
      this.readHeader(quoted && !problem ? quoted : raw.split(','), raw, problem);
      return;
    }
    this.rows++;
    const w = this.out.w;
    if (!quoted && !problem) {
      // The common case: a line without quotes, read in place (no array of fields).
      const vals = this.vals;
      let err: unknown;
      const h = this.header!;
      const n = raw.length;
      let col = 0;
      let start = 0;
      for (let j = 0; j <= n; j++) {
        if (j < n && raw.charCodeAt(j) !== 44) continue;
        // A cell ends at j (a comma or the end of the line).
        if (col < h.length) {
          const spec = h[col];
          if (spec && err === undefined) {
            try { vals[col] = readCell(spec, raw, start, j); } catch (x) { err = x; }
          }
        }
        col++;
        start = j + 1;
      }
      const ok = col === h.length; // else: too few or too many fields (the general path says so)
      if (ok) {
        w.ensure(raw.length * 3 + ROW_ROOM);
        const start = w.pos;
        w.str(raw);
        w.byte(44);
        try {
          if (err !== undefined) throw err;
          this.engine.csvInto(this.rowInput!(vals), w);
        } catch (x) {
          w.pos = start;
          return this.rowFailed(x, (code, message) => this.csvError(raw, code, message));
        }
        w.byte(44); w.byte(44); w.byte(10);
        return;
      }
    }
    const fields = quoted ?? raw.split(',');
    let input = raw;
    if (fields.length !== this.headerLen) {
      // Keep the output rectangular: pad or cut the row to the header's width.
      const f = fields.slice(0, this.headerLen);
      while (f.length < this.headerLen) f.push('');
      input = f.map(csvEscape).join(',');
      problem ??= `line ${this.line}: ${fields.length} fields, the header has ${this.headerLen}`;
    }
    if (problem) return this.csvError(input, 'INVALID_ROW', problem);
    w.ensure(input.length * 3 + ROW_ROOM);
    const start = w.pos;
    w.str(input);
    w.byte(44);
    try {
      this.engine.csvInto(this.csvInput(fields), w);
    } catch (err) {
      w.pos = start;
      return this.rowFailed(err, (code, message) => this.csvError(input, code, message));
    }
    w.byte(44); w.byte(44); w.byte(10);
  }

  private csvError(input: string, code: string, message: string): void {
    this.errors++;
    this.out.text(input + ',' + this.emptyResult + ',' + csvEscape(message) + ',' + code + '\n');
  }

  private rowFailed(err: unknown, write: (code: string, message: string) => void): void {
    if (isPtaxError(err)) write(err.code, err.message);
    else write('INTERNAL', `internal error: ${(err as Error)?.message ?? String(err)}`);
  }

  /** The cells of a record with quotes, parsed by position. */
  private csvInput(fields: string[]): CalcInput {
    const h = this.header!;
    const vals = this.vals;
    for (let i = 0; i < h.length; i++) { const spec = h[i]; if (spec) vals[i] = parseCell(spec, fields[i]!); }
    return this.rowInput!(vals);
  }
  /** The parsed cells of the current row, by position (reused from row to row). */
  private vals: unknown[] = [];
  /** The header's row reader: parsed cells → CalcInput (generated once per header, see `rowReader`). */
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
      const spec = SPEC_BY_NAME.get(k);
      if (!spec) this.unused.push(name);
      return spec;
    });
    for (const need of ['state', 'county']) {
      if (!seen.has(need)) throw new PtaxError('BAD_HEADER', `header: no "${need}" column (the header is: ${raw.length > 200 ? raw.slice(0, 200) + '…' : raw})`);
    }
    this.header = specs;
    this.headerLen = fields.length;
    this.rowInput = rowReader(specs);
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
        const spec = SPEC_BY_NAME.get(k);
        if (!spec) { if (this.ndjsonUnused.size < 20 && !this.ndjsonUnused.has(key)) { this.ndjsonUnused.add(key); this.warn(`ptax: key passed through, not used by the calculation: ${key}`); } continue; }
        if (seen.has(k)) throw new PtaxError('INVALID_ROW', `"${key}" and "${seen.get(k)}" are the same field`);
        seen.set(k, key);
        const v = parseJsonValue(spec, x);
        if (spec.key === 'year') year = v as number | undefined;
        else flags[spec.key] = v;
      }
      input = inputFromFlags(flags as unknown as FlagInput, year);
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

/**
 * One CSV record that has a quote, from `start`: its fields, where its text ends (before
 * the line break), where the next record starts, and how many lines it took. Null when
 * the buffer ends inside it and more input may come.
 */
export function parseQuoted(buf: string, start: number, final: boolean):
  { fields: string[]; end: number; next: number; lines: number; problem?: string } | null {
  const fields: string[] = [];
  const n = buf.length;
  let i = start;
  let lines = 1;
  let problem: string | undefined;
  for (;;) {
    // One field from i.
    if (i < n && buf.charCodeAt(i) === 34) {
      let s = '';
      let from = i + 1;
      for (;;) {
        const q = buf.indexOf('"', from);
        if (q === -1) {
          if (!final) return null;
          problem ??= 'a quoted field is not closed';
          s += buf.slice(from);
          i = n;
          break;
        }
        if (q + 1 < n && buf.charCodeAt(q + 1) === 34) { s += buf.slice(from, q + 1); from = q + 2; continue; }
        if (q + 1 >= n && !final) return null; // a "" may straddle the chunk boundary
        s += buf.slice(from, q);
        i = q + 1;
        break;
      }
      for (let k = s.indexOf('\n'); k !== -1; k = s.indexOf('\n', k + 1)) lines++;
      // After the closing quote: a comma, a line break or the end; anything else is kept, as an error.
      let j = i;
      while (j < n) { const c = buf.charCodeAt(j); if (c === 44 || c === 10 || c === 13) break; j++; }
      if (j > i) { problem ??= `text after the closing quote of field ${fields.length + 1}`; s += buf.slice(i, j); i = j; }
      fields.push(s);
    } else {
      let j = i;
      while (j < n) { const c = buf.charCodeAt(j); if (c === 44 || c === 10 || c === 13) break; j++; }
      fields.push(buf.slice(i, j));
      i = j;
    }
    if (i >= n) {
      if (!final) return null;
      return { fields, end: n, next: n, lines, problem };
    }
    const c = buf.charCodeAt(i);
    if (c === 44) { i++; continue; }
    // A line break ends the record (CRLF or LF; a lone CR is taken as a break too).
    if (c === 13) {
      if (i + 1 >= n && !final) return null;
      const next = i + 1 < n && buf.charCodeAt(i + 1) === 10 ? i + 2 : i + 1;
      return { fields, end: i, next, lines, problem };
    }
    return { fields, end: i, next: i + 1, lines, problem };
  }
}

async function* textOf(stream: Readable): AsyncIterable<string> {
  stream.setEncoding('utf8');
  for await (const chunk of stream) yield chunk as string;
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
    try { same = realpathSync(o.out) === realpathSync(o.file); } catch { /* the output does not exist yet */ }
    if (same) throw new PtaxError('USAGE', `--out ${o.out} is the input file; choose another output`);
  }
  // The input is opened first, so a missing file leaves no empty output behind.
  const source = fromStdin ? (io.stdin ?? process.stdin) : createReadStream(o.file, { highWaterMark: 1 << 18 });
  if (!fromStdin) {
    try { await once(source, 'open'); } catch (e) { throw new PtaxError('UNREADABLE', `Cannot read ${name}: ${reasonOf(e)}`); }
  }
  let stream: Writable;
  let closeOut: (() => Promise<void>) | undefined;
  if (o.out) {
    const ws = createWriteStream(o.out);
    try { await once(ws, 'open'); } catch (e) { throw new PtaxError('UNWRITABLE', `Cannot write ${o.out}: ${reasonOf(e)}`); }
    stream = ws;
    closeOut = async () => { ws.end(); await once(ws, 'finish'); };
  } else stream = io.stdout ?? process.stdout;
  const out = new Output(stream);
  const run = new BatchRun(calc, out, warn, o.format ?? (fromStdin ? undefined : detectFormat(o.file)), o.lang ?? 'en');
  // Row errors are values here, never printed with a stack: building stacks for them
  // would cost more than calculating the row (this process runs only the batch).
  Error.stackTraceLimit = 0;
  const t0 = process.hrtime.bigint();
  try {
    await run.run(textOf(source), name);
    if (closeOut) await closeOut();
  } catch (e) {
    // A reader that stopped early (`| head`): stop too, quietly, as other tools do.
    if ((out.error as NodeJS.ErrnoException | undefined)?.code === 'EPIPE') return { rows: run.rows, ok: run.rows - run.errors, errors: run.errors, seconds: 0, exitCode: 0 };
    if (out.error) throw new PtaxError('UNWRITABLE', `Cannot write ${o.out ?? 'the output'}: ${reasonOf(out.error)}`);
    throw e;
  } finally {
    if (!fromStdin) (source as Readable).destroy();
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const ok = run.rows - run.errors;
  const rate = seconds > 0 ? Math.round(run.rows / seconds) : run.rows;
  warn(`ptax batch: ${run.rows} rows, ${ok} ok, ${run.errors} errors, ${seconds.toFixed(3)} s, ${rate} rows/s${run.fastOff ? ` (fast path off: ${run.fastOff})` : ''}`);
  const exitCode = o.strict && run.errors ? 1 : 0;
  return { rows: run.rows, ok, errors: run.errors, seconds, exitCode };
}

/** The calc options that belong to batch mode; every other calc option is a column instead. */
const BATCH_OPTIONS = ['batch', 'batchFormat', 'out', 'strict', 'lang'];
const flagName = (k: string): string => '--' + k.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());

/**
 * `ptax calc --batch …` as called from cli/main.ts with commander's options: checks the
 * combination, runs, sets the exit code (1 with --strict and a bad row).
 */
export async function calcBatch(o: Record<string, unknown>, calc: () => Promise<Calculator>): Promise<void> {
  if (o.batch === undefined) {
    const given = ['batchFormat', 'out', 'strict'].find((k) => o[k] !== undefined);
    throw new PtaxError('USAGE', `${flagName(given ?? 'batch')} needs --batch <file>`);
  }
  const extra = Object.keys(o).filter((k) => o[k] !== undefined && !BATCH_OPTIONS.includes(k));
  if (extra.length) {
    const f = flagName(extra[0]!);
    throw new PtaxError('USAGE', ['--json', '--explain'].includes(f)
      ? `${f} does not apply to --batch (the output has the format of the input)`
      : `${f} cannot be used with --batch: give it as a column of the batch file`);
  }
  const summary = await runBatch(await calc(), {
    file: String(o.batch), format: o.batchFormat as BatchFormat | undefined, out: o.out as string | undefined,
    strict: !!o.strict, lang: (o.lang as Lang | undefined) ?? 'en',
  });
  process.exitCode = summary.exitCode;
}
