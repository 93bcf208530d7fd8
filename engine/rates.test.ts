/**
 * Issue 21: the county's rate is the official nominal rate, applied to each levy's taxable
 * value, and no exemption or cap is subtracted from a rate that already averages it. One
 * test per state fails if the estimate with an exemption is made with the Census effective
 * rate (the typical owner's rate). Every figure is the data row's, computed by hand here.
 */
import { describe, expect, it } from 'vitest';
import { readBundle } from './build/bundle.js';
import { Calculator } from './core/calculate.js';

const calc = new Calculator(readBundle('dist/rules/bundle.json'));
type R = Record<string, unknown> & {
  annualTax: number;
  countyRate: number;
  typicalRate: number | null;
  notes: string[];
  countyBreakdown: Record<string, number>;
};
const run = (input: Record<string, unknown>) => calc.calculate(input as never) as unknown as R;

describe('county rates: the nominal rate, each levy on its own taxable value', () => {
  it("CA, San Luis Obispo, $425,000 buyer with the homeowners' exemption: the BOE rate on $418,000", () => {
    const r = run({ state: 'CA', county: 'San Luis Obispo', value: 425000, homestead: true });
    // nominal_rates_ca_2024.csv, San Luis Obispo: rate_pct 1.09. (425,000 − 7,000) × 1.09% = 4,556.20.
    expect(r.countyRate).toBe(1.09);
    expect(r.annualTax).toBe(4556.2);
    // The typical owner's rate (Census, 0.7045%) is shown, not used: 418,000 × 0.7045% = 2,944.81 would be Prop 13 counted twice.
    expect(r.typicalRate).toBe(0.7045);
    expect(r.annualTax).not.toBeCloseTo((418000 * 0.7045) / 100, 0);
    // BOE levy shares: school 523,436,000 / 823,782,000 of the levies → 0.692593%; 418,000 × 0.692593% = 2,895.04.
    expect(r.countyBreakdown.school).toBe(2895.04);
  });

  it('FL, Miami-Dade, $425,000 with homestead: school mills on $400,000, the rest on $374,278', () => {
    const r = run({ state: 'FL', county: 'Miami-Dade', value: 425000, homestead: true });
    // nominal_rates_fl_2025.csv, Dade: total 18.4893 mills; school 6.499 + 0.134 = 6.633 mills.
    // School: 425,000 − 25,000 = 400,000 × 0.6633% = 2,653.20. Non-school: 425,000 − 25,000 − 25,722 (second tier,
    // 2025) = 374,278 × (1.84893 − 0.6633)% = 374,278 × 1.18563% = 4,437.5522. Total 7,090.7522.
    expect(r.countyRate).toBe(1.84893);
    expect(r.annualTax).toBe(7090.75);
    const fl = r.florida as Record<string, number>;
    expect(fl.schoolTaxableValue).toBe(400000);
    expect(fl.nonSchoolTaxableValue).toBe(374278);
    // With the Census rate (0.8265%) the same exemptions would give far less: the estimate does not use it.
    expect(r.annualTax).not.toBeCloseTo((400000 * 0.8265 * 0.45 + 374278 * 0.8265 * 0.55) / 100, 0);
  });

  it('TX, Harris, $400,000 with homestead: Houston ISD, Harris County and City of Houston rates, each on its own value', () => {
    const r = run({ state: 'TX', county: 'Harris', value: 400000, homestead: true });
    const tx = r.texas as { units: { school: string; city: string }; rates: Record<string, number> };
    // nominal_rates_tx_2025.csv, Harris: county 0.38096, Houston ISD 0.8783, Houston 0.51919 (sum 1.77845).
    expect(tx.units).toEqual({ school: 'Houston ISD', city: 'Houston' });
    expect(tx.rates).toEqual({ school: 0.8783, county: 0.38096, city: 0.51919, special: 0 });
    // School (400,000 − 140,000) × 0.8783% = 2,283.58; county (400,000 − 3,000) × 0.38096% = 1,512.4112;
    // city 400,000 × 0.51919% = 2,076.76; total 5,872.7512.
    expect(r.countyBreakdown).toEqual({ school: 2283.58, county: 1512.41, city: 2076.76, special: 0 });
    expect(r.annualTax).toBe(5872.75);
    // The typical owner's rate (1.7184%) already averages the homestead exemption: not the rate used.
    expect(r.typicalRate).toBe(1.7184);
    expect(r.countyRate).toBe(1.77845);
    expect(r.notes.join(' ')).toContain('special districts');
  });

  it('NY outside NYC, Albany, $300,000 with homestead: the Census rate, STAR not subtracted again but shown beside', () => {
    const r = run({ state: 'NY', county: 'Albany', value: 300000, homestead: true });
    // Census effective rate 1.8937% (county_effective_property_tax_rates_ca_fl_ny_tx.csv): 300,000 × 1.8937% = 5,681.10.
    expect(r.countyRate).toBe(1.8937);
    expect(r.annualTax).toBe(5681.1);
    // Basic STAR 30,000 × school rate (50% of 1.8937% = 0.94685%) = 284.055: shown, not subtracted.
    expect((r.newYork as Record<string, number>).starValueNotSubtracted).toBe(284.06);
    expect(r.exemptions).toEqual({});
  });

  it('a year before the table (TX 2024) uses the 2025 rates and says so', () => {
    const r = run({ state: 'TX', county: 'Harris', value: 400000, homestead: true, year: 2024 });
    // School (400,000 − 100,000) × 0.8783% = 2,634.90; county 1,512.4112; city 2,076.76 → 6,224.0712.
    expect(r.annualTax).toBe(6224.07);
    expect(r.notes).toContain("The county's 2025 rates are the earliest in the data; they stand in for 2024");
  });

  it('a what-if rate keeps the county’s proportions (Harris at 2%: school 2 × 0.8783 / 1.77845)', () => {
    const r = run({ state: 'TX', county: 'Harris', value: 400000, countyRate: 2 });
    const tx = r.texas as { rates: Record<string, number> };
    expect(tx.rates.school).toBeCloseTo((2 * 0.8783) / 1.77845, 6);
    expect(r.annualTax).toBe(8000);
  });

  it("an owner's estimate: last year's value applies the cap (TX §23.23 10%); without it the estimate says it is a buyer's", () => {
    const owner = run({ state: 'TX', county: 'Harris', value: 400000, homestead: true, priorAssessed: 300000 });
    // Appraised min(400,000, 300,000 × 1.10) = 330,000: school 190,000 × 0.8783% = 1,668.77; county 327,000 × 0.38096%
    // = 1,245.7392; city 330,000 × 0.51919% = 1,713.327; total 4,627.8362.
    expect(owner.annualTax).toBe(4627.84);
    expect(owner.notes.join(' ')).toContain('10% homestead cap');
    expect(run({ state: 'TX', county: 'Harris', value: 400000, homestead: true }).notes.join(' ')).toContain("A buyer's estimate");
    expect(run({ state: 'FL', county: 'Miami-Dade', value: 425000, homestead: true }).notes.join(' ')).toContain("A buyer's estimate");
    expect(run({ state: 'CA', county: 'San Luis Obispo', value: 425000, homestead: true }).notes.join(' ')).toContain("A buyer's estimate");
    expect(
      run({ state: 'CA', county: 'San Luis Obispo', value: 425000, homestead: true, purchasePrice: 300000, purchaseYear: 2015 }).notes.join(' '),
    ).not.toContain("A buyer's estimate");
  });
});
