/**
 * The SQL printer (generate.ts) on the shapes today's rules do not have (issue 27, mutation
 * testing): a hand-made state ZZ with counties (flags, rate parts, the Texas-style units, a
 * typical rate, a rate carried back, an alias) and two programs chosen by a county flag: one
 * with two years (a parameter that changed: shared step columns with the year's number;
 * a table whose keys changed: columns of their own), one with one year; a result column
 * with a unit in each program (percent, fraction), columns in one program only, a leaf
 * that may be null in one program and not in the other. The SQL is a file snapshot
 * (engine/sql/snapshots/zz.shapes.*.sql) and DuckDB runs it on rows worked out by hand.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBundle } from '../build/bundle.js';
import { parseFormula } from '../build/formulas.js';
import { PtaxError } from '../core/errors.js';
import type { Bundle, Condition, CountyDef, ParameterDef, ProgramDef, ResultGroup } from '../core/types.js';
import { useDuckDb } from './duckdb-test.js';
import { BATCH_INPUT_COLUMNS, SQL_INPUTS, gatherOthers, generateSql, num, q, sqlDeclarationsOf, str } from './generate.js';
import { inputView, mixOf } from './run.js';

const base: Bundle = readBundle('dist/rules/bundle.json');
const label = { en: 'x', es: 'x' };
const f = (src: string) => ({ formula: parseFormula(src) });
const entry = (effective: string, e: object) => ({ effective, reference: [], last_verified: '2026-11-27', ...e });
const param = (id: string, type: ParameterDef['type'], values: ParameterDef['values']): ParameterDef => ({
  id,
  file: 'rules/zz.yaml',
  description: id,
  label,
  unit: 'none',
  type,
  values,
});
const program = (id: string, over: Partial<ProgramDef>): ProgramDef => ({
  id,
  file: `rules/zz/${id}.yaml`,
  description: 'a test program',
  label,
  period: { start: '01-01', fiscal: false },
  years: [2026],
  parameters: {},
  validations: [],
  steps: [],
  notes: [],
  result: {},
  ...over,
});
const is = (fact: string, value: unknown): Condition => ({ fact, operator: 'equal', value }) as Condition;
const county = (name: string, over: Partial<CountyDef>): CountyDef => ({ name, slug: name.toLowerCase(), fips: '99000', rates: [], flags: [], ...over });

/**
 * ZZ: Alpha (estimated; rate 2 from 2020, parts school 1, county 0.5, city 0.3, special 0.2,
 * units Alpha ISD and Alpha City; typical rate 1.8), Beta (no flags; rate 1 from 2026 only,
 * no parts: carried back to 2024), Gamma (top-coded and NYC class; rate 1.5 from 2020, parts
 * 0.5, 0.5, 0.25, 0.25, no units), Epsilon (no rate at all), the alias Delta Town (zz.b, no
 * county: no rate) and the county of that name, hidden by the alias.
 * zz.a for a county that is not top-coded, else zz.b.
 */
function shapes(): Bundle {
  const a = program('zz.a', {
    years: [2024, 2026],
    parameters: { k: 'zz.k', t: 'zz.t' },
    steps: [
      { id: 'rate', label, ...f('countyRate / 100') },
      { id: 'tax', label, ...f('value * rate') },
      { id: 'school', label, ...f('value * schoolPart / 100') },
      { id: 'city', label, ...f('value * cityPart / 100') },
      { id: 'bonus', label, ...f('value * k') },
      { id: 'chain', label, ...f('bonus * 4') },
      { id: 'unitCity', label, condition: is('cityUnit', 'Alpha City') },
      { id: 'tk', label, ...f('t[propertyClass]') },
      { id: 'ex', label, ...f('value * tk') },
    ],
    notes: [
      { when: is('estimated', true), text: { en: 'estimated', es: 'estimado' } },
      { when: is('schoolUnit', 'Alpha ISD'), text: { en: 'alpha isd', es: 'alpha isd' } },
      { when: is('topCoded', true), text: { en: 'top coded', es: 'tope' } },
      { when: is('unitCity', true), text: { en: 'city unit', es: 'ciudad' } },
    ],
    result: {
      annualTax: { ...f('tax + chain'), unit: 'usd' },
      effectiveRate: { ...f('rate * 100'), unit: 'percent' },
      baseAssessedValue: { ...f('typicalRate'), unit: 'count' },
      taxableValue: { ...f('seniorIncome'), unit: 'usd' },
      exemptionSavings: { ...f('ex'), unit: 'usd' },
      potentialSavings: { ...f('ex / 4'), unit: 'usd' },
      countyBreakdown: { school: { ...f('school'), unit: 'usd' }, city: { ...f('city'), unit: 'usd' } },
    } as unknown as ResultGroup,
  });
  const b = program('zz.b', {
    steps: [
      { id: 'tax', label, ...f('value * countyRate / 100') },
      { id: 'special', label, ...f('value * specialPart / 100') },
    ],
    notes: [
      { when: is('nycClass', true), text: { en: 'nyc', es: 'nyc' } },
      { when: is('topCoded', true), text: { en: 'top coded', es: 'tope' } },
    ],
    result: {
      annualTax: { ...f('tax'), unit: 'usd' },
      effectiveRate: { ...f('countyRate / 100'), unit: 'fraction' },
      monthlyTax: { ...f('tax / 12'), unit: 'usd' },
      taxableValue: { ...f('value'), unit: 'usd' },
      countyBreakdown: { county: { ...f('value * countyPart / 100'), unit: 'usd' }, special: { ...f('special'), unit: 'usd' } },
    } as unknown as ResultGroup,
  });
  return {
    ...base,
    parameters: {
      ...base.parameters,
      'zz.k': param('zz.k', 'scalar', [entry('2000-01-01', { value: 0.02 }), entry('2025-01-01', { value: 0.03 })]),
      'zz.t': param('zz.t', 'by_key', [entry('2000-01-01', { value: { class1: 0.5 } }), entry('2025-01-01', { value: { class1: 0.5, class2: 0.25 } })]),
    },
    programs: { ...base.programs, 'zz.a': a, 'zz.b': b },
    states: {
      ...base.states,
      ZZ: {
        code: 'ZZ',
        file: 'rules/zz.yaml',
        name: { en: 'Zed', es: 'Zed' },
        description: 'a test state',
        tier: 'county',
        counties: [
          county('Alpha', {
            flags: ['estimated'],
            rates: [
              {
                effective: '2020-01-01',
                value: 2,
                parts: { school: 1, county: 0.5, city: 0.3, special: 0.2 },
                units: { school: 'Alpha ISD', city: 'Alpha City' },
              },
            ],
            typicalRate: { effective: '2023', value: 1.8 },
          }),
          county('Beta', { rates: [{ effective: '2026-01-01', value: 1 }] }),
          county('Gamma', {
            flags: ['topCoded', 'nycClass'],
            rates: [{ effective: '2020-01-01', value: 1.5, parts: { school: 0.5, county: 0.5, city: 0.25, special: 0.25 } }],
          }),
          county('Epsilon', {}),
          // The alias of this name is looked up first (findCounty): this county is not a place of its own.
          county('Delta Town', { slug: 'delta-town', rates: [{ effective: '2020-01-01', value: 9 }] }),
        ],
        programs: [{ program: 'zz.a', when: { all: [{ not: is('topCoded', true) }] } as Condition }, { program: 'zz.b' }],
        aliases: [{ name: 'Delta Town', program: 'zz.b' }],
        calculators: [],
      },
    },
  };
}

