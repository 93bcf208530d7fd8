/**
 * The SQL printer (generate.ts) on a hand-made program and state (ZZ, no counties) that
 * uses every node of the lowered form, run by DuckDB on rows whose figures are worked out
 * by hand below: null-as-zero, a division by 0 (an empty cell), a table by a choice and a
 * band with their NO_VALUE messages, min, max, floor, pow, minus, cases with and without an
 * otherwise, conditions on facts that may be NULL (json-rules-engine's null: null < 5 is
 * false, null ≠ 5 is true), a fact compared with a fact, validations in order, notes, the
 * rounding of each unit. Then what the printer refuses, the exact text of the small helpers
 * and of PostgreSQL's division guard, and jsNumberText through DuckDB. The real rules'
 * SQL: engine/sql/sql-snapshots.test.ts (text) and engine/sql/sql.test.ts (figures).
 */
import { describe, expect, it } from 'vitest';
import { readBundle } from '../build/bundle.js';
import { parseFormula } from '../build/formulas.js';
import { PtaxError } from '../core/errors.js';
import type { Bundle, Condition, ParameterDef, ProgramDef, ResultGroup, StepDef } from '../core/types.js';
import { useDuckDb } from './duckdb-test.js';
import { BATCH_INPUT_COLUMNS, SQL_INPUTS, generateSql, jsNumberText, num, q, str } from './generate.js';

const base: Bundle = readBundle('dist/rules/bundle.json');
const label = { en: 'x', es: 'x' };
const f = (src: string) => ({ formula: parseFormula(src) });
const param = (id: string, type: ParameterDef['type'], entry: object): ParameterDef => ({
  id,
  file: 'rules/zz.yaml',
  description: id,
  label,
  unit: 'none',
  type,
  values: [{ effective: '2000-01-01', reference: [], last_verified: '2026-11-27', ...entry }],
});

/** The rules with a state ZZ (no counties) whose one program is `p` (id zz.p, year 2026). */
function bundleWith(over: Partial<ProgramDef>): Bundle {
  const program: ProgramDef = {
    id: 'zz.p',
    file: 'rules/zz/p.yaml',
    description: 'a test program',
    label,
    period: { start: '01-01', fiscal: false },
    years: [2026],
    parameters: { k: 'zz.k', t: 'zz.t', b: 'zz.b' },
    validations: [],
    steps: [],
    notes: [],
    result: { annualTax: { ...f('value'), unit: 'usd' } },
    ...over,
  };
  return {
    ...base,
    parameters: {
      ...base.parameters,
      'zz.k': param('zz.k', 'scalar', { value: 0.02 }),
      'zz.t': param('zz.t', 'by_key', { value: { class1: 0.5, class2: 0.25 } }),
      'zz.b': param('zz.b', 'bands', { bands: [{ below: 100000, value: 1 }, { at_most: 200000, value: 2 }, { value: 3 }] }),
    },
    programs: { ...base.programs, 'zz.p': program },
    states: {
      ...base.states,
      ZZ: {
        code: 'ZZ',
        file: 'rules/zz.yaml',
        name: { en: 'Zed', es: 'Zed' },
        description: 'a test state',
        tier: 'county',
        counties: [],
        programs: [{ program: 'zz.p' }],
        aliases: [],
        calculators: [],
      },
    },
  };
}

const refused = (over: Partial<ProgramDef>, dialect: 'duckdb' | 'postgres' = 'duckdb'): string => {
  try {
    generateSql(bundleWith(over), { state: 'ZZ', dialect });
  } catch (e) {
    expect(e).toBeInstanceOf(PtaxError);
    return `${(e as PtaxError).code}: ${(e as PtaxError).message}`;
  }
  return 'printed';
};

