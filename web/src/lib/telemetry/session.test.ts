/** Session analytics (seed 001 §3/§4): the four storage keys, power user at 5, multi-state, new/returning. */
import { describe, expect, it } from 'vitest';
import { clearSession, POWER_USER_AT, readSession, recordCalculation, recordVisit, SESSION_KEYS } from './session.js';
import { memoryStore } from './store.js';

describe('session analytics', () => {
  it('uses the keys of seed 001 §3', () => {
    expect(SESSION_KEYS).toEqual({
      lastVisit: 'analytics_last_visit',
      totalCalculations: 'total_calculations',
      statesUsed: 'states_used',
      highValue: 'high_value_calculation',
    });
  });

  it('counts calculations; power user from the 5th on', () => {
    const store = memoryStore();
    const counts = Array.from({ length: 6 }, () => recordCalculation('NY', 350_000, store));
    expect(counts.map((s) => s.calculationCount)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(counts.map((s) => s.powerUser)).toEqual([false, false, false, false, true, true]);
    expect(POWER_USER_AT).toBe(5);
    expect(store.data.get('total_calculations')).toBe('6');
  });

  it('multi-state once a second state is used; a state is listed once', () => {
    const store = memoryStore();
    expect(recordCalculation('tx', 300_000, store).multiState).toBe(false);
    expect(recordCalculation('TX', 300_000, store).multiState).toBe(false);
    const s = recordCalculation('FL', 300_000, store);
    expect(s.multiState).toBe(true);
    expect(s.statesUsed).toEqual(['TX', 'FL']);
    expect(store.data.get('states_used')).toBe('["TX","FL"]');
  });

  it('high_value_calculation is set by a value above 500,000 and stays set', () => {
    const store = memoryStore();
    expect(recordCalculation('CA', 500_000, store).highValueCalculation).toBe(false);
    expect(recordCalculation('CA', 750_000, store).highValueCalculation).toBe(true);
    expect(recordCalculation('CA', 100_000, store).highValueCalculation).toBe(true);
    expect(store.data.get('high_value_calculation')).toBe('true');
  });

  it('new on the first visit, returning afterwards; the last visit is stored as an ISO time', () => {
    const store = memoryStore();
    expect(recordVisit(store, new Date('2026-03-01T10:00:00Z'))).toBe('new');
    expect(store.data.get('analytics_last_visit')).toBe('2026-03-01T10:00:00.000Z');
    expect(recordVisit(store, new Date('2026-03-02T10:00:00Z'))).toBe('returning');
  });

  it('a corrupt count or state list starts again instead of failing', () => {
    const store = memoryStore({ total_calculations: 'abc', states_used: '{oops' });
    expect(readSession(store)).toMatchObject({ calculationCount: 0, statesUsed: [] });
    expect(recordCalculation('NY', 1, store).calculationCount).toBe(1);
  });

  it('clearSession removes every session key (the visitor declined)', () => {
    const store = memoryStore({ other: 'kept' });
    recordVisit(store);
    recordCalculation('NY', 900_000, store);
    clearSession(store);
    expect([...store.data.keys()]).toEqual(['other']);
  });
});
