/**
 * The Calculator on hand-checkable examples: year selection, county and state look-up,
 * explanations, and output rounding. Figures come from the rule files (rules/ny/…) and
 * the rules reference §3 (NYC) and §4 (outside NYC).
 */
import { describe, expect, it } from 'vitest';
import { Calculator, PLANNED_STATES, type CalcInput, type CalcResult } from './calculate.js';
import { readBundle } from '../build/bundle.js';
import { DECIMALS, roundTo } from './round.js';
import { PtaxError } from './errors.js';
import { slugOf, suggest } from './counties.js';

// The rules as `npm run build` compiled them (the test command builds first); the
// loader itself is tested in load.test.ts.
const calc = new Calculator(readBundle('dist/rules/bundle.json'));
const KINGS: CalcInput = { state: 'NY', county: 'Kings', value: 800000, propertyClass: 'class1' };
const ALBANY: CalcInput = { state: 'NY', county: 'Albany', value: 300000 };

function error(f: () => unknown): PtaxError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(PtaxError);
    return e as PtaxError;
  }
  throw new Error('expected a PtaxError');
}

describe('hand-checked results', () => {
  it('Kings class1 800,000, FY2026 (default year)', () => {
    const r = calc.calculate(KINGS);
    expect([r.state, r.county, r.year, r.program]).toEqual(['NY', 'Kings County', 2026, 'ny.nyc']);
    // AV = 800,000 × 6% = 48,000; base tax = 48,000 × 19.843% = 9,524.64.
    expect(r.baseAssessedValue).toBe(48000);
    expect(r.annualTax).toBe(9524.64);
    // school = 9,524.64 × 58.4% = 5,562.38976 → 5,562.39; city = 3,962.25024 → 3,962.25.
    expect(r.countyBreakdown).toEqual({ school: 5562.39, county: 0, city: 3962.25, special: 0 });
    // monthly = 9,524.64 / 12 = 793.72; effective rate = 9,524.64 / 800,000 × 100 = 1.19058%.
    expect(r.monthlyTax).toBe(793.72);
    expect(r.effectiveRate).toBe(1.19058);
    // potential savings = 800,000 × 15% × 0.6879% (Kings County rate) = 825.48.
    expect(r.potentialSavings).toBe(825.48);
    expect(r.exemptions).toEqual({});
    expect(r.exemptionBreakdown).toEqual({});
    expect(r.notes).toEqual([]);
    expect(r.explanation).toBeUndefined();
  });

  it('Kings class1 800,000 with homestead: Basic STAR saves its maximum, 293', () => {
    const r = calc.calculate({ ...KINGS, homestead: true });
    // STAR rate = 19.843 × 58.4% = 11.588312%; 30,000 × 11.588312% = 3,476.49;
    // min(3,476.49, school 5,562.39, maximum 293, 9,524.64) = 293; 9,524.64 − 293 = 9,231.64.
    expect(r.annualTax).toBe(9231.64);
    expect(r.exemptions).toEqual({ star: 293 });
    expect(r.exemptionBreakdown).toEqual({ star: { type: 'basic', amount: 293 } });
    expect(r.exemptionSavings).toBe(293);
    // school = 9,231.64 × 58.4% = 5,391.27776 → 5,391.28; city = 3,840.36224 → 3,840.36.
    expect(r.countyBreakdown).toEqual({ school: 5391.28, county: 0, city: 3840.36, special: 0 });
  });

  it('Albany 300,000, tax year 2025 (default): the 1.8937% rate split 50/30/15/5', () => {
    const r = calc.calculate(ALBANY);
    expect([r.county, r.year, r.program]).toEqual(['Albany County', 2025, 'ny.outside']);
    // 300,000 × 1.8937% = 5,681.10.
    expect(r.annualTax).toBe(5681.1);
    // school 2,840.55; county 1,704.33; city 852.165 → 852.17; special 284.055 → 284.06
    // (half away from zero; the rounded parts add up to 5,681.11, a cent over the total).
    expect(r.countyBreakdown).toEqual({ school: 2840.55, county: 1704.33, city: 852.17, special: 284.06 });
    // potential savings = 300,000 × 15% × 1.8937% = 852.165 → 852.17.
    expect(r.potentialSavings).toBe(852.17);
  });

  it('the "New York City" alias uses NYC rules and the state average rate for the hint', () => {
    const r = calc.calculate({ ...KINGS, county: 'New York City' });
    expect([r.county, r.program, r.year, r.annualTax]).toEqual(['New York City', 'ny.nyc', 2026, 9524.64]);
    // No county rate: 800,000 × 15% × 1.54% = 1,848.
    expect(r.potentialSavings).toBe(1848);
  });
});

