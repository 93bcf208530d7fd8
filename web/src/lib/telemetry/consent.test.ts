/** analytics_consent: JSON {analytics, marketing}, off until the visitor accepts, persisted, listeners told. */
import { describe, expect, it, vi } from 'vitest';
import { analyticsAllowed, CONSENT_KEY, DEFAULT_CONSENT, onConsentChange, readConsent, writeConsent } from './consent.js';
import { memoryStore } from './store.js';

describe('consent', () => {
  it('is stored under analytics_consent as JSON with the analytics and marketing flags', () => {
    const store = memoryStore();
    writeConsent({ analytics: true, marketing: false }, store);
    expect(store.data.get(CONSENT_KEY)).toBe('{"analytics":true,"marketing":false}');
    expect(readConsent(store)).toEqual({ analytics: true, marketing: false });
  });

  it('undecided (no record) means no analytics; marketing is false', () => {
    const store = memoryStore();
    expect(readConsent(store)).toBeNull();
    expect(analyticsAllowed(store)).toBe(false);
    expect(DEFAULT_CONSENT).toEqual({ analytics: false, marketing: false });
  });

  it('a declined or unreadable record means no analytics', () => {
    expect(analyticsAllowed(memoryStore({ [CONSENT_KEY]: '{"analytics":false,"marketing":true}' }))).toBe(false);
    expect(analyticsAllowed(memoryStore({ [CONSENT_KEY]: 'yes' }))).toBe(false);
    expect(readConsent(memoryStore({ [CONSENT_KEY]: '{"analytics":"true"}' }))).toBeNull();
    expect(analyticsAllowed(memoryStore({ [CONSENT_KEY]: '{"analytics":true}' }))).toBe(true);
  });

  it('listeners hear every choice until they unsubscribe', () => {
    const store = memoryStore();
    const l = vi.fn();
    const off = onConsentChange(l);
    writeConsent({ analytics: true, marketing: false }, store);
    off();
    writeConsent({ analytics: false, marketing: false }, store);
    expect(l.mock.calls).toEqual([[{ analytics: true, marketing: false }]]);
  });
});