const COLS = [
  'countyName',
  'program',
  'rulesYear',
  'annualTax',
  'monthlyTax',
  'effectiveRate',
  'baseAssessedValue',
  'taxableValue',
  'exemptionSavings',
  'potentialSavings',
  'countyBreakdown.school',
  'countyBreakdown.county',
  'countyBreakdown.city',
  'countyBreakdown.special',
  'notes',
  'errorCode',
  'error',
];

describe('ZZ: counties, two programs, two years', () => {
  const duck = useDuckDb();
  const TYPE = new Map(SQL_INPUTS.filter((x) => x.column).map((x) => [x.column!, x.ty === 'num' ? 'DOUBLE' : x.ty === 'bool' ? 'BOOLEAN' : 'VARCHAR']));
  const lit = (x: unknown) => (x === null || x === undefined ? 'NULL' : typeof x === 'number' ? num(x) : str(String(x)));

  for (const dialect of ['duckdb', 'postgres'] as const) {
    it(`the SQL, ${dialect}`, async () => {
      await expect(generateSql(shapes(), { state: 'ZZ', dialect, columns: ['id', ...BATCH_INPUT_COLUMNS] }) + ';\n').toMatchFileSnapshot(
        `snapshots/zz.shapes.${dialect}.sql`,
      );
    });
  }

  it('rows worked out by hand', async () => {
    const c = duck.c;
    const input: Array<Record<string, unknown>> = [
      // 1. Alpha (zz.a), 2026, value 100,000, class1, seniorIncome 5,000: rate 2 / 100 = 0.02;
      //    tax 100,000 × 0.02 = 2,000; bonus 100,000 × 0.03 = 3,000; chain × 4 = 12,000; annualTax 14,000;
      //    effectiveRate 0.02 × 100 = 2 (%); school 100,000 × 1 / 100 = 1,000; city × 0.3 / 100 = 300;
      //    baseAssessedValue the typical rate 1.8 (a count, not rounded); taxableValue 5,000;
      //    ex 100,000 × 0.5 = 50,000, a quarter of it 12,500. Notes: estimated, Alpha ISD, Alpha City.
      { county: 'Alpha', year: 2026, value: 100000, class: 'class1', seniorIncome: 5000 },
      // 2. The same in 2024: k 0.02, bonus 2,000, chain 8,000, annualTax 10,000; no seniorIncome: taxableValue empty.
      { county: 'Alpha', year: 2024, value: 100000, class: 'class1' },
      // 3. Beta, 2024, 200,000, class1: the 2026 rate 1 carried back: rate 0.01, tax 2,000; bonus 4,000,
      //    chain 8,000, annualTax 10,000; no parts: school and city 0; no typical rate: empty; ex 100,000, a quarter 25,000.
      { county: 'Beta', year: 2024, value: 200000, class: 'class1' },
      // 4. Beta, 2026, class2 (2026's table has it: 0.25): bonus 6,000, chain 24,000, annualTax 26,000;
      //    ex 200,000 × 0.25 = 50,000, a quarter 12,500; seniorIncome 0: taxableValue 0. No notes.
      { county: 'Beta', year: 2026, value: 200000, class: 'class2', seniorIncome: 0 },
      // 5. Beta, 2024, class2: 2024's table has no class2: NO_VALUE.
      { county: 'Beta', year: 2024, value: 200000, class: 'class2' },
      // 6. Gamma (top-coded: zz.b), 400,000: tax 400,000 × 1.5 / 100 = 6,000; monthly 500; effectiveRate
      //    1.5 / 100 = 0.015 (a fraction); taxableValue 400,000; county 400,000 × 0.5 / 100 = 2,000; special 1,000.
      { county: 'Gamma', year: 2026, value: 400000 },
      // 7. Delta Town, the alias (zz.b, no county: no rate, read as 0): tax 0, rate 0, taxableValue 120,000, parts 0.
      { county: 'delta town', value: 120000 },
      // 8. Alpha, 2030: 2026's rules (carried forward): as row 1 without seniorIncome.
      { county: 'Alpha', year: 2030, value: 100000, class: 'class1' },
      // 9. Epsilon (zz.a), no rate: read as 0: tax 0, bonus 3,000, chain 12,000, annualTax 12,000; ex 50,000, a quarter 12,500.
      { county: 'Epsilon', year: 2026, value: 100000, class: 'class1' },
    ];
    await c.run('DROP TABLE IF EXISTS ptax_input');
    await c.run(
      `CREATE TABLE ptax_input (id VARCHAR, state VARCHAR, county VARCHAR, ${BATCH_INPUT_COLUMNS.slice(2)
        .map((k) => `${q(k)} ${TYPE.get(k)}`)
        .join(', ')})`,
    );
    const values = input.map((r, i) => `(${[str(`R${i}`), "'ZZ'", lit(r.county), ...BATCH_INPUT_COLUMNS.slice(2).map((k) => lit(r[k]))].join(', ')})`);
    await c.run(`INSERT INTO ptax_input VALUES ${values.join(', ')}`);
    const sql = generateSql(shapes(), { state: 'ZZ', columns: ['id', ...BATCH_INPUT_COLUMNS] });
    const got = (await c.runAndReadAll(sql)).getRowObjects();
    expect(got.map((g) => g.id).sort()).toEqual(input.map((_, i) => `R${i}`));
    const row = (i: number) => {
      const g = got.find((x) => x.id === `R${i}`)!;
      return Object.fromEntries(
        COLS.filter((k) => g[k] !== null && g[k] !== undefined).map((k) => [k, typeof g[k] === 'number' ? (g[k] as number) + 0 : g[k]]),
      );
    };
    const a = { program: 'zz.a', countyName: 'Alpha' };
    expect(input.map((_, i) => row(i))).toEqual([
      {
        ...a,
        rulesYear: 2026,
        annualTax: 14000,
        effectiveRate: 2,
        baseAssessedValue: 1.8,
        taxableValue: 5000,
        exemptionSavings: 50000,
        potentialSavings: 12500,
        'countyBreakdown.school': 1000,
        'countyBreakdown.city': 300,
        notes: 'estimated | alpha isd | city unit',
      },
      {
        ...a,
        rulesYear: 2024,
        annualTax: 10000,
        effectiveRate: 2,
        baseAssessedValue: 1.8,
        exemptionSavings: 50000,
        potentialSavings: 12500,
        'countyBreakdown.school': 1000,
        'countyBreakdown.city': 300,
        notes: 'estimated | alpha isd | city unit',
      },
      {
        program: 'zz.a',
        countyName: 'Beta',
        rulesYear: 2024,
        annualTax: 18000,
        effectiveRate: 1,
        exemptionSavings: 100000,
        potentialSavings: 25000,
        'countyBreakdown.school': 0,
        'countyBreakdown.city': 0,
        notes: "The county's 2026 rates are the earliest in the data; they stand in for 2024",
      },
      {
        program: 'zz.a',
        countyName: 'Beta',
        rulesYear: 2026,
        annualTax: 26000,
        effectiveRate: 1,
        taxableValue: 0,
        exemptionSavings: 50000,
        potentialSavings: 12500,
        'countyBreakdown.school': 0,
        'countyBreakdown.city': 0,
      },
      { errorCode: 'NO_VALUE', error: 'zz.t has no value for class2' },
      {
        program: 'zz.b',
        countyName: 'Gamma',
        rulesYear: 2026,
        annualTax: 6000,
        monthlyTax: 500,
        effectiveRate: 0.015,
        taxableValue: 400000,
        'countyBreakdown.county': 2000,
        'countyBreakdown.special': 1000,
        notes: 'nyc | top coded',
      },
      {
        program: 'zz.b',
        countyName: 'Delta Town',
        rulesYear: 2026,
        annualTax: 0,
        monthlyTax: 0,
        effectiveRate: 0,
        taxableValue: 120000,
        'countyBreakdown.county': 0,
        'countyBreakdown.special': 0,
      },
      {
        ...a,
        rulesYear: 2026,
        annualTax: 14000,
        effectiveRate: 2,
        baseAssessedValue: 1.8,
        exemptionSavings: 50000,
        potentialSavings: 12500,
        'countyBreakdown.school': 1000,
        'countyBreakdown.city': 300,
        notes: 'estimated | alpha isd | city unit | Rules for 2030 are not published yet; 2026 values are carried forward as the estimate',
      },
      {
        program: 'zz.a',
        countyName: 'Epsilon',
        rulesYear: 2026,
        annualTax: 12000,
        effectiveRate: 0,
        exemptionSavings: 50000,
        potentialSavings: 12500,
        'countyBreakdown.school': 0,
        'countyBreakdown.city': 0,
      },
    ]);
  });
});

