/**
 * How `--engine duckdb` reads a CSV roll: its columns are the header line's (checked as the
 * streaming path checks them), never guessed by DuckDB's sniffer from the rows, and a row with
 * more or fewer cells than the header refuses the file with its line number, wherever it is.
 * Before: a last row with extra cells made the sniffer take that row's shape, and the batch
 * wrote 0 rows and exited 0; an extra cell past the sniffer's 20,480-row sample was an
 * "internal error" of many lines. An output file already there is kept when the file is refused.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseCsv } from 'csv-parse/sync';
import { readBundle } from '../build/bundle.js';
import { PtaxError } from '../core/errors.js';
import { csvReadError, runSqlBatch } from './run.js';

const bundle = readBundle('dist/rules/bundle.json');
const tmp = mkdtempSync(join(tmpdir(), 'ptax-csv-read-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const write = (name: string, text: string): string => {
  const file = join(tmp, name);
  writeFileSync(file, text);
  return file;
};

describe('--engine duckdb reads a CSV roll by its header line', () => {
  it('a last row with more cells than the header refuses the file (it wrote 0 rows and exited 0)', async () => {
    const file = write('last.csv', 'state,county,value\nOH,Franklin,300000\nOH,Franklin,400000,2,3\n');
    await expect(runSqlBatch(bundle, { engine: 'duckdb', file, out: join(tmp, 'last.out.csv') })).rejects.toMatchObject({
      code: 'UNREADABLE',
      message: expect.stringMatching(/^Cannot read .*last\.csv: line 3: 5 fields, the header has 3 \(--engine duckdb refuses the file;/),
    });
  }, 60_000);

  it('a row with fewer cells, and one past the sniffer sample (60,002nd line), name their lines', async () => {
    const short = write('short.csv', 'state,county,value\nOH,Franklin,300000\nOH,Franklin\n');
    await expect(runSqlBatch(bundle, { engine: 'duckdb', file: short, out: join(tmp, 'short.out.csv') })).rejects.toMatchObject({
      code: 'UNREADABLE',
      message: expect.stringMatching(/: line 3: 2 fields, the header has 3 /),
    });
    const far = write('far.csv', 'state,county,value\n' + 'OH,Franklin,300000\n'.repeat(60_000) + 'OH,Franklin,1,9\nOH,Franklin,2\n');
    const out = write('far.out.parquet', 'kept');
    await expect(runSqlBatch(bundle, { engine: 'duckdb', file: far, out })).rejects.toMatchObject({
      code: 'UNREADABLE',
      message: expect.stringMatching(/: line 60002: 4 fields, the header has 3 /),
    });
    // The output file that was there is not replaced by a half-written one.
    expect(readFileSync(out, 'utf8')).toBe('kept');
  }, 120_000);

  it('the header as written: a byte-order mark dropped, spaces kept in the echo, names matched as the streaming path matches them', async () => {
    const file = write('bom.csv', '\uFEFF state , County ,VALUE\nOH,Franklin,300000\n');
    const out = join(tmp, 'bom.out.csv');
    await runSqlBatch(bundle, { engine: 'duckdb', file, out });
    const text = readFileSync(out, 'utf8');
    expect(text.split('\n')[0]!.startsWith(' state , County ,VALUE,countyName,')).toBe(true);
    const rows = parseCsv(text, { columns: true }) as Array<Record<string, string>>;
    // Franklin OH, 300,000 × 1.5469% = 4,640.70 (rules/oh/counties.yaml).
    expect(rows.map((r) => r.annualTax)).toEqual(['4640.7']);
  }, 60_000);

  it('the streaming path’s header checks: a column spelt twice, an output column, a column without a name, an empty file', async () => {
    const cases: Array<[string, RegExp]> = [
      ['state,State,county\nOH,OH,Franklin\n', /^header: "State" and "state" are the same column$/],
      ['state,county,annualTax\nOH,Franklin,1\n', /^header: "annualTax" is an output column of ptax; rename it$/],
      ['state,county,\nOH,Franklin,1\n', /^header: column 3 has no name$/],
      ['', /is empty: a CSV batch needs a header line$/],
    ];
    for (const [i, [text, message]] of cases.entries()) {
      const file = write(`header${i}.csv`, text);
      await expect(runSqlBatch(bundle, { engine: 'duckdb', file }), text).rejects.toMatchObject({ code: 'BAD_HEADER', message });
    }
  }, 60_000);

  it('csvReadError: DuckDB’s CSV errors as one line; other errors left as they are', () => {
    const more = csvReadError(
      'r.csv',
      new Error('Invalid Input Error: CSV Error on Line: 7\nOriginal Line: a,"b,c",d,e\nExpected Number of Columns: 3 Found: 4\nPossible fixes: …'),
    );
    expect(more).toBeInstanceOf(PtaxError);
    // A quoted comma: the fields cannot be counted by splitting, so DuckDB's "one past" is not repeated as a count.
    expect((more as PtaxError).message).toMatch(/^Cannot read r\.csv: line 7: more fields than the header's 3 \(/);
    const quote = csvReadError(
      'r.csv',
      new Error('Invalid Input Error: CSV Error on Line: 2\nOriginal Line: OH,"Frank\nValue with unterminated quote found.\n\nPossible fixes:'),
    );
    expect((quote as PtaxError).message).toBe('Cannot read r.csv: line 2: Value with unterminated quote found.');
    const other = new Error('Out of Memory Error: could not allocate');
    expect(csvReadError('r.csv', other)).toBe(other);
  });
});
