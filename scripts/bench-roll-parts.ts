/**
 * npm run bench:roll-parts (after npm run build): where the DuckDB engine's time goes, part by
 * part, on the bench:roll roll (BENCH_ROLL_ROWS rows, default 1,000,000; the same files,
 * scripts/gen-batch.ts parquetRoll), in process, DuckDB on BENCH_ROLL_THREADS threads
 * (default 1: CPU time then says what each part costs), BENCH_ROLL_ROUNDS rounds (default 3)
 * of each query in turn, each writing Parquet as `--engine duckdb --out x.parquet` does:
 *   floor:   the full query's result file read back and written again (bench:roll's floor)
 *   shape:   the roll's columns and the result's columns, figures made up from the value
 *            cell, no place looked up, no notes
 *   lookup:  the query's own keys, places, rates and notes (its CTEs up to ptax_knotes),
 *            the roll joined to them as the query joins it, figures made up; no rule
 *   lookup without notes: the same, the notes cell empty
 *   query:   the whole generated query (engine/sql/generate.ts), as `--engine duckdb` runs it
 * Prints each part's median CPU seconds and its ratio to the floor. The lookup parts are cut
 * from the generated query at its ptax_joined_0 CTE: if the generator's names change, this
 * stops with a message. Not a test.
 */
import { rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RESULT_COLUMNS, loadSqlGenerator, loadSqlRunner, readBundle } from '../engine/node.js';
import { parquetRoll } from './gen-batch.js';

const ROWS = Number(process.env.BENCH_ROLL_ROWS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROLL_ROUNDS ?? 3);
const THREADS = process.env.BENCH_ROLL_THREADS ?? '1';
const SEED = 20261124; // bench:roll's
const DIST = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = process.env.BENCH_ROLL_DIR ?? join(tmpdir(), 'ptax-bench-roll');
const bundle = readBundle(join(DIST, 'rules', 'bundle.json'));
// The SQL generator's own quoting: names (q) and text literals (str).
const { generateSql, q, str: lit } = await loadSqlGenerator();

