/**
 * `ptax calc --batch <file> --engine duckdb|postgres`: the rules as one SQL query
 * (engine/sql/generate.ts) run where the roll is.
 * - DuckDB (@duckdb/node-api), in process, on all cores, reading CSV or Parquet, writing
 *   CSV or Parquet (by --out's extension; standard output: CSV). Memory is bounded
 *   (PTAX_DUCKDB_MEMORY, default 2GB; spilling to a temporary folder allowed).
 * - PostgreSQL (pg), with --db <connection string>: reads an existing table (--table), or
 *   loads the CSV file first into a temporary table (COPY), and writes the result as CSV.
 * Input columns are matched to the batch columns as the streaming path matches them
 * (case, - and _ ignored); missing ones are NULL; others are passed through.
 */
import { createWriteStream, existsSync } from 'node:fs';
import { extname } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PtaxError } from '../core/errors.js';
import type { Bundle } from '../core/types.js';
import { BATCH_INPUT_COLUMNS as BATCH_DEFAULT, SQL_INPUTS, generateSql, sqlDeclarationsOf, jsNumberText, q, str as lit, type Dialect } from './generate.js';
import { csvEscape } from '../batch/csv-out.js';
import { checkHeaderNames } from '../batch/header.js';
// Header names match batch columns as the streaming reader matches them (case, `-`, `_` and spaces ignored).
import { normalize } from '../core/cells.js';

export interface SqlBatchOptions {
  engine: Dialect;
  file?: string;
  out?: string;
  db?: string;
  table?: string;
  /** DuckDB threads (default: all cores). */
  threads?: number;
  memoryLimit?: string;
  progress?: (line: string) => void;
}
export interface SqlBatchSummary {
  rows: number;
  errors: number;
  seconds: number;
}

/** The SQL type of each batch column of a bundle's declarations. */
const typesOf = (sqlInputs: typeof SQL_INPUTS): Record<string, string> =>
  Object.fromEntries([
    ['state', 'TEXT'],
    ['county', 'TEXT'],
    ...sqlInputs.flatMap((x) => (x.column ? [[x.column, x.ty === 'num' ? 'FLOAT8' : x.ty === 'bool' ? 'BOOLEAN' : 'TEXT']] : [])),
  ]);

/**
 * A SELECT list giving the batch columns from a table's own columns, in the table's order:
 * renamed when spelt otherwise, NULL when missing (at the end), the others passed through.
 * A batch column written as text is passed as written: the query reads it as the streaming
 * path does (generate.ts, SqlOptions.text) and echoes it as written. `columns` and `headers`:
 * the output's input columns (the view's names, the table's names), in the table's order.
 */
export function inputView(
  columns: Array<{ name: string; text: boolean }>,
  bundle?: Bundle,
): { select: string; columns: string[]; headers: string[]; text: string[] } {
  const { SQL_INPUTS: sqlInputs, BATCH_INPUT_COLUMNS } = bundle ? sqlDeclarationsOf(bundle) : { SQL_INPUTS, BATCH_INPUT_COLUMNS: BATCH_DEFAULT };
  const TYPE = typesOf(sqlInputs);
  const batchOf = new Map(BATCH_INPUT_COLUMNS.map((b) => [normalize(b), b]));
  const seen = new Set<string>();
  const parts: string[] = [];
  const names: string[] = [];
  const headers: string[] = [];
  const text: string[] = [];
  for (const c of columns) {
    const b = batchOf.get(normalize(c.name));
    if (b !== undefined && !seen.has(b)) {
      seen.add(b);
      parts.push(c.name === b ? q(b) : `${q(c.name)} AS ${q(b)}`);
      names.push(b);
      if (c.text) text.push(b);
    } else {
      parts.push(q(c.name));
      names.push(c.name);
    }
    headers.push(c.name);
  }
  for (const b of BATCH_INPUT_COLUMNS) if (!seen.has(b)) parts.push(`CAST(NULL AS ${TYPE[b]}) AS ${q(b)}`);
  return { select: parts.join(', '), columns: names, headers, text };
}

/**
 * A text cell of the CSV output: quoted when it holds a comma, a quote or a line break, as
 * csvEscape quotes; an input cell (`echo`) that was written "" (empty, not NULL) as it was.
 */
const csvCell = (x: string, echo: boolean): string =>
  `(CASE ${echo ? `WHEN ${x} = '' THEN '""' ` : ''}WHEN REGEXP_MATCHES(${x}, '[",\\r\\n]') THEN '"' || REPLACE(${x}, '"', '""') || '"' ELSE ${x} END)`;

export async function runSqlBatch(bundle: Bundle, o: SqlBatchOptions): Promise<SqlBatchSummary> {
  return o.engine === 'postgres' ? runPostgres(bundle, o) : runDuckdb(bundle, o);
}