// The program. Steps (value has a default, so it is never NULL; seniorIncome and
// purchasePrice may be):
//   base  = value × t[class]        tier = band(b, value)       inc = seniorIncome + 1
//   tax   = max(base × k − 100, 0)  twelfth = floor(value / 12)    pw = pow(2, veteranDisability / 10)
//   kind  = 'home' when homestead, 'rental' when class is class2, else NULL
//   big   = value ≥ 200,000         neg = −seniorIncome          ratio = value / seniorIncome
//   low   = min(value, 4 × 12, tax)   (4 × 12 folded: 48)
const STEPS: StepDef[] = [
  { id: 'base', label, ...f('value * t[propertyClass]') },
  { id: 'tier', label, ...f('band(b, value)') },
  { id: 'inc', label, ...f('seniorIncome + 1') },
  { id: 'tax', label, ...f('max(base * k - 100, 0)') },
  { id: 'twelfth', label, ...f('floor(value / 12)') },
  { id: 'pw', label, ...f('pow(4, veteranDisability / 100)') },
  {
    id: 'kind',
    label,
    cases: [
      { when: { fact: 'homestead', operator: 'equal', value: true }, value: 'home' },
      { when: { fact: 'propertyClass', operator: 'in', value: ['class2'] }, value: 'rental' },
    ],
  },
  { id: 'big', label, condition: { fact: 'value', operator: 'greaterThanInclusive', value: 200000 } },
  { id: 'neg', label, ...f('-seniorIncome') },
  { id: 'ratio', label, ...f('value / seniorIncome') },
  { id: 'low', label, ...f('min(value, 4 * 12, tax)') },
];
const NOTES: ProgramDef['notes'] = [
  { when: { fact: 'big', operator: 'equal', value: true }, text: { en: 'large', es: 'grande' } },
  { when: { fact: 'kind', operator: 'equal', value: 'home' }, text: { en: 'home', es: 'casa' } },
  { when: { fact: 'seniorIncome', operator: 'lessThan', value: 100 }, text: { en: 'low income', es: 'ingreso bajo' } },
  { when: { fact: 'purchasePrice', operator: 'lessThan', value: { fact: 'value' } }, text: { en: 'bought for less', es: 'comprada por menos' } },
  { when: { fact: 'seniorIncome', operator: 'notEqual', value: 5 }, text: { en: 'not 5', es: 'no 5' } },
];
const VALIDATIONS: ProgramDef['validations'] = [
  { when: { fact: 'value', operator: 'lessThan', value: 0 }, code: 'NEGATIVE_VALUE', message: { en: 'negative value', es: 'valor negativo' } },
  { when: { fact: 'value', operator: 'lessThan', value: 10 }, code: 'SMALL_VALUE', message: { en: 'small value', es: 'valor pequeño' } },
];
const RESULT = {
  annualTax: { ...f('tax'), unit: 'usd' },
  monthlyTax: { ...f('inc'), unit: 'usd' },
  effectiveRate: { ...f('tax / value * 100'), unit: 'percent' },
  baseAssessedValue: { ...f('tier'), unit: 'count' },
  finalAssessedValue: { ...f('ratio'), unit: 'usd' },
  taxableValue: { ...f('twelfth'), unit: 'usd' },
  exemptionSavings: { ...f('pw'), unit: 'usd' },
  potentialSavings: { ...f('neg + low'), unit: 'usd' },
} as unknown as ResultGroup;

const COLS = ['annualTax', 'monthlyTax', 'effectiveRate', 'baseAssessedValue', 'finalAssessedValue', 'taxableValue', 'exemptionSavings', 'potentialSavings'];

