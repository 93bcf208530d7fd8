/**
 * Properties that must hold for every input in Texas, California and Florida (rules
 * reference, conventions and §2, §5–§7), checked with fast-check on the real rules:
 * seeded, 200 inputs each per state. The golden fixtures check figures; these check that
 * no input breaks the invariants between them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Calculator, type CalcInput, type CalcResult } from './core/calculate.js';
import { readBundle } from './build/bundle.js';

const bundle = readBundle('dist/rules/bundle.json');
const calc = new Calculator(bundle);
const LEVELS = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
const RUNS = { numRuns: 200 };
const STATES = ['TX', 'CA', 'FL'] as const;

const money = fc.oneof(
  fc.integer({ min: 1000, max: 20_000_000 }),
  fc.double({ min: 1000, max: 20_000_000, noNaN: true }).map((x) => Math.round(x * 100) / 100),
  fc.constantFrom(1000, 25_000, 50_000, 50_001, 75_722, 100_000, 140_000, 175_298, 200_000),
);

/** Inputs of a state: its counties, the years its program covers, the flags it reads. */
function inputs(code: (typeof STATES)[number]): fc.Arbitrary<CalcInput> {
  const state = bundle.states[code]!;
  const years = bundle.programs[state.programs.at(-1)!.program]!.years;
  return fc
    .record({
      county: fc.constantFrom(...state.counties.map((c) => c.name)),
      value: money,
      year: fc.constantFrom(undefined, ...years),
      homestead: fc.boolean(),
      over65: fc.boolean(),
      disabled: fc.boolean(),
      veteranDisability: fc.constantFrom(...LEVELS),
      // California's Prop 13 (a purchase 0–30 years before) and Mello-Roos.
      purchase: code === 'CA' ? fc.option(fc.tuple(fc.integer({ min: 1000, max: 20_000_000 }), fc.integer({ min: 0, max: 30 }))) : fc.constant(null),
      melloRoos: code === 'CA' ? fc.option(fc.integer({ min: 0, max: 20_000 })) : fc.constant(null),
    })
    .map(({ purchase, ...r }) => {
      const year = r.year ?? years.at(-1)!;
      return { state: code, ...r, purchasePrice: purchase ? purchase[0] : null, purchaseYear: purchase ? year - purchase[1] : null };
    });
}

const num = (r: CalcResult, k: string) => r[k] as number;
const sum = (o: unknown) => Object.values((o ?? {}) as Record<string, number>).reduce((a, b) => a + b, 0);
const noExemption = (i: CalcInput): CalcInput => ({ ...i, homestead: false, over65: false, disabled: false, veteranDisability: 0 });

