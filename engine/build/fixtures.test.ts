/**
 * The golden-fixture runner itself: which files it reads, how it reports a file that is
 * not valid YAML or not a valid fixture, how fixture inputs (the CLI's flag names) map
 * to the engine's, and the diffs it reports for wrong figures, missing notes, unexpected
 * errors and expected errors that did not happen. Figures: Albany 300,000 at 1.8937% =
 * 5,681.10 (rules reference §4); Kings class1 800,000 FY2026 = 9,524.64 (§3).
 */
import { mkdtempSync, writeFileSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Calculator } from '../core/calculate.js';
import { readBundle } from './bundle.js';
import { fixtureFiles, fixtureInput, readFixtures, runCase, type FixtureCase } from './fixtures.js';

const calc = new Calculator(readBundle('dist/rules/bundle.json'));
const ALBANY = { state: 'NY', county: 'Albany', value: 300000 };
const KINGS = { state: 'NY', county: 'Kings', value: 800000, class: 'class1' };
const run = (c: Partial<FixtureCase>) => runCase(calc, 'f.yaml', { name: 'case', source: 'a test case', input: ALBANY, ...c });

const dir = mkdtempSync(join(tmpdir(), 'ptax-fixtures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('fixtureFiles', () => {
  it('no path means the fixtures folder', () => {
    const all = fixtureFiles([]);
    expect(all).toEqual(fixtureFiles(['fixtures']));
    expect(all).toContain('fixtures/ny/nyc-star.yaml');
    // One folder per state (the editions' and the county-level states' fixtures).
    expect(all.every((f) => /^fixtures\/[a-z]{2}\/[^/]+\.yaml$/.test(f))).toBe(true);
    for (const st of ['ny', 'tx', 'ca', 'fl', 'oh', 'pr'])
      expect(
        all.some((f) => f.startsWith(`fixtures/${st}/`)),
        st,
      ).toBe(true);
  });

  it('a file is listed relative to the root with forward slashes, however it was given', () => {
    expect(fixtureFiles(['fixtures/ny/nyc-star.yaml'])).toEqual(['fixtures/ny/nyc-star.yaml']);
    expect(fixtureFiles([join(process.cwd(), 'fixtures', 'ny', 'nyc-star.yaml')])).toEqual(['fixtures/ny/nyc-star.yaml']);
    expect(fixtureFiles(['ny/nyc-star.yaml', 'ny'], join(process.cwd(), 'fixtures'))).toEqual([
      'ny/nyc-star.yaml',
      ...fixtureFiles(['fixtures/ny']).map((f) => f.slice('fixtures/'.length)),
    ]);
  });

  it('a folder lists its YAML files, sorted, sub-folders included', () => {
    mkdirSync(join(dir, 'set', 'sub'), { recursive: true });
    writeFileSync(join(dir, 'set', 'b.yaml'), '');
    writeFileSync(join(dir, 'set', 'a.yml'), '');
    writeFileSync(join(dir, 'set', 'readme.md'), '');
    writeFileSync(join(dir, 'set', 'sub', 'c.yaml'), '');
    expect(fixtureFiles(['set'], dir)).toEqual(['set/a.yml', 'set/b.yaml', 'set/sub/c.yaml']);
  });

  it('a path that does not exist is an error', () => {
    expect(() => fixtureFiles(['no-such-folder'], dir)).toThrow(/ENOENT/);
  });
});

describe('readFixtures', () => {
  it('a valid file gives its cases and no problem', () => {
    const { cases, problems } = readFixtures('fixtures/ny/years-and-notes.yaml');
    expect(problems).toEqual([]);
    expect(cases[0]!.year).toBe(2027);
    expect(cases[0]!.input).toEqual({ state: 'NY', county: 'Kings', value: 800000, class: 'class1', homestead: true });
  });

  it('a file that is not valid YAML gives its problems and no case', () => {
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, '- name: broken\n  input: {state: NY, county: Albany\n');
    const { cases, problems } = readFixtures(file);
    // The YAML parser's own message, at the line where the flow map should have ended.
    expect({ cases, problems }).toEqual({ cases: [], problems: [`${file}:3:1: Flow map in block collection must be sufficiently indented and end with a }`] });
  });

  it("a case that breaks the schema gives a problem naming the key, and no case (an unknown input is the runner's: the declarations decide)", () => {
    const file = join(dir, 'schema.yaml');
    writeFileSync(
      file,
      ['- name: no source and an unknown flag', '  input: {state: NY, county: Albany, colour: red}', '  expected: {annualTax: 1}', ''].join('\n'),
    );
    const { cases, problems } = readFixtures(file);
    expect(cases).toEqual([]);
    expect(problems).toHaveLength(1);
    expect(problems.join('\n')).toContain("0 missing 'source'");
    expect(problems.every((p) => p.includes(file))).toBe(true);
  });
});

