/**
 * The batch reader's two ways agree: rows whose place is found by the bytes of the state,
 * county and year cells and whose facts are written by slot, and every row given to the
 * engine as an input (`fast: false`: `Calculator.prepare`'s way), both through the one CSV
 * reader and cell coercion, give the same output, byte for byte, and the same counts, for
 * seeded rolls of every state and for lines built to fall on every edge of the reader: quoted cells, thousands separators,
 * spaces, other spellings of true/false, non-ASCII text, CRLF, a lone CR, a byte order
 * mark, bad cells, short and long rows, unknown places; fed whole and in small chunks
 * that cut records (and UTF-8 characters) anywhere.
 */
import { describe, expect, it } from 'vitest';
import { readBundle } from '../node.js';
import { Calculator } from '../core/calculate.js';
import { GEN_COLUMNS, csvLine, rng, rowGenerator } from '../../scripts/gen-batch.js';
import { BatchReader, PlaceKeys, readBatch } from './reader.js';

/** The rows a reader read in one pass (`plain`), the text pushed whole. */
class BatchReaderCount extends BatchReader {
  constructor(calc: Calculator, text: Buffer) {
    super(calc, { format: 'csv' });
    this.push(text);
    this.end();
  }
}
import { nodeProgramSource } from '../codegen/node.js';

const bundle = readBundle('dist/rules/bundle.json');
/** The generated programs (dist/rules/js), as `ptax calc --batch` runs them: rows of a numbered place (BatchCalculator.csvPlaced). */
const source = nodeProgramSource();

interface Summary {
  rows: number;
  ok: number;
  errors: number;
  inPlace: number;
}
/** Reads `text` as CSV split into chunks of the given sizes (cycled); the output, counts and warnings. */
async function run(
  text: Buffer,
  fast: boolean,
  sizes: number[] = [1 << 20],
  generated = false,
): Promise<{ out: string; summary: Summary; warnings: string[] }> {
  const warnings: string[] = [];
  // A fresh calculator each run: no place learnt by one run helps the other.
  const calc = generated ? new Calculator(bundle, { generated: source }) : new Calculator(bundle);
  const r = readBatch(calc, text, { format: 'csv', fast, chunks: sizes, warn: (s) => warnings.push(s) });
  return { out: r.out, summary: r, warnings };
}

async function expectSame(text: Buffer, sizes?: number[], generated = false): Promise<string> {
  const general = await run(text, false);
  const fast = await run(text, true, sizes, generated);
  expect(fast.out).toBe(general.out);
  expect([fast.summary.rows, fast.summary.ok, fast.summary.errors]).toEqual([general.summary.rows, general.summary.ok, general.summary.errors]);
  expect(fast.warnings).toEqual(general.warnings);
  return general.out;
}

