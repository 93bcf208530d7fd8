/**
 * The Calculator's input checks and look-ups, before any rule runs: missing county,
 * numbers that are not numbers, the fact array `prepare` fills (inputs in INPUT_FACTS
 * order, then the county facts), year selection at its edges, state messages, and the
 * compiled-program cache. Figures: rules reference §1, §3 and §4; county rates from
 * rules/ny/counties.yaml (Kings 0.6879%, New York County 0.9019%, Albany 1.8937%).
 */
import { describe, expect, it } from 'vitest';
import { Calculator, evaluate, type CalcInput } from './calculate.js';
import { readBundle } from '../build/bundle.js';
import { PtaxError, isPtaxError } from './errors.js';
import { COUNTY_FACTS, INPUT_FACTS, type Bundle } from './types.js';

const bundle = readBundle('dist/rules/bundle.json');
const calc = new Calculator(bundle);
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
const codeAndMessage = (f: () => unknown) => {
  const e = error(f);
  return [e.code, e.message];
};

/** The facts `prepare` filled, by name: the inputs, then the county facts. */
const named = (facts: unknown[]) => Object.fromEntries([...INPUT_FACTS, ...COUNTY_FACTS].map((f, i) => [f, facts[i]]));

describe('a county is required', () => {
  it.each([[''], ['   '], [undefined], [null], [42]])('county %j → MISSING_COUNTY', (county) => {
    expect(codeAndMessage(() => calc.calculate({ ...ALBANY, county: county as string }))).toEqual(['MISSING_COUNTY', 'A county is required']);
  });
});

describe('numbers must be numbers', () => {
  it.each([[Number.NaN], [Infinity], [-Infinity], ['300000'], [null]])('market value %j → INVALID_VALUE', (value) => {
    expect(codeAndMessage(() => calc.calculate({ ...ALBANY, value: value as number }))).toEqual(['INVALID_VALUE', 'Market value must be a number']);
  });

  it.each([
    ['seniorIncome', 'Senior income'],
    ['veteranDisability', 'Veteran disability level'],
    ['priorAssessed', 'Prior assessed value'],
    ['purchasePrice', 'Purchase price'],
    ['purchaseYear', 'Purchase year'],
  ])('%s: NaN, Infinity or text is INVALID_NUMBER "%s must be a number"; null and absent are fine', (field, what) => {
    for (const bad of [Number.NaN, Infinity, '2015']) {
      expect(
        codeAndMessage(() => calc.calculate({ ...ALBANY, [field]: bad })),
        String(bad),
      ).toEqual(['INVALID_NUMBER', `${what} must be a number`]);
    }
    // Albany 300,000 with nothing else: 300,000 × 1.8937% = 5,681.10.
    expect(calc.calculate({ ...ALBANY, [field]: null }).annualTax).toBe(5681.1);
    expect(calc.calculate({ ...ALBANY, [field]: undefined }).annualTax).toBe(5681.1);
  });
});

