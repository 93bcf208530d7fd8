/**
 * `ptax calc --batch`, run as a child process on the built CLI (build first: npm run build).
 * - Every row equals `Calculator.calculate` on the same input (the CLI's rounding, as
 *   `--json` prints it), for a few hundred seeded rows of every state in the bundle, in
 *   CSV (the flat columns) and NDJSON (the whole result object).
 * - The New York golden fixtures (each with its hand computation in `source`) through
 *   batch mode give their expected figures.
 * - Bad rows keep their place with their error; fatal problems are one line and exit 2.
 * - Memory does not grow with the number of rows.
 * No timings are asserted.
 */
import { spawn } from 'node:child_process';
import { closeSync, createReadStream, existsSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { parse as parseYamlText } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBundle } from '../engine/node.js';
import { Calculator, inputFromFlags, type CalcResult, type FlagInput } from '../engine/node.js';
import { BatchCalculator, RESULT_COLUMNS, NOTE_SEPARATOR } from '../engine/node.js';
import { roundTo } from '../engine/node.js';
import { CsvOut } from '../engine/node.js';
import { GEN_COLUMNS, csvLine, ndjsonLine, rng, rowGenerator, writeRoll } from '../scripts/gen-batch.js';
import { parseAmount, parseYear, type AmountField } from './parse.js';