describe('year selection', () => {
  it('default: the latest year covered, NYC FY2026 and outside 2025', () => {
    expect(calc.calculate(KINGS).year).toBe(2026);
    expect(calc.calculate(ALBANY).year).toBe(2025);
  });

  it('FY2025 uses the rates in force on 2024-07-01: 48,000 × 20.085% = 9,640.80', () => {
    const r = calc.calculate({ ...KINGS, year: 2025 });
    expect(r.year).toBe(2025);
    expect(r.annualTax).toBe(9640.8);
    expect(r.notes).toEqual([]);
  });

  it('2027 carries FY2026 forward with a note', () => {
    const r = calc.calculate({ ...KINGS, year: 2027 });
    expect(r.year).toBe(2026);
    expect(r.annualTax).toBe(9524.64); // the FY2026 figure
    expect(r.notes).toEqual(['Rules for 2027 are not published yet; 2026 values are carried forward as the estimate']);
    const es = calc.calculate({ ...KINGS, year: 2027 }, { lang: 'es' });
    expect(es.notes).toEqual(['Las reglas de 2027 aún no se han publicado; se usan las de 2026 como estimación']);
  });

  it('outside NYC, 2026 carries 2025 forward with a note', () => {
    const r = calc.calculate({ ...ALBANY, year: 2026 });
    expect(r.year).toBe(2025);
    expect(r.annualTax).toBe(5681.1);
    expect(r.notes).toEqual(['Rules for 2026 are not published yet; 2025 values are carried forward as the estimate']);
  });

  it('a year before the first covered is an error naming the years available', () => {
    const e = error(() => calc.calculate({ ...KINGS, year: 2024 }));
    expect(e.code).toBe('YEAR_NOT_COVERED');
    expect(e.message).toBe('No rules for 2024; years available: 2025, 2026');
    expect(error(() => calc.calculate({ ...ALBANY, year: 2024 })).message).toBe('No rules for 2024; years available: 2025');
  });

  it('a year that is not whole is an error', () => {
    const e = error(() => calc.calculate({ ...KINGS, year: 2025.5 }));
    expect([e.code, e.message]).toEqual(['INVALID_YEAR', 'Year must be a whole number, like 2026']);
  });
});