describe('a hand-made program through DuckDB', () => {
  const duck = useDuckDb();
  const TYPE = new Map(SQL_INPUTS.filter((x) => x.column).map((x) => [x.column!, x.ty === 'num' ? 'DOUBLE' : x.ty === 'bool' ? 'BOOLEAN' : 'VARCHAR']));
  const lit = (x: unknown) =>
    x === null || x === undefined ? 'NULL' : typeof x === 'number' ? num(x) : typeof x === 'boolean' ? String(x).toUpperCase() : str(String(x));
  async function rows(sql: string, input: Array<Record<string, unknown>>): Promise<Array<Record<string, unknown>>> {
    const c = duck.c;
    await c.run('DROP TABLE IF EXISTS ptax_input');
    await c.run(
      `CREATE TABLE ptax_input (id VARCHAR, state VARCHAR, county VARCHAR, ${BATCH_INPUT_COLUMNS.slice(2)
        .map((k) => `${q(k)} ${TYPE.get(k)}`)
        .join(', ')})`,
    );
    const values = input.map((r, i) => `(${[str(`R${i}`), "'ZZ'", 'NULL', ...BATCH_INPUT_COLUMNS.slice(2).map((k) => lit(r[k]))].join(', ')})`);
    await c.run(`INSERT INTO ptax_input VALUES ${values.join(', ')}`);
    const got = (await c.runAndReadAll(sql)).getRowObjects();
    return input.map((_, i) => {
      const g = got.find((x) => x.id === `R${i}`)!;
      return Object.fromEntries(['errorCode', 'error', 'notes', ...COLS].map((k) => [k, typeof g[k] === 'number' ? (g[k] as number) + 0 : (g[k] ?? null)]));
    });
  }
  const nothing = Object.fromEntries(COLS.map((k) => [k, null]));

  // (PostgreSQL's printing differs in its division guard, below, and in the functions it
  // names; engine/sql/sql.test.ts runs it on a real server when there is one.)
  it('rows worked out by hand', async () => {
    const sql = generateSql(bundleWith({ steps: STEPS, notes: NOTES, validations: VALIDATIONS, result: RESULT }), {
      state: 'ZZ',
      columns: ['id', ...BATCH_INPUT_COLUMNS],
    });
    const got = await rows(sql, [
      // 1. value 300,000, class1, homestead, seniorIncome 50, purchasePrice 250,000, veteranDisability 50:
      //    base 150,000; tier 3; inc 51; tax max(3,000 − 100, 0) = 2,900; twelfth 25,000; pw 4^0.5 = 2;
      //    kind home; big; neg −50; ratio 6,000; low min(300,000, 48, 2,900) = 48;
      //    rate 2,900 / 300,000 × 100 = 0.966666… → 0.966667; potentialSavings −50 + 48 = −2.
      //    Notes: large, home, low income (50 < 100), bought for less, not 5.
      { value: 300000, class: 'class1', homestead: true, seniorIncome: 50, purchasePrice: 250000, veteranDisability: 50 },
      // 2. value 150,000, class2, no homestead, seniorIncome NULL, no purchase price, no disability (0):
      //    base 37,500; tier 2 (at most 200,000); inc 0 + 1 = 1; tax 750 − 100 = 650; twelfth 12,500; pw 1;
      //    kind rental; neg −0 (printed 0); ratio 150,000 / 0 = Infinity: an empty cell; low 48;
      //    rate 650 / 150,000 × 100 = 0.433333…; potentialSavings 0 + 48.
      //    Notes: none of large, home; low income no (NULL is not numeric); bought for less no
      //    (NULL < value is false); not 5 yes (NULL ≠ 5).
      { value: 150000, class: 'class2', homestead: false, seniorIncome: null, purchasePrice: null, veteranDisability: null },
      // 3. value 50,000, class1, seniorIncome 5: base 25,000; tier 1; tax max(500 − 100, 0) = 400;
      //    twelfth floor(4,166.67) = 4,166; kind NULL (neither case): no home note; low 48;
      //    ratio 10,000; neg −5; potentialSavings 43. Notes: low income; not 5: no.
      { value: 50000, class: 'class1', homestead: false, seniorIncome: 5, veteranDisability: 0 },
      // 4. value −1: the first validation that holds, though the second does too.
      { value: -1, class: 'class1' },
      // 5. value 5: the second validation.
      { value: 5, class: 'class1' },
      // 6. class9: the table has no value for it (the step's error: NO_VALUE with the key).
      { value: 5000, class: 'class9' },
      // 7. no class: "null" in the message.
      { value: 5000, class: null },
      // 8. no value: the default, 350,000: base 175,000; tax 3,400; twelfth floor(29,166.67) = 29,166; rate 3,400 / 350,000 × 100 = 0.971428571… → 0.971429.
      { value: null, class: 'class1', seniorIncome: 1000 },
    ]);
    expect(got).toEqual([
      {
        errorCode: null,
        error: null,
        notes: 'large | home | low income | bought for less | not 5',
        annualTax: 2900,
        monthlyTax: 51,
        effectiveRate: 0.966667,
        baseAssessedValue: 3,
        finalAssessedValue: 6000,
        taxableValue: 25000,
        exemptionSavings: 2,
        potentialSavings: -2,
      },
      {
        errorCode: null,
        error: null,
        notes: 'not 5',
        annualTax: 650,
        monthlyTax: 1,
        effectiveRate: 0.433333,
        baseAssessedValue: 2,
        finalAssessedValue: null,
        taxableValue: 12500,
        exemptionSavings: 1,
        potentialSavings: 48,
      },
      {
        errorCode: null,
        error: null,
        notes: 'low income',
        annualTax: 400,
        monthlyTax: 6,
        effectiveRate: 0.8,
        baseAssessedValue: 1,
        finalAssessedValue: 10000,
        taxableValue: 4166,
        exemptionSavings: 1,
        potentialSavings: 43,
      },
      { errorCode: 'NEGATIVE_VALUE', error: 'negative value', notes: null, ...nothing },
      { errorCode: 'SMALL_VALUE', error: 'small value', notes: null, ...nothing },
      { errorCode: 'NO_VALUE', error: 'zz.t has no value for class9', notes: null, ...nothing },
      { errorCode: 'NO_VALUE', error: 'zz.t has no value for null', notes: null, ...nothing },
      {
        errorCode: null,
        error: null,
        notes: 'large | not 5',
        annualTax: 3400,
        monthlyTax: 1001,
        effectiveRate: 0.971429,
        baseAssessedValue: 3,
        finalAssessedValue: 350,
        taxableValue: 29166,
        exemptionSavings: 1,
        potentialSavings: -952,
      },
    ]);
  });

  it("two years of a program: each row by its year's rules, one column for the step they share", async () => {
    // k is 0.02 from 2000 and 0.03 from 2025: 2024's tax is value × 0.02, 2026's value × 0.03 (read twice: a column).
    const b = bundleWith({
      years: [2024, 2026],
      steps: [{ id: 'tax', label, ...f('value * k') }],
      result: { annualTax: { ...f('tax'), unit: 'usd' }, monthlyTax: { ...f('tax / 12'), unit: 'usd' } } as unknown as ResultGroup,
    });
    b.parameters['zz.k']!.values.push({ effective: '2025-01-01', reference: [], last_verified: '2026-11-27', value: 0.03 });
    const sql = generateSql(b, { state: 'ZZ', columns: ['id', ...BATCH_INPUT_COLUMNS] });
    // One step column for both years, its number the row's year's.
    expect(sql).toContain(
      "CASE WHEN py IN (0, 1) THEN (f0 * (CASE py WHEN 0 THEN CAST('0.02' AS FLOAT8) WHEN 1 THEN CAST('0.03' AS FLOAT8) END)) END AS py0_s0",
    );
    const got = await rows(sql, [
      { value: 1000, year: 2024 }, // 1,000 × 0.02
      { value: 1000, year: 2026 }, // 1,000 × 0.03
      { value: 1000, year: null }, // the last year's
      { value: 1000, year: 2031 }, // after the last: the last year's
      { value: 1000, year: 2025 }, // between: no rules
    ]);
    expect(got.map((r) => r.error ?? r.annualTax)).toEqual([20, 30, 30, 30, 'No rules for 2025; years available: 2024, 2026']);
  });

  it('a band that misses: NO_VALUE with the value as JavaScript writes it', async () => {
    // Bands below 0 and at most 10: 10.5 and 20 fit none; NaN (0 / 0) none either.
    const p = {
      parameters: { b: 'zz.b2' },
      steps: [{ id: 'x', label, ...f('band(b, value / seniorIncome)') }],
      result: { annualTax: { ...f('x'), unit: 'usd' } } as unknown as ResultGroup,
    };
    const b = bundleWith(p);
    b.parameters['zz.b2'] = param('zz.b2', 'bands', {
      bands: [
        { below: 0, value: 1 },
        { at_most: 10, value: 2 },
      ],
    });
    const sql = generateSql(b, { state: 'ZZ', columns: ['id', ...BATCH_INPUT_COLUMNS] });
    const got = await rows(sql, [
      { value: 21, seniorIncome: 2 }, // 10.5
      { value: 20, seniorIncome: 1 }, // 20
      { value: 20, seniorIncome: 2 }, // 10: at most 10
      { value: -20, seniorIncome: 2 }, // −10: below 0
      { value: 20, seniorIncome: 0 }, // Infinity
      { value: -20, seniorIncome: 0 }, // −Infinity
      // 1e21: written as JS writes it. (Whole numbers from 1e15 to 1e21 are not: SQL writes
      // 2e16 as 2e+16 where JavaScript writes 20000000000000000: a known difference.)
      { value: 1e21, seniorIncome: 1 },
      { value: 0, seniorIncome: 0 }, // NaN
    ]);
    expect(got.map((r) => r.error ?? r.annualTax)).toEqual([
      'zz.b2 has no band for 10.5',
      'zz.b2 has no band for 20',
      2,
      1,
      'zz.b2 has no band for Infinity',
      1, // −Infinity is below 0
      'zz.b2 has no band for 1e+21',
      'zz.b2 has no band for NaN',
    ]);
  });

  it('a case step whose value can fail: the error of the case that holds', async () => {
    const p = {
      steps: [
        {
          id: 'x',
          label,
          cases: [{ when: { fact: 'homestead', operator: 'equal', value: true } as Condition, ...f('t[propertyClass]') }, { ...f('k') }],
        },
      ],
      result: { annualTax: { ...f('x * 100'), unit: 'usd' } } as unknown as ResultGroup,
    };
    const sql = generateSql(bundleWith(p), { state: 'ZZ', columns: ['id', ...BATCH_INPUT_COLUMNS] });
    const got = await rows(sql, [
      { value: 1, homestead: true, class: 'class2' }, // 0.25 × 100
      { value: 1, homestead: true, class: 'class7' }, // no value
      { value: 1, homestead: false, class: 'class7' }, // k: 0.02 × 100 = 2, the table not read
    ]);
    expect(got.map((r) => r.error ?? r.annualTax)).toEqual([25, 'zz.t has no value for class7', 2]);
  });
});

