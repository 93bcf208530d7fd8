/**
 * Session analytics (seed 001 §3 keys, §4 transitions): calculation count, power user at 5,
 * multi-state when more than one state was used, new on the first visit and returning after.
 * The caller writes only with analytics consent (index.ts); `clearSession` runs on decline.
 */
import { isHighValue } from './tiers.js';
import { safeLocalStorage, type KeyValueStore } from './store.js';

export const SESSION_KEYS = {
  lastVisit: 'analytics_last_visit',
  totalCalculations: 'total_calculations',
  statesUsed: 'states_used',
  highValue: 'high_value_calculation',
} as const;

export const POWER_USER_AT = 5;

export type UserType = 'new' | 'returning';

export interface SessionStats {
  calculationCount: number;
  powerUser: boolean;
  statesUsed: string[];
  multiState: boolean;
  highValueCalculation: boolean;
}

function statesOf(store: KeyValueStore): string[] {
  try {
    const v = JSON.parse(store.getItem(SESSION_KEYS.statesUsed) ?? '[]') as unknown;
    return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

function countOf(store: KeyValueStore): number {
  const n = Number(store.getItem(SESSION_KEYS.totalCalculations) ?? 0);
  return Number.isInteger(n) && n > 0 ? n : 0;
}

export function readSession(store: KeyValueStore = safeLocalStorage): SessionStats {
  const calculationCount = countOf(store);
  const statesUsed = statesOf(store);
  return {
    calculationCount,
    powerUser: calculationCount >= POWER_USER_AT,
    statesUsed,
    multiState: statesUsed.length > 1,
    highValueCalculation: store.getItem(SESSION_KEYS.highValue) === 'true',
  };
}

/** New when no earlier visit is recorded, returning otherwise; records this visit. */
export function recordVisit(store: KeyValueStore = safeLocalStorage, now: Date = new Date()): UserType {
  const type: UserType = store.getItem(SESSION_KEYS.lastVisit) ? 'returning' : 'new';
  store.setItem(SESSION_KEYS.lastVisit, now.toISOString());
  return type;
}

/** One more calculation in `state` for a property worth `value`. */
export function recordCalculation(state: string, value: number, store: KeyValueStore = safeLocalStorage): SessionStats {
  store.setItem(SESSION_KEYS.totalCalculations, String(countOf(store) + 1));
  const states = statesOf(store);
  const code = state.toUpperCase();
  if (!states.includes(code)) store.setItem(SESSION_KEYS.statesUsed, JSON.stringify([...states, code]));
  if (isHighValue(value)) store.setItem(SESSION_KEYS.highValue, 'true');
  return readSession(store);
}

/** Removes every session key (the visitor declined analytics). */
export function clearSession(store: KeyValueStore = safeLocalStorage): void {
  for (const k of Object.values(SESSION_KEYS)) store.removeItem(k);
}