async function runDuckdb(bundle: Bundle, o: SqlBatchOptions): Promise<SqlBatchSummary> {
  if (!o.file || o.file === '-') throw new PtaxError('USAGE', '--engine duckdb reads a file (CSV or Parquet), not standard input');
  if (!existsSync(o.file)) throw new PtaxError('UNREADABLE', `Cannot read ${o.file}: no such file`);
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const t0 = process.hrtime.bigint();
  const spill = mkdtempSync(join(tmpdir(), 'ptax-duckdb-'));
  const db = await DuckDBInstance.create(':memory:', {
    memory_limit: o.memoryLimit ?? process.env.PTAX_DUCKDB_MEMORY ?? '2GB',
    temp_directory: spill,
    // Rows need not come out in the roll's order (each keeps its own columns): DuckDB then
    // writes in parallel without holding rows back.
    preserve_insertion_order: 'false',
    ...(o.threads ? { threads: String(o.threads) } : {}),
  });
  const c = await db.connect();
  // The query joins the roll to its few thousand distinct (state, county, year) keys. DuckDB
  // cannot know there are few (it estimates as many keys as rows) and would build the join's
  // hash table on the roll: memory in proportion to the roll, spilling beyond the limit. With
  // this optimizer off the hash table is built on the keys, the side the query puts on the right.
  await c.run(`SET disabled_optimizers = 'build_side_probe_side'`);
  try {
    const ext = extname(o.file).toLowerCase();
    // A CSV file's cells are text as written (the query reads them as the streaming path does).
    // Its columns are the header line's, read here and checked as the streaming path checks
    // them, and given to DuckDB with its sniffer off: the sniffer guessed the header from the
    // file's rows, and a last row with more cells than the header made it take that row's
    // shape and read nothing (0 rows, exit 0). A row with more or fewer cells than the header
    // is refused with its line number (csvReadError), wherever it is in the file.
    const reader =
      ext === '.parquet'
        ? `read_parquet(${lit(o.file)})`
        : ext === '.csv'
          ? `read_csv(${lit(o.file)}, header = true, auto_detect = false, strict_mode = true, null_padding = false, columns = {${(await csvHeader(o.file))
              .map((h) => `${lit(h)}: 'VARCHAR'`)
              .join(', ')}}, delim = ',', quote = '"', escape = '"')`
          : undefined;
    if (!reader) throw new PtaxError('USAGE', `--engine duckdb reads .csv or .parquet files (got ${o.file})`);
    let columns: Array<{ name: string; text: boolean }>;
    try {
      columns = (await c.runAndReadAll(`DESCRIBE SELECT * FROM ${reader}`))
        .getRowObjects()
        .map((r) => ({ name: String(r.column_name), text: String(r.column_type) === 'VARCHAR' }));
    } catch (e) {
      throw new PtaxError('UNREADABLE', `Cannot read ${o.file}: ${(e as Error).message.split('\n')[0]}`);
    }
    const view = inputView(columns, bundle);
    const outExt = o.out ? extname(o.out).toLowerCase() : '.csv';
    // CSV out: the rows in the roll's order, as the streaming path writes them. DuckDB's hash
    // join does not keep the order of a large roll (a million rows: 17 came out last, even on
    // one thread), so each row is numbered as read and the result sorted by that number.
    // Parquet out: any order, nothing held back.
    const csvOut = outExt !== '.parquet';
    await c.run(`CREATE VIEW ptax_input AS SELECT ${view.select}${csvOut ? ', ROW_NUMBER() OVER () AS ptax_row' : ''} FROM ${reader}`);
    let sql = generateSql(bundle, {
      dialect: 'duckdb',
      columns: view.columns,
      headers: view.headers,
      text: view.text,
      ...(csvOut ? { orderBy: 'ptax_row' } : {}),
      mix: await mixOf(c, reader, view, ext === '.csv').catch((e: unknown) => {
        throw csvReadError(o.file!, e);
      }),
    });
    const target = o.out ?? '/dev/stdout';
    // CSV: the cells quoted here, as the streaming path quotes them (DuckDB's writer, told
    // not to, also quotes every cell with a #).
    const format = csvOut ? "FORMAT csv, HEADER true, QUOTE '', ESCAPE ''" : 'FORMAT parquet';
    if (csvOut) {
      // CSV: numbers printed as the streaming path prints them (400000, not DuckDB's
      // 400000.0), text quoted when it must be, the rows in the roll's order (ptax_row).
      const types = (await c.runAndReadAll(`DESCRIBE ${sql}`)).getRowObjects();
      const cells = types
        .filter((t) => String(t.column_name) !== 'ptax_row')
        .map((t, i) => {
          const name = String(t.column_name);
          const x = `r.${q(name)}`;
          const type = String(t.column_type);
          const text = ['DOUBLE', 'FLOAT'].includes(type) ? jsNumberText(x) : type === 'VARCHAR' ? csvCell(x, i < view.headers.length) : x;
          return `${text} AS ${q(csvEscape(name))}`;
        });
      sql = `SELECT ${cells.join(', ')} FROM (${sql}) AS r ORDER BY r.ptax_row`;
      await c.run('SET preserve_insertion_order = true');
    }
    // Streamed to the output (a result table of a large roll would not fit in memory: the
    // notes alone are gigabytes); the summary is counted from the output file afterwards.
    await c.run(`COPY (${sql}) TO ${lit(target)} (${format})`).catch((e: unknown) => {
      throw csvReadError(o.file!, e);
    });
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const written = !o.out ? undefined : outExt === '.parquet' ? `read_parquet(${lit(target)})` : `read_csv(${lit(target)}, header = true, all_varchar = true)`;
    const counts = written
      ? (await c.runAndReadAll(`SELECT COUNT(*) AS n, COUNT("errorCode") AS e FROM ${written}`)).getRowObjects()[0]!
      : { n: (await c.runAndReadAll('SELECT COUNT(*) AS n FROM ptax_input')).getRowObjects()[0]!.n, e: NaN };
    return { rows: Number(counts.n), errors: Number(counts.e), seconds };
  } finally {
    c.closeSync();
    db.closeSync();
    rmSync(spill, { recursive: true, force: true });
  }
}