describe('what the SQL printer refuses', () => {
  const one = (over: Partial<StepDef>): Partial<ProgramDef> => ({
    steps: [{ id: 'x', label, ...over } as StepDef],
    result: { annualTax: { ...f('x'), unit: 'usd' } } as unknown as ResultGroup,
  });
  it.each<[string, Partial<ProgramDef>, string]>([
    ['a text in arithmetic', one(f('propertyClass + 1')), 'zz.p: a text in arithmetic is not supported in SQL'],
    ['a boolean in arithmetic', one(f('homestead * 4')), 'zz.p: a bool in arithmetic is not supported in SQL'],
    ['a table by a number', one(f('t[value]')), 'zz.p: a table indexed by a num is not supported in SQL'],
    [
      'cases of two types',
      one({ cases: [{ when: { fact: 'homestead', operator: 'equal', value: true }, value: 'a' }, { ...f('value') }] }),
      'zz.p.x: cases of different types are not supported in SQL',
    ],
    ['contains', one({ condition: { fact: 'propertyClass', operator: 'contains', value: 'a' } }), 'zz.p: the contains operator is not supported in SQL'],
    ['in without a list', one({ condition: { fact: 'propertyClass', operator: 'in', value: 'class1' } }), 'zz.p: in needs a list'],
    ['notIn without a list', one({ condition: { fact: 'propertyClass', operator: 'notIn', value: 'class1' } }), 'zz.p: notIn needs a list'],
    ['< on a text', one({ condition: { fact: 'propertyClass', operator: 'lessThan', value: 3 } }), 'zz.p: lessThan on a text is not supported in SQL'],
    ['< with a text', one({ condition: { fact: 'value', operator: 'greaterThan', value: 'a' } }), 'zz.p: greaterThan on a num is not supported in SQL'],
    [
      'a fact and a fact of another type',
      one({ condition: { fact: 'value', operator: 'equal', value: { fact: 'propertyClass' } } }),
      'zz.p: value and propertyClass compared across types',
    ],
    [
      'in between two facts',
      one({ condition: { fact: 'propertyClass', operator: 'in', value: { fact: 'starType' } } }),
      'zz.p: in between two facts is not supported in SQL',
    ],
    [
      'fifteen notes',
      {
        notes: Array.from({ length: 15 }, (_, i) => ({
          when: { fact: 'value', operator: 'equal', value: i } as Condition,
          text: { en: `n${i}`, es: `n${i}` },
        })),
      },
      "zz.p: more than 14 notes; the SQL's table of note sets (2^notes rows) would be too large",
    ],
  ])('%s', (_, over, message) => {
    expect(refused(over)).toBe(`RULES_INVALID: ${message}`);
  });
  it('fourteen notes are printed', () => {
    const notes = Array.from({ length: 14 }, (_, i) => ({
      when: { fact: 'value', operator: 'equal', value: i } as Condition,
      text: { en: `n${i}`, es: `n${i}` },
    }));
    expect(refused({ notes })).toBe('printed');
  });
  it('a program chosen by an input fact', () => {
    const b = bundleWith({});
    b.states.ZZ!.programs = [{ program: 'zz.p', when: { fact: 'homestead', operator: 'equal', value: true } }, { program: 'zz.p' }];
    expect(() => generateSql(b, { state: 'ZZ' })).toThrow('ZZ: the program is chosen by input facts; SQL chooses by county only');
  });
  it('an unknown state', () => {
    expect(() => generateSql(base, { state: 'QQ' })).toThrow('no state QQ in the rules');
  });
});

