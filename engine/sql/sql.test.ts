/**
 * The rules as SQL (engine/sql/generate.ts) against the engine:
 * - DuckDB: every golden fixture of a state's own calculation and PTAX_SQL_RUNS (default
 *   4,000; 50,000 with PTAX_FULL=1, `npm run test:full`) random inputs per program and
 *   year give the engine's figures to the cent (the same doubles), the same notes and the
 *   same error cells (code; message too, except an unknown county's, whose suggestions SQL
 *   does not make).
 * - The same CSV file of text cells (fixtures, and random rows with malformed cells: money
 *   as people write it and as they should not, booleans, years, star) through `--engine
 *   duckdb` and through the streaming Node path (engine/batch/reader.ts): the same output, byte for
 *   byte (the figures, notes, error and errorCode cells, the input as written, the order).
 * - PostgreSQL: the same fixtures through a real server, started here from Debian's
 *   packages in a temporary folder on a free port (skipped with a message when there is no
 *   PostgreSQL; scripts/test installs it as root), stopped at the end; and a CSV file of
 *   fixtures and malformed rows loaded with COPY: the streaming path's output line for line.
 * The SQL as printed, without a database (one snapshot per state and dialect):
 * engine/sql/sql-snapshots.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { readBundle } from '../build/bundle.js';
import { Calculator, inputFromFlags, type FlagInput } from '../core/calculate.js';
import { fixtureFiles, fixtureInput, type FixtureCase } from '../build/fixtures.js';
import type { Bundle } from '../core/types.js';
import { declaredInputs } from '../core/registry.js';
import { parse as parseCsv } from 'csv-parse/sync';
import { BATCH_INPUT_COLUMNS, SQL_RESULT_COLUMNS, generateSql } from './generate.js';
import { runSqlBatch } from './run.js';
import { usePostgres } from './pg-test.js';
import { readBatch } from '../batch/reader.js';

const bundle: Bundle = readBundle('dist/rules/bundle.json');
const calc = new Calculator(bundle);
// 4,000 in `npm test` (was 50,000: 62 s of the file's 87 s in a clean-clone run, and past
// the test's 300 s timeout at load 13-16; then 10,000, still the file's largest part of
// 57 s of CPU in a clean clone). Bugs put back into engine/sql/generate.ts on
// 2026-11-27 fail at 2,000 already (4,000 keeps twice that margin): the rounding nudge left out (ca@2024),
// greaterThanInclusive emitted as `>` (hub@2025), lessThanInclusive emitted as `<`. A half
// rounded down (`> 0.5` for `>= 0.5`) is not found at 1,000, and whether 50,000 finds it
// was not measured (that run timed out at load 16): after the nudge the fraction is
// exactly one half only for rare doubles, so a sample of any size rarely reaches it.
const RUNS = Number(process.env.PTAX_SQL_RUNS ?? (process.env.PTAX_MUTATION ? 200 : process.env.PTAX_FULL ? 50_000 : 4_000));
const tmp = mkdtempSync(join(tmpdir(), 'ptax-sql-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The declared inputs with a batch column (rules/inputs.yaml, as the bundle holds them). */
const COLUMN_INPUTS = declaredInputs(bundle).filter((x) => x.column !== undefined);
/** The boolean batch columns, by the declarations. */
const BOOL_COLUMNS = COLUMN_INPUTS.filter((x) => x.type === 'boolean').map((x) => x.column!);
/** The input table's column types (the others FLOAT8): text and choices VARCHAR, booleans BOOLEAN. */
const TYPES: Record<string, string> = {
  state: 'VARCHAR',
  county: 'VARCHAR',
  ...Object.fromEntries(COLUMN_INPUTS.flatMap((x) => (x.type === 'choice' || x.type === 'text' ? [[x.column!, 'VARCHAR']] : []))),
  ...Object.fromEntries(BOOL_COLUMNS.map((c) => [c, 'BOOLEAN'])),
};
const COLUMNS = ['id', ...BATCH_INPUT_COLUMNS];
type Row = Record<string, string | number | boolean | null>;