/**
 * The roll's rows by state cell (generate.ts SqlOptions.mix: whether the other programs' rows
 * are gathered): every row of a Parquet file (its state column alone: 0.03 s of CPU for a
 * million rows, 0.17 s for ten million), the first 100,000 of a CSV file (all of a large
 * one would be read twice: ~0.8 s for a million rows). A roll without a state column: none.
 */
export async function mixOf(
  c: import('@duckdb/node-api').DuckDBConnection,
  reader: string,
  view: ReturnType<typeof inputView>,
  csv: boolean,
): Promise<Array<{ state: string | null; rows: number }>> {
  const i = view.columns.indexOf('state');
  if (i < 0) return [];
  const rows = await c.runAndReadAll(
    `SELECT CAST(s AS TEXT) AS s, COUNT(*) AS n FROM (SELECT ${q(view.headers[i]!)} AS s FROM ${reader}${csv ? ' LIMIT 100000' : ''}) AS d GROUP BY s`,
  );
  return rows.getRowObjects().map((r) => ({ state: r.s === null ? null : String(r.s), rows: Number(r.n) }));
}

async function runPostgres(bundle: Bundle, o: SqlBatchOptions): Promise<SqlBatchSummary> {
  if (!o.db) throw new PtaxError('USAGE', '--engine postgres needs --db <connection string>');
  const pg = (await import('pg')).default;
  const t0 = process.hrtime.bigint();
  const client = new pg.Client({ connectionString: o.db });
  try {
    await client.connect();
  } catch (e) {
    throw new PtaxError('UNREADABLE', `Cannot connect to ${o.db.replace(/:[^:@/]*@/, ':***@')}: ${(e as Error).message}`);
  }
  try {
    let table = o.table;
    if (!table) {
      if (!o.file || extname(o.file).toLowerCase() !== '.csv')
        throw new PtaxError('USAGE', '--engine postgres reads --table <name>, or loads a .csv file given with --batch');
      table = await loadCsv(client, o.file);
    }
    const cols = (
      await client.query('SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position', [
        table.replace(/^.*\./, ''),
      ])
    ).rows.map((r: { column_name: string; data_type: string }) => ({
      name: r.column_name,
      text: r.data_type === 'text' || r.data_type === 'character varying',
    }));
    if (!cols.length) throw new PtaxError('UNREADABLE', `no table ${table}`);
    const view = inputView(cols, bundle);
    await client.query(`CREATE TEMP VIEW ptax_input AS SELECT ${view.select} FROM ${table.split('.').map(q).join('.')}`);
    const sql = generateSql(bundle, { dialect: 'postgres', columns: view.columns, headers: view.headers, text: view.text });
    const res = await client.query(sql);
    const names = res.fields.map((f) => f.name);
    const out = o.out ? createWriteStream(o.out) : process.stdout;
    const cell = (x: unknown) => {
      if (x === null || x === undefined) return '';
      const s = String(x);
      return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
    };
    out.write(names.map(cell).join(',') + '\n');
    let errors = 0;
    for (const r of res.rows as Array<Record<string, unknown>>) {
      if (r.errorCode !== null) errors++;
      out.write(names.map((n) => cell(r[n])).join(',') + '\n');
    }
    if (o.out) await new Promise<void>((done) => (out as ReturnType<typeof createWriteStream>).end(done));
    return { rows: res.rows.length, errors, seconds: Number(process.hrtime.bigint() - t0) / 1e9 };
  } finally {
    await client.end();
  }
}