describe('a program chosen by a fact: county facts only, at any depth', () => {
  const chosenBy = (when: Condition): string => {
    const b = shapes();
    b.states.ZZ!.programs = [{ program: 'zz.a', when }, { program: 'zz.b' }];
    try {
      generateSql(b, { state: 'ZZ' });
      return 'printed';
    } catch (e) {
      expect(e).toBeInstanceOf(PtaxError);
      return (e as PtaxError).message;
    }
  };
  const refusal = 'ZZ: the program is chosen by input facts; SQL chooses by county only';
  it.each<[string, Condition, string]>([
    ['county facts in all, any and not', { all: [{ any: [is('estimated', true), { not: is('nycClass', true) }] }] } as Condition, 'printed'],
    ['a county fact against a county fact', { fact: 'nycClass', operator: 'equal', value: { fact: 'estimated' } } as Condition, 'printed'],
    ['an input fact in all', { all: [is('estimated', true), is('homestead', true)] } as Condition, refusal],
    ['an input fact in any', { any: [is('estimated', true), is('homestead', true)] } as Condition, refusal],
    ['an input fact under not', { not: is('homestead', true) } as Condition, refusal],
    ['an input fact on the right', { fact: 'nycClass', operator: 'equal', value: { fact: 'homestead' } } as Condition, refusal],
  ])('%s', (_, when, want) => {
    expect(chosenBy(when)).toBe(want);
  });
});

