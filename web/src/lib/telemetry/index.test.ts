// @vitest-environment happy-dom
/** initTelemetry end to end on a window: consent gates everything, session and page_view on acceptance, Sentry only with a DSN. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAnalytics, type AnalyticsEvent } from './analytics.js';
import { analyticsAllowed, writeConsent } from './consent.js';
import { getTelemetry, initTelemetry, type Telemetry } from './index.js';
import { resetSentryForTests } from './sentry.js';
import { memoryStore } from './store.js';

const CHROME_120 = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
let t: Telemetry | null = null;
let events: AnalyticsEvent[];
let store: ReturnType<typeof memoryStore>;

function setup(extra: Partial<Parameters<typeof initTelemetry>[0]> = {}) {
  const a = createAnalytics({ sink: (e) => void events.push(e), consented: () => analyticsAllowed(store) });
  const webVitals = vi.fn(async () => ({
    onCLS: () => {},
    onINP: () => {},
    onFCP: () => {},
    onLCP: () => {},
    onTTFB: (cb: (m: { name: string; value: number }) => void) => cb({ name: 'TTFB', value: 123.4 }),
  }));
  t = initTelemetry({
    state: 'tx',
    host: 'tx.example.com',
    lang: 'es',
    pathname: '/es/condado/harris',
    win: window,
    store,
    analytics: a,
    importWebVitals: webVitals,
    userAgent: CHROME_120,
    ...extra,
  });
  return { webVitals };
}
const calc = {
  county: 'Harris',
  propertyValue: 350_000,
  annualTax: 6_300,
  monthlyTax: 525,
  effectiveRate: 1.8,
  totalSavings: 2_520,
  exemptionsApplied: ['homestead'],
};

beforeEach(() => {
  events = [];
  store = memoryStore();
});
afterEach(() => {
  t?.dispose();
  t = null;
  resetSentryForTests();
  vi.restoreAllMocks();
});

describe('initTelemetry', () => {
  it('without consent: no event, no session key, web-vitals not loaded', async () => {
    const { webVitals } = setup();
    expect(t!.calculationStarted('Harris')).toBe(false);
    expect(t!.calculationComplete(calc)).toBe(false);
    await Promise.resolve();
    expect(events).toEqual([]);
    expect([...store.data.keys()]).toEqual([]);
    expect(webVitals).not.toHaveBeenCalled();
  });

  it('on acceptance: page_view (page type, new visitor), web vitals, then the calculation with tiers and session', async () => {
    const { webVitals } = setup();
    writeConsent({ analytics: true, marketing: false }, store);
    await vi.waitFor(() => expect(webVitals).toHaveBeenCalledTimes(1));
    expect(t!.calculationStarted('Harris')).toBe(true);
    expect(t!.calculationComplete(calc)).toBe(true);
    expect(events).toEqual([
      { event: 'page_view', state: 'TX', language: 'es', page_type: 'county', page_path: '/es/condado/harris', user_type: 'new' },
      { event: 'web_vitals', state: 'TX', language: 'es', metric_name: 'TTFB', value: 123, rating: undefined, metric_id: undefined },
      { event: 'calculator_started', state: 'TX', language: 'es', county: 'Harris' },
      {
        event: 'tax_calculated',
        state: 'TX',
        language: 'es',
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
        calculation_count: 1,
        power_user: false,
        multi_state: false,
        user_type: 'new',
      },
    ]);
    expect(store.data.get('total_calculations')).toBe('1');
    expect(store.data.get('states_used')).toBe('["TX"]');
  });

  it('a returning visitor (earlier visit stored) is returning', () => {
    store.setItem('analytics_consent', '{"analytics":true,"marketing":false}');
    store.setItem('analytics_last_visit', '2026-01-01T00:00:00.000Z');
    setup();
    expect(events[0]).toMatchObject({ event: 'page_view', user_type: 'returning' });
  });

  it('a calculation §5 forbids (value 0) is neither pushed nor counted', () => {
    store.setItem('analytics_consent', '{"analytics":true,"marketing":false}');
    setup();
    expect(t!.calculationComplete({ ...calc, propertyValue: 0 })).toBe(false);
    expect(store.data.get('total_calculations')).toBeUndefined();
  });

  it('declining removes the session keys and stops the events', () => {
    store.setItem('analytics_consent', '{"analytics":true,"marketing":false}');
    setup();
    t!.calculationComplete(calc);
    writeConsent({ analytics: false, marketing: false }, store);
    expect(t!.calculationStarted('Harris')).toBe(false);
    expect([...store.data.keys()]).toEqual(['analytics_consent']);
  });

  it('wizard steps only above 50,000', () => {
    store.setItem('analytics_consent', '{"analytics":true,"marketing":false}');
    setup();
    expect(t!.wizardStep(2, 50_000)).toBe(false);
    expect(t!.wizardStep(2, 60_000)).toBe(true);
    expect(events.at(-1)).toMatchObject({ event: 'wizard_step', step: 2 });
  });

  it('the fetch wrapper reports to the same analytics (with consent)', async () => {
    store.setItem('analytics_consent', '{"analytics":true,"marketing":false}');
    const original = vi.fn(async () => new Response('{}', { status: 400 }));
    vi.stubGlobal('fetch', original);
    setup();
    await window.fetch('/api/contact?x=1', { method: 'POST' });
    expect(events.at(-1)).toMatchObject({ event: 'api_error', url: '/api/contact', status: 400, method: 'POST' });
    t!.dispose();
    t = null;
    expect(window.fetch).toBe(original);
    vi.unstubAllGlobals();
  });

  it('Sentry: not imported without a DSN; imported after load with one', async () => {
    const importSentry = vi.fn(
      async () => ({ init: vi.fn(), captureException: vi.fn(), browserTracingIntegration: () => ({}), consoleLoggingIntegration: () => ({}) }) as never,
    );
    setup({ importSentry });
    await t!.sentryReady;
    expect(importSentry).not.toHaveBeenCalled();
    t!.dispose();
    t = null;
    const captureException = vi.fn();
    const withDsn = vi.fn(
      async () => ({ init: vi.fn(), captureException, browserTracingIntegration: () => ({}), consoleLoggingIntegration: () => ({}) }) as never,
    );
    setup({ importSentry: withDsn, dsn: 'https://k@o1.ingest.example/1' });
    const early = new Error('before the load event');
    t!.reportError(early, { where: 'state data' }); // queued until the SDK is up
    await t!.sentryReady;
    expect(withDsn).toHaveBeenCalledTimes(1);
    expect(captureException.mock.calls).toEqual([[early, { extra: { where: 'state data' } }]]);
  });

  it('getTelemetry is a no-op before init and the live instance after', () => {
    expect(getTelemetry().calculationStarted('x')).toBe(false);
    setup();
    expect(getTelemetry()).toBe(t);
  });
});