describe('the printed text', () => {
  it('identifiers, strings and numbers', () => {
    expect(q('a"b')).toBe('"a""b"');
    expect(str("O'Brien")).toBe("'O''Brien'");
    expect([num(0.06), num(-0), num(NaN), num(Infinity), num(-Infinity), num(1e21)]).toEqual([
      "CAST('0.06' AS FLOAT8)",
      "CAST('-0' AS FLOAT8)",
      "CAST('NaN' AS FLOAT8)",
      "CAST('Infinity' AS FLOAT8)",
      "CAST('-Infinity' AS FLOAT8)",
      "CAST('1e+21' AS FLOAT8)",
    ]);
  });
  it("PostgreSQL's division: ±Infinity or NaN for a divisor of 0, as JavaScript; DuckDB's own", () => {
    const p = { steps: [{ id: 'x', label, ...f('value / seniorIncome') }], result: { annualTax: { ...f('x + 1'), unit: 'usd' } } as unknown as ResultGroup };
    // value (f0) has a default; seniorIncome (f5) may be NULL: read as 0.
    expect(generateSql(bundleWith(p), { state: 'ZZ', dialect: 'postgres' })).toContain(
      "(CASE WHEN COALESCE(f5, CAST('0' AS FLOAT8)) = 0 THEN (CASE WHEN f0 > 0 THEN CAST('Infinity' AS FLOAT8) WHEN f0 < 0 THEN CAST('-Infinity' AS FLOAT8) ELSE CAST('NaN' AS FLOAT8) END) ELSE f0 / COALESCE(f5, CAST('0' AS FLOAT8)) END)",
    );
    expect(generateSql(bundleWith(p), { state: 'ZZ', dialect: 'duckdb' })).toContain("(f0 / COALESCE(f5, CAST('0' AS FLOAT8)))");
  });
});