/** Rows as a CSV file (numbers as JS prints them: exact), empty for null. */
function csvFile(name: string, rows: Row[]): string {
  const cell = (x: unknown) => (x === null || x === undefined ? '' : /[",\n]/.test(String(x)) ? `"${String(x).replace(/"/g, '""')}"` : String(x));
  const path = join(tmp, name);
  writeFileSync(path, [COLUMNS.join(','), ...rows.map((r) => COLUMNS.map((c) => cell(r[c])).join(','))].join('\n') + '\n');
  return path;
}

/** The engine's outcome of a row, as the SQL should give it. */
function engine(r: Row): Record<string, unknown> {
  const flags = { state: r.state, county: r.county ?? '' } as Record<string, unknown>;
  for (const c of BATCH_INPUT_COLUMNS) if (c !== 'state' && c !== 'county' && c !== 'year' && r[c] !== null && r[c] !== undefined) flags[c] = r[c];
  try {
    const res = calc.calculate(inputFromFlags(flags as unknown as FlagInput, r.year === null ? undefined : (r.year as number)));
    const out: Record<string, unknown> = {
      countyName: res.county,
      program: res.program,
      rulesYear: res.year,
      notes: res.notes.length ? res.notes.join(' | ') : null,
      errorCode: null,
    };
    for (const c of SQL_RESULT_COLUMNS) {
      const x = c.path.reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], res);
      out[c.name] = typeof x === 'number' && !Number.isFinite(x) ? null : (x ?? null);
    }
    return out;
  } catch (e) {
    const x = e as { code?: string; message?: string };
    return { errorCode: x.code, error: x.message };
  }
}

/**
 * f() with no stack traces: the engine's errors here are values (a code and a message), and
 * building a stack for each of the random rows' thousands of errors was ~2 s of the file's
 * CPU. The limit is put back after (other files share this process: vitest.config.ts).
 */
function withoutStacks<T>(f: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return f();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Differences between the SQL's rows and the engine's (at most 5 reported). */
function compare(rows: Row[], got: Array<Record<string, unknown>>): { diffs: string[]; errors: number } {
  return withoutStacks(() => compareRows(rows, got));
}
function compareRows(rows: Row[], got: Array<Record<string, unknown>>): { diffs: string[]; errors: number } {
  const byId = new Map(got.map((g) => [String(g.id), g]));
  const diffs: string[] = [];
  let errors = 0;
  for (const r of rows) {
    const want = engine(r);
    const g = byId.get(String(r.id));
    if (!g) {
      diffs.push(`row ${r.id}: missing`);
      continue;
    }
    const bad: string[] = [];
    if (want.errorCode) {
      errors++;
      if (g.errorCode !== want.errorCode) bad.push(`errorCode ${String(g.errorCode)} ≠ ${String(want.errorCode)}`);
      else if (want.errorCode !== 'UNKNOWN_COUNTY' && g.error !== want.error) bad.push(`error "${String(g.error)}" ≠ "${String(want.error)}"`);
    } else {
      for (const [k, v] of Object.entries(want)) {
        const x = g[k] ?? null;
        if (!(x === v || (typeof v === 'number' && typeof x === 'number' && Object.is(x + 0, v + 0))))
          bad.push(`${k}: ${JSON.stringify(x)} ≠ ${JSON.stringify(v)}`);
      }
    }
    if (bad.length && diffs.length < 5) diffs.push(`${JSON.stringify(r)}: ${bad.join('; ')}`);
  }
  return { diffs, errors };
}

async function duckdb(path: string, sql: string): Promise<Array<Record<string, unknown>>> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try {
    await c.run(
      `CREATE TABLE ptax_input AS SELECT * FROM read_csv('${path}', header = true, types = {${Object.entries(TYPES)
        .map(([k, t]) => `'${k}': '${t}'`)
        .join(', ')}, 'id': 'VARCHAR'})`,
    );
    return (await c.runAndReadAll(sql)).getRowObjects() as Array<Record<string, unknown>>;
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

/** The fixtures of the states' own calculations (a calculator's program is not a batch program), as rows (a fresh copy each call). */
function fixtureRows(): Row[] {
  // Read and parsed once: eight tests use them, and parsing every fixture file each time was ~8% of the file's time.
  fixtureCache ??= readFixtureRows();
  return fixtureCache.map((r) => ({ ...r }));
}
let fixtureCache: Row[] | undefined;
function readFixtureRows(): Row[] {
  const rows: Row[] = [];
  for (const file of fixtureFiles(['fixtures'])) {
    for (const c of parseYaml(readFileSync(file, 'utf8')) as FixtureCase[]) {
      if (c.calculator || (c.lang && c.lang !== 'en') || c.input.countyRate !== undefined || c.input.date !== undefined) continue;
      const i = fixtureInput(c);
      rows.push({
        id: `F${rows.length}`,
        state: i.state,
        county: i.county || null,
        value: (c.input.value as number | undefined) ?? null,
        year: i.year ?? null,
        class: i.propertyClass ?? null,
        homestead: !!i.homestead,
        over65: !!i.over65,
        seniorIncome: i.seniorIncome ?? null,
        seniorCitizen: !!i.seniorCitizen,
        disabled: !!i.disabled,
        wartimeVeteran: !!i.wartimeVeteran,
        combatVeteran: !!i.combatVeteran,
        veteranDisability: (c.input.veteranDisability as number | undefined) ?? null,
        totallyDisabledVeteran: !!i.totallyDisabledVeteran,
        veteranIncome: i.veteranIncome ?? null,
        coldWarVeteran: !!i.coldWarVeteran,
        star: i.starType ?? null,
        priorAssessed: i.priorAssessed ?? null,
        purchasePrice: i.purchasePrice ?? null,
        purchaseYear: i.purchaseYear ?? null,
        melloRoos: i.melloRoos ?? null,
      });
    }
  }
  return rows;
}

/** Random rows that land on one program and year: its states' counties (every spelling), years asked for around the rules' years. */
function randomRows(program: string, year: number, n: number, seed: number): Row[] {
  let places = placesOf.get(program);
  if (!places) placesOf.set(program, (places = programPlaces(program)));
  return sampleRows(program, year, n, seed, places);
}
/** Each program's places (the same for all its years): prepare on every county of every state, once per program instead of per call. */
const placesOf = new Map<string, Array<{ state: string; county: string | null }>>();
function programPlaces(program: string): Array<{ state: string; county: string | null }> {
  const places: Array<{ state: string; county: string | null }> = [];
  for (const s of Object.values(bundle.states)) {
    // The program chosen (prepare: a county without a rate, which a validation stops, still has one).
    const chosen = (c: (typeof s.counties)[number] | undefined) =>
      calc.prepare({ state: s.code, county: c?.name ?? '', value: 300000, propertyClass: 'class1' }).compiled.program.id;
    if (!s.counties.length) {
      if (s.programs[0]!.program === program) places.push({ state: s.code, county: null });
      continue;
    }
    for (const c of s.counties)
      if (chosen(c) === program)
        places.push(
          { state: s.code, county: c.name },
          { state: s.code.toLowerCase(), county: c.slug },
          { state: s.code, county: ` ${c.name.replace(/ County$/, '')} ` },
        );
    for (const a of s.aliases) if (a.program === program) places.push({ state: s.code, county: a.name });
  }
  return places;
}
function sampleRows(program: string, year: number, n: number, seed: number, places: Array<{ state: string; county: string | null }>): Row[] {
  const years = bundle.programs[program]!.years;
  const last = years.at(-1)!;
  const asked = year === last ? [null, last, last + 1, last + 3] : [year];
  const money = fc.oneof(
    fc.constant(null),
    fc.integer({ min: 0, max: 3_000_000 }),
    fc.double({ min: -1000, max: 60_000_000, noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(0, 1, 50_000_000, 50_000_001, 107_300, 250_000),
  );
  const row = fc.record({
    place: fc.constantFrom(...places),
    value: fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 10_000, max: 5_000_000 }) }, { weight: 1, arbitrary: money }),
    year: fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...asked) }, { weight: 1, arbitrary: fc.constantFrom(1999, 2.5) }),
    class: fc.constantFrom('class1', 'class2', 'class3', 'class4', null, 'class9'),
    // Every declared boolean column, on or off.
    ...Object.fromEntries(BOOL_COLUMNS.map((c) => [c, fc.boolean()])),
    veteranIncome: fc.oneof(fc.constant(null), money, fc.constantFrom(76_235, 78_718, 78_719)),
    seniorIncome: fc.oneof(money, fc.constantFrom(107_299, 107_300, 107_301, -1)),
    veteranDisability: fc.constantFrom(null, 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 15),
    star: fc.constantFrom(null, 'none', 'basic', 'enhanced'),
    priorAssessed: money,
    // Price and year mostly together (one without the other is an error in California).
    purchase: fc.oneof(
      { weight: 5, arbitrary: fc.constant([null, null] as const) },
      { weight: 4, arbitrary: fc.tuple(fc.integer({ min: 1, max: 3_000_000 }), fc.integer({ min: 1970, max: 2027 })) },
      { weight: 1, arbitrary: fc.tuple(money, fc.oneof(fc.constant(null), fc.integer({ min: 1970, max: 2027 }))) },
    ),
    melloRoos: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 5000 })),
  });
  return fc.sample(row, { numRuns: n, seed }).map(({ place, purchase, ...r }, i) => ({
    id: `${program}@${year}#${i}`,
    state: place.state,
    county: place.county,
    ...r,
    purchasePrice: purchase[0],
    purchaseYear: purchase[1],
  }));
}

const programYears = [
  ...new Set(Object.values(bundle.states).flatMap((s) => [...s.programs.map((p) => p.program), ...s.aliases.map((a) => a.program)])),
].flatMap((id) => bundle.programs[id]!.years.map((year) => ({ id, year })));

describe('the rules as SQL, run by DuckDB, equal the engine', () => {
  const sql = generateSql(bundle, { dialect: 'duckdb', columns: COLUMNS });

  it('every golden fixture of a state calculation', async () => {
    const rows = fixtureRows();
    expect(rows.length).toBeGreaterThan(60);
    const got = await duckdb(csvFile('fixtures.csv', rows), sql);
    expect(got.length).toBe(rows.length);
    const { diffs } = compare(rows, got);
    expect(diffs).toEqual([]);
  });

  it(`${RUNS} random inputs per program and year, ${programYears.length} programs and years`, async () => {
    expect(programYears.length).toBeGreaterThanOrEqual(10);
    // Several programs and years per DuckDB query, up to 50,000 rows (the memory of the
    // former one at a time at 50,000): DuckDB plans the generated SQL (300 KB) for seconds
    // per query whatever its rows (10 rows: 13 s at load 13), ten plans were most of the test.
    const perQuery = Math.max(1, Math.floor(50_000 / RUNS));
    for (let k0 = 0; k0 < programYears.length; k0 += perQuery) {
      const group = programYears.slice(k0, k0 + perQuery).map((py, j) => ({ ...py, rows: randomRows(py.id, py.year, RUNS, 20261124 + k0 + j) }));
      const input = group.flatMap((g) => g.rows);
      const all = await duckdb(csvFile('random.csv', input), sql);
      expect(all.length).toBe(input.length);
      const byId = new Map(all.map((g) => [String(g.id), g]));
      for (const { id, year, rows } of group) {
        const got = rows.flatMap((r) => byId.get(String(r.id)) ?? []);
        expect(got.length).toBe(rows.length);
        const { diffs, errors } = compare(rows, got);
        expect(diffs, `${id}@${year}`).toEqual([]);
        // Both outcomes are reached: figures and error cells; and the rows land on this program and year.
        expect(errors, `${id}@${year}`).toBeGreaterThan(0);
        expect(errors, `${id}@${year}`).toBeLessThan(rows.length * 0.95);
        expect(got.filter((g) => g.program === id && g.rulesYear === year).length, `${id}@${year}`).toBeGreaterThan(rows.length / 20);
      }
    }
  }, 600_000); // 10,000 grouped: 140 s alone at load 13-16, past 300 s beside e2e and another worker at load 20
});

describe('the rules as SQL, run by PostgreSQL, equal the engine', () => {
  const postgres = usePostgres();

  it('every golden fixture of a state calculation', async (ctx) => {
    const server = postgres.serverOr(ctx);
    if (!server) return;
    const rows = fixtureRows();
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    try {
      await client.query(
        `CREATE TEMP TABLE ptax_input (id TEXT, ${BATCH_INPUT_COLUMNS.map((c) => `"${c}" ${TYPES[c] === 'VARCHAR' ? 'TEXT' : (TYPES[c] ?? 'FLOAT8')}`).join(', ')})`,
      );
      for (const r of rows)
        await client.query(
          `INSERT INTO ptax_input VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`,
          COLUMNS.map((c) => r[c] ?? null),
        );
      const res = await client.query(generateSql(bundle, { dialect: 'postgres', columns: COLUMNS }));
      expect(res.rows.length).toBe(rows.length);
      const { diffs } = compare(rows, res.rows as Array<Record<string, unknown>>);
      expect(diffs).toEqual([]);
    } finally {
      await client.end();
    }
  }, 120_000);

  it("ptax calc --batch file.csv --engine postgres: the file loaded with COPY FROM STDIN (blank lines skipped, quoted empty cells NULL): the streaming path's cells", async (ctx) => {
    const server = postgres.serverOr(ctx);
    if (!server) return;
    const rows = fixtureRows();
    const path = csvFile('load.csv', rows);
    // A blank line inside the file and at its end, and quoted empty cells (a class not given: NULL, not '').
    const text = readFileSync(path, 'utf8').split('\n');
    const k = COLUMNS.indexOf('class');
    let quoted = 0;
    for (let i = 1; i < text.length; i++)
      if (!text[i]!.includes('"') && text[i]!.split(',')[k] === '') {
        text[i] = text[i]!.split(',')
          .map((c, j) => (j === k ? '""' : c))
          .join(',');
        quoted++;
      }
    expect(quoted).toBeGreaterThan(5);
    text.splice(3, 0, '');
    writeFileSync(path, text.join('\n') + '\n\n');
    const out = join(tmp, 'load.out.csv');
    const summary = await runSqlBatch(bundle, { engine: 'postgres', file: path, db: server.url, out });
    expect(summary.rows).toBe(rows.length);
    // The streaming path's output, cell for cell (a quoted empty cell "" is echoed so there, empty here), in any order.
    const records = (text: string) => (parseCsv(text, { columns: true }) as Array<Record<string, string>>).sort((a, b) => a.id!.localeCompare(b.id!));
    const want = records(await nodeCsv(path));
    expect(records(readFileSync(out, 'utf8'))).toEqual(want);
    expect(want.filter((r) => r.errorCode).length).toBe(summary.errors);
    // A missing file, or a row longer than the header: one error, no stack trace.
    await expect(runSqlBatch(bundle, { engine: 'postgres', file: join(tmp, 'missing.csv'), db: server.url })).rejects.toMatchObject({
      code: 'UNREADABLE',
      message: `Cannot read ${join(tmp, 'missing.csv')}: no such file`,
    });
    writeFileSync(join(tmp, 'long.csv'), 'state,county,value\nNY,Albany,1,2\n');
    await expect(runSqlBatch(bundle, { engine: 'postgres', file: join(tmp, 'long.csv'), db: server.url })).rejects.toMatchObject({
      code: 'UNREADABLE',
    });
  }, 120_000);

  it("the golden fixtures and malformed rows, cells written as text: the streaming path's output, byte for byte (rows in any order)", async (ctx) => {
    const server = postgres.serverOr(ctx);
    if (!server) return;
    const rows = [...fixtureRows(), ...programYears.flatMap(({ id, year }, k) => randomRows(id, year, 300, 4242 + k))];
    const file = textCsv('pg-text.csv', rows, 99, 0.08, malformedRows());
    const out = join(tmp, 'pg-text.out.csv');
    await runSqlBatch(bundle, { engine: 'postgres', file, db: server.url, out });
    const lines = (text: string) => {
      const [header, ...rest] = text.split('\n');
      return [header, ...rest.sort()];
    };
    const want = await nodeCsv(file);
    const { diffs, errorRows } = sameCsv(lines(readFileSync(out, 'utf8')).join('\n'), lines(want).join('\n'));
    expect(diffs).toEqual([]);
    for (const code of ['INVALID_NUMBER', 'NEGATIVE_AMOUNT', 'INVALID_BOOLEAN', 'INVALID_YEAR', 'INVALID_STAR']) expect(want).toContain(`,${code}\n`);
    expect(errorRows).toBeLessThan((rows.length + malformedRows().length) * 0.9);
  }, 120_000);
});

/** Cells neither path can read, and cells written in the ways people write them. */
const MONEY_BAD = [
  'abc',
  '12abc',
  '1.5e6',
  '4,50,000',
  '1,25',
  '1,2',
  '12345678901234',
  '90071992547409',
  '90071992547410',
  '123456789012345',
  '00000000000000000012',
  '-5000',
  '-$5,000',
  '$-5',
  '\u22125',
  '-0',
  '007',
  '1,234.50',
  '.5',
  '5.',
  '$',
  '-',
  '--5',
  '$$5',
  '$ 5',
  '5 usd',
  '5USD',
  'usd',
  '1 250 000',
  '1  250',
  '12 34',
  '$1,250,000',
  ' 450000 ',
  '450\u00a0000',
  '1,250,000.999',
  '+5',
  '0x10',
  'NaN',
  'Infinity',
  '1_000',
  // Thousands and millions (parseMoney, issue 24): read alike by both paths, or refused alike.
  '425k',
  '1.2m',
  '$1.5 M',
  '1.2345k',
  '-5k',
  '425,000k',
  '1.5K USD',
  '0.0001m',
  '1 000 k',
  '.5k',
  '5kk',
  'k',
  '5 thousand',
  '99999999999999k',
];
const BOOL_ANY = ['true', 'false', 'yes', 'no', '1', '0', 'TRUE', ' Yes ', 'No', 'maybe', '2', 'y', 'truee', 'say "no"', 'tab\tx'];
const YEAR_ANY = ['2025', ' 2025 ', '25', '2025.0', '2.5', 'abcd', '02025', '1999'];
const STAR_ANY = ['gold', ' basic ', 'BASIC', 'none '];

/**
 * Rows as a CSV file of text cells, written in the ways people write them and with cells
 * neither path can read: money with $, commas, spaces between groups, USD, signs, k or m, a decimal
 * comma, 14 to 17 digits, words; booleans as yes/no/1/0/TRUE or not at all; years of two
 * digits or with a fraction; a star that is none of its values; spaces around cells. Cells
 * are quoted only when they must be (the streaming path echoes the line as written; DuckDB
 * quotes only then): no empty quoted cells, none starting with #.
 */
function textCsv(name: string, rows: Row[], seed: number, bad = 0.05, raw: Array<Record<string, string>> = []): string {
  const rand = (() => {
    let x = seed >>> 0 || 1;
    return () => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return (x >>> 0) / 4294967296;
    };
  })();
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const money = (x: unknown): string => {
    if (rand() < bad) return pick(MONEY_BAD);
    if (x === null || x === undefined) return '';
    const n = Number(x);
    const r = rand();
    return r < 0.1 ? `$${n.toLocaleString('en-US')}` : r < 0.15 ? `${n} USD` : r < 0.2 ? ` ${n} ` : r < 0.25 ? `${n / 1000}k` : String(n);
  };
  const cell = (c: string, x: unknown): string => {
    if (['value', 'seniorIncome', 'veteranIncome', 'priorAssessed', 'purchasePrice', 'melloRoos', 'veteranDisability'].includes(c)) return money(x);
    if (TYPES[c] === 'BOOLEAN') return rand() < bad ? pick(BOOL_ANY) : x ? pick(['true', 'yes', '1']) : pick(['false', 'no', '0', '']);
    if (c === 'year' || c === 'purchaseYear') return rand() < bad / 2 ? pick(YEAR_ANY) : x === null || x === undefined ? '' : String(x);
    if (c === 'star') return rand() < bad / 2 ? pick(STAR_ANY) : String(x ?? '');
    if (c === 'class' && x) return rand() < bad / 2 ? ` ${String(x)} ` : String(x);
    return x === null || x === undefined ? '' : String(x);
  };
  const esc = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const path = join(tmp, name);
  writeFileSync(
    path,
    [
      COLUMNS.join(','),
      ...rows.map((r) => COLUMNS.map((c) => esc(cell(c, r[c]))).join(',')),
      ...raw.map((r) => COLUMNS.map((c) => esc(r[c] ?? '')).join(',')),
    ].join('\n') + '\n',
  );
  return path;
}

