/**
 * The visitor's analytics choice, stored as `analytics_consent` (seed 001 §3: JSON with
 * analytics and marketing flags, both persisted, §4).
 *
 * Deliberate difference from seed 001 §4 ("analytics defaults to true"): until the visitor
 * has chosen, analytics is OFF. Nothing is pushed to the dataLayer and no session key is
 * written without an explicit "accept" (issue 13: consent honoured). Marketing is never
 * turned on by this product (no control offers it); it stays false.
 */
import { safeLocalStorage, type KeyValueStore } from './store.js';

export const CONSENT_KEY = 'analytics_consent';

export interface Consent {
  analytics: boolean;
  marketing: boolean;
}

/** What applies while the visitor has not chosen (see the note above). */
export const DEFAULT_CONSENT: Consent = { analytics: false, marketing: false };

/** The stored choice, or null when the visitor has not chosen (or the record is unreadable). */
export function readConsent(store: KeyValueStore = safeLocalStorage): Consent | null {
  const raw = store.getItem(CONSENT_KEY);
  if (raw === null) return null;
  try {
    const v = JSON.parse(raw) as Partial<Consent> | null;
    if (!v || typeof v !== 'object' || typeof v.analytics !== 'boolean') return null;
    return { analytics: v.analytics, marketing: v.marketing === true };
  } catch {
    return null;
  }
}

/** True only when the visitor has accepted analytics. */
export function analyticsAllowed(store: KeyValueStore = safeLocalStorage): boolean {
  return readConsent(store)?.analytics === true;
}

type Listener = (c: Consent) => void;
const listeners = new Set<Listener>();

/** Stores the choice and tells the listeners (the telemetry, the banner). */
export function writeConsent(c: Consent, store: KeyValueStore = safeLocalStorage): void {
  const value: Consent = { analytics: c.analytics, marketing: c.marketing };
  store.setItem(CONSENT_KEY, JSON.stringify(value));
  for (const l of [...listeners]) l(value);
}

/** Called on every choice; returns the unsubscribe function. */
export function onConsentChange(l: Listener): () => void {
  listeners.add(l);
  return () => void listeners.delete(l);
}