describe('county look-up', () => {
  it.each([
    ['Kings County', 'Kings County'],
    ['Kings', 'Kings County'],
    ['kings', 'Kings County'],
    ['KINGS', 'Kings County'],
    ['  kings county ', 'Kings County'],
    ['St. Lawrence County', 'St. Lawrence County'],
    ['st-lawrence', 'St. Lawrence County'],
    ['St Lawrence', 'St. Lawrence County'],
    ['new york', 'New York County'],
    ['new-york', 'New York County'],
    ['New York City', 'New York City'],
    ['new-york-city', 'New York City'],
    ['NEW YORK CITY', 'New York City'],
  ])('%j → %s', (query, name) => {
    expect(calc.calculate({ ...KINGS, county: query }).county).toBe(name);
  });

  it('slugs: kebab case without " County"', () => {
    expect(slugOf('St. Lawrence County')).toBe('st-lawrence');
    expect(slugOf(' New York ')).toBe('new-york');
  });

  it('an unknown county suggests the nearest names', () => {
    const e = error(() => calc.calculate({ ...KINGS, county: 'Kigns' }));
    expect(e.code).toBe('UNKNOWN_COUNTY');
    // "kigns" is 2 edits from "kings" (a swap); the limit for 5 letters is max(2, 5/3) = 2.
    expect(e.message).toBe('Unknown county "Kigns" in NY. Did you mean Kings? (see: ptax counties --state NY)');
    expect(e.details).toEqual({ suggestions: ['Kings'] });
    expect(error(() => calc.calculate({ ...ALBANY, county: 'Westchster' })).message).toBe(
      'Unknown county "Westchster" in NY. Did you mean Westchester? (see: ptax counties --state NY)',
    );
  });

  it('no suggestion when nothing is near', () => {
    expect(error(() => calc.calculate({ ...ALBANY, county: 'Zzzzzzzz' })).message).toBe('Unknown county "Zzzzzzzz" in NY. (see: ptax counties --state NY)');
  });

  it('suggest() keeps the three nearest, by distance then name', () => {
    // "bro" is a prefix of "bronx" and "broome" (counted as distance 1): both, by name.
    expect(suggest('bro', ['Broome', 'Bronx', 'Albany'])).toEqual(['Bronx', 'Broome']);
    // "bronx" itself is 0 from Bronx, 3 from Broome (limit 2).
    expect(suggest('bronx', ['Broome', 'Bronx'])).toEqual(['Bronx']);
    expect(suggest('', ['Bronx'])).toEqual([]);
  });
});

describe('state look-up', () => {
  it('NY in any case; the planned states are TX, CA, FL', () => {
    expect(calc.calculate({ ...KINGS, state: 'ny' }).state).toBe('NY');
    expect(calc.calculate({ ...KINGS, state: ' Ny ' }).state).toBe('NY');
    expect([...PLANNED_STATES]).toEqual(['NY', 'TX', 'CA', 'FL']);
  });

  it('a planned state missing from the rules is not yet supported', () => {
    const nyOnly = new Calculator({ ...calc.bundle, states: { NY: calc.bundle.states.NY! } });
    const e = error(() => nyOnly.calculate({ ...KINGS, state: 'TX' }));
    expect([e.code, e.message]).toEqual(['NOT_SUPPORTED', 'TX is not yet supported: ptax covers NY for now']);
    expect(error(() => nyOnly.calculate({ ...KINGS, state: 'fl' })).message).toBe('FL is not yet supported: ptax covers NY for now');
  });

  it('an unknown state lists the states', () => {
    const e = error(() => calc.calculate({ ...KINGS, state: 'ZZ' }));
    expect(e.code).toBe('UNKNOWN_STATE');
    // Every state of the rules, by code: the four editions, the 48 at county level and the hub (53).
    expect(e.message).toMatch(/^Unknown state "ZZ": choose one of /);
    const codes = e.message.replace(/^Unknown state "ZZ": choose one of /, '').split(', ');
    expect(codes).toHaveLength(53);
    expect(codes).toEqual(expect.arrayContaining(['NY', 'TX', 'CA', 'FL', 'HUB', 'OH', 'DC', 'PR']));
  });
});