/**
 * A CSV file into a temporary table, every column as text (cast by the query), with COPY
 * FROM STDIN: the file is streamed to the server as it is read (pg-copy-streams), never
 * held in memory. The header names the columns; empty cells, quoted or not, are NULL (as the
 * streaming path reads them); blank lines are skipped. COPY FROM a file would need the file
 * on the server.
 */
async function loadCsv(client: import('pg').Client, file: string): Promise<string> {
  const { createReadStream } = await import('node:fs');
  const { pipeline } = await import('node:stream/promises');
  const { from: copyFrom } = await import('pg-copy-streams');
  const header = (await csvHeader(file)).map((h) => h.trim());
  const cols = header.map(q).join(', ');
  await client.query(`CREATE TEMP TABLE ptax_loaded (${header.map((h) => `${q(h)} TEXT`).join(', ')})`);
  try {
    await pipeline(
      createReadStream(file),
      skipBlankLines(),
      client.query(copyFrom(`COPY ptax_loaded (${cols}) FROM STDIN WITH (FORMAT csv, HEADER true, FORCE_NULL (${cols}))`)),
    );
  } catch (e) {
    throw new PtaxError('UNREADABLE', `Cannot load ${file}: ${(e as Error).message.split('\n')[0]}`);
  }
  return 'ptax_loaded';
}

/**
 * The header line of a CSV file (DuckDB's columns, PostgreSQL's table): its names as written
 * (a byte-order mark dropped), checked as the streaming path checks them
 * (engine/batch/header.ts checkHeaderNames).
 */
async function csvHeader(file: string): Promise<string[]> {
  const { parse } = await import('csv-parse/sync');
  let first: string;
  try {
    first = await firstLine(file);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new PtaxError('UNREADABLE', `Cannot read ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  }
  let header: string[];
  try {
    header = (parse(first, { bom: true })[0] as string[] | undefined) ?? [];
  } catch (e) {
    throw new PtaxError('BAD_HEADER', `header: ${(e as Error).message.split('\n')[0]}`);
  }
  if (!header.length) throw new PtaxError('BAD_HEADER', `${file} is empty: a CSV batch needs a header line`);
  checkHeaderNames(header);
  return header;
}

/**
 * DuckDB's error on a CSV row (a row with more or fewer cells than the header, a quote left
 * open) as one line naming the file and the line; other errors as they are.
 */
export function csvReadError(file: string, e: unknown): unknown {
  const m = /CSV Error on Line: (\d+)/.exec((e as Error)?.message ?? '');
  if (!m) return e;
  const cells = /Expected Number of Columns: (\d+) Found: (\d+)/.exec((e as Error).message);
  // DuckDB stops counting one past the header's count: the fields are counted in the line it quotes.
  const line = /^Original Line: (.*)$/m.exec((e as Error).message)?.[1];
  const found = line === undefined ? undefined : line.split(',').length;
  const what = cells
    ? Number(cells[2]) < Number(cells[1])
      ? `${cells[2]} fields, the header has ${cells[1]}`
      : found !== undefined && !line!.includes('"') && found > Number(cells[1])
        ? `${found} fields, the header has ${cells[1]}`
        : `more fields than the header's ${cells[1]}`
    : ((e as Error).message.split('\n').find((l) => l.trim() && !/CSV Error on Line|Original Line/.test(l)) ?? 'not a CSV row').trim();
  return new PtaxError(
    'UNREADABLE',
    `Cannot read ${file}: line ${m[1]}: ${what}` +
      (cells ? ' (--engine duckdb refuses the file; without it, such a row gets an INVALID_ROW error and the others are calculated)' : ''),
  );
}

/** The first line of a file (the CSV header), without reading the rest. */
async function firstLine(file: string): Promise<string> {
  const { createReadStream } = await import('node:fs');
  let text = '';
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 64 * 1024 })) {
    text += chunk as string;
    const end = text.search(/\r?\n/);
    if (end >= 0) return text.slice(0, end);
  }
  return text;
}

/**
 * Drops blank lines outside quoted cells (COPY would read one as a row of one NULL cell and
 * refuse it; the streaming path skips it). Quotes are tracked across chunks: a "" inside a
 * quoted cell toggles twice, so the state is right at every line end.
 */
async function* skipBlankLinesGen(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let quoted = false;
  let atStart = true;
  for await (const chunk of source) {
    const out = Buffer.allocUnsafe(chunk.length);
    let n = 0;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (!quoted && atStart && (b === 0x0a || b === 0x0d)) continue;
      if (b === 0x22) quoted = !quoted;
      atStart = !quoted && b === 0x0a;
      out[n++] = b;
    }
    if (n) yield out.subarray(0, n);
  }
}
const skipBlankLines = () => skipBlankLinesGen;