describe('the rules with one state: its lookups as printed', () => {
  /** The rules with ZZ alone, with its counties (a county state) or without (a hub: no names to look up, no county needed). */
  const alone = (withCounties: boolean): string => {
    const b = shapes();
    const zz = b.states.ZZ!;
    b.states = { ZZ: withCounties ? zz : { ...zz, tier: 'hub', counties: [], aliases: [], programs: [{ program: 'zz.b' }] } };
    return generateSql(b, { state: 'ZZ' });
  };
  it('a county state: its name looked up, a county needed', () => {
    const sql = alone(true);
    expect(sql).toContain(
      "CASE WHEN UPPER(k_state_read) IN ('ZZ') THEN UPPER(k_state_read) ELSE COALESCE(CASE REGEXP_REPLACE(TRANSLATE(LOWER(k_state_read), 'áàâäãåéèêëíìîïóòôöõúùûüñç', 'aaaaaaeeeeiiiiooooouuuunc'), '[^a-z0-9]+', '', 'g') WHEN 'zed' THEN 'ZZ' END, UPPER(k_state_read)) END AS p_in_state",
    );
    expect(sql).toContain("WHEN p_in_state IN ('ZZ') AND r.p_in_county IS NULL THEN 'MISSING_COUNTY'");
    expect(sql).toContain("p.p_slug = CASE WHEN r.p_in_state IN ('') THEN '' ELSE r.p_in_slug END");
  });
  it('a hub: no name to look up, no county needed, every row placed by the state', () => {
    const sql = alone(false);
    expect(sql).toContain("CASE WHEN UPPER(k_state_read) IN ('ZZ') THEN UPPER(k_state_read) ELSE UPPER(k_state_read) END AS p_in_state");
    expect(sql).toContain("WHEN p_in_state IN ('') AND r.p_in_county IS NULL THEN 'MISSING_COUNTY'");
    expect(sql).toContain("p.p_slug = CASE WHEN r.p_in_state IN ('ZZ') THEN '' ELSE r.p_in_slug END");
  });
});

describe('a program with counts only', () => {
  it('no column to scale, nudge or round: the CTEs say so', () => {
    const b = shapes();
    b.programs['zz.b'] = { ...b.programs['zz.b']!, result: { baseAssessedValue: { ...f('value'), unit: 'count' } } as unknown as ResultGroup };
    b.states.ZZ!.programs = [{ program: 'zz.b' }];
    const sql = generateSql(b, { state: 'ZZ' });
    expect(sql).toContain('ptax_a AS (\n  SELECT *, NULL AS a_none\n  FROM ptax_raw\n)');
    expect(sql).toContain('ptax_t AS (\n  SELECT *, NULL AS t_none\n  FROM ptax_a\n)');
    expect(sql).toContain(
      "(CASE WHEN l3_0 IN (CAST('NaN' AS FLOAT8), CAST('Infinity' AS FLOAT8), CAST('-Infinity' AS FLOAT8)) THEN NULL ELSE l3_0 END) AS \"baseAssessedValue\"",
    );
  });
});

describe("a bundle's declarations", () => {
  it('worked out once per rules object', () => {
    const b = shapes();
    expect(sqlDeclarationsOf(b)).toBe(sqlDeclarationsOf(b));
    expect(sqlDeclarationsOf(shapes())).not.toBe(sqlDeclarationsOf(b));
  });
});