const ROOT = resolve('.');
const MAIN = join(ROOT, 'dist/cli/main.js');
const tmp = mkdtempSync(join(tmpdir(), 'ptax-batch-'));
const bundle = readBundle('dist/rules/bundle.json');
const calc = new Calculator(bundle);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}
function ptax(args: string[], stdin?: string, nodeArgs: string[] = []): Promise<Run> {
  return new Promise((done) => {
    const child = spawn('node', [...nodeArgs, MAIN, ...args], { cwd: ROOT });
    let stdout = '',
      stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}
const file = (name: string, text: string): string => {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
};
const csvRows = (text: string): Array<Record<string, string>> => parseCsv(text, { columns: true, skip_empty_lines: true });

beforeAll(() => {
  expect(existsSync(MAIN), 'dist/cli/main.js: build first (npm run build)').toBe(true);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The expected outcome of a generated row, mapped to flags here (independently of cli/batch.ts). */
type GenRow = ReturnType<ReturnType<typeof rowGenerator>>;
function expected(row: GenRow): { result: CalcResult } | { code: string; message: string } {
  try {
    const amount = (x: unknown, what: AmountField) => (x === null ? undefined : typeof x === 'number' ? x : parseAmount(String(x), what));
    const flags: FlagInput = {
      state: String(row.state),
      county: String(row.county),
      value: amount(row.value, 'value'),
      class: (row.class as string | null) ?? undefined,
      homestead: row.homestead as boolean,
      over65: row.over65 as boolean,
      seniorIncome: amount(row['senior-income'], 'seniorIncome'),
      seniorCitizen: row['senior-citizen'] as boolean,
      disabled: row.disabled as boolean,
      veteranDisability: amount(row['veteran-disability'], 'veteranDisability'),
      coldWarVeteran: row['cold-war-veteran'] as boolean,
      star: (row.star as string | null) ?? undefined,
      priorAssessed: amount(row['prior-assessed'], 'priorAssessed'),
      purchasePrice: amount(row['purchase-price'], 'purchasePrice'),
      purchaseYear: row['purchase-year'] === null ? undefined : parseYear(String(row['purchase-year'])),
    };
    return { result: calc.calculate(inputFromFlags(flags, row.year === null ? undefined : (row.year as number))) };
  } catch (e) {
    return { code: (e as { code: string }).code, message: (e as Error).message };
  }
}

const get = (o: unknown, path: string[]): unknown =>
  path.reduce<unknown>((x, k) => (x && typeof x === 'object' ? (x as Record<string, unknown>)[k] : undefined), o);
/** A result value as its CSV cell: numbers as JSON prints them, notes joined. */
const cell = (x: unknown): string =>
  x === undefined || x === null ? '' : Array.isArray(x) ? x.join(NOTE_SEPARATOR) : typeof x === 'number' ? (Number.isFinite(x) ? String(x) : '') : String(x);

describe('batch output equals Calculator.calculate, row for row', () => {
  const N = 400;
  const gen = rowGenerator(bundle, 7);
  const rows = Array.from({ length: N }, (_, i) => gen(i));

  it('the generated rows cover every state with counties, and both good and bad rows', () => {
    const states = Object.values(bundle.states)
      .filter((s) => s.counties.length)
      .map((s) => s.code);
    expect(new Set(rows.map((r) => String(r.state).toUpperCase()))).toEqual(new Set(states));
    const outcomes = rows.map(expected);
    expect(outcomes.filter((o) => 'result' in o).length).toBeGreaterThan(N / 2);
    expect(outcomes.some((o) => 'code' in o)).toBe(true);
  });

  it(`CSV: ${N} rows, the input columns then the result columns, each cell as --json prints it`, async () => {
    const input = file('diff.csv', [GEN_COLUMNS.join(','), ...rows.map(csvLine)].join('\n') + '\n');
    const r = await ptax(['calc', '--batch', input]);
    expect(r.code).toBe(0);
    const out = csvRows(r.stdout);
    expect(out).toHaveLength(N);
    expect(Object.keys(out[0]!)).toEqual([...GEN_COLUMNS, ...RESULT_COLUMNS.map((c) => c.name), 'error', 'errorCode']);
    const given = csvRows(readFileSync(input, 'utf8'));
    let ok = 0;
    out.forEach((o, i) => {
      const row = rows[i]!;
      for (const c of GEN_COLUMNS) expect(o[c]).toBe(given[i]![c]);
      const want = expected(row);
      if ('result' in want) {
        ok++;
        const got = Object.fromEntries(RESULT_COLUMNS.map((c) => [c.name, o[c.name]]));
        const exp = Object.fromEntries(RESULT_COLUMNS.map((c) => [c.name, cell(get(want.result, c.path))]));
        expect({ row: i, ...got, error: o.error }).toEqual({ row: i, ...exp, error: '' });
      } else {
        expect({ row: i, error: o.error, code: o.errorCode, annualTax: o.annualTax }).toEqual({ row: i, error: want.message, code: want.code, annualTax: '' });
      }
    });
    expect(r.stderr).toContain(`ptax batch: ${N} rows, ${ok} ok, ${N - ok} errors`);
  });

  it(`NDJSON: ${N} rows, each the input's keys then the whole result object (or the error)`, async () => {
    const input = file('diff.ndjson', rows.map(ndjsonLine).join('\n') + '\n');
    const r = await ptax(['calc', '--batch', input]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(N);
    lines.forEach((line, i) => {
      const o = JSON.parse(line);
      const given = JSON.parse(ndjsonLine(rows[i]!));
      const want = expected(rows[i]!);
      if ('result' in want) expect(o).toEqual({ ...given, result: JSON.parse(JSON.stringify(want.result)) });
      else expect(o).toEqual({ ...given, error: { code: want.code, message: want.message } });
      expect(Object.keys(o).slice(0, -1)).toEqual(Object.keys(given));
    });
  });

  it('money cells are the JSON numbers, from whole cents', () => {
    const w = new CsvOut();
    const money = (x: number) => {
      w.ensure(64);
      const at = w.pos;
      w.rounded(x, 2, (y) => (Number.isFinite(y) ? String(y) : ''));
      return w.buf.toString('latin1', at, w.pos);
    };
    for (const x of [0, 5, 9231.6, 9231.64, 0.01, 0.1, 12.3, 1e6, 1234567.89, -5.5, -0.07, 98765432109.99]) expect(money(x)).toBe(String(x));
    expect(money(NaN)).toBe('');
  });

  it('whole numbers print as String prints them, at every digit count (two digits at a time)', () => {
    const w = new CsvOut();
    const rand = rng(12);
    const cases = [
      0,
      1,
      9,
      10,
      11,
      99,
      100,
      101,
      999,
      1000,
      9999,
      10000,
      99999,
      100000,
      999999,
      1000000,
      9999999,
      10000000,
      99999999,
      100000000,
      999999999,
      1000000000,
      2147483646,
      2147483647,
      2 ** 31,
      2 ** 40,
      2 ** 53 - 1,
      ...Array.from({ length: 20000 }, () => Math.floor(rand() * 10 ** Math.floor(rand() * 11))),
    ];
    const bad = cases.filter((n) => {
      w.ensure(64);
      const at = w.pos;
      w.uint(n);
      return w.buf.toString('latin1', at, w.pos) !== String(n);
    });
    expect(bad).toEqual([]);
  });

  it('rounded numbers print as String prints them, for 2, 6 and 8 decimals, at every magnitude', () => {
    const rand = rng(11);
    const bad: string[] = [];
    const w = new CsvOut();
    const fallback = (x: number) => (Number.isFinite(x) ? String(x) : '');
    const wholes = [0, -0, 1, 7, 10, 100, 48000, 350000, 2 ** 31 - 1, 2 ** 31, 2 ** 40, -1, -48000, 1e15, 1e21];
    for (let i = 0; i < 100_000 + wholes.length; i++) {
      const x = i < wholes.length ? wholes[i]! : (rand() - 0.3) * 10 ** Math.floor(rand() * 16 - 8);
      for (const d of [2, 6, 8]) {
        const y = roundTo(x, d);
        w.ensure(64);
        // rounded(x) rounds and writes in one go: the same text as String(roundTo(x)).
        const at = w.pos;
        w.rounded(x, d, fallback);
        const fused = w.buf.toString('latin1', at, w.pos);
        if (fused !== fallback(y)) bad.push(`rounded ${x} (${d}): ${fused} vs ${fallback(y)}`);
      }
    }
    // Values on the edges of rounding and of String's exponent form (below 1e-6).
    for (const [x, d, want] of [
      [920.535, 2, '920.54'],
      [-920.535, 2, '-920.54'],
      [0.004, 2, '0'],
      [-0.004, 2, '0'],
      [5e-7, 8, '5e-7'],
      [1.2e-6, 8, '0.0000012'],
      [0.0000004, 6, '0'],
      [2.675, 2, '2.68'],
      [NaN, 2, ''],
      [Infinity, 6, ''],
      [1e21, 2, String(roundTo(1e21, 2))],
      [123456789.98765433, 8, String(roundTo(123456789.98765433, 8))],
    ] as const) {
      w.ensure(64);
      const at = w.pos;
      w.rounded(x, d, fallback);
      expect([x, d, w.buf.toString('latin1', at, w.pos)]).toEqual([x, d, want]);
    }
    expect(bad).toEqual([]);
  });
});

describe('CsvOut, the one printer of batch cells', () => {
  /** What `f` writes, as text, through the buffers the stream would get. */
  const text = (f: (w: CsvOut) => void): string => {
    const w = new CsvOut();
    w.ensure(1 << 16);
    f(w);
    return Buffer.concat(w.take()).toString('utf8');
  };

  it('a cell as --json prints the value: null as nothing, text quoted when it must be, numbers rounded to the unit', () => {
    const cell = (x: unknown, unit: 'usd' | 'percent' | 'fraction' | 'text' | 'count') => text((w) => w.cell(x, unit));
    expect(cell(null, 'usd')).toBe('');
    expect(cell(undefined, 'usd')).toBe('');
    expect(cell(NaN, 'usd')).toBe(''); // JSON prints null
    expect(cell(Infinity, 'count')).toBe('');
    expect(cell('plain', 'text')).toBe('plain');
    expect(cell('a,b', 'text')).toBe('"a,b"');
    expect(cell('say "hi"', 'text')).toBe('"say ""hi"""');
    expect(cell('line\nbreak', 'text')).toBe('"line\nbreak"');
    expect(cell(12.5, 'text')).toBe('12.5');
    expect(cell('basic', 'usd')).toBe('basic'); // not a number: as text, whatever the unit
    expect(cell(true, 'usd')).toBe('true');
    expect(cell(3, 'count')).toBe('3');
    expect(cell(1e21, 'count')).toBe('1e+21');
    // Half away from zero, to the cent: −1,234.565 → −1,234.57; 920.535 (92053.49999… cents in binary) → 920.54.
    expect(cell(-1234.565, 'usd')).toBe('-1234.57');
    expect(cell(920.535, 'usd')).toBe('920.54');
    expect(cell(-0.001, 'usd')).toBe('0'); // no negative zero
    expect(cell(0.0000015, 'percent')).toBe('0.000002');
    // Beyond whole units below 9e14, and what String prints with an exponent: as JSON prints them.
    expect(cell(1e16, 'usd')).toBe('10000000000000000');
    expect(cell(1.2e-7, 'fraction')).toBe('1.2e-7');
    expect(cell(3000000000.25, 'usd')).toBe('3000000000.25'); // a whole part above 2^31
    expect(text((w) => w.amount(-0, 2))).toBe('0');
    expect(text((w) => w.amount(-7.005, 2))).toBe('-7.01');
    expect(text((w) => w.amount(3000000000.25, 2))).toBe('3000000000.25');
  });

  it('rows across many buffers come out whole and in order; pending counts what is not taken yet', () => {
    const w = new CsvOut();
    const parts: Buffer[] = [];
    const letters = '0123456789abcdefghijklmnopqrstuvwxyz';
    const src = Buffer.from(letters);
    let expected = '';
    for (let i = 0; i < 60_000; i++) {
      w.ensure(80);
      w.uint(i);
      w.byte(44);
      w.range(src, 0, i % 37); // short ranges byte by byte, long ones copied
      w.byte(44);
      w.str('é');
      w.byte(10);
      expected += `${i},${letters.slice(0, i % 37)},é\n`;
      if (i % 7_000 === 0) {
        expect(w.pending).toBe(Buffer.byteLength(expected) - Buffer.concat(parts).length);
        parts.push(...w.take());
        expect(w.pending).toBe(0);
      }
    }
    parts.push(...w.take());
    expect(Buffer.concat(parts).toString('utf8')).toBe(expected);
  });
  it('writeTo: rows written to a file across many buffers come out whole and in order, in the same memory after the first', () => {
    const w = new CsvOut();
    const path = join(tmp, 'write-to.txt');
    const fd = openSync(path, 'w');
    let expected = '';
    const memory = new Set<ArrayBufferLike>();
    try {
      for (let i = 0; i < 200_000; i++) {
        w.ensure(80);
        const row = `${i},${'x'.repeat(i % 50)},é\n`;
        w.str(row);
        expected += row;
        if (i % 20_000 === 19_999) {
          w.writeTo(fd);
          if (i >= 60_000) memory.add(w.buf.buffer);
          expect(w.pending).toBe(0);
        }
      }
      w.writeTo(fd);
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(path, 'utf8')).toBe(expected);
    // ~7 MB written through the same few allocations: each writeTo starts again at the start of one of them.
    expect(expected.length).toBeGreaterThan(6_000_000);
    expect(memory.size).toBe(1);
  });
});

describe('the engine fast path (place cache, result columns) and Calculator.calculate agree', () => {
  // Random inputs of every state, county spelling, year and flag, and odd values (zero,
  // negative, huge, unknown classes and levels), so every validation, step and note runs.
  const rand = rng(5);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const places = Object.values(bundle.states).flatMap((s) => [
    ...s.counties.flatMap((c) => [
      [s.code, c.name],
      [s.code.toLowerCase(), c.slug],
    ]),
    ...s.aliases.map((a) => [s.code, a.name]),
    [s.code, ''],
    [s.code, 'Nowhere'],
  ]);
  const years = [...new Set(Object.values(bundle.programs).flatMap((p) => p.years))];
  const amount = () => pick([null, 0, -1000, 1, 50_000, 300_000, 800_000, 2_500_000, 60_000_000, Math.round(rand() * 3_000_000), rand() * 1e6]);
  const inputs = Array.from({ length: 6000 }, () => {
    const [state, county] = pick(places);
    return inputFromFlags(
      {
        state: state!,
        county: county!,
        value: amount() ?? undefined,
        class: pick([null, 'class1', 'class2', 'class3', 'class4', 'class9']),
        homestead: rand() < 0.5,
        over65: rand() < 0.3,
        seniorIncome: pick([null, 0, 50_000, 107_300, 107_301, 250_000, -5]),
        seniorCitizen: rand() < 0.2,
        disabled: rand() < 0.1,
        veteranDisability: pick([null, 0, 10, 15, 20, 40, 60, 80, 90, 100, 110]),
        coldWarVeteran: rand() < 0.1,
        star: pick([null, null, 'none', 'basic', 'enhanced']),
        priorAssessed: pick([null, 0, 10_000, 40_000, 500_000]),
        purchasePrice: pick([null, 200_000, 900_000]),
        purchaseYear: pick([null, 1978, 2001, 2024]),
      },
      pick([undefined, undefined, ...years, Math.max(...years) + 1, 2019]),
    );
  });
  const outcome = (f: () => string) => {
    try {
      return f();
    } catch (e) {
      return `ERROR ${(e as { code?: string }).code}: ${(e as Error).message}`;
    }
  };

  it('6,000 random inputs: the same cells (or error) both ways', () => {
    const fast = new BatchCalculator(calc);
    const expectedCells = (x: (typeof inputs)[number]) =>
      outcome(() => {
        const r = calc.calculate(x);
        return RESULT_COLUMNS.map((c) => {
          const s = cell(get(r, c.path));
          return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
        }).join(',');
      });
    const diffs: string[] = [];
    const kinds = new Set<string>();
    inputs.forEach((x, i) => {
      const want = expectedCells(x);
      kinds.add(want.startsWith('ERROR') ? want.split(':')[0]! : 'ok');
      const got = outcome(() => fast.csv(x));
      if (got !== want && diffs.length < 5) diffs.push(`#${i}: ${JSON.stringify(x)}\n  got  ${got}\n  want ${want}`);
    });
    expect(diffs).toEqual([]);
    expect(kinds.has('ok')).toBe(true);
    expect(kinds.size).toBeGreaterThan(5); // several kinds of error were exercised too
  });

  it('spellings of one county share a place; a spelling with the same slug but another countyKey does not', () => {
    // "Saint Johñs" and "Saint Joh s" are both slug "saint-joh-s"; findCounty finds the first
    // by countyKey (stjohns: St. Johns County) and not the second (stjohs). The place cache
    // must not hand the first's place to the second.
    const fast = new BatchCalculator(calc);
    const input = (county: string) => inputFromFlags({ state: 'FL', county, value: 300_000 });
    const first = fast.csv(input('Saint Johñs'));
    expect(first.startsWith('St. Johns County,')).toBe(true);
    expect(fast.csv(input('st. johns county'))).toBe(first);
    expect(fast.csv(input('SAINT JOHNS'))).toBe(first);
    expect(outcome(() => fast.csv(input('Saint Joh s')))).toBe(outcome(() => calc.calculate(input('Saint Joh s')) as never));
    expect(outcome(() => fast.csv(input('Saint Joh s')))).toMatch(/^ERROR UNKNOWN_COUNTY: /);
  });
});

describe('the New York golden fixtures through batch mode (each with its hand computation)', () => {
  interface Case {
    name: string;
    year?: number;
    lang?: string;
    input: Record<string, unknown>;
    expected?: Record<string, unknown>;
    notes?: string[];
    error?: string;
    tolerance?: number;
  }
  const dir = join(ROOT, 'fixtures/ny');
  const cases: Case[] = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .flatMap((f) => parseYamlText(readFileSync(join(dir, f), 'utf8')) as Case[])
    .filter((c) => (c.lang ?? 'en') === 'en'); // the batch runs in English
  const kebab = (k: string) => k.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
  const keys = [...new Set(cases.flatMap((c) => Object.keys(c.input)))];
  const columns = [...keys.map(kebab), 'year'];
  const csvCell = (x: unknown) => (x === undefined || x === null ? '' : /[",\n]/.test(String(x)) ? `"${String(x).replace(/"/g, '""')}"` : String(x));

  it(`${cases.length} cases, CSV: the figures of each case's hand computation, or its error`, async () => {
    expect(cases.length).toBeGreaterThan(100);
    const text = [columns.join(','), ...cases.map((c) => [...keys.map((k) => csvCell(c.input[k])), csvCell(c.year)].join(','))].join('\r\n');
    const r = await ptax(['calc', '--batch', file('fixtures.csv', text)]);
    expect(r.code).toBe(0);
    const out = csvRows(r.stdout);
    expect(out).toHaveLength(cases.length);
    const flat = new Set(RESULT_COLUMNS.map((c) => c.name));
    let compared = 0;
    cases.forEach((c, i) => {
      const o = out[i]!;
      if (c.error !== undefined) {
        expect([c.name, o.error]).toEqual([c.name, c.error]);
        return;
      }
      expect([c.name, o.error]).toEqual([c.name, '']);
      for (const [path, want] of Object.entries(c.expected ?? {})) {
        if (!flat.has(path)) continue;
        compared++;
        if (typeof want === 'number')
          expect(Math.abs(Number(o[path]) - want), `${c.name}: ${path} = ${o[path]}, expected ${want}`).toBeLessThanOrEqual((c.tolerance ?? 0.01) + 1e-9);
        else expect([c.name, o[path]]).toEqual([c.name, String(want)]);
      }
      for (const n of c.notes ?? []) expect(o.notes.split(NOTE_SEPARATOR), c.name).toContain(n);
    });
    expect(compared).toBeGreaterThan(500);
  });

  it(`${cases.length} cases, NDJSON: every expected figure of each case (nyc detail included)`, async () => {
    const text = cases.map((c) => JSON.stringify({ ...c.input, ...(c.year === undefined ? {} : { year: c.year }) })).join('\n');
    const r = await ptax(['calc', '--batch', '-', '--batch-format', 'ndjson'], text);
    expect(r.code).toBe(0);
    const out = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(out).toHaveLength(cases.length);
    cases.forEach((c, i) => {
      const o = out[i]!;
      if (c.error !== undefined) {
        expect([c.name, o.error?.message]).toEqual([c.name, c.error]);
        return;
      }
      for (const [path, want] of Object.entries(c.expected ?? {})) {
        const got = get(o.result, path.split('.'));
        if (typeof want === 'number')
          expect(Math.abs((got as number) - want), `${c.name}: ${path} = ${String(got)}, expected ${want}`).toBeLessThanOrEqual((c.tolerance ?? 0.01) + 1e-9);
        else expect([c.name, got]).toEqual([c.name, want]);
      }
      for (const n of c.notes ?? []) expect(o.result.notes, c.name).toContain(n);
    });
  });

  it('figures checked by hand here: Kings class1 800,000, with and without homestead', async () => {
    const r = await ptax([
      'calc',
      '--batch',
      file('kings.csv', 'state,county,class,value,homestead\nNY,Kings,class1,800000,no\nNY,Kings County,class1,"800,000",yes\n'),
    ]);
    expect(r.code).toBe(0);
    const [a, b] = csvRows(r.stdout);
    // FY2026 class1: AV = 800,000 × 6% = 48,000; tax = 48,000 × 19.843% = 9,524.64; monthly = 793.72;
    // school = 9,524.64 × 58.4% = 5,562.39, city = 3,962.25; hint = 800,000 × 15% × 0.6879% (Kings) = 825.48.
    expect([a!.countyName, a!.program, a!.rulesYear, a!.annualTax, a!.monthlyTax, a!.baseAssessedValue]).toEqual([
      'Kings County',
      'ny.nyc',
      '2026',
      '9524.64',
      '793.72',
      '48000',
    ]);
    expect([a!['countyBreakdown.school'], a!['countyBreakdown.county'], a!['countyBreakdown.city'], a!['countyBreakdown.special']]).toEqual([
      '5562.39',
      '0',
      '3962.25',
      '0',
    ]);
    expect(a!.potentialSavings).toBe('825.48');
    // Homestead → Basic STAR: min(30,000 × 19.843% × 58.4% = 3,476.49, school 5,562.39, max 293) = 293;
    // 9,524.64 − 293 = 9,231.64; monthly 769.30 (printed 769.3).
    expect([b!.value, b!.annualTax, b!.monthlyTax, b!.exemptionSavings]).toEqual(['800,000', '9231.64', '769.3', '293']);
  });
});

describe('bad rows keep their place; the run goes on', () => {
  const text = [
    '\uFEFFid,State,County,Value,class,Homestead,SENIOR_INCOME,star,parcel note',
    'a,NY,Kings,800000,class1,true,,,"plain"',
    'b,NY,Kigns,800000,class1,true,,,x',
    'c,NY,Kings,abc,class1,true,,,x',
    '',
    'd,NY,Kings,800000,class1,maybe,,,x',
    'e,NY,Kings,800000,class1,true,,gold,x',
    'f,NY,Kings,800000,class1',
    'g,NY,Albany,300000,,YES,120000,,"a ""quoted"", multi-line',
    'note"',
    'h,NY,Kings,800000,class9,1,,,x',
    'i,ZZ,Kings,800000,class1,0,,,x',
    'j,NY,Albany,"300,000",,no,,,x',
  ].join('\r\n');

  it('every row comes out, in order, each bad one with its message and code; exit 0; the summary on stderr', async () => {
    const r = await ptax(['calc', '--batch', file('bad.csv', text)]);
    expect(r.code).toBe(0);
    const out = csvRows(r.stdout);
    expect(out.map((o) => o.id)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']);
    expect(out.map((o) => o.errorCode)).toEqual([
      '',
      'UNKNOWN_COUNTY',
      'INVALID_NUMBER',
      'INVALID_BOOLEAN',
      'INVALID_STAR',
      'INVALID_ROW',
      '',
      'INVALID_CLASS',
      'UNKNOWN_STATE',
      '',
    ]);
    expect(out[1]!.error).toBe('Unknown county "Kigns" in NY. Did you mean Kings? (see: ptax counties --state NY)');
    expect(out[2]!.error).toBe('Home value must be a number, like 350000 or 1,250,000 (got "abc")');
    expect(out[3]!.error).toBe('homestead must be true/false, yes/no, 1/0 or empty (got "maybe")');
    expect(out[5]!.error).toBe('line 8: 5 fields, the header has 9');
    expect(out[5]!.County).toBe('Kings');
    expect(out[6]!['parcel note']).toBe('a "quoted", multi-line\r\nnote'); // the line break inside quotes is kept as written
    // Albany 1.8937% (the Census rate, which already averages STAR): 300,000 × 1.8937% = 5,681.10. Homestead (row g):
    // Basic STAR is shown beside, not subtracted (docs/conventions.md) → 5,681.10, no saving. Row j: no exemption.
    expect([out[6]!.annualTax, out[6]!.exemptionSavings, out[9]!.annualTax, out[9]!.exemptionSavings]).toEqual(['5681.1', '0', '5681.1', '0']);
    // Kings class1 homestead: 9,524.64 − Basic STAR 293 = 9,231.64 (see the fixtures test above).
    expect(out[0]!.annualTax).toBe('9231.64');
    expect(r.stderr).toContain('ptax: columns passed through, not used by the calculation: id, parcel note');
    expect(r.stderr).toMatch(/^ptax batch: 10 rows, 3 ok, 7 errors, [\d.]+ s, \d+ rows\/s$/m);
  });

  it('--strict: the same rows, all written, and exit 1', async () => {
    const out = join(tmp, 'strict-out.csv');
    const r = await ptax(['calc', '--batch', file('bad2.csv', text), '--strict', '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(csvRows(readFileSync(out, 'utf8'))).toHaveLength(10);
  });

  it('--strict with only good rows: exit 0', async () => {
    const r = await ptax(['calc', '--batch', file('good.csv', 'state,county,class,value\nNY,Kings,class1,800000\n'), '--strict']);
    expect(r.code).toBe(0);
    expect(csvRows(r.stdout)[0]!.annualTax).toBe('9524.64');
  });

  it('NDJSON: a line that is not JSON, not an object, or uses an output key is an error row', async () => {
    const r = await ptax([
      'calc',
      '--batch',
      file(
        'bad.ndjson',
        [
          '{"state":"NY","county":"Kings","class":"class1","value":800000,"homestead":"yes","id":1}',
          '{"state":"NY",',
          '',
          '[1,2]',
          '{"state":"NY","county":"Kings","class":"class1","result":1}',
          '{"state":"NY","county":"Kings","class":"class1","homestead":"perhaps"}',
          '{"state":"NY","county":"Kings","class":"class1","value":"1,250,000","seniorIncome":null}',
        ].join('\n'),
      ),
    ]);
    expect(r.code).toBe(0);
    const out = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(out).toHaveLength(6);
    expect(out[0].result.annualTax).toBe(9231.64);
    expect(out[0].id).toBe(1);
    expect(out[1]).toEqual({ input: '{"state":"NY",', error: { code: 'INVALID_JSON', message: expect.stringMatching(/^line 2: not JSON/) } });
    expect(out[2].error.code).toBe('INVALID_ROW');
    expect(out[3].error).toEqual({ code: 'INVALID_ROW', message: 'line 5: the key "result" is ptax\'s output; rename it' });
    expect(out[4].error.code).toBe('INVALID_BOOLEAN');
    // 1,250,000 × 6% × 19.843% = 14,882.25
    expect(out[5].result.annualTax).toBe(14882.25);
    expect(r.stderr).toContain('ptax batch: 6 rows, 2 ok, 4 errors');
  });
});

describe('standard input and format detection', () => {
  it('- with CSV: detected from the first character', async () => {
    const r = await ptax(['calc', '--batch', '-'], '\n\nstate,county,class,value\nNY,Kings,class1,800000\n');
    expect(r.code).toBe(0);
    expect(csvRows(r.stdout)[0]!.annualTax).toBe('9524.64');
  });

  it('- with NDJSON: detected from the first non-blank character "{"', async () => {
    const r = await ptax(['calc', '--batch', '-'], '  \n{"state":"NY","county":"Kings","class":"class1","value":800000}\n');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).result.annualTax).toBe(9524.64);
  });

  it('a file whose name does not tell: --batch-format, else the first character', async () => {
    const p = file('roll.txt', '{"state":"NY","county":"Kings","class":"class1","value":800000}\n');
    expect(JSON.parse((await ptax(['calc', '--batch', p])).stdout).result.annualTax).toBe(9524.64);
    const r = await ptax(['calc', '--batch', p, '--batch-format', 'csv']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('ptax: header: text after the closing quote of field 2\n'); // JSON read as CSV
  });
});

describe('what stops a batch: one line on stderr, exit 2, no stack trace', () => {
  const cases: Array<[string, () => string[], RegExp]> = [
    ['a missing file', () => ['calc', '--batch', join(tmp, 'nope.csv')], /^ptax: Cannot read .*nope\.csv: no such file\n$/],
    ['a directory', () => ['calc', '--batch', tmp], /^ptax: Cannot read .*: it is a directory\n$/],
    ['an empty CSV', () => ['calc', '--batch', file('empty.csv', '')], /^ptax: .*empty\.csv is empty: a CSV batch needs a header line/],
    ['no county column', () => ['calc', '--batch', file('h1.csv', 'state,value\nNY,1\n')], /^ptax: header: no "county" column/],
    [
      'the same column twice',
      () => ['calc', '--batch', file('h2.csv', 'state,county,senior-income,seniorIncome\n')],
      /^ptax: header: "seniorIncome" and "senior-income" are the same column\n$/,
    ],
    [
      'an output column as input',
      () => ['calc', '--batch', file('h3.csv', 'state,county,annualTax\n')],
      /^ptax: header: "annualTax" is an output column of ptax; rename it\n$/,
    ],
    ['an unclosed quote in the header', () => ['calc', '--batch', file('h4.csv', 'state,"county\n')], /^ptax: header: a quoted field is not closed\n$/],
    [
      '--value with --batch',
      () => ['calc', '--batch', file('v.csv', 'state,county\n'), '--value', '5'],
      /^ptax: --value cannot be used with --batch: give it as a column of the batch file\n$/,
    ],
    ['--json with --batch', () => ['calc', '--batch', file('v.csv', 'state,county\n'), '--json'], /^ptax: --json does not apply to --batch/],
    ['--out without --batch', () => ['calc', '--out', join(tmp, 'x.csv')], /^ptax: --out needs --batch <file>\n$/],
    [
      '--out the input itself',
      () => {
        const p = file('same.csv', 'state,county\n');
        return ['calc', '--batch', p, '--out', p];
      },
      /^ptax: --out .* is the input file; choose another output\n$/,
    ],
    [
      'an unwritable --out',
      () => ['calc', '--batch', file('w.csv', 'state,county\n'), '--out', join(tmp, 'no/such/dir.csv')],
      /^ptax: Cannot write .*: no such file\n$/,
    ],
    ['a bad --batch-format', () => ['calc', '--batch', '-', '--batch-format', 'xml'], /^ptax: option '--batch-format <format>' argument 'xml' is invalid/],
    ['calc without --batch still needs --state', () => ['calc', '--county', 'Kings'], /^ptax: required option '--state <code>' not specified\n$/],
  ];
  for (const [what, args, message] of cases) {
    it(what, async () => {
      const r = await ptax(args());
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });
  }
  it('a roll written to a pipe (read fast and read slowly), to a file as standard output, and with --out: the same bytes, the output buffers written again', async () => {
    const input = join(tmp, 'roll-30000.csv');
    await writeRoll(input, 30_000, bundle, 7);
    const piped = await ptax(['calc', '--batch', input]);
    expect(piped.code, piped.stderr).toBe(0);
    const toFile = join(tmp, 'stdout-file.csv');
    const fd = openSync(toFile, 'w');
    const code = await new Promise<number | null>((done) =>
      spawn('node', [MAIN, 'calc', '--batch', input], { cwd: ROOT, stdio: ['ignore', fd, 'ignore'] }).on('close', done),
    );
    closeSync(fd);
    const withOut = join(tmp, 'out-file.csv');
    const r = await ptax(['calc', '--batch', input, '--out', withOut]);
    expect([code, r.code]).toEqual([0, 0]);
    // A reader that pauses at every chunk: ptax waits for 'drain', then writes into the same
    // buffers again (standard output as a stream keeps nothing it has written).
    const slow = await new Promise<string>((done) => {
      const child = spawn('node', [MAIN, 'calc', '--batch', input], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
      const parts: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => {
        parts.push(d);
        child.stdout.pause();
        setTimeout(() => child.stdout.resume(), 2);
      });
      child.on('close', () => done(Buffer.concat(parts).toString('utf8')));
    });
    expect(slow === piped.stdout).toBe(true);
    // ~13 MB of rows: many of the output's 1 MB buffers, each written again after the first few.
    expect(piped.stdout.length).toBeGreaterThan(10_000_000);
    expect(piped.stdout.split('\n')).toHaveLength(30_002); // the header, every row, the last line feed
    expect(readFileSync(toFile, 'utf8') === piped.stdout).toBe(true);
    expect(readFileSync(withOut, 'utf8') === piped.stdout).toBe(true);
  }, 60_000);
  it('a directory as the input leaves no --out file behind (it is refused before the output is made)', async () => {
    const out = join(tmp, 'from-a-directory.csv');
    const r = await ptax(['calc', '--batch', tmp, '--out', out]);
    expect([r.code, r.stderr]).toEqual([2, `ptax: Cannot read ${tmp}: it is a directory\n`]);
    expect(existsSync(out)).toBe(false);
  });
  it('the same file as --out keeps the input intact', () => {
    expect(readFileSync(join(tmp, 'same.csv'), 'utf8')).toBe('state,county\n');
  });
});

describe('constant memory', () => {
  // Peak resident memory of the child, reported at exit by a preloaded module (kilobytes).
  const preload = file('maxrss.mjs', "process.on('exit', () => process.stderr.write(`maxrss ${process.resourceUsage().maxRSS}\\n`));\n");
  async function peak(rows: number): Promise<{ kb: number; lines: number; run: Run }> {
    const input = join(tmp, `roll-${rows}.csv`);
    await writeRoll(input, rows, bundle, 99);
    const out = join(tmp, `out-${rows}.csv`);
    // A small heap: 300,000 result rows (about 75 MB of text) could not be held in it. The
    // young generation at 8 MB a semi-space: with the old space at 48 MB, V8 sizes it at 1 MB,
    // so that nearly every object outlives a scavenge and the old space is marked and
    // compacted ~100 times (9.5 s of CPU for the 300,000 rows, 4.4 s with this; the peak RSS
    // of both runs grows alike, the difference asserted below stays ~15 MB).
    const run = await ptax(['calc', '--batch', input, '--out', out], undefined, ['--max-old-space-size=48', '--max-semi-space-size=8', '--import', preload]);
    let lines = 0;
    for await (const chunk of createReadStream(out)) for (const b of chunk as Buffer) if (b === 10) lines++;
    rmSync(input);
    rmSync(out);
    return { kb: Number(/maxrss (\d+)/.exec(run.stderr)?.[1]), lines, run };
  }

  it('300,000 rows run in a 48 MB heap, with the peak memory of 30,000 rows (within 32 MB)', async () => {
    const small = await peak(30_000);
    const big = await peak(300_000);
    for (const [r, n] of [
      [small, 30_000],
      [big, 300_000],
    ] as const) {
      expect(r.run.code, r.run.stderr).toBe(0);
      expect(r.lines).toBe(n + 1); // every row and the header
      expect(r.run.stderr).toContain(`ptax batch: ${n} rows`);
    }
    expect(big.kb - small.kb, `peak RSS ${small.kb} KB for 30k rows, ${big.kb} KB for 300k rows`).toBeLessThan(32 * 1024);
  }, 180_000);
});