describe('prepare: the fact array', () => {
  it('inputs in INPUT_FACTS order, as given', () => {
    const p = calc.prepare({
      state: 'NY',
      county: 'Albany',
      value: 300000,
      propertyClass: 'class1',
      homestead: true,
      over65: true,
      seniorIncome: 50000,
      seniorCitizen: true,
      disabled: true,
      wartimeVeteran: true,
      combatVeteran: true,
      veteranDisability: 40,
      totallyDisabledVeteran: true,
      veteranIncome: 60000,
      coldWarVeteran: true,
      starType: 'enhanced',
      priorAssessed: 250000,
      purchasePrice: 150000,
      purchaseYear: 2015,
    });
    expect(named(p.facts)).toEqual({
      value: 300000,
      propertyClass: 'class1',
      homestead: true,
      over65: true,
      seniorIncome: 50000,
      seniorCitizen: true,
      disabled: true,
      wartimeVeteran: true,
      combatVeteran: true,
      veteranDisability: 40,
      totallyDisabledVeteran: true,
      veteranIncome: 60000,
      coldWarVeteran: true,
      starType: 'enhanced',
      priorAssessed: 250000,
      purchasePrice: 150000,
      purchaseYear: 2015,
      melloRoos: null,
      taxAmount: null,
      paymentYear: null,
      paymentMonth: null,
      paymentDay: null,
      sellerTax: null,
      billYear: null,
      year: 2025,
      countyRate: 1.8937,
      nycClass: false,
      topCoded: false,
      estimated: false,
      // Albany's typical owner's rate is its county rate (no nominal table for New York outside NYC): no parts, no units.
      typicalRate: 1.8937,
      schoolPart: null,
      countyPart: null,
      cityPart: null,
      specialPart: null,
      schoolUnit: null,
      cityUnit: null,
    });
    expect([p.state, p.county, p.compiled.program.id, p.compiled.year, p.notes]).toEqual(['NY', 'Albany County', 'ny.outside', 2025, []]);
  });

  it('inputs left out: no class, income, STAR type, prior value or purchase; flags off; veteran level 0', () => {
    expect(named(calc.prepare(ALBANY).facts)).toEqual({
      value: 300000,
      propertyClass: null,
      homestead: false,
      over65: false,
      seniorIncome: null,
      seniorCitizen: false,
      disabled: false,
      wartimeVeteran: false,
      combatVeteran: false,
      veteranDisability: 0,
      totallyDisabledVeteran: false,
      veteranIncome: null,
      coldWarVeteran: false,
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
      year: 2025,
      countyRate: 1.8937,
      nycClass: false,
      topCoded: false,
      estimated: false,
      // Albany's typical owner's rate is its county rate (no nominal table for New York outside NYC): no parts, no units.
      typicalRate: 1.8937,
      schoolPart: null,
      countyPart: null,
      cityPart: null,
      specialPart: null,
      schoolUnit: null,
      cityUnit: null,
    });
  });

  it('county facts: Kings is an NYC county; New York County is NYC and top-coded; the "New York City" alias has no rate', () => {
    const county = (c: CalcInput) => {
      const f = named(calc.prepare(c).facts);
      return [f.countyRate, f.nycClass, f.topCoded, f.estimated];
    };
    expect(county(KINGS)).toEqual([0.6879, true, false, false]);
    expect(county({ ...KINGS, county: 'New York County' })).toEqual([0.9019, true, true, false]);
    expect(county({ ...KINGS, county: 'New York City' })).toEqual([null, false, false, false]);
    const alias = calc.prepare({ ...KINGS, county: 'New York City' });
    expect([alias.county, alias.compiled.program.id]).toEqual(['New York City', 'ny.nyc']);
  });

  it('a county rate given (--county-rate) is the rate fact, and a note says so, in English and Spanish', () => {
    // Albany's own rate is 1.8937%; Kenedy (TX) has its 2025 nominal rate 1.7022% (nominal_rates_tx_2025.csv) but no Census rate.
    const albany = calc.prepare({ ...ALBANY, countyRate: 1.5 });
    expect(named(albany.facts).countyRate).toBe(1.5);
    expect(albany.notes).toEqual(["County rate 1.5% used as given, instead of the county's 1.8937%"]);
    expect(calc.prepare({ ...ALBANY, countyRate: 1.23456789 }, 'es').notes).toEqual([
      'Se usa la tasa del condado indicada, 1.2346 %, en lugar de la del condado, 1.8937 %',
    ]);
    const kenedy = { state: 'TX', county: 'Kenedy', value: 300000 };
    // County 0.8 + Kenedy County-Wide CSD 0.9022 = 1.7022; no city.
    expect(named(calc.prepare(kenedy).facts)).toMatchObject({
      countyRate: 1.7022,
      typicalRate: null,
      schoolPart: 0.9022,
      countyPart: 0.8,
      cityPart: 0,
      cityUnit: null,
    });
    expect(calc.prepare(kenedy).notes).toEqual([]);
    expect(calc.prepare({ ...kenedy, countyRate: 0 }).notes).toEqual(["County rate 0% used as given, instead of the county's 1.7022%"]);
    expect(calc.prepare({ ...kenedy, countyRate: 2 }, 'es').notes).toEqual(['Se usa la tasa del condado indicada, 2 %, en lugar de la del condado, 1.7022 %']);
    // A place without a rate of its own (the "New York City" alias) keeps the other note.
    expect(calc.prepare({ ...KINGS, county: 'New York City', countyRate: 1 }).notes).toEqual([
      'County rate 1% used as given (the county has no rate of its own)',
    ]);
    // Kept as the county's flags: they choose the program (Kings stays NYC).
    expect(named(calc.prepare({ ...KINGS, countyRate: 1 }).facts)).toMatchObject({ countyRate: 1, nycClass: true });
    expect(calc.prepare({ ...KINGS, countyRate: 1 }).compiled.program.id).toBe('ny.nyc');
  });

  it('a county rate given must be a percent from 0 to 100', () => {
    for (const r of [-0.01, 100.5, Number.NaN]) {
      let code = '';
      try {
        calc.prepare({ ...ALBANY, countyRate: r });
      } catch (e) {
        code = (e as { code: string }).code;
      }
      expect(code, String(r)).toBe(Number.isNaN(r) ? 'INVALID_NUMBER' : 'INVALID_RATE');
    }
    expect(named(calc.prepare({ ...ALBANY, countyRate: 100 }).facts).countyRate).toBe(100);
  });

  it('the parameters follow the inputs and county facts: FY2026 class1 rate 19.843', () => {
    const p = calc.prepare(KINGS);
    const c = p.compiled;
    expect(p.facts).toHaveLength(c.template.length);
    expect(p.facts.slice(INPUT_FACTS.length + COUNTY_FACTS.length)).toEqual(c.template.slice(INPUT_FACTS.length + COUNTY_FACTS.length));
    expect(evaluate(c, p.facts).annualTax).toBe(9524.64); // 48,000 × 19.843%
  });

  it('every call gets its own fact array: a second calculation leaves the first one as it was', () => {
    const a = calc.prepare(ALBANY);
    const b = calc.prepare({ ...ALBANY, value: 500000, homestead: true });
    expect(a.facts).not.toBe(b.facts);
    expect(named(a.facts).value).toBe(300000);
    expect(named(a.facts).homestead).toBe(false);
    // Evaluating the first after the second still gives 300,000 × 1.8937% = 5,681.10.
    expect(evaluate(a.compiled, a.facts).annualTax).toBe(5681.1);
    // 500,000 × 1.8937% = 9,468.50; Basic STAR is not subtracted from the Census rate (docs/conventions.md).
    expect(evaluate(b.compiled, b.facts).annualTax).toBe(9468.5);
  });
});