describe('fixtureInput: flag names to engine inputs', () => {
  it('class, star and the numbers map to propertyClass, starType and the facts of the same name', () => {
    const i = fixtureInput({
      name: 'all',
      source: 'every flag',
      year: 2025,
      input: {
        state: 'NY',
        county: 'Kings',
        value: 1000,
        class: 'class2',
        homestead: true,
        over65: true,
        seniorIncome: 5,
        seniorCitizen: true,
        disabled: true,
        wartimeVeteran: true,
        combatVeteran: true,
        veteranDisability: 20,
        totallyDisabledVeteran: true,
        veteranIncome: 9,
        coldWarVeteran: true,
        star: 'basic',
        priorAssessed: 7,
        purchasePrice: 8,
        purchaseYear: 2015,
        countyRate: 1.5,
      },
    });
    expect(i).toEqual({
      state: 'NY',
      county: 'Kings',
      value: 1000,
      year: 2025,
      propertyClass: 'class2',
      homestead: true,
      over65: true,
      seniorIncome: 5,
      seniorCitizen: true,
      disabled: true,
      wartimeVeteran: true,
      combatVeteran: true,
      veteranDisability: 20,
      totallyDisabledVeteran: true,
      veteranIncome: 9,
      coldWarVeteran: true,
      starType: 'basic',
      priorAssessed: 7,
      purchasePrice: 8,
      purchaseYear: 2015,
      melloRoos: null,
      taxAmount: null,
      paymentYear: null,
      paymentMonth: null,
      paymentDay: null,
      sellerTax: null,
      billYear: null,
      countyRate: 1.5,
    });
  });

  it('tax, date, sellerTax and melloRoos: the date is split into its year, month and day', () => {
    const i = fixtureInput({ name: 'pay', source: 'payment', input: { state: 'TX', tax: 5000, date: '2026-03-15', sellerTax: 4000, melloRoos: 1200 } });
    expect(i).toMatchObject({ state: 'TX', county: '', taxAmount: 5000, paymentYear: 2026, paymentMonth: 3, paymentDay: 15, sellerTax: 4000, melloRoos: 1200 });
  });

  it('left out: value 350,000, veteran level 0, the rest null or absent', () => {
    expect(fixtureInput({ name: 'none', source: 'no flag', input: { state: 'NY', county: 'Albany' } })).toEqual({
      state: 'NY',
      county: 'Albany',
      value: 350000,
      year: undefined,
      propertyClass: null,
      homestead: undefined,
      over65: undefined,
      seniorIncome: null,
      seniorCitizen: undefined,
      disabled: undefined,
      wartimeVeteran: undefined,
      combatVeteran: undefined,
      veteranDisability: 0,
      totallyDisabledVeteran: undefined,
      veteranIncome: null,
      coldWarVeteran: undefined,
      starType: null,
      priorAssessed: null,
      purchasePrice: null,
      purchaseYear: null,
      melloRoos: null,
      taxAmount: null,
      paymentYear: null,
      paymentMonth: null,
      paymentDay: null,
      sellerTax: null,
      billYear: null,
      countyRate: null,
    });
  });
});

