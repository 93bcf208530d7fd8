/**
 * The four readers of input text are one (issue 26 §2): the same table of cells read
 * through `ptax calc`'s flags (cli/parse.ts), the batch (engine/batch/reader.ts, a CSV
 * row, its cells read from the bytes where they can be), share links
 * (engine/core/share.ts, the web page's and the site server's) and the web form's money
 * field (web/src/lib/parseValue.ts readMoneyText) give the same value, or the same error
 * code, because all of them read it with engine/core/cells.ts.
 *
 * What each path does with what it read is its own and is written out below: a share link
 * leaves out a bad value (no code) and needs a value above 0; the web form clamps a negative
 * amount to 0 (seed 000 §5); the CLI has no text for a boolean (a switch: `--homestead`),
 * and the web reads booleans and choices from check boxes and lists, not text, except
 * through share links. The web's year field keeps the digits typed (a year being typed,
 * checked against the bounds before use): only four-digit years are compared there.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { Calculator, RESULT_COLUMNS, csvEscape, inputsFromQuery, readBatch, readBundle } from '../engine/node.js';
import { readMoneyText, parseOptionalAmount } from '../web/src/lib/parseValue.js';
import { choiceFlags, numericFlags, parseYear } from './parse.js';

const bundle = readBundle('dist/rules/bundle.json');
const calc = new Calculator(bundle);

/** A value read, or the code of the error. */
type Read = number | boolean | string | { code: string };
const codeOf = (f: () => unknown): Read => {
  try {
    return f() as Read;
  } catch (e) {
    return { code: (e as { code: string }).code };
  }
};

// Kings County (New York City), class 1, 800,000: distinct values of each column give distinct results
// (hand check of the plain row in engine/batch/reader.test.ts: 800,000 × 6% × 19.843% = 9,524.64; with
// homestead, less Basic STAR 293 = 9,231.64).
const COLS = ['state', 'county', 'value', 'class', 'homestead', 'year', 'star'] as const;
const BASE: Record<(typeof COLS)[number], string> = { state: 'NY', county: 'Kings', value: '800000', class: 'class1', homestead: '', year: '', star: '' };

/** One CSV row through the batch reader: its result cells and error code. */
function batchRow(cells: Partial<typeof BASE>): { result: string; code: string } {
  const row = { ...BASE, ...cells };
  const text = COLS.join(',') + '\n' + COLS.map((c) => csvEscape(row[c])).join(',') + '\n';
  const [rec] = parseCsv(readBatch(calc, text, { format: 'csv' }).out, { columns: true }) as Array<Record<string, string>>;
  return { result: RESULT_COLUMNS.map((c) => rec![c.name]).join('|'), code: rec!.errorCode! };
}
/** The codes of a cell that cannot be read (engine/core/cells.ts). */
const READING_CODES = ['INVALID_NUMBER', 'NEGATIVE_AMOUNT', 'INVALID_YEAR', 'INVALID_BOOLEAN', 'INVALID_STAR', 'INVALID_FIELD'];
/** The batch's reading of a cell, seen through its row: the same row as the canonical text of `want` (read without error), or want's error code. */
function expectBatch(column: keyof typeof BASE, raw: string, want: Read): void {
  const got = batchRow({ [column]: raw });
  if (typeof want === 'object') expect(got.code, `${column} ${JSON.stringify(raw)}`).toBe(want.code);
  else {
    const canonical = batchRow({ [column]: String(want) });
    // The canonical row may be refused by the engine after reading (a value of -5,000; enhanced STAR without an income), never by the reading.
    expect(READING_CODES, `${column} ${String(want)}`).not.toContain(canonical.code);
    expect(got, `${column} ${JSON.stringify(raw)}`).toEqual(canonical);
  }
}
/** A share link's reading of a parameter (undefined: left out). */
const share = (name: string, raw: string, id: string) =>
  inputsFromQuery(new URLSearchParams({ county: 'kings', value: '800000', [name]: raw }), 'NY')?.inputs[id];