describe('evaluate speaks English unless asked otherwise', () => {
  it('validation messages', () => {
    const p = calc.prepare({ ...KINGS, value: 0 });
    expect(() => evaluate(p.compiled, p.facts)).toThrow('Market value must be greater than 0');
  });
  it('notes', () => {
    const p = calc.prepare({ ...ALBANY, purchasePrice: 150000 });
    expect(evaluate(p.compiled, p.facts).notes).toEqual(["The purchase price and year apply to California's Proposition 13; New York does not use them"]);
    const es = calc.prepare({ ...ALBANY, purchasePrice: 150000 }, 'es');
    expect(evaluate(es.compiled, es.facts, 'es').notes).toEqual([
      'El precio y el año de compra se usan para la Proposición 13 de California; Nueva York no los usa',
    ]);
  });
  it('a carried-forward year is noted in English by default', () => {
    expect(calc.prepare({ ...KINGS, year: 2027 }).notes).toEqual(['Rules for 2027 are not published yet; 2026 values are carried forward as the estimate']);
  });
});

describe('year selection at the edges', () => {
  it('the latest covered year asked for explicitly has no carried-forward note', () => {
    const nyc = calc.calculate({ ...KINGS, year: 2026 });
    expect([nyc.year, nyc.annualTax, nyc.notes]).toEqual([2026, 9524.64, []]);
    const outside = calc.calculate({ ...ALBANY, year: 2025 });
    expect([outside.year, outside.annualTax, outside.notes]).toEqual([2025, 5681.1, []]);
    expect(calc.year('ny.nyc', 2026)).toEqual({ year: 2026 });
    expect(calc.year('ny.nyc', 2025)).toEqual({ year: 2025 });
  });

  it('the year after the latest carries it forward', () => {
    expect(calc.year('ny.outside', 2026)).toEqual({
      year: 2025,
      note: 'Rules for 2026 are not published yet; 2025 values are carried forward as the estimate',
    });
  });
});

describe('state look-up messages', () => {
  it('a missing state is an unknown state', () => {
    expect(codeAndMessage(() => calc.calculate({ ...ALBANY, state: undefined as unknown as string }))).toEqual([
      'UNKNOWN_STATE',
      'Unknown state "undefined": choose one of AK, AL, AR, AZ, CA, CO, CT, DC, DE, FL, GA, HI, IA, ID, IL, IN, KS, KY, LA, MA, MD, ME, MI, MN, MO, MS, MT, NC, ND, NE, NH, NJ, NM, NV, NY, OH, OK, OR, PA, PR, RI, SC, SD, TN, TX, UT, VA, VT, WA, WI, WV, WY, HUB',
    ]);
    expect(codeAndMessage(() => calc.calculate({ ...ALBANY, state: '' }))).toEqual([
      'UNKNOWN_STATE',
      'Unknown state "": choose one of AK, AL, AR, AZ, CA, CO, CT, DC, DE, FL, GA, HI, IA, ID, IL, IN, KS, KY, LA, MA, MD, ME, MI, MN, MO, MS, MT, NC, ND, NE, NH, NJ, NM, NV, NY, OH, OK, OR, PA, PR, RI, SC, SD, TN, TX, UT, VA, VT, WA, WI, WV, WY, HUB',
    ]);
  });

  it('a planned state lists every state covered, separated by commas', () => {
    const two: Bundle = { ...bundle, states: { NY: bundle.states.NY!, CA: { ...bundle.states.NY!, code: 'CA' } } };
    expect(codeAndMessage(() => new Calculator(two).state('tx'))).toEqual(['NOT_SUPPORTED', 'TX is not yet supported: ptax covers NY, CA for now']);
  });
});

describe('compiled programs are cached', () => {
  it('the same program and year give the same compiled object; another year another', () => {
    const c = new Calculator(bundle);
    const a = c.compiled('ny.nyc', 2026);
    expect(c.compiled('ny.nyc', 2026)).toBe(a);
    expect(c.compiled('ny.nyc', 2025)).not.toBe(a);
    expect(c.prepare(KINGS).compiled).toBe(a);
  });
});

describe('errors', () => {
  it('a PtaxError is an Error named PtaxError, with its code and details', () => {
    const e = error(() => calc.calculate({ ...ALBANY, county: 'Kigns' }));
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('PtaxError');
    expect(String(e)).toBe('PtaxError: Unknown county "Kigns" in NY. Did you mean Kings? (see: ptax counties --state NY)');
    expect(isPtaxError(e)).toBe(true);
    expect(isPtaxError(new Error('x'))).toBe(false);
  });
});
