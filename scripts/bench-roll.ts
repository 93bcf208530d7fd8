/**
 * npm run bench:roll (after npm run build): a seeded roll of every state's counties, of BENCH_ROLL_ROWS
 * rows (default 10,000,000; scripts/gen-batch.ts, the bench:batch generator) written as
 * CSV and converted to Parquet by DuckDB (both kept in BENCH_ROLL_DIR, default
 * $TMPDIR/ptax-bench-roll, and reused by the next run with the same rows), then timed on
 * the same rows, one after the other:
 *   duckdb: node dist/cli/main.js calc --batch roll.parquet --engine duckdb --out out.parquet  (all cores)
 *   node:   node dist/cli/main.js calc --batch roll.csv --out /dev/null                        (the streaming path)
 *   floor:  DuckDB reading the result file back and writing it again (the result's 38 columns
 *           to Parquet, nothing calculated): the part of the duckdb time no query can save
 * with wall time, rows/s, CPU time (user + system, all threads) and peak memory (maximum
 * resident set size), from /usr/bin/time. On a shared machine the CPU time says more than
 * the wall time: the load average before and after is printed.
 * DuckDB's memory limit: PTAX_DUCKDB_MEMORY (default 2GB; it spills to a temporary folder
 * beyond it). Targets: the 10M-row roll through DuckDB in under 10 s on this 2-core machine;
 * DuckDB's wall time within 1.5× the floor's (issue 27). Not a test: prints PASS or MISS.
 */
import { spawn } from 'node:child_process';
import { existsSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBundle } from '../engine/node.js';
import { parquetRoll } from './gen-batch.js';

const ROWS = Number(process.env.BENCH_ROLL_ROWS ?? 10_000_000);
const SEED = 20261124;
const DIST = join(dirname(fileURLToPath(import.meta.url)), '..');
const MAIN = join(DIST, 'cli', 'main.js');
const dir = process.env.BENCH_ROLL_DIR ?? join(tmpdir(), 'ptax-bench-roll');
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

interface Timing {
  wall: number;
  cpu: number;
  maxKb: number;
  stderr: string;
}
function run(args: string[]): Promise<Timing> {
  const timed = existsSync('/usr/bin/time');
  return new Promise((done, fail) => {
    const t0 = process.hrtime.bigint();
    const child = timed
      ? spawn('/usr/bin/time', ['-f', 'maxrss-kb %M cpu-s %U %S', 'node', ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
      : spawn('node', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => {
      const wall = Number(process.hrtime.bigint() - t0) / 1e9;
      if (code !== 0) return fail(new Error(`${args.join(' ')} exited ${code}: ${stderr}`));
      const cpu = /cpu-s ([\d.]+) ([\d.]+)/.exec(stderr);
      done({ wall, cpu: cpu ? Number(cpu[1]) + Number(cpu[2]) : NaN, maxKb: Number(/maxrss-kb (\d+)/.exec(stderr)?.[1] ?? NaN), stderr });
    });
  });
}

const bundle = readBundle(join(DIST, 'rules', 'bundle.json'));
console.log(
  `bench:roll: ${fmt(ROWS)} rows, seed ${SEED}, ${cpus().length} cores; load average before: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
const t0 = Date.now();
const { csv, parquet, written } = await parquetRoll(dir, ROWS, bundle, SEED);
if (written)
  console.log(
    `roll written in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${csv} (${fmt(statSync(csv).size / 1e6)} MB), ${parquet} (${fmt(statSync(parquet).size / 1e6)} MB)`,
  );
const out = join(dir, 'out.parquet');
const duck = await run([MAIN, 'calc', '--batch', parquet, '--engine', 'duckdb', '--out', out]);
// The floor under the query: DuckDB reading the roll and writing the result's 38 columns
// again, nothing calculated (the result file read back and written to another, as the
// query's COPY writes it: Parquet, all cores, the same memory limit).
const copy = join(dir, 'copy.parquet');
const floor = await run([
  '--input-type=module',
  '-e',
  `import { DuckDBInstance } from '@duckdb/node-api';
   const db = await DuckDBInstance.create(':memory:', { memory_limit: process.env.PTAX_DUCKDB_MEMORY ?? '2GB', preserve_insertion_order: 'false' });
   const c = await db.connect();
   await c.run(\`COPY (SELECT * FROM read_parquet(${JSON.stringify(out).replace(/"/g, "'")})) TO ${JSON.stringify(copy).replace(/"/g, "'")} (FORMAT parquet)\`);`,
]);
rmSync(out, { force: true });
rmSync(copy, { force: true });
const node = await run([MAIN, 'calc', '--batch', csv, '--out', '/dev/null']);
const line = (label: string, t: Timing) =>
  console.log(
    `${label.padEnd(7)} ${t.wall.toFixed(2)} s wall = ${fmt(ROWS / t.wall).padStart(10)} rows/s; CPU ${t.cpu.toFixed(1)} s; peak memory ${fmt(t.maxKb / 1024)} MB; ${(/ptax batch[^\n]*/.exec(t.stderr)?.[0] ?? '').trim()}`,
  );
line('duckdb', duck);
line('floor', floor);
line('node', node);
console.log(
  `\n${fmt(ROWS)} rows through DuckDB in ${duck.wall.toFixed(2)} s (target < 10 s for 10,000,000) ${ROWS >= 10_000_000 && duck.wall < 10 ? 'PASS' : 'MISS'}`,
);
console.log(
  `DuckDB / floor: ${(duck.wall / floor.wall).toFixed(2)}× wall, ${(duck.cpu / floor.cpu).toFixed(2)}× CPU (target ≤ 1.5× wall) ${duck.wall <= 1.5 * floor.wall ? 'PASS' : 'MISS'}`,
);
console.log(
  `load average after: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