/** Every malformed cell above once in each column of its kind, in rows of the four states (cells as written). */
function malformedRows(): Array<Record<string, string>> {
  const bases = [
    { state: 'TX', county: 'Harris', value: '400000' },
    { state: 'NY', county: 'Albany', value: '300000' },
    { state: 'CA', county: 'Los Angeles', value: '700000', purchasePrice: '500000', purchaseYear: '2015' },
    { state: 'FL', county: 'Miami-Dade', value: '450000', homestead: 'true' },
  ];
  const rows: Array<Record<string, string>> = [];
  const add = (column: string, values: readonly string[]) =>
    values.forEach((v, i) => rows.push({ ...bases[(rows.length + i) % bases.length]!, id: `M${rows.length}`, [column]: v }));
  for (const c of ['value', 'seniorIncome', 'veteranIncome', 'priorAssessed', 'purchasePrice', 'melloRoos', 'veteranDisability']) add(c, MONEY_BAD);
  for (const c of Object.keys(TYPES).filter((c) => TYPES[c] === 'BOOLEAN')) add(c, BOOL_ANY);
  for (const c of ['year', 'purchaseYear']) add(c, YEAR_ANY);
  add('star', STAR_ANY);
  return rows;
}

/** The streaming Node path's CSV output for a file (engine/batch/reader.ts, the reader of `ptax calc --batch file.csv`). */
async function nodeCsv(file: string): Promise<string> {
  const text = readFileSync(file);
  return withoutStacks(() => readBatch(calc, text, { format: 'csv' })).out;
}