describe('the fast reader and the general reader give the same output', () => {
  it('3,000 seeded rows of every state (plain, quoted amounts, bad values, other spellings)', async () => {
    const gen = rowGenerator(bundle, 77);
    const text = [GEN_COLUMNS.join(','), ...Array.from({ length: 3000 }, (_, i) => csvLine(gen(i)))].join('\n') + '\n';
    const out = await expectSame(Buffer.from(text));
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(3001);
    // The generated programs (as ptax calc --batch runs them, rows of numbered places), fed in odd chunks: the same output.
    await expectSame(Buffer.from(text), [4093, 777], true);
    // The fast reader does read nearly every line of such a roll (all but those with a cell it leaves to the general way).
    const fast = await run(Buffer.from(text), true);
    expect(fast.summary.inPlace).toBeGreaterThan(2000);
    expect((await run(Buffer.from(text), false)).summary.inPlace).toBe(0);
    // Hand check of the header and the shape: the input columns, then the result columns.
    expect(lines[0]!.startsWith(GEN_COLUMNS.join(',') + ',countyName,program,rulesYear,annualTax,')).toBe(true);
    expect(lines[0]!.endsWith(',notes,error,errorCode')).toBe(true);
  });

  // Every line of this roll is built to sit on an edge of the fast reader.
  const edgy = [
    'state,county,value,class,year,homestead,over65,senior-income,veteran-disability,star,purchase-price,purchase-year,note',
    'NY,Kings,800000,class1,,true,false,,,,,,plain',
    'NY,Kings,"800,000",class1,,true,false,,,,,,quoted thousands',
    'NY,Kings,"80,0000",class1,,true,false,,,,,,bad grouping (an error)',
    'NY,Kings,"$800,000",class1,,true,false,,,,,,dollar sign',
    'NY,Kings,"1,234,567,890,123,456,789",class1,,true,false,,,,,,too long for exact digits',
    'NY,Kings,12345678901234567,class1,,,,,,,,,17 digits',
    'NY,Kings,0000800000,class1,,,,,,,,,leading zeros',
    'NY,Kings,800000.50,class1,,,,,,,,,decimals',
    'NY,Kings, 800000,class1,,,,,,,,,space before',
    'NY, Kings,800000,class1,,,,,,,,,county with a space',
    ' NY,Kings,800000,class1,,,,,,,,,state with a space',
    'ny,kings county,800000,class1,,,,,,,,,other spelling',
    'NY,Kings,800000,class1,,TRUE,no,,,,,,other booleans',
    'NY,Kings,800000,class1,,maybe,,,,,,,bad boolean',
    'NY,Kings,800000,class1,,"true","false",,,,,,quoted booleans',
    'NY,Kings,800000,class1,2025,,,,,,,,year',
    'NY,Kings,800000,class1,2031,,,,,,,,later year (note)',
    'NY,Kings,800000,class1,1999,,,,,,,,year not covered',
    'NY,Kings,800000,class1,25,,,,,,,,two-digit year',
    'NY,Albany,300000,,,true,true,50000,,enhanced,,,senior STAR',
    'NY,Albany,300000,,,true,true,50000,,superb,,,bad STAR',
    'NY,Albany,300000,,,true,,,40,,,,veteran',
    'TX,Travis,450000,,2024,true,true,,100,,,,TX 2024',
    'TX,Loving,450000,,,true,,,,,,,estimated county',
    'CA,Los Angeles,900000,,,true,,,,,500000,2001,Prop 13',
    'CA,"Los Angeles",900000,,,true,,,,,"500,000",2001,quoted county',
    'FL,Miami-Dade,500000,,,true,true,,,,,,Florida',
    'FL,Miami-Dade,500000,,,true,true,,,,,,"a note, with a comma"',
    'FL,Miami-Dade,500000,,,true,true,,,,,,"a ""quoted"" note"',
    'FL,Doña Ana,500000,,,,,,,,,,non-ASCII county (unknown)',
    'FL,Miami-Dade,500000,classé,,,,,,,,,non-ASCII class',
    'ZZ,Nowhere,100000,,,,,,,,,,unknown state',
    'NY,Nowhere,100000,,,,,,,,,,unknown county',
    'NY,,100000,,,,,,,,,,no county',
    ',Kings,100000,,,,,,,,,,no state',
    'NY,Kings,100000',
    'NY,Kings,100000,,,,,,,,,,,,,too many',
    'NY,Kings,-5,class1,,,,,,,,,negative',
    'NY,Kings,0,class1,,,,,,,,,zero',
    'NY,"Kings,800000,class1,,,,,,,,,unclosed quote on this line',
    'NY,Kings,800000,class1,,,,,,,,,"a note on',
    'two lines"',
    'NY,Kings,800000,class2,,,,,,,,,after the two-line record',
  ];

  it(`${edgy.length - 1} edge lines, LF, fed whole and in chunks of 1 to 7 bytes`, async () => {
    const text = Buffer.from(edgy.join('\n') + '\n');
    const out = await expectSame(text);
    await expectSame(text, [1, 2, 3, 5, 7]);
    const rows = out.trimEnd().split('\n');
    // Figures checked by hand: Kings class1 800,000 with homestead (FY2026): 48,000 AV ×
    // 19.843% = 9,524.64, less Basic STAR 293 = 9,231.64, the same quoted or plain.
    expect(rows[1]).toContain(',Kings County,ny.nyc,2026,9231.64,');
    expect(rows[2]).toContain(',Kings County,ny.nyc,2026,9231.64,');
    expect(rows[3]).toContain('INVALID_NUMBER');
    // Read in place: the plain line twice (the first time its place is asked of the engine) and the quoted-thousands one.
    const twice = Buffer.from([edgy[0], edgy[1], edgy[1], edgy[2]].join('\n') + '\n');
    expect((await run(twice, true)).summary.inPlace).toBe(3);
  });

  it('the same lines with CRLF, a byte order mark, and a lone CR', async () => {
    const crlf = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(edgy.join('\r\n') + '\r\n')]);
    await expectSame(crlf);
    await expectSame(crlf, [3, 1, 4, 1, 5, 9, 2, 6]);
    const lone = Buffer.from(edgy.slice(0, 10).join('\n') + '\nNY,Kings,"800,000",class1\rNY,Kings,1,class1\n' + edgy.slice(10).join('\n'));
    await expectSame(lone);
    await expectSame(lone, [2, 3]);
  });

  it('amounts are read as ptax calc reads them (parseMoney), and a lone CR ends a record, quoted or not', async () => {
    const text = Buffer.from(
      [
        'state,county,value,class',
        'NY,Kings,9999999999999,class1', // 13 digits: a number, refused by the rules (above 50,000,000)
        'NY,Kings,99999999999999,class1', // 14 digits, above 2^53 / 100: refused as parseMoney refuses it
        'NY,Kings,800000,class1\rNY,Kings,800000,class2',
      ].join('\n') + '\n',
    );
    const out = (await expectSame(text)).trimEnd().split('\n');
    expect(out).toHaveLength(5);
    expect(out[1]).toMatch(/,VALUE_TOO_HIGH$/);
    expect(out[2]).toMatch(/,INVALID_NUMBER$/);
    // 800,000 × 6% (class1) × 19.843% = 9,524.64; the class2 row after the CR is a row of its own.
    expect(out[3]).toContain('NY,Kings,800000,class1,Kings County,ny.nyc,2026,9524.64,');
    expect(out[4]).toContain('NY,Kings,800000,class2,Kings County,ny.nyc,2026,');
  });

  it('random lines from random cells (seeded): the same output both ways', async () => {
    const rand = rng(99);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const cells: Record<string, string[]> = {
      state: ['NY', 'ny', 'TX', 'CA', 'FL', 'fl ', '"TX"', '', 'XX'],
      county: ['Kings', 'kings', 'Travis', 'Los Angeles', 'Miami-Dade', 'Albany County', '"Kings"', ' Kings', 'Nowhere', ''],
      value: ['800000', '"1,250,000"', '"12,50,000"', '350000', '', '0', '-1', 'abc', '1e6', '"$900,000"', '99999999999999999'],
      class: ['class1', 'class2', 'class4', '', 'class9', 'CLASS1'],
      year: ['', '2024', '2025', '2026', '2030', '20x5'],
      homestead: ['true', 'false', '', 'yes', '1', 'True'],
      'veteran-disability': ['', '0', '30', '100', '110', 'x'],
      star: ['', 'basic', 'enhanced', 'none', 'BASIC'],
    };
    const cols = Object.keys(cells);
    const lines = [cols.join(','), ...Array.from({ length: 1500 }, () => cols.map((c) => pick(cells[c]!)).join(','))];
    await expectSame(Buffer.from(lines.join('\n') + '\n'));
    await expectSame(Buffer.from(lines.join('\r\n')), [64, 100, 3]);
  });

  it("a roll with more place keys than the table holds: the table and the places' numbers start again, and the output is the same", async () => {
    // 2,000 seeded rows of every state have some 1,500 keys (state, county and year cells);
    // with room for 64 the table starts again about 25 times, and a place numbered before
    // a start is numbered again after it (BatchCalculator.numberOf / resetNumbers).
    const gen = rowGenerator(bundle, 31);
    const text = Buffer.from([GEN_COLUMNS.join(','), ...Array.from({ length: 2000 }, (_, i) => csvLine(gen(i)))].join('\n') + '\n');
    const max = Object.getOwnPropertyDescriptor(PlaceKeys, 'MAX_KEYS')!;
    Object.defineProperty(PlaceKeys, 'MAX_KEYS', { ...max, value: 64 });
    try {
      await expectSame(text, undefined, true);
      expect((await run(text, true, undefined, true)).summary.inPlace).toBeGreaterThan(1000);
    } finally {
      Object.defineProperty(PlaceKeys, 'MAX_KEYS', max);
    }
  });

  it('after the table starts again, a place given the number of the place last written is written with its own facts', async () => {
    // Room for 2 keys: Hardin is 0, Franklin 1, Hardin again (its facts in the county
    // programs' fact array); Wood is a third key: the table starts again and Wood is 0. Its
    // row must not take Hardin's facts, left in the array under the number 0.
    const text = Buffer.from('state,county,value\nOH,Hardin,200000\nOH,Franklin,200000\nOH,Hardin,300000\nOH,Wood,200000\nOH,Wood,300000\n');
    const max = Object.getOwnPropertyDescriptor(PlaceKeys, 'MAX_KEYS')!;
    Object.defineProperty(PlaceKeys, 'MAX_KEYS', { ...max, value: 2 });
    try {
      const out = (await expectSame(text, undefined, true)).trimEnd().split('\n');
      expect(out[4]!.startsWith('OH,Wood,200000,Wood County,')).toBe(true);
      expect((await run(text, true, undefined, true)).summary.inPlace).toBe(5);
    } finally {
      Object.defineProperty(PlaceKeys, 'MAX_KEYS', max);
    }
  });

  it('plain rows are read in one pass, and a row with any cell the one pass leaves is read as before, with the same output', async () => {
    const calc = new Calculator(bundle, { generated: source });
    const lines = [
      'state,county,value,class,year,homestead,star,purchase-price,note',
      'NY,Kings,800000,class1,,true,,,plain', // one pass
      'NY,Kings,800000,class1,2025,false,basic,,plain with a year and a STAR', // one pass
      'NY,Kings,,class1,,,,,empty cells', // one pass: the value's default, 350,000
      'NY,Kings,9999999999999,class1,,,,,13 digits', // one pass (a number; the rules refuse it)
      'NY,Kings,99999999999999,class1,,,,,14 digits', // split: parseMoney reads it
      'NY,Kings,800000,class1,20255,,,,five-digit year', // split: an error
      'NY,Kings,800000,class1,,yes,,,yes', // split: parseBool reads it
      'NY,Kings,800000,class1,,true,BASIC,,a STAR not one of its values', // split: an error
      'NY,Kings,800000, class1,,,,,a space before the class', // split: trimmed
      'NY,Kings,800000,cla"ss1,,,,,a quote inside', // split: the quote is part of the cell
      'NY,Kings,800000,class1,,,,,"quoted note"', // split
      'NY,Kings,800000,class1,,,,', // split: a field short
      'NY,Kings,800000,class1,,,,,,', // split: a field too many
      'NY,Kings,800000,class1,,true,,,last', // one pass
    ];
    const text = Buffer.from(lines.join('\n'));
    const r = readBatch(calc, text, { format: 'csv' });
    expect(r.rows).toBe(lines.length - 1);
    expect(new BatchReaderCount(calc, text).plain).toBe(5);
    await expectSame(text, undefined, true);
    await expectSame(text, [1, 2, 3, 5, 7], true);
    // Kings class1 800,000: 48,000 AV × 19.843% = 9,524.64, less Basic STAR 293 with a homestead (FY2026) = 9,231.64.
    const out = r.out.trimEnd().split('\n');
    expect(out[1]).toContain(',Kings County,ny.nyc,2026,9231.64,');
    expect(out[3]).toContain('NY,Kings,,class1,,,,,empty cells,Kings County,ny.nyc,2026,'); // 350,000 × 6% × 19.843% = 4,167.03
    expect(out[3]).toContain(',4167.03,');
  });
});