describe('ZZ: a step with an error and a step a note reads, shared by two years', () => {
  const duck = useDuckDb();
  it('the later year reads the first year’s columns: its value, its error, its notes', async () => {
    // zz.a plus tier = band(bands, value) (below 150,000: 1; at most 300,000: 2; above: none)
    // as finalAssessedValue, and a note when chain > 10,000 (chain is then a column, read twice).
    const b = shapes();
    b.parameters['zz.bands'] = param('zz.bands', 'bands', [
      entry('2000-01-01', {
        bands: [
          { below: 150000, value: 1 },
          { at_most: 300000, value: 2 },
        ],
      }),
    ]);
    const a = b.programs['zz.a']!;
    b.programs['zz.a'] = {
      ...a,
      parameters: { ...a.parameters, bands: 'zz.bands' },
      steps: [...a.steps, { id: 'tier', label, ...f('band(bands, value)') }],
      notes: [...a.notes, { when: { fact: 'chain', operator: 'greaterThan', value: 10000 }, text: { en: 'big chain', es: 'grande' } }],
      result: { annualTax: { ...f('tax + chain'), unit: 'usd' }, finalAssessedValue: { ...f('tier'), unit: 'usd' } } as unknown as ResultGroup,
    };
    const sql = generateSql(b, { state: 'ZZ', columns: ['id', ...BATCH_INPUT_COLUMNS] });
    // zz.b is py 0 (the alias is placed first), zz.a 2024 py 1, 2026 py 2: one column each for both years.
    expect(sql).toMatch(/CASE WHEN py IN \(1, 2\) THEN \(CASE WHEN f0 < CAST\('150000' AS FLOAT8\) THEN CAST\('1' AS FLOAT8\) .* END AS py1_s9,/);
    expect(sql).toContain(
      "CASE WHEN py IN (1, 2) THEN (((f0 * (CASE py WHEN 1 THEN CAST('0.02' AS FLOAT8) WHEN 2 THEN CAST('0.03' AS FLOAT8) END))) * CAST('4' AS FLOAT8)) END AS py1_s5,",
    );
    expect(sql).not.toMatch(/py2_s5|py2_s9|py2_e9/);
    const c = duck.c;
    await c.run('DROP TABLE IF EXISTS ptax_input');
    const types = SQL_INPUTS.filter((x) => x.column).map((x) => `${q(x.column!)} ${x.ty === 'num' ? 'DOUBLE' : x.ty === 'bool' ? 'BOOLEAN' : 'VARCHAR'}`);
    await c.run(`CREATE TABLE ptax_input (id VARCHAR, state VARCHAR, county VARCHAR, ${types.join(', ')})`);
    // Alpha, class1. 2026: bonus 100,000 × 0.03 = 3,000, chain 12,000 (> 10,000: the note), tax 2,000,
    // annualTax 14,000, tier 1. 2024: bonus 2,000, chain 8,000 (no note), annualTax 10,000.
    // 400,000 is in no band, in either year: NO_VALUE.
    await c.run(
      `INSERT INTO ptax_input (id, state, county, value, year, class) VALUES ('A', 'ZZ', 'Alpha', 100000, 2026, 'class1'),
        ('B', 'ZZ', 'Alpha', 100000, 2024, 'class1'), ('C', 'ZZ', 'Alpha', 400000, 2026, 'class1'), ('D', 'ZZ', 'Alpha', 400000, 2024, 'class1')`,
    );
    const got = (await c.runAndReadAll(sql)).getRowObjects();
    expect(
      Object.fromEntries(
        got.map((g) => [g.id, [g.annualTax, g.finalAssessedValue, g.notes, g.errorCode, g.error].map((x) => (typeof x === 'number' ? x + 0 : x))]),
      ),
    ).toEqual({
      A: [14000, 1, 'estimated | alpha isd | city unit | big chain', null, null],
      B: [10000, 1, 'estimated | alpha isd | city unit', null, null],
      C: [null, null, null, 'NO_VALUE', 'zz.bands has no band for 400000'],
      D: [null, null, null, 'NO_VALUE', 'zz.bands has no band for 400000'],
    });
  });
});

describe('every node of the lowered form, as printed', () => {
  // The figures of these nodes are sql-print.test.ts's (DuckDB, by hand) and ir-random's (DuckDB
  // against the interpreter); here their exact text in both dialects: which operands are
  // COALESCEd (may be NULL) and which are written bare, the conditions' NULL handling.
  const c = (x: object) => x as Condition;
  const nodes = (): Bundle => {
    const b = shapes();
    b.parameters['zz.bands'] = param('zz.bands', 'bands', [
      entry('2000-01-01', { bands: [{ below: 150000, value: 1 }, { at_most: 300000, value: 2 }, { value: 3 }] }),
    ]);
    b.programs['zz.b'] = program('zz.b', {
      parameters: { k: 'zz.k', t: 'zz.t', bands: 'zz.bands' },
      validations: [
        { when: c({ fact: 'seniorIncome', operator: 'lessThanInclusive', value: 0 }), code: 'NO_INCOME', message: { en: 'no income', es: 'sin ingresos' } },
      ],
      steps: [
        { id: 'neg', label, ...f('-seniorIncome') },
        { id: 'negValue', label, ...f('-value') },
        { id: 'twelfth', label, ...f('floor(value / 12)') },
        { id: 'pw', label, ...f('pow(4, veteranDisability / 100)') },
        { id: 'pw0', label, ...f('pow(0, veteranIncome)') },
        { id: 'low', label, ...f('min(value, seniorIncome, 12)') },
        { id: 'high', label, ...f('max(neg, negValue, twelfth)') },
        { id: 'rate', label, ...f('t[propertyClass]') },
        { id: 'tier', label, ...f('band(bands, value * k)') },
        {
          id: 'mixed',
          label,
          condition: c({
            all: [
              { fact: 'seniorIncome', operator: 'lessThan', value: 100 },
              { any: [{ fact: 'homestead', operator: 'equal', value: true }, { not: { fact: 'propertyClass', operator: 'in', value: ['class1', 'class2'] } }] },
              { fact: 'starType', operator: 'notIn', value: ['basic'] },
              { fact: 'purchasePrice', operator: 'equal', value: null },
              { fact: 'veteranIncome', operator: 'notEqual', value: 3 },
              { fact: 'value', operator: 'greaterThanInclusive', value: 5 },
              { fact: 'over65', operator: 'equal', value: false },
              { fact: 'propertyClass', operator: 'equal', value: 'class1' },
              { fact: 'value', operator: 'equal', value: 'class1' },
              { fact: 'homestead', operator: 'lessThan', value: 3 },
              { fact: 'propertyClass', operator: 'in', value: [] },
              { any: [] },
              { all: [] },
            ],
          }),
        },
        {
          id: 'facts',
          label,
          condition: c({
            any: [
              { fact: 'purchasePrice', operator: 'lessThan', value: { fact: 'value' } },
              { fact: 'value', operator: 'greaterThan', value: { fact: 'purchasePrice' } },
              { fact: 'seniorIncome', operator: 'equal', value: { fact: 'veteranIncome' } },
              { fact: 'value', operator: 'notEqual', value: { fact: 'veteranDisability' } },
              { fact: 'value', operator: 'equal', value: { fact: 'veteranDisability' } },
              { fact: 'propertyClass', operator: 'notEqual', value: { fact: 'starType' } },
              { fact: 'homestead', operator: 'lessThanInclusive', value: { fact: 'over65' } },
            ],
          }),
        },
        {
          id: 'kind',
          label,
          cases: [
            { when: c({ fact: 'mixed', operator: 'equal', value: true }), value: 'home' },
            { when: c({ fact: 'facts', operator: 'equal', value: true }), value: 'rental' },
          ],
        },
        {
          id: 'pick',
          label,
          cases: [{ when: c({ fact: 'kind', operator: 'equal', value: 'home' }), ...f('rate * 100') }, { ...f('low') }, { ...f('high') }],
        },
      ],
      notes: [
        { when: c({ fact: 'kind', operator: 'notEqual', value: 'rental' }), text: { en: 'not a rental', es: 'no alquilada' } },
        { when: c({ fact: 'mixed', operator: 'equal', value: true }), text: { en: 'mixed', es: 'mixta' } },
      ],
      result: {
        annualTax: { ...f('pick + tier'), unit: 'usd' },
        monthlyTax: { ...f('neg + pw + pw0'), unit: 'usd' },
        effectiveRate: { ...f('high / value'), unit: 'percent' },
        taxableValue: { ...f('neg'), unit: 'usd' },
      } as unknown as ResultGroup,
    });
    b.states.ZZ!.programs = [{ program: 'zz.b' }];
    return b;
  };
  for (const dialect of ['duckdb', 'postgres'] as const) {
    it(dialect, async () => {
      await expect(generateSql(nodes(), { state: 'ZZ', dialect }) + ';\n').toMatchFileSnapshot(`snapshots/zz.nodes.${dialect}.sql`);
    });
  }
  const duck = useDuckDb();
  it('the SQL runs: rows by hand', async () => {
    const types = SQL_INPUTS.filter((x) => x.column).map((x) => `${q(x.column!)} ${x.ty === 'num' ? 'DOUBLE' : x.ty === 'bool' ? 'BOOLEAN' : 'VARCHAR'}`);
    await duck.c.run('DROP TABLE IF EXISTS ptax_input');
    await duck.c.run(`CREATE TABLE ptax_input (id VARCHAR, state VARCHAR, county VARCHAR, ${types.join(', ')})`);
    // mixed is FALSE (it holds `value equal 'class1'`). A: neg −50, twelfth floor(16,666.67) = 16,666,
    // pw 4^0.5 = 2, pw0 0^2 = 0, low min(200,000, 50, 12) = 12, high max(−50, −200,000, 16,666) = 16,666,
    // tier band(200,000 × 0.03 = 6,000) = 1; facts: 200,000 > null (0): kind rental, pick low 12:
    // annualTax 12 + 1 = 13, monthlyTax −50 + 2 + 0 = −48, effectiveRate 16,666 / 200,000 = 0.08333, taxableValue −50.
    // B: seniorIncome null (0): neg −0, low 0, twelfth 8,333, pw 4^0 = 1, pw0 0^0 = 1, tier 1; the validation
    // (null ≤ 0) does not hold: annualTax 0 + 1, monthlyTax 2, effectiveRate 8,333 / 100,000 = 0.08333, taxableValue 0.
    // C: seniorIncome 0: the validation. D: class9: no value in t.
    await duck.c.run(
      `INSERT INTO ptax_input (id, state, county, value, class, homestead, seniorIncome, veteranDisability, veteranIncome, purchasePrice) VALUES
        ('A', 'ZZ', 'Gamma', 200000, 'class1', TRUE, 50, 50, 2, NULL), ('B', 'ZZ', 'Gamma', 100000, 'class2', FALSE, NULL, NULL, NULL, 90000),
        ('C', 'ZZ', 'Gamma', 100000, 'class2', FALSE, 0, NULL, NULL, NULL), ('D', 'ZZ', 'Gamma', 100000, 'class9', FALSE, 50, NULL, NULL, NULL)`,
    );
    const got = (await duck.c.runAndReadAll(generateSql(nodes(), { state: 'ZZ', columns: ['id', ...BATCH_INPUT_COLUMNS] }))).getRowObjects();
    expect(
      Object.fromEntries(
        got.map((g) => [
          g.id,
          [g.annualTax, g.monthlyTax, g.effectiveRate, g.taxableValue, g.notes, g.errorCode, g.error].map((x) => (typeof x === 'number' ? x + 0 : x)),
        ]),
      ),
    ).toEqual({
      A: [13, -48, 0.08333, -50, null, null, null],
      B: [1, 2, 0.08333, 0, null, null, null],
      C: [null, null, null, null, null, 'NO_INCOME', 'no income'],
      D: [null, null, null, null, null, 'NO_VALUE', 'zz.t has no value for class9'],
    });
  });
});

describe('a scalar parameter in a condition (a constant: the lowering reads its value)', () => {
  it('against a text fact: refused, the constant named by its value', () => {
    const b = shapes();
    b.programs['zz.b'] = program('zz.b', {
      parameters: { k: 'zz.k' },
      steps: [{ id: 'cmp', label, condition: { fact: 'k', operator: 'equal', value: { fact: 'propertyClass' } } as Condition }],
      notes: [{ when: is('cmp', true), text: { en: 'k', es: 'k' } }],
    });
    b.states.ZZ!.programs = [{ program: 'zz.b' }];
    expect(() => generateSql(b, { state: 'ZZ' })).toThrow('zz.b: 0.03 and propertyClass compared across types');
  });
  it('as a fact, against a literal and a fact, and as the value', () => {
    const b = shapes();
    b.programs['zz.b'] = program('zz.b', {
      parameters: { k: 'zz.k' },
      steps: [
        {
          id: 'cmp',
          label,
          condition: {
            any: [
              { fact: 'k', operator: 'greaterThan', value: 0.01 },
              { fact: 'k', operator: 'lessThan', value: { fact: 'value' } },
              { fact: 'seniorIncome', operator: 'greaterThan', value: { fact: 'k' } },
              { fact: 'k', operator: 'equal', value: { fact: 'seniorIncome' } },
            ],
          } as Condition,
        },
      ],
      result: { annualTax: { ...f('value'), unit: 'usd' } } as unknown as ResultGroup,
      notes: [{ when: is('cmp', true), text: { en: 'k', es: 'k' } }],
    });
    b.states.ZZ!.programs = [{ program: 'zz.b' }];
    // k is 0.03 in 2026; seniorIncome (f5) may be NULL, value (f0) may not. A constant is never
    // NULL: no COALESCE around it or around a comparison of it with f0; f5 > k is still
    // COALESCEd (f5 may be NULL), k = f5 compared with IS NOT DISTINCT FROM.
    const sql = generateSql(b, { state: 'ZZ' });
    expect(sql).toContain(
      "(CASE WHEN (((CAST('0.03' AS FLOAT8) > CAST('0.01' AS FLOAT8)) OR (CAST('0.03' AS FLOAT8) < f0) OR COALESCE(f5 > CAST('0.03' AS FLOAT8), FALSE) OR (CAST('0.03' AS FLOAT8) IS NOT DISTINCT FROM f5))) THEN 1 ELSE 0 END)",
    );
    expect(sql).not.toContain("COALESCE(CAST('0.03' AS FLOAT8)");
  });
});

describe('a result leaf of unit text in a number column', () => {
  it('refused when the SQL is made (the query would add text to a number for every row)', () => {
    const b = shapes();
    b.programs['zz.b'] = program('zz.b', {
      steps: [{ id: 'kind', label, cases: [{ when: is('homestead', true), value: 'home' }, { value: 'rental' }] }],
      result: { annualTax: { ...f('kind'), unit: 'text' } } as unknown as ResultGroup,
    });
    b.states.ZZ!.programs = [{ program: 'zz.b' }];
    expect(() => generateSql(b, { state: 'ZZ' })).toThrow(PtaxError);
    expect(() => generateSql(b, { state: 'ZZ' })).toThrow('zz.b: the result annualTax is text, its column annualTax holds numbers');
    try {
      generateSql(b, { state: 'ZZ' });
    } catch (e) {
      expect((e as PtaxError).code).toBe('RULES_INVALID');
    }
  });
});

describe('the places and rates tables (DuckDB: a string split when the query runs; PostgreSQL: VALUES)', () => {
  const ratesOf = (sql: string) => sql.slice(sql.indexOf('ptax_rates('), sql.indexOf('ptax_years('));
  const placesOf = (sql: string) => sql.slice(sql.indexOf('ptax_places('), sql.indexOf('ptax_rates('));
  it('DuckDB: one line a row, | between fields, an empty field NULL; PostgreSQL: VALUES', () => {
    const duck = generateSql(shapes(), { state: 'ZZ' });
    // Alpha's 2024 rates: rate 2, typical 1.8, parts 1, 0.5, 0.3, 0.2, units Alpha ISD and Alpha City, not carried.
    expect(ratesOf(duck)).toContain('ZZ|alpha|2024|2|1.8|1|0.5|0.3|0.2|Alpha ISD|Alpha City|\n');
    // Beta's 2024: the 2026 rate 1 carried back (2026), no typical rate, no parts, no units.
    expect(ratesOf(duck)).toContain('ZZ|beta|2024|1||||||||2026\n');
    expect(ratesOf(duck)).toContain("CAST(NULLIF(s[5], '') AS FLOAT8)");
    expect(placesOf(duck)).toContain('ZZ|gamma|Gamma|zz.b|true|true|false\n');
    expect(placesOf(duck)).not.toContain('VALUES');
    const pg = generateSql(shapes(), { state: 'ZZ', dialect: 'postgres' });
    expect(ratesOf(pg)).toContain("('ZZ', 'beta', 2024, CAST('1' AS FLOAT8), NULL, NULL, NULL, NULL, NULL, CAST(NULL AS TEXT), CAST(NULL AS TEXT), '2026')");
    expect(placesOf(pg)).toContain("('ZZ', 'gamma', 'Gamma', 'zz.b', TRUE, TRUE, FALSE)");
  });
  it('DuckDB keeps VALUES for a table with a field holding | or a line break, or an empty text that is not NULL', () => {
    const withUnit = (school: string) => {
      const b = shapes();
      const alpha = b.states.ZZ!.counties[0]!;
      b.states.ZZ!.counties[0] = { ...alpha, rates: [{ ...alpha.rates[0]!, units: { school, city: 'Alpha City' } }] };
      return generateSql(b, { state: 'ZZ' });
    };
    for (const unit of ['Alpha|ISD', 'Alpha\nISD', '']) {
      const sql = withUnit(unit);
      expect(ratesOf(sql)).toContain('  VALUES\n');
      expect(ratesOf(sql)).toContain(`('ZZ', 'alpha', 2024, CAST('2' AS FLOAT8), CAST('1.8' AS FLOAT8)`);
      // (The places have no such field: still a string.)
      expect(placesOf(sql)).not.toContain('VALUES');
    }
    expect(ratesOf(withUnit('Alpha ISD'))).not.toContain('VALUES');
  });
});

describe("the other programs' rows gathered (DuckDB) only when the roll is mostly the county-level program's", () => {
  const duck = useDuckDb();
  const gathered = (sql: string) => sql.includes('ptax_gathered_1 AS MATERIALIZED');
  it('chosen from the roll’s rows by state cell, read as Calculator.state reads it', () => {
    // No roll counted (`ptax rules sql`): gathered, the shape of a roll of every state.
    expect(gathered(generateSql(base))).toBe(true);
    // New York alone: every row is the other branch's; nothing gathered, no key numbers.
    const ny = generateSql(base, { mix: [{ state: 'NY', rows: 1000 }] });
    expect(gathered(ny)).toBe(false);
    expect(ny).not.toContain('k_id');
    // The bench's mix: 92% county-level (Alabama), 8% New York: gathered.
    expect(
      gathered(
        generateSql(base, {
          mix: [
            { state: 'AL', rows: 920 },
            { state: 'NY', rows: 80 },
          ],
        }),
      ),
    ).toBe(true);
    // PostgreSQL never gathers this way (each CTE is MATERIALIZED there anyway).
    expect(generateSql(base, { dialect: 'postgres' })).not.toContain('ptax_gathered');
    // The choice itself (places: Alabama's county-level, New York's own programs; a state with both counts as the others').
    const places = [
      ['AL', 'autauga', 'Autauga', 'county_level'],
      ['NY', 'albany', 'Albany', 'ny.outside'],
      ['NY', 'new-york-city', 'New York City', 'ny.nyc'],
      ['TX', 'harris', 'Harris', 'tx'],
      ['OH', 'hardin', 'Hardin', 'county_level'],
      ['OH', 'odd', 'Odd', 'tx'],
    ];
    const mix = (...m: Array<[string | null, number]>) =>
      gatherOthers(
        base,
        places,
        'county_level',
        m.map(([state, rows]) => ({ state, rows })),
      );
    expect(gatherOthers(base, places, 'county_level', undefined)).toBe(true);
    expect(mix(['NY', 1000])).toBe(false);
    expect(mix(['AL', 920], ['NY', 80])).toBe(true);
    // A state by its name or code in any case: 'alabama' 6 of 10 rows, 'ny' 4: gathered.
    expect(mix(['alabama', 6], [' ny ', 4])).toBe(true);
    expect(mix([' al ', 6], ['New York', 4])).toBe(true);
    // Exactly half is not more than half: not gathered.
    expect(mix(['AL', 5], ['TX', 5])).toBe(false);
    // An empty state cell and an unknown state count as the others' (their rows are refused in the last branch).
    expect(mix(['AL', 4], [null, 3], ['Atlantis', 3])).toBe(false);
    expect(mix(['AL', 8], [null, 1], ['Atlantis', 1])).toBe(true);
    // Ohio here has a place of another program: the others'.
    expect(mix(['OH', 9], ['NY', 1])).toBe(false);
    // An empty roll: nothing to gather.
    expect(mix()).toBe(false);
    // A state with places of both programs (ZZ: zz.a in Alpha, Beta, Epsilon; zz.b in Gamma and the alias) counts as the others'.
    expect(generateSql(shapes(), { state: 'ZZ', mix: [{ state: 'ZZ', rows: 10 }] })).not.toContain('ptax_gathered');
  });

  it('the same rows either way (ZZ: a row of each program, by hand)', async () => {
    const c = duck.c;
    const cols = ['id', ...BATCH_INPUT_COLUMNS];
    await c.run('DROP TABLE IF EXISTS ptax_input');
    await c.run(
      `CREATE TABLE ptax_input AS SELECT * FROM (VALUES ('R0', 'ZZ', 'Alpha', 2026, 100000, 'class1'), ('R1', 'ZZ', 'Gamma', 2026, 400000, NULL), ('R2', 'ZZ', 'Nowhere', 2026, 1, NULL)) AS t(id, state, county, year, value, class)`,
    );
    const view = (await c.runAndReadAll('DESCRIBE ptax_input')).getRowObjects().map((r) => String(r.column_name));
    const select = cols.map((k) => (view.includes(k) ? q(k) : `CAST(NULL AS ${k === 'class' ? 'VARCHAR' : 'DOUBLE'}) AS ${q(k)}`)).join(', ');
    await c.run(`CREATE OR REPLACE VIEW ptax_rows AS SELECT ${select} FROM ptax_input`);
    const run = async (mix?: Array<{ state: string; rows: number }>) => {
      const sql = generateSql(shapes(), { state: 'ZZ', table: 'ptax_rows', columns: cols, ...(mix ? { mix } : {}) });
      const rows = (await c.runAndReadAll(sql)).getRowObjects();
      return { sql, rows: rows.map((r) => JSON.stringify([r.id, r.program, r.annualTax, r.errorCode])).sort() };
    };
    const a = await run();
    const b = await run([{ state: 'ZZ', rows: 3 }]);
    expect(a.sql).toContain('ptax_gathered_1 AS MATERIALIZED');
    expect(b.sql).not.toContain('ptax_gathered');
    // R0 Alpha (zz.a) 2026, 100,000, class1: 14,000 (the hand test above, rows 1 and 8); R1 Gamma (zz.b): 400,000 × 1.5 / 100 = 6,000;
    // R2: no such county.
    expect(a.rows).toEqual(['["R0","zz.a",14000,null]', '["R1","zz.b",6000,null]', '["R2",null,null,"UNKNOWN_COUNTY"]']);
    expect(b.rows).toEqual(a.rows);
  });

  it('run.ts counts the rows by state cell: a Parquet file whole, a CSV file’s first 100,000 rows, the column as spelt', async () => {
    const c = duck.c;
    const dir = mkdtempSync(join(tmpdir(), 'ptax-mix-'));
    try {
      const csv = join(dir, 'roll.csv');
      // 100,002 rows: 60,000 AL, then 40,000 NY, then 2 TX (past the CSV's first 100,000), header "State".
      writeFileSync(csv, `State,county,value\n${'AL,Autauga,1\n'.repeat(60_000)}${'NY,Kings,1\n'.repeat(40_000)}TX,Harris,1\n,,1\n`);
      const parquet = join(dir, 'roll.parquet');
      await c.run(`COPY (SELECT * FROM read_csv(${str(csv)}, header = true, all_varchar = true)) TO ${str(parquet)} (FORMAT parquet)`);
      const view = inputView([
        { name: 'State', text: true },
        { name: 'county', text: true },
        { name: 'value', text: true },
      ]);
      const sorted = (m: Array<{ state: string | null; rows: number }>) => m.sort((x, y) => String(x.state).localeCompare(String(y.state)));
      expect(sorted(await mixOf(c, `read_parquet(${str(parquet)})`, view, false))).toEqual([
        { state: 'AL', rows: 60_000 },
        { state: null, rows: 1 },
        { state: 'NY', rows: 40_000 },
        { state: 'TX', rows: 1 },
      ]);
      expect(sorted(await mixOf(c, `read_csv(${str(csv)}, header = true, all_varchar = true)`, view, true))).toEqual([
        { state: 'AL', rows: 60_000 },
        { state: 'NY', rows: 40_000 },
      ]);
      // No state column: nothing counted.
      expect(await mixOf(c, `read_parquet(${str(parquet)})`, inputView([{ name: 'value', text: true }]), false)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
