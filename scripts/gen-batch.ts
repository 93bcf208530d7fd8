/**
 * A seeded assessment roll for `ptax calc --batch`: one property per row, of every state
 * and county the rules bundle has (states added later join by themselves), with the
 * batch columns (named like the calc flags) and an `id` column that batch mode passes
 * through. Mostly valid rows, a few with bad values (about 1 in 500) so the error path
 * is part of what is measured. Used by `npm run bench:batch` and the batch tests.
 *
 *   node dist/scripts/gen-batch.js <rows> <file.csv|file.ndjson> [seed]
 */
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBundle } from '../engine/node.js';
import type { Bundle } from '../engine/node.js';

/** The columns written, in order (kebab case, as the flags are spelled). */
export const GEN_COLUMNS = [
  'id',
  'state',
  'county',
  'value',
  'class',
  'year',
  'homestead',
  'over65',
  'senior-income',
  'senior-citizen',
  'disabled',
  'veteran-disability',
  'cold-war-veteran',
  'star',
  'prior-assessed',
  'purchase-price',
  'purchase-year',
] as const;

/** mulberry32: a small seeded generator, so every run writes the same file. */
export function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Row = Record<(typeof GEN_COLUMNS)[number], string | number | boolean | null>;

/**
 * Returns a function giving row i (rows are drawn in order from one seeded stream).
 * Values are plain: numbers, booleans, strings, null for "not given".
 */
/** The seed of bench:batch's roll (and bench:batch-ab's): the generator's default. */
export const BATCH_SEED = 20261121;

export function rowGenerator(bundle: Bundle, seed = BATCH_SEED): (i: number) => Row {
  const rand = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  // States without counties (the hub) take no property rows.
  const states = Object.values(bundle.states)
    .filter((s) => s.counties.length > 0)
    .map((s) => ({
      code: s.code,
      // Counties by the spellings the look-up accepts: name, name without " County", slug; and the aliases.
      places: [...s.counties.flatMap((c) => [c.name, c.name.replace(/ County$/, ''), c.slug]), ...s.aliases.map((a) => a.name)],
      years: [...new Set(s.programs.flatMap((p) => bundle.programs[p.program]?.years ?? []))].sort(),
    }));
  const LEVELS = [0, 0, 0, 0, 0, 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
  const flag = (p: number): boolean => rand() < p;
  return (i) => {
    const s = pick(states);
    const value = Math.round(50_000 + rand() * (flag(0.1) ? 20_000_000 : 2_000_000));
    const bad = flag(0.002);
    const year = flag(0.2) && s.years.length ? pick([...s.years, s.years.at(-1)! + 1]) : null;
    const purchase = flag(0.15);
    return {
      id: `P${i + 1}`,
      state: flag(0.1) ? s.code.toLowerCase() : s.code,
      county: pick(s.places),
      value: bad ? pick(['abc', '-', '1.2.3']) : flag(0.05) ? value.toLocaleString('en-US') : value,
      class: flag(0.75) ? pick(['class1', 'class1', 'class2', 'class2', 'class3', 'class4']) : null,
      year,
      homestead: flag(0.6),
      over65: flag(0.25),
      'senior-income': flag(0.3) ? Math.round(rand() * 200_000) : null,
      'senior-citizen': flag(0.1),
      disabled: flag(0.05),
      'veteran-disability': flag(0.3) ? pick(LEVELS) : null,
      'cold-war-veteran': flag(0.05),
      star: flag(0.03) ? pick(['none', 'basic', 'enhanced']) : null,
      'prior-assessed': flag(0.15) ? Math.round(value * 0.3 * rand()) : null,
      'purchase-price': purchase ? Math.round(value * (0.3 + 0.7 * rand())) : null,
      'purchase-year': purchase ? 1975 + Math.floor(rand() * 50) : null,
    };
  };
}

const csvField = (x: Row[keyof Row]): string => {
  if (x === null) return '';
  const s = typeof x === 'boolean' ? (x ? 'true' : 'false') : String(x);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
export const csvLine = (r: Row): string => GEN_COLUMNS.map((c) => csvField(r[c])).join(',');
/** NDJSON leaves out what is not given. */
export const ndjsonLine = (r: Row): string => JSON.stringify(Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null)));

/** Writes `rows` rows to `file` (CSV with a header, or NDJSON by the extension), with backpressure. */
export async function writeRoll(file: string, rows: number, bundle: Bundle = readBundle(), seed?: number): Promise<void> {
  const ndjson = file.endsWith('.ndjson') || file.endsWith('.jsonl');
  const gen = rowGenerator(bundle, seed);
  const out = createWriteStream(file);
  const done = new Promise<void>((ok, ko) => {
    out.on('finish', ok);
    out.on('error', ko);
  });
  let buf = ndjson ? '' : GEN_COLUMNS.join(',') + '\n';
  for (let i = 0; i < rows; i++) {
    const r = gen(i);
    buf += (ndjson ? ndjsonLine(r) : csvLine(r)) + '\n';
    if (buf.length > 1 << 16) {
      if (!out.write(buf)) await new Promise<void>((ok) => out.once('drain', () => ok()));
      buf = '';
    }
  }
  out.end(buf);
  await done;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [rows, file, seed] = process.argv.slice(2);
  if (!rows || !file) {
    process.stderr.write('usage: node dist/scripts/gen-batch.js <rows> <file.csv|file.ndjson> [seed]\n');
    process.exit(2);
  }
  await writeRoll(file, Number(rows), readBundle(), seed === undefined ? undefined : Number(seed));
}

/**
 * The roll of `rows` rows (seed `seed`) as CSV and Parquet in `dir`, written when missing
 * (the CSV by `writeRoll`, the Parquet from it by DuckDB) and reused by the next run with the
 * same rows and seed: bench:roll and bench:roll-parts read the same files.
 */
export async function parquetRoll(dir: string, rows: number, bundle: Bundle, seed: number): Promise<{ csv: string; parquet: string; written: boolean }> {
  const csv = join(dir, `roll-${rows}-${seed}.csv`);
  const parquet = csv.replace(/\.csv$/, '.parquet');
  if (existsSync(parquet)) return { csv, parquet, written: false };
  mkdirSync(dir, { recursive: true });
  await writeRoll(csv, rows, bundle, seed);
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  await c.run(`COPY (SELECT * FROM read_csv('${csv}', header = true)) TO '${parquet}' (FORMAT parquet)`);
  c.closeSync();
  db.closeSync();
  return { csv, parquet, written: true };
}