describe.each(STATES)('%s: properties of every calculation', (code) => {
  const arb = inputs(code);

  it('every county is calculated by the state program, with a rate (Texas: the average where none is known)', () => {
    for (const c of bundle.states[code]!.counties) {
      const r = calc.calculate({ state: code, county: c.name, value: 300000 });
      expect(num(r, 'annualTax'), c.name).toBeGreaterThan(0);
    }
  });

  it('tax is never negative, nor any component, saving or taxable value', () => {
    fc.assert(
      fc.property(arb, (i) => {
        const r = calc.calculate(i);
        for (const k of ['annualTax', 'monthlyTax', 'taxableValue', 'exemptionSavings', 'baseAssessedValue']) expect(num(r, k), k).toBeGreaterThanOrEqual(0);
        for (const [k, v] of Object.entries(r.countyBreakdown as Record<string, number>)) expect(v, `countyBreakdown.${k}`).toBeGreaterThanOrEqual(0);
        for (const [k, v] of Object.entries(r.taxableValues as Record<string, number>)) expect(v, `taxableValues.${k}`).toBeGreaterThanOrEqual(0);
        for (const [k, v] of Object.entries((r.exemptions ?? {}) as Record<string, number>)) expect(v, `exemptions.${k}`).toBeGreaterThan(0);
      }),
      { ...RUNS, seed: 11 },
    );
  });

  for (const flag of ['homestead', 'over65', 'disabled'] as const) {
    it(`turning on ${flag} never raises annualTax`, () => {
      fc.assert(
        fc.property(arb, (i) => {
          const off = calc.calculate({ ...i, [flag]: false });
          const on = calc.calculate({ ...i, [flag]: true });
          expect(num(on, 'annualTax')).toBeLessThanOrEqual(num(off, 'annualTax'));
        }),
        { ...RUNS, seed: 22 },
      );
    });
  }

  it('homestead lowers the tax of a 300,000 home in every county', () => {
    for (const c of bundle.states[code]!.counties.slice(0, 20)) {
      const off = calc.calculate({ state: code, county: c.name, value: 300000 });
      const on = calc.calculate({ state: code, county: c.name, value: 300000, homestead: true });
      expect(num(on, 'annualTax'), c.name).toBeLessThan(num(off, 'annualTax'));
    }
  });

  // Level 100 exempts the whole tax in Texas (Tax Code §11.131) and Florida (§196.081). California
  // has no whole-value exemption (R&T Code §205.5; SB 23 of 2025 died): a 100% rating takes the
  // basic amount off the assessed value, min(assessed, ca.exemptions.veteran_basic).
  it('a higher veteran disability level never raises annualTax; level 100 leaves no tax (TX, FL) or takes the basic amount (CA)', () => {
    const pair = fc.tuple(fc.constantFrom(...LEVELS), fc.constantFrom(...LEVELS)).map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const);
    fc.assert(
      fc.property(arb, pair, (i, [lo, hi]) => {
        const low = calc.calculate({ ...i, veteranDisability: lo });
        const high = calc.calculate({ ...i, veteranDisability: hi });
        expect(num(high, 'annualTax')).toBeLessThanOrEqual(num(low, 'annualTax'));
        const full = calc.calculate({ ...i, year: undefined, veteranDisability: 100 });
        if (code !== 'CA') expect(num(full, 'annualTax')).toBe(0);
        else {
          const basic = bundle.parameters['ca.exemptions.veteran_basic']!.values.filter((v) => v.effective <= `${String(full.year)}-01-01`).at(-1)!
            .value as number;
          const ca = full.california as Record<string, number>;
          expect(ca.veteranExemption).toBeCloseTo(Math.min(num(full, 'baseAssessedValue'), basic), 2);
        }
      }),
      { ...RUNS, seed: 33 },
    );
  });

  it('savings add up: exemptionSavings = Σ exemptions = tax with no exemption − annualTax', () => {
    fc.assert(
      fc.property(arb, (i) => {
        const r = calc.calculate(i);
        const entries = Object.keys((r.exemptions ?? {}) as object).length;
        expect(Math.abs(num(r, 'exemptionSavings') - sum(r.exemptions))).toBeLessThanOrEqual(0.01 * entries + 1e-9);
        const none = calc.calculate(noExemption(i));
        expect(num(none, 'exemptionSavings')).toBe(0);
        // The same base: an assessment cap (Prop 13) is not an exemption and stays.
        expect(num(none, 'baseAssessedValue')).toBe(num(r, 'baseAssessedValue'));
        expect(Math.abs(num(r, 'exemptionSavings') - (num(none, 'annualTax') - num(r, 'annualTax')))).toBeLessThanOrEqual(0.015 + 1e-9);
      }),
      { ...RUNS, seed: 44 },
    );
  });

  it('countyBreakdown school + county + city + special = annualTax (within 2 cents); monthly × 12 = annual', () => {
    fc.assert(
      fc.property(arb, (i) => {
        const r = calc.calculate(i);
        expect(Object.keys(r.countyBreakdown as object).sort()).toEqual(['city', 'county', 'school', 'special']);
        expect(Math.abs(sum(r.countyBreakdown) - num(r, 'annualTax'))).toBeLessThanOrEqual(0.02 + 1e-9);
        expect(Math.abs(num(r, 'monthlyTax') * 12 - num(r, 'annualTax'))).toBeLessThanOrEqual(0.06 + 1e-9);
      }),
      { ...RUNS, seed: 55 },
    );
  });

  it('effectiveRate = annualTax / value × 100; taxable value ≤ base assessed value ≤ value', () => {
    fc.assert(
      fc.property(arb, (i) => {
        const r = calc.calculate(i);
        const slack = (0.005 / i.value) * 100 + 0.5e-6 + 1e-12;
        expect(Math.abs(num(r, 'effectiveRate') - (num(r, 'annualTax') / i.value) * 100)).toBeLessThanOrEqual(slack);
        expect(num(r, 'taxableValue')).toBeLessThanOrEqual(num(r, 'baseAssessedValue') + 0.005);
        expect(num(r, 'baseAssessedValue')).toBeLessThanOrEqual(i.value + 0.005);
      }),
      { ...RUNS, seed: 66 },
    );
  });
});

describe('the hub', () => {
  it('every figure 0, whatever the input, and the note asking for a state', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.boolean(), (value, homestead) => {
        const r = calc.calculate({ state: 'HUB', county: '', value, homestead });
        for (const k of ['annualTax', 'monthlyTax', 'effectiveRate', 'taxableValue', 'exemptionSavings', 'potentialSavings']) expect(num(r, k), k).toBe(0);
        expect(sum(r.countyBreakdown)).toBe(0);
        expect(r.notes).toEqual(['Choose a state (New York, Texas, California or Florida) to estimate property tax']);
      }),
      { numRuns: 50, seed: 77 },
    );
  });
});