describe('the options', () => {
  it('the input table, the columns renamed as the header wrote them, the column to order by', () => {
    const sql = generateSql(bundleWith({}), {
      state: 'ZZ',
      table: 'my_roll',
      columns: ['state', 'county', 'value'],
      headers: ['State', 'county', 'VALUE'],
      orderBy: 'n',
    });
    expect(sql).toContain('FROM my_roll AS i');
    expect(sql).not.toContain('ptax_input');
    expect(sql).toContain('SELECT r."state" AS "State", r."county", r."value" AS "VALUE", CASE WHEN o_code IS NULL THEN p_county END AS "countyName"');
    expect(sql).toContain('o_code AS "errorCode", r."n" FROM ptax_out AS r WHERE r.py IS NOT NULL OR r.p_error IS NOT NULL');
    expect(sql).toContain('-- input: a table my_roll with the batch columns (state, county, value, class,');
  });
  it("the header: dialect, states, year, rules files; DuckDB's optimizer advice", () => {
    const duck = generateSql(bundleWith({}), { state: 'zz ' });
    expect(duck.split('\n').slice(0, 3)).toEqual([
      '-- Generated by ptax (engine/sql/generate.ts) from the checked rules: do not edit.',
      '-- dialect: duckdb; states: ZZ',
      '-- rules: rules/zz.yaml, rules/zz/p.yaml',
    ]);
    expect(duck).toContain("-- DuckDB, for a large roll: SET disabled_optimizers = 'build_side_probe_side' first");
    const pg = generateSql(bundleWith({}), { state: 'ZZ', dialect: 'postgres', year: 2030 });
    expect(pg.split('\n')[1]).toBe('-- dialect: postgres; states: ZZ; year: 2030');
    expect(pg).not.toContain('disabled_optimizers');
    expect(pg).toContain('ptax_places(p_state, p_slug, p_county, p_program, f_nycclass, f_topcoded, f_estimated) AS MATERIALIZED (');
  });
  it('the years a query covers: all, the one asked, the last for a later one; none between', () => {
    const b = () => bundleWith({ years: [2024, 2026] });
    const py = (year?: number) => /THEN \(CASE (WHEN r\.p_program = .*?) END\) END AS p_py/.exec(generateSql(b(), { state: 'ZZ', year }))![1];
    expect(py()).toBe("WHEN r.p_program = 'zz.p' AND r.p_year = 2024 THEN 0 WHEN r.p_program = 'zz.p' AND r.p_year = 2026 THEN 1");
    expect(py(2024)).toBe("WHEN r.p_program = 'zz.p' AND r.p_year = 2024 THEN 0");
    expect(py(2026)).toBe("WHEN r.p_program = 'zz.p' AND r.p_year = 2026 THEN 0");
    expect(py(2030)).toBe("WHEN r.p_program = 'zz.p' AND r.p_year = 2026 THEN 0");
    expect(() => generateSql(b(), { state: 'ZZ', year: 2025 })).toThrow("ZZ: no rules for 2025 (rules' years: 2024, 2026)");
    expect(() => generateSql(b(), { state: 'ZZ', year: 2023 })).toThrow("ZZ: no rules for 2023 (rules' years: 2024, 2026)");
  });
  it('a year after the last of the rules takes the last; one before the first is refused', () => {
    // zz.p has 2026 only: 2030 is computed with 2026's rules, 2025 has none.
    expect(generateSql(bundleWith({}), { state: 'ZZ', year: 2030 })).toContain("WHEN r.p_program = 'zz.p' AND r.p_year = 2026 THEN 0");
    expect(() => generateSql(bundleWith({}), { state: 'ZZ', year: 2025 })).toThrow("ZZ: no rules for 2025 (rules' years: 2026)");
  });
});