/** Line by line differences of two CSV texts (at most 5), and how many rows have an error. */
function sameCsv(got: string, want: string): { diffs: string[]; errorRows: number } {
  const g = got.split('\n'),
    w = want.split('\n');
  const diffs: string[] = [];
  if (g.length !== w.length) diffs.push(`${g.length} lines ≠ ${w.length}`);
  for (let i = 0; i < Math.max(g.length, w.length) && diffs.length < 5; i++) if (g[i] !== w[i]) diffs.push(`line ${i + 1}:\n  sql:  ${g[i]}\n  node: ${w[i]}`);
  return { diffs, errorRows: w.filter((l) => /,[A-Z_]+$/.test(l)).length };
}

describe("ptax calc --batch file.csv --engine duckdb gives the streaming path's output, byte for byte", () => {
  it('every golden fixture, cells written as text', async () => {
    const file = textCsv('fixtures-text.csv', fixtureRows(), 1, 0);
    const out = join(tmp, 'fixtures-text.duck.csv');
    await runSqlBatch(bundle, { engine: 'duckdb', file, out });
    const { diffs, errorRows } = sameCsv(readFileSync(out, 'utf8'), await nodeCsv(file));
    expect(diffs).toEqual([]);
    expect(errorRows).toBeGreaterThan(0);
  });

  it(`${Math.ceil(RUNS / 10)} random rows per program and year with malformed cells, and each malformed cell once in every column of its kind`, async () => {
    const rows = programYears.flatMap(({ id, year }, k) => randomRows(id, year, Math.ceil(RUNS / 10), 777 + k));
    const file = textCsv('random-text.csv', rows, 20261124, 0.05, malformedRows());
    const out = join(tmp, 'random-text.duck.csv');
    const summary = await runSqlBatch(bundle, { engine: 'duckdb', file, out });
    expect(summary.rows).toBe(rows.length + malformedRows().length);
    const want = await nodeCsv(file);
    const { diffs, errorRows } = sameCsv(readFileSync(out, 'utf8'), want);
    expect(diffs).toEqual([]);
    // Every kind of unreadable cell is reached, and most rows are still calculated.
    for (const code of ['INVALID_NUMBER', 'NEGATIVE_AMOUNT', 'INVALID_BOOLEAN', 'INVALID_YEAR', 'INVALID_STAR']) expect(want).toContain(`,${code}\n`);
    expect(want).toContain('is too large to be an amount in dollars (got ""123456789012345"")');
    expect(errorRows).toBeLessThan((rows.length + malformedRows().length) * 0.9);
  }, 300_000);

  it('a Parquet file with text cells gives the same rows (typed copy: the same figures)', async () => {
    const rows = fixtureRows();
    const file = textCsv('parquet-text.csv', rows, 5);
    const parquet = join(tmp, 'text.parquet');
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    await c.run(`COPY (SELECT * FROM read_csv('${file}', header = true, all_varchar = true)) TO '${parquet}' (FORMAT parquet)`);
    c.closeSync();
    db.closeSync();
    const out = join(tmp, 'parquet-text.duck.csv');
    await runSqlBatch(bundle, { engine: 'duckdb', file: parquet, out });
    const { diffs } = sameCsv(readFileSync(out, 'utf8'), await nodeCsv(file));
    expect(diffs).toEqual([]);
  });
});