describe('one reading of input text: CLI flags, batch cells, share links and the web form', () => {
  const MONEY: Array<[string, Read]> = [
    ['$425k', 425000],
    ['1.2m', 1200000],
    ['425,000', 425000],
    [' $1,250,000.50 ', 1250000.5],
    ['425 000', 425000],
    ['$1.5 M', 1500000],
    ['800000', 800000],
    ['425000 USD', 425000],
    ['-5,000', -5000],
    ['1.5e6', { code: 'INVALID_NUMBER' }],
    ['4,50,000', { code: 'INVALID_NUMBER' }],
    ['1,25', { code: 'INVALID_NUMBER' }],
    ['12abc', { code: 'INVALID_NUMBER' }],
    ['99999999999999999', { code: 'INVALID_NUMBER' }],
  ];
  it.each(MONEY)('money %j', (raw, want) => {
    // CLI: --value <raw>
    expect(codeOf(() => numericFlags({ value: raw }).value)).toEqual(want);
    // Batch: the value cell
    expectBatch('value', raw, want);
    // Share link: ?value=<raw> (a link needs a value above 0: otherwise it is not read at all)
    const link = inputsFromQuery(new URLSearchParams({ county: 'kings', value: raw }), 'NY');
    expect(link?.inputs.value).toEqual(typeof want === 'number' && want > 0 ? want : undefined);
    // Web: the home value field (a negative amount becomes 0; a bad one is no value, with the field's message)
    const web = readMoneyText(raw);
    expect(web.value).toEqual(typeof want === 'number' ? Math.max(0, want) : null);
    expect(web.problem).toBe(typeof want === 'number' ? '' : raw === '99999999999999999' ? 'form.amountTooLarge' : 'form.amountInvalid');
  });

  const BOOLEANS: Array<[string, Read]> = [
    ['true', true],
    ['TRUE', true],
    [' yes ', true],
    ['Yes', true],
    ['1', true],
    ['false', false],
    ['False', false],
    ['no', false],
    ['0', false],
    ['maybe', { code: 'INVALID_BOOLEAN' }],
    ['y', { code: 'INVALID_BOOLEAN' }],
    ['2', { code: 'INVALID_BOOLEAN' }],
  ];
  it.each(BOOLEANS)('boolean %j', (raw, want) => {
    expectBatch('homestead', raw, want);
    expect(share('homestead', raw, 'homestead')).toEqual(typeof want === 'boolean' ? want : undefined);
  });

  const YEARS: Array<[string, Read]> = [
    ['2025', 2025],
    [' 2025 ', 2025],
    ['25', { code: 'INVALID_YEAR' }],
    ['2025.0', { code: 'INVALID_YEAR' }],
    ['20x5', { code: 'INVALID_YEAR' }],
    ['02025', { code: 'INVALID_YEAR' }],
  ];
  it.each(YEARS)('year %j', (raw, want) => {
    // CLI: --year <raw> (read by parseYear in cli/ptax.ts) and --purchase-year <raw> (numericFlags)
    expect(codeOf(() => parseYear(raw))).toEqual(want);
    expect(codeOf(() => numericFlags({ purchaseYear: raw }).purchaseYear)).toEqual(want);
    expectBatch('year', raw, want);
    expect(share('year', raw, 'year')).toEqual(typeof want === 'number' ? want : undefined);
    if (typeof want === 'number' && raw.trim().length === 4) expect(parseOptionalAmount(raw)).toBe(want);
  });

  const STARS: Array<[string, Read]> = [
    ['basic', 'basic'],
    [' basic ', 'basic'],
    ['enhanced', 'enhanced'],
    ['none', 'none'],
    ['BASIC', { code: 'INVALID_STAR' }],
    ['gold', { code: 'INVALID_STAR' }],
  ];
  it.each(STARS)('choice (star) %j', (raw, want) => {
    expect(codeOf(() => choiceFlags({ star: raw }).star)).toEqual(want);
    expectBatch('star', raw, want);
    expect(share('star', raw, 'starType')).toEqual(typeof want === 'string' ? want : undefined);
  });

  it('the batch rows compared above differ where their values differ (the comparison can fail)', () => {
    // 800,000 without and with homestead: 9,524.64 and 9,231.64 (Basic STAR 293); 425,000 is another row again.
    expect(batchRow({}).result).toContain('|9524.64|');
    expect(batchRow({ homestead: 'true' }).result).toContain('|9231.64|');
    expect(batchRow({ value: '425000' }).result).not.toBe(batchRow({}).result);
    expect(batchRow({ star: 'none', homestead: 'true' }).result).toBe(batchRow({}).result);
  });
});