describe('runCase', () => {
  it('right figures, text and notes: ok, no diff', () => {
    const r = run({
      input: { ...KINGS, homestead: true, purchasePrice: 1 },
      expected: { annualTax: 9231.64, 'exemptionBreakdown.star.type': 'basic', county: 'Kings County' },
      notes: ["The purchase price and year apply to California's Proposition 13; New York does not use them"],
    });
    expect(r).toEqual({ file: 'f.yaml', name: 'case', ok: true, diffs: [] });
  });

  it('lang: the notes and messages are checked in that language (English by default)', () => {
    const note = { en: "The purchase price and year apply to California's Proposition 13; New York does not use them" };
    const input = { ...ALBANY, purchasePrice: 1 };
    expect(run({ input, expected: { annualTax: 5681.1 }, notes: [note.en] }).ok).toBe(true);
    const es = run({ lang: 'es', input, expected: { annualTax: 5681.1 }, notes: [note.en] });
    expect(es.ok).toBe(false);
    expect(es.diffs[0]).toMatch(/^notes: missing "The purchase price/);
    const bad = { ...ALBANY, value: -5 };
    expect(run({ input: bad, error: 'Market value must be greater than 0' }).ok).toBe(true);
    expect(run({ lang: 'es', input: bad, error: 'El valor de mercado debe ser mayor que 0' }).ok).toBe(true);
    expect(run({ lang: 'es', input: bad, error: 'Market value must be greater than 0' }).ok).toBe(false);
  });

  it('a wrong figure is a diff with both figures', () => {
    const r = run({ expected: { annualTax: 5700, 'countyBreakdown.school': 2840.55 } });
    expect(r).toEqual({ file: 'f.yaml', name: 'case', ok: false, diffs: ['annualTax: expected 5700, got 5681.1'] });
  });

  it('money compares within 0.01 by default, within the tolerance when given', () => {
    expect(run({ expected: { annualTax: 5681.11 } }).ok).toBe(true); // a cent off
    expect(run({ expected: { annualTax: 5681.09 } }).ok).toBe(true);
    expect(run({ expected: { annualTax: 5681.12 } }).diffs).toEqual(['annualTax: expected 5681.12, got 5681.1']);
    expect(run({ expected: { annualTax: 5681.6 }, tolerance: 0.5 }).ok).toBe(true);
    expect(run({ expected: { annualTax: 5681.61 }, tolerance: 0.5 }).ok).toBe(false);
    expect(run({ expected: { annualTax: 5681.11 }, tolerance: 0 }).diffs).toEqual(['annualTax: expected 5681.11, got 5681.1']);
    expect(run({ expected: { annualTax: 5681.1 }, tolerance: 0 }).ok).toBe(true);
  });

  it('tolerance 0 still allows 1e-9 of floating-point noise, that much included', () => {
    // Kings is in NYC: no county levy, countyBreakdown.county is 0.
    const county = (want: number) => run({ input: KINGS, expected: { 'countyBreakdown.county': want }, tolerance: 0 });
    expect(county(1e-9).ok).toBe(true);
    expect(county(-1e-9).ok).toBe(true);
    expect(county(2e-9).diffs).toEqual(['countyBreakdown.county: expected 2e-9, got 0']);
  });

  it('a figure the result does not have is "nothing"; a figure where the result has text or a list is a diff', () => {
    // Outside NYC there is no nyc detail object.
    expect(run({ expected: { 'nyc.assessedValue': 300000, 'taxableValues.school': 300000 } }).diffs).toEqual([
      'nyc.assessedValue: expected 300000, got nothing',
    ]);
    expect(run({ expected: { county: 5 } }).diffs).toEqual(['county: expected 5, got Albany County']);
    // An empty list is not 0, although [] - 0 is 0 in JS.
    expect(run({ expected: { notes: 0 } }).diffs).toEqual(['notes: expected 0, got ']);
  });

  it('paths go through objects only: text has no fields', () => {
    expect(run({ expected: { 'county.length': 13 } }).diffs).toEqual(['county.length: expected 13, got nothing']);
  });

  it('wrong text is a diff with both values quoted', () => {
    const r = run({ input: { ...KINGS, homestead: true }, expected: { 'exemptionBreakdown.star.type': 'enhanced', year: 2026 } });
    expect(r.diffs).toEqual(['exemptionBreakdown.star.type: expected "enhanced", got "basic"']);
    expect(r.ok).toBe(false);
  });

  it('a missing note is a diff listing the notes there were', () => {
    const r = run({ expected: { annualTax: 5681.1 }, notes: ['A note that is not there'] });
    expect(r).toEqual({ file: 'f.yaml', name: 'case', ok: false, diffs: ['notes: missing "A note that is not there" (got [])'] });
    const some = run({ input: { ...ALBANY, purchasePrice: 1 }, expected: { annualTax: 5681.1 }, notes: ['Other'] });
    expect(some.diffs).toEqual([
      `notes: missing "Other" (got ["The purchase price and year apply to California's Proposition 13; New York does not use them"])`,
    ]);
  });

  it('an unexpected error is a diff with its message', () => {
    const r = run({ input: { ...ALBANY, county: 'Nowhere' }, expected: { annualTax: 1 } });
    expect(r).toEqual({ file: 'f.yaml', name: 'case', ok: false, diffs: ['error: Unknown county "Nowhere" in NY. (see: ptax counties --state NY)'] });
  });

  it('the expected error: ok; another error: a diff with both messages', () => {
    expect(run({ year: 2024, error: 'No rules for 2024; years available: 2025' })).toEqual({ file: 'f.yaml', name: 'case', ok: true, diffs: [] });
    expect(run({ year: 2024, error: 'No rules for 2023' })).toEqual({
      file: 'f.yaml',
      name: 'case',
      ok: false,
      diffs: ['error: expected "No rules for 2023", got "No rules for 2024; years available: 2025"'],
    });
  });

  it('an expected error that did not happen is a diff showing the tax computed instead', () => {
    expect(run({ error: 'Market value must be greater than 0' })).toEqual({
      file: 'f.yaml',
      name: 'case',
      ok: false,
      diffs: ['expected the error "Market value must be greater than 0", got annualTax 5681.1'],
    });
  });
});