describe('validations (exact messages of rules reference §3)', () => {
  it.each([
    [{ ...KINGS, value: 0 }, 'INVALID_VALUE', 'Market value must be greater than 0'],
    [{ ...ALBANY, value: -1 }, 'INVALID_VALUE', 'Market value must be greater than 0'],
    [{ ...KINGS, value: 50000001 }, 'VALUE_TOO_HIGH', 'Market value seems unreasonably high'],
    [{ ...KINGS, propertyClass: null }, 'CLASS_REQUIRED', 'NYC properties require property type selection for accurate calculation'],
    [{ ...KINGS, propertyClass: 'class9' }, 'INVALID_CLASS', 'Invalid property class'],
    [{ ...KINGS, seniorIncome: -5000 }, 'NEGATIVE_INCOME', 'Senior income cannot be negative'],
    [{ ...KINGS, starType: 'enhanced' }, 'INCOME_REQUIRED', 'Senior income required for Enhanced STAR'],
    [{ ...KINGS, veteranDisability: 15 }, 'INVALID_VETERAN_LEVEL', 'Veteran disability level must be 0, 10, 20, 30, 40, 50, 60, 70, 80, 90 or 100'],
  ] as Array<[CalcInput, string, string]>)('%j → %s', (input, code, message) => {
    const e = error(() => calc.calculate(input));
    expect([e.code, e.message]).toEqual([code, message]);
  });

  it('50,000,000 exactly is allowed: class4 AV 22,500,000 × 10.848% = 2,440,800', () => {
    expect(calc.calculate({ ...KINGS, value: 50000000, propertyClass: 'class4' }).annualTax).toBe(2440800);
  });

  // BUG: a market value that is not a number (NaN) passes every validation (numeric
  // operators are false on NaN) and gives annualTax NaN (null in JSON) instead of an error.
  it('a value that is not a number is an error, not a NaN tax', () => {
    const e = error(() => calc.calculate({ ...ALBANY, value: Number.NaN }));
    expect(e.code).toBe('INVALID_VALUE');
  });
});

