/**
 * The events of the calculator (seed 000 §7: start, completion, failure, wizard steps) and
 * the calculation-complete payload of seed 001 §3, sent only when seed 001 §5 allows it.
 */
import type { EventParams } from './analytics.js';
import type { SessionStats, UserType } from './session.js';
import { dataLayerRange, isHighValue, savingsTier, valueTier } from './tiers.js';

export const EVENTS = {
  pageView: 'page_view',
  calculatorStarted: 'calculator_started',
  calculationComplete: 'tax_calculated',
  calculationFailed: 'calculation_failed',
  wizardStarted: 'wizard_started',
  wizardStep: 'wizard_step',
  scrollDepth: 'scroll_depth',
  engagement: 'user_engagement',
  webVitals: 'web_vitals',
  apiError: 'api_error',
  networkError: 'network_error',
  exception: 'exception',
} as const;

/** Seed 001 §3: the calculation-complete payload, plus the state the check of §5 needs. */
export interface CalculationComplete {
  state: string;
  county: string;
  propertyValue: number;
  annualTax: number;
  monthlyTax: number;
  effectiveRate: number;
  totalSavings: number;
  exemptionsApplied: string[];
}

const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);
const text = (s: unknown): s is string => typeof s === 'string' && s.trim() !== '';

/** Seed 001 §5: state, county, a property value above 0 and a total tax of 0 or more. */
export function calculationCompleteAllowed(c: Partial<CalculationComplete>): c is CalculationComplete {
  return text(c.state) && text(c.county) && finite(c.propertyValue) && c.propertyValue > 0 && finite(c.annualTax) && c.annualTax >= 0;
}

/**
 * The payload of `tax_calculated`, or null when §5 forbids sending it: the seven fields of §3,
 * the state, the tiers (value, dataLayer range, savings, high value) and the session figures.
 */
export function calculationCompletePayload(c: Partial<CalculationComplete>, session?: SessionStats, userType?: UserType): EventParams | null {
  if (!calculationCompleteAllowed(c)) return null;
  const totalSavings = finite(c.totalSavings) ? c.totalSavings : 0;
  return {
    state: c.state,
    county: c.county,
    propertyValue: c.propertyValue,
    annualTax: c.annualTax,
    monthlyTax: finite(c.monthlyTax) ? c.monthlyTax : c.annualTax / 12,
    effectiveRate: finite(c.effectiveRate) ? c.effectiveRate : null,
    totalSavings,
    exemptionsApplied: Array.isArray(c.exemptionsApplied) ? [...c.exemptionsApplied] : [],
    value_tier: valueTier(c.propertyValue),
    value_range: dataLayerRange(c.propertyValue),
    savings_tier: savingsTier(totalSavings),
    high_value: isHighValue(c.propertyValue),
    ...(session
      ? {
          calculation_count: session.calculationCount,
          power_user: session.powerUser,
          multi_state: session.multiState,
        }
      : {}),
    ...(userType ? { user_type: userType } : {}),
  };
}
