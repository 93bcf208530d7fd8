/** Seed 001 §9 tiers, checked at and around each boundary. */
import { describe, expect, it } from 'vitest';
import { dataLayerRange, isHighValue, savingsTier, valueTier, wizardStepTracked } from './tiers.js';

describe('tiers', () => {
  it.each([
    [0, 'low'],
    [199_999, 'low'],
    [200_000, 'medium'],
    [499_999, 'medium'],
    [500_000, 'high'],
    [999_999, 'high'],
    [1_000_000, 'very_high'],
    [5_000_000, 'very_high'],
  ])('value %d is %s', (v, tier) => expect(valueTier(v)).toBe(tier));

  it.each([
    [99_999, '<100k'],
    [100_000, '100k-300k'],
    [299_999, '100k-300k'],
    [300_000, '300k-500k'],
    [499_999, '300k-500k'],
    [500_000, '500k-1M'],
    [999_999, '500k-1M'],
    [1_000_000, '1M+'],
  ])('dataLayer range of %d is %s', (v, range) => expect(dataLayerRange(v)).toBe(range));

  it.each([
    [0, 'low'],
    [499, 'low'],
    [500, 'medium'],
    [1999, 'medium'],
    [2000, 'high'],
    [12_000, 'high'],
  ])('savings %d are %s', (v, tier) => expect(savingsTier(v)).toBe(tier));

  it('high value is above 500,000 (500,000 itself is not)', () => {
    expect(isHighValue(500_000)).toBe(false);
    expect(isHighValue(500_001)).toBe(true);
  });

  it('wizard steps are tracked only above 50,000 (seed 000 §9)', () => {
    expect(wizardStepTracked(50_000)).toBe(false);
    expect(wizardStepTracked(50_001)).toBe(true);
  });
});
