/** Value, savings and dataLayer tiers (seed 001 §9 "Shared product constants"; seed 000 §9 thresholds). */

export type ValueTier = 'low' | 'medium' | 'high' | 'very_high';
export type SavingsTier = 'low' | 'medium' | 'high';

/** Property value tiers: low below 200k, medium below 500k, high below 1M, very_high from 1M. */
export function valueTier(value: number): ValueTier {
  if (value < 200_000) return 'low';
  if (value < 500_000) return 'medium';
  if (value < 1_000_000) return 'high';
  return 'very_high';
}

/** The dataLayer ranges: <100k, 100k-300k, 300k-500k, 500k-1M, 1M+ (lower bound inclusive). */
export function dataLayerRange(value: number): '<100k' | '100k-300k' | '300k-500k' | '500k-1M' | '1M+' {
  if (value < 100_000) return '<100k';
  if (value < 300_000) return '100k-300k';
  if (value < 500_000) return '300k-500k';
  if (value < 1_000_000) return '500k-1M';
  return '1M+';
}

/** Savings tiers: low below 500, medium below 2000, high otherwise. */
export function savingsTier(savings: number): SavingsTier {
  if (savings < 500) return 'low';
  if (savings < 2000) return 'medium';
  return 'high';
}

/** A high-value calculation is one above 500,000 (seed 001 §9, seed 000 §9). */
export const HIGH_VALUE_ABOVE = 500_000;
export const isHighValue = (value: number): boolean => value > HIGH_VALUE_ABOVE;

/** Wizard analytics fire only above 50,000 (seed 000 §9). */
export const WIZARD_ANALYTICS_ABOVE = 50_000;
export const wizardStepTracked = (value: number): boolean => value > WIZARD_ANALYTICS_ABOVE;