describe('explanation', () => {
  const step = (r: CalcResult, rule: string) => {
    const s = r.explanation!.find((x) => x.rule === rule);
    expect(s, rule).toBeDefined();
    return s!;
  };

  it('one entry per step, in the order of the rule file', () => {
    const r = calc.calculate({ ...KINGS, homestead: true }, { explain: true });
    const program = calc.bundle.programs['ny.nyc']!;
    expect(r.explanation!.map((s) => s.rule)).toEqual(program.steps.map((s) => `ny.nyc.${s.id}`));
  });

  it('the tax rate step carries its parameter, effective date and citation (FY2026)', () => {
    const r = calc.calculate({ ...KINGS, homestead: true }, { explain: true });
    const s = step(r, 'ny.nyc.classRate');
    expect(s.expression).toBe('rate[propertyClass]');
    expect(s.value).toBe(19.843);
    expect(s.label.en).toBe('Tax rate');
    expect(s.params).toHaveLength(1);
    expect(s.params[0]).toMatchObject({ id: 'ny.nyc.tax_rate', effective: '2025-07-01', file: 'rules/ny/nyc/class-table.yaml' });
    // The citation is the rule file's own, for the value in force (rules/ny/nyc/class-table.yaml, FY2026).
    const fy2026 = calc.bundle.parameters['ny.nyc.tax_rate']!.values.find((v) => v.effective === '2025-07-01')!;
    expect(s.params[0]!.reference).toEqual(fy2026.reference);
    expect(s.params[0]!.reference[0]!.title).toMatch(/FY2026/);
    expect(s.params[0]!.reference[0]!.href).toMatch(/^https:\/\//);
  });

  it('FY2025 cites the value in force from 2024-07-01: 20.085', () => {
    const s = step(calc.calculate({ ...KINGS, year: 2025 }, { explain: true }), 'ny.nyc.classRate');
    expect(s.value).toBe(20.085);
    expect(s.params[0]!.effective).toBe('2024-07-01');
    expect(s.params[0]!.reference[0]!.title).toMatch(/^NYC Department of Finance, Property tax rates \(tax year 2025\)/);
  });

  it('formula, condition and cases steps show their expression and unrounded value', () => {
    const r = calc.calculate({ ...KINGS, homestead: true }, { explain: true });
    const base = step(r, 'ny.nyc.baseTax');
    expect(base.expression).toBe('assessedValue * classRate / 100');
    expect(base.value as number).toBeCloseTo(9524.64, 9); // 48,000 × 19.843 / 100
    expect(base.params).toEqual([]);
    const residential = step(r, 'ny.nyc.residential');
    expect(residential.expression).toBe('propertyClass in [class1, class2]');
    expect(residential.value).toBe(true);
    const applied = step(r, 'ny.nyc.appliedStar');
    expect(applied.expression).toBe('if residential = false: none; if starFallback = true: basic; otherwise: requestedStar');
    expect(applied.value).toBe('basic');
    const star = step(r, 'ny.nyc.starSavings');
    expect(star.value).toBe(293);
    expect(star.params.map((p) => p.id)).toEqual(['ny.nyc.star_max_savings']);
    const exemption = step(r, 'ny.nyc.starExemptionValue');
    expect(exemption.value).toBe(30000); // Basic STAR
    // FY2026 reads the 2025-26 STAR entry (effective 2025-07-01; NYS Tax, Types of STAR).
    expect(exemption.params.map((p) => [p.id, p.effective])).toEqual([['ny.star.exemption', '2025-07-01']]);
    // school tax portion unrounded: 9,524.64 × 0.584 = 5,562.38976.
    expect(step(r, 'ny.nyc.schoolTaxPortion').value as number).toBeCloseTo(5562.38976, 6);
  });

  it('outside NYC: the split step cites ny.default_split (no parts in the county data)', () => {
    const s = step(calc.calculate(ALBANY, { explain: true }), 'ny.outside.schoolRate');
    expect(s.expression).toBe('if hasParts = true: rate * schoolPart / partsTotal; otherwise: rate * split.school');
    expect(s.value as number).toBeCloseTo(0.94685, 12); // 1.8937 × 50%
    expect(s.params).toMatchObject([{ id: 'ny.default_split', effective: '2023-01-01', file: 'rules/ny/split.yaml' }]);
  });
});

describe('rounding: half away from zero', () => {
  it.each([
    [920.535, 2, 920.54], //  92,053.5 cents, stored as 92,053.49999…: still rounds up
    [-1.005, 2, -1.01], //    away from zero on the negative side
    [1.005, 2, 1.01],
    [2.675, 2, 2.68],
    [0.285, 2, 0.29],
    [1.0049999, 2, 1], //     below the half: down
    [2.5, 0, 3],
    [-2.5, 0, -3],
    [1.14872286, 6, 1.148723], // a percent keeps 6 decimals
    [0.0114872286, 8, 0.01148723], // a fraction keeps 8
  ])('roundTo(%d, %d) = %d', (x, d, want) => {
    expect(roundTo(x, d)).toBe(want);
  });

  it('no negative zero', () => {
    expect(Object.is(roundTo(-0.001, 2), 0)).toBe(true);
    expect(Object.is(roundTo(-0, 2), 0)).toBe(true);
  });

  it('decimals by unit: usd 2, percent 6, fraction 8', () => {
    expect(DECIMALS).toEqual({ usd: 2, percent: 6, fraction: 8 });
  });

  it('a result rounds once, at output: Queens class1 700,000 potential savings 920.535 → 920.54', () => {
    // 700,000 × 15% × 0.8767% = 920.535 (fixtures/ny/nyc-star.yaml).
    expect(calc.calculate({ ...KINGS, county: 'Queens', value: 700000 }).potentialSavings).toBe(920.54);
  });

  // BUG: the relative nudge of 2^-40 is more than half a cent above about $5.5 billion,
  // so a whole-dollar amount gains cents: 18,937,000,000 → 18,937,000,000.02. Outside
  // NYC no validation caps the value: Albany at 1,000,000,000,000 shows this annualTax.
  it('a whole number of dollars keeps 0 cents, however large', () => {
    expect(roundTo(18937000000, 2)).toBe(18937000000);
    expect(calc.calculate({ ...ALBANY, value: 1e12 }).annualTax).toBe(18937000000); // 1e12 × 1.8937%
  });
});