describe('a power in PostgreSQL: its errors answered as JavaScript answers them', () => {
  const duck = useDuckDb();
  // seniorIncome (f5) and veteranIncome (f12) may be NULL: read as 0.
  const B = "COALESCE(f5, CAST('0' AS FLOAT8))";
  const E = "COALESCE(f12, CAST('0' AS FLOAT8))";
  const printed = (formula: string) => {
    const p = { steps: [{ id: 'x', label, ...f(formula) }], result: { annualTax: { ...f('x + 1'), unit: 'usd' } } as unknown as ResultGroup };
    return [generateSql(bundleWith(p), { state: 'ZZ', dialect: 'postgres' }), generateSql(bundleWith(p), { state: 'ZZ', dialect: 'duckdb' })];
  };
  it('DuckDB: POWER; PostgreSQL: a constant base of 0 decided in the query', () => {
    expect(printed('pow(seniorIncome, veteranIncome)')[1]).toContain(`POWER(${B}, ${E})`);
    // No logarithm (PostgreSQL would compute LN(0) for the constant part and stop): only the exponent's sign.
    expect(printed('pow(0, veteranIncome)')[0]).not.toContain('LN(');
    expect(printed('pow(0, veteranIncome)')[0]).toContain(`(CASE WHEN ${E} < 0 THEN CAST('Infinity' AS FLOAT8) ELSE POWER(CAST('0' AS FLOAT8), ${E}) END)`);
  });
  it('PostgreSQL: the printed CASE gives what ** gives (run here by DuckDB, whose POWER is C’s)', async () => {
    const [sql] = printed('pow(seniorIncome, veteranIncome)');
    const size = `(${E} * LN(ABS(${B})))`;
    const inf = "CAST('Infinity' AS FLOAT8)";
    const expr =
      `(CASE WHEN ${B} = 0 THEN (CASE WHEN ${E} < 0 THEN ${inf} ELSE POWER(${B}, ${E}) END)` +
      ` WHEN NOT (ABS(${B}) < ${inf} AND ABS(${E}) < ${inf}) THEN POWER(${B}, ${E})` +
      ` WHEN ${B} < 0 AND ${E} <> FLOOR(${E}) THEN CAST('NaN' AS FLOAT8) ELSE (CASE WHEN ${size} > 709.782712893384 THEN (CASE WHEN ${B} < 0 AND (${E} - 2 * FLOOR(${E} / 2) = 1) THEN -${inf} ELSE ${inf} END) WHEN ${size} < -744.4400719213812 THEN CAST(0 AS FLOAT8) ELSE POWER(${B}, ${E}) END) END)`;
    expect(sql).toContain(expr);
    // 0^−1 = Infinity; (−8)^0.5 = NaN; 10^400 = Infinity; (−10)^401 = −Infinity; (−10)^400 = Infinity;
    // 10^−400 = 0; 2^10 = 1024; (−2)^3 = −8; 0^0 = 1; Infinity^−1 = 0.
    const cases: Array<[number, number]> = [
      [0, -1],
      [-8, 0.5],
      [10, 400],
      [-10, 401],
      [-10, 400],
      [10, -400],
      [2, 10],
      [-2, 3],
      [0, 0],
      [Infinity, -1],
    ];
    for (const [b, e] of cases) {
      const at = expr.replaceAll(B, num(b)).replaceAll(E, num(e));
      const got = (await duck.c.runAndReadAll(`SELECT ${at} AS x`)).getRowObjects()[0]!.x;
      expect([b, e, got]).toEqual([b, e, b ** e]);
    }
  });
});

describe('jsNumberText: a double as JavaScript prints it, in DuckDB', () => {
  const duck = useDuckDb();
  it.each<[number, string | null]>([
    [400000, '400000'],
    [-3, '-3'],
    [1e16, '10000000000000000'],
    [1e21, '1e+21'],
    [0.5, '0.5'],
    [0.0001, '0.0001'],
    [0.00001, '0.00001'],
    [-0.000012, '-0.000012'],
    [0.000001, '0.000001'],
    [1e-7, '1e-7'],
    [1.5e-10, '1.5e-10'],
    [NaN, null],
    [Infinity, null],
    [-Infinity, null],
  ])('%s → %s', async (x, want) => {
    const r = await duck.c.runAndReadAll(`SELECT ${jsNumberText(num(x))} AS t`);
    expect(r.getRowObjects()[0]!.t).toBe(want);
    if (want !== null) expect(String(x)).toBe(want);
  });
});