describe('ptax calc --batch --engine duckdb echoes the input cells as written', () => {
  it('a money cell with $ and commas, a boolean written yes, a cell that is not a number: as in the file, like the streaming path', async () => {
    const path = join(tmp, 'echo.csv');
    writeFileSync(path, 'state,county,value,homestead\nTX,Harris,"$400,000",yes\nTX,Harris,abc,maybe\n');
    const out = join(tmp, 'echo.out.csv');
    const summary = await runSqlBatch(bundle, { engine: 'duckdb', file: path, out });
    expect(summary.rows).toBe(2);
    const got = (parseCsv(readFileSync(out, 'utf8'), { columns: true }) as Array<Record<string, string>>).sort((a, b) => a.value!.localeCompare(b.value!));
    expect(got.map((r) => [r.state, r.county, r.value, r.homestead])).toEqual([
      ['TX', 'Harris', '$400,000', 'yes'],
      ['TX', 'Harris', 'abc', 'maybe'],
    ]);
    // The first row is read as 400,000 with the homestead exemption: the engine's figure.
    const harris = calc.calculate({ state: 'TX', county: 'Harris', value: 400_000, homestead: true });
    expect(Number(got.find((r) => r.value === '$400,000')!.annualTax)).toBe(harris.annualTax);
  });
});
