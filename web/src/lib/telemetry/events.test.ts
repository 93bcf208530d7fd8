/** The calculation-complete payload (seed 001 §3) and when it may be sent (§5). */
import { describe, expect, it } from 'vitest';
import { calculationCompleteAllowed, calculationCompletePayload } from './events.js';

const base = {
  state: 'TX',
  county: 'Harris',
  propertyValue: 350_000,
  annualTax: 6_300,
  monthlyTax: 525,
  effectiveRate: 1.8,
  totalSavings: 2_520,
  exemptionsApplied: ['homestead'],
};

describe('calculation complete', () => {
  it('carries the seven fields of §3, the state, the tiers and the session figures', () => {
    expect(
      calculationCompletePayload(
        base,
        { calculationCount: 5, powerUser: true, statesUsed: ['TX', 'FL'], multiState: true, highValueCalculation: false },
        'returning',
      ),
    ).toEqual({
      state: 'TX',
      county: 'Harris',
      propertyValue: 350_000,
      annualTax: 6_300,
      monthlyTax: 525,
      effectiveRate: 1.8,
      totalSavings: 2_520,
      exemptionsApplied: ['homestead'],
      value_tier: 'medium',
      value_range: '300k-500k',
      savings_tier: 'high',
      high_value: false,
      calculation_count: 5,
      power_user: true,
      multi_state: true,
      user_type: 'returning',
    });
  });

  it('is sent only with a state, a county, a value above 0 and a total tax of 0 or more', () => {
    expect(calculationCompleteAllowed(base)).toBe(true);
    expect(calculationCompleteAllowed({ ...base, annualTax: 0 })).toBe(true);
    expect(calculationCompletePayload({ ...base, state: '' })).toBeNull();
    expect(calculationCompletePayload({ ...base, county: undefined })).toBeNull();
    expect(calculationCompletePayload({ ...base, propertyValue: 0 })).toBeNull();
    expect(calculationCompletePayload({ ...base, propertyValue: Number.NaN })).toBeNull();
    expect(calculationCompletePayload({ ...base, annualTax: -1 })).toBeNull();
    expect(calculationCompletePayload({ ...base, annualTax: undefined })).toBeNull();
  });

  it('a missing monthly tax is the annual tax / 12; missing savings count as 0 (low tier)', () => {
    const p = calculationCompletePayload({ ...base, monthlyTax: undefined, totalSavings: undefined, annualTax: 1200 })!;
    expect(p.monthlyTax).toBe(100);
    expect(p.totalSavings).toBe(0);
    expect(p.savings_tier).toBe('low');
  });
});
