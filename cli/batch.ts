/**
 * `ptax calc --batch <file.csv|file.ndjson|->`: one property per row in, one result per
 * row out, in the same format, streamed in constant memory. This file is the I/O only:
 * it opens the input (a file or standard input) and the output (a file or standard
 * output), gives the reader the input's chunks as they come and writes its bytes with
 * backpressure, prints the summary and sets the exit code; `--engine duckdb|postgres`
 * hands the file to the SQL runner (engine/sql/run.ts).
 *
 * The reading is the engine's (engine/batch/reader.ts): CSV and NDJSON records, header
 * mapping, the cells (engine/core/cells.ts, the one reading of money, booleans, years and
 * choices that the CLI flags and share links use too), the place cache and slot probing.
 *
 * - A bad row gets its error and the run goes on; output rows = input rows. A summary
 *   goes to stderr. --strict: exit 1 if any row was bad.
 * - A file that cannot be read, a bad header, or a record that never ends: one line on
 *   stderr, exit 2 (thrown as a PtaxError; cli/main.ts prints it).
 */
import { closeSync, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { once } from 'node:events';
import { extname } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { BatchReader, syncOutput, type BatchFormat, type Calculator } from '../engine/node.js';
import { loadSqlRunner } from '../engine/node.js';
import { PtaxError, isPtaxError } from '../engine/node.js';
import { type Lang } from '../engine/node.js';
import { readerStopped } from './stdout.js';

export type { BatchFormat };
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
 * The output and its first error (kept: a write that failed is reported once, as the
 * output's error, not as the input's). A file (`--out`, or standard output sent to a file
 * or /dev/null) is written by descriptor, synchronously, so the reader's output buffers
 * are written again for the next rows (`CsvOut.reuse`); a pipe, a terminal or a stream
 * given by the caller is written as a stream, with backpressure. Standard output as a
 * stream (a pipe, a terminal: a socket underneath) has handed every byte to the system once
 * nothing is left in it (`writableLength` 0, after 'drain'): its buffers are then written
 * again too. A caller's stream may keep the buffers it was given (a PassThrough hands them
 * on), so they are not.
 */
class Output {
  error: unknown;
  constructor(
    readonly stream: Writable | undefined,
    readonly fd?: number,
    /** Whether the stream keeps nothing it has written (process.stdout). */
    readonly keepsNothing = false,
  ) {
    stream?.on('error', (e) => {
      this.error ??= e;
    });
  }
  /** Writes what the reader printed, waiting for 'drain' when the stream asks for it. */
  async flush(reader: BatchReader): Promise<void> {
    if (this.error) throw this.error;
    if (this.fd === undefined) {
      const stream = this.stream!;
      for (const b of reader.out.take()) if (!stream.write(b)) await once(stream, 'drain');
      if (this.keepsNothing && stream.writableLength === 0) reader.out.reuse();
      return;
    }
    try {
      reader.out.writeTo(this.fd);
    } catch (e) {
      throw (this.error = e);
    }
  }
}

/** Reads every chunk into the reader and writes its output after each, before the next chunk is read. */
async function pump(reader: BatchReader, chunks: AsyncIterable<Buffer | string> | Iterable<Buffer>, out: Output, name: string): Promise<void> {
  try {
    for await (const chunk of chunks) {
      reader.push(chunk);
      await out.flush(reader);
    }
  } catch (e) {
    if (isPtaxError(e) || e === out.error) throw e;
    throw new PtaxError('UNREADABLE', `Cannot read ${name}: ${reasonOf(e)}`);
  }
  reader.end();
  await out.flush(reader);
}

async function* chunksOf(stream: Readable): AsyncIterable<Buffer | string> {
  for await (const chunk of stream) yield chunk as Buffer | string;
}

/**
 * A file's bytes, read synchronously in 256 KiB chunks into one buffer: the reader keeps
 * no chunk (`BatchReader.push`), and the next is read once the rows of this one are written.
 */
function* fileChunks(fd: number): Iterable<Buffer> {
  const b = Buffer.allocUnsafe(1 << 18);
  for (let n = readSync(fd, b, 0, b.length, null); n > 0; n = readSync(fd, b, 0, b.length, null)) yield b.subarray(0, n);
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
  let input: number | undefined;
  if (!fromStdin) {
    try {
      input = openSync(o.file, 'r');
      // A directory opens; its first read would fail, after the output is made.
      if (fstatSync(input).isDirectory()) throw Object.assign(new Error('EISDIR'), { code: 'EISDIR' });
    } catch (e) {
      if (input !== undefined) closeSync(input);
      throw new PtaxError('UNREADABLE', `Cannot read ${name}: ${reasonOf(e)}`);
    }
  }
  let out: Output;
  let closeOut: ((quiet?: boolean) => void) | undefined;
  if (o.out) {
    let fd: number;
    try {
      fd = openSync(o.out, 'w');
    } catch (e) {
      throw new PtaxError('UNWRITABLE', `Cannot write ${o.out}: ${reasonOf(e)}`);
    }
    out = new Output(undefined, fd);
    let open = true;
    closeOut = (quiet) => {
      if (!open) return;
      open = false;
      try {
        closeSync(fd);
      } catch (e) {
        if (!quiet) throw (out.error = e);
      }
    };
  } else {
    const fd = io.stdout ? undefined : syncOutput();
    out = fd !== undefined ? new Output(undefined, fd) : io.stdout ? new Output(io.stdout) : new Output(process.stdout, undefined, true);
  }
  const run = new BatchReader(calc, {
    format: o.format ?? (fromStdin ? undefined : detectFormat(o.file)),
    lang: o.lang ?? 'en',
    fast: o.fast ?? true,
    warn,
    name,
  });
  // Row errors are values here, never printed with a stack: building stacks for them
  // would cost more than calculating the row (this process runs only the batch).
  Error.stackTraceLimit = 0;
  const t0 = process.hrtime.bigint();
  try {
    await pump(run, input === undefined ? chunksOf(io.stdin ?? process.stdin) : fileChunks(input), out, name);
    closeOut?.();
  } catch (e) {
    // A reader that stopped early (`| head`): stop too, quietly, as other tools do.
    if (readerStopped(out.error as NodeJS.ErrnoException | undefined))
      return { rows: run.rows, ok: run.rows - run.errors, errors: run.errors, seconds: 0, exitCode: 0, inPlace: run.inPlace };
    if (out.error) throw new PtaxError('UNWRITABLE', `Cannot write ${o.out ?? 'the output'}: ${reasonOf(out.error)}`);
    throw e;
  } finally {
    if (input !== undefined) closeSync(input);
    closeOut?.(true);
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