console.log(
  `bench:roll-parts: ${ROWS.toLocaleString('en-US')} rows, seed ${SEED}, DuckDB threads ${THREADS} of ${cpus().length} cores, ${ROUNDS} rounds; load average before: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
const { parquet } = await parquetRoll(dir, ROWS, bundle, SEED);
const { DuckDBInstance } = await import('@duckdb/node-api');
const { inputView, mixOf } = await loadSqlRunner();

/** A new database with the roll as ptax_input, as run.ts makes it; the connection and the view. */
async function open() {
  const db = await DuckDBInstance.create(':memory:', {
    memory_limit: process.env.PTAX_DUCKDB_MEMORY ?? '2GB',
    preserve_insertion_order: 'false',
    threads: THREADS,
  });
  const c = await db.connect();
  await c.run(`SET disabled_optimizers = 'build_side_probe_side'`);
  const reader = `read_parquet(${lit(parquet)})`;
  const columns = (await c.runAndReadAll(`DESCRIBE SELECT * FROM ${reader}`))
    .getRowObjects()
    .map((r) => ({ name: String(r.column_name), text: String(r.column_type) === 'VARCHAR' }));
  const view = inputView(columns, bundle);
  await c.run(`CREATE VIEW ptax_input AS SELECT ${view.select} FROM ${reader}`);
  return { db, c, view, reader };
}

// The queries.
const setup = await open();
const { view } = setup;
const full = generateSql(bundle, {
  dialect: 'duckdb',
  columns: view.columns,
  headers: view.headers,
  text: view.text,
  mix: await mixOf(setup.c, setup.reader, view, false),
});
setup.c.closeSync();
setup.db.closeSync();
const cut = full.indexOf('ptax_joined_0 AS (');
const join0 = /FROM ptax_input AS i\s+JOIN ptax_knotes AS k ON ([\s\S]*?)\s+WHERE k\.p_py/.exec(full.slice(cut));
if (cut === -1 || !join0) {
  console.error(
    'bench:roll-parts: the generated query has no ptax_joined_0 joining ptax_input to ptax_knotes (engine/sql/generate.ts changed): update this script',
  );
  process.exit(2);
}
const inputs = view.columns.map((c) => `r.${q(c)}`);
const value = `TRY_CAST(CAST(r."value" AS TEXT) AS DOUBLE)`;
/** The result columns: the place's cells from `place` (or made up), figures made up from the value, the notes from `notes`. */
const results = (place: { county: string; program: string; year: string } | undefined, notes: string, error: string, code: string) =>
  RESULT_COLUMNS.map((col, i) => {
    const name = col.name;
    const x =
      name === 'countyName'
        ? (place?.county ?? 'r."county"')
        : name === 'program'
          ? (place?.program ?? "'county_level'")
          : name === 'rulesYear'
            ? (place?.year ?? '2025')
            : name === 'notes'
              ? notes
              : `${value} * ${(0.0123457 * (i + 1)).toFixed(7)}`;
    return `${x} AS ${q(name)}`;
  }).concat([`${error} AS "error"`, `${code} AS "errorCode"`]);
const shape = `SELECT ${[...inputs, ...results(undefined, 'CAST(NULL AS TEXT)', 'CAST(NULL AS TEXT)', 'CAST(NULL AS TEXT)')].join(', ')} FROM ptax_input AS r`;
const lookup = (notes: boolean) =>
  `${full.slice(0, cut)}ptax_parts AS (
  SELECT i.*, k.p_county, k.p_program, k.p_year, k.p_knotes, k.p_error, k.p_message
  FROM ptax_input AS i
  JOIN ptax_knotes AS k ON ${join0[1]}
)
SELECT ${[...inputs, ...results({ county: 'r.p_county', program: 'r.p_program', year: 'CAST(r.p_year AS INTEGER)' }, notes ? 'r.p_knotes' : 'CAST(NULL AS TEXT)', 'r.p_message', 'r.p_error')].join(', ')} FROM ptax_parts AS r`;

const out = (name: string) => join(tmpdir(), `ptax-roll-parts-${process.pid}-${name}.parquet`);
const parts: Array<{ name: string; sql: () => string; cpu: number[] }> = [
  { name: 'query', sql: () => full, cpu: [] },
  { name: 'floor', sql: () => `SELECT * FROM read_parquet(${lit(out('query'))})`, cpu: [] },
  { name: 'shape', sql: () => shape, cpu: [] },
  { name: 'lookup without notes', sql: () => lookup(false), cpu: [] },
  { name: 'lookup', sql: () => lookup(true), cpu: [] },
];
try {
  for (let r = 0; r < ROUNDS; r++) {
    for (const p of parts) {
      const { db, c } = await open();
      const t0 = process.cpuUsage();
      await c.run(`COPY (${p.sql()}) TO ${lit(out(p.name === 'query' ? 'query' : 'part'))} (FORMAT parquet)`);
      const u = process.cpuUsage(t0);
      p.cpu.push((u.user + u.system) / 1e6);
      c.closeSync();
      db.closeSync();
    }
  }
} finally {
  rmSync(out('query'), { force: true });
  rmSync(out('part'), { force: true });
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const floor = median(parts.find((p) => p.name === 'floor')!.cpu);
console.log('\npart | CPU s, each round | median | × the floor');
for (const p of [parts[1]!, parts[2]!, parts[3]!, parts[4]!, parts[0]!])
  console.log(
    `${p.name.padEnd(21)}| ${p.cpu
      .map((x) => x.toFixed(2))
      .join(', ')
      .padEnd(20)}| ${median(p.cpu).toFixed(2).padStart(6)} | ${(median(p.cpu) / floor).toFixed(2)}×`,
  );
console.log(
  `load average after: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
