// @vitest-environment happy-dom
/** Analytics core: sink, consent, the 10-per-60-s rate limit and its three exemptions, page types. */
import { afterEach, describe, expect, it } from 'vitest';
import { createAnalytics, dataLayerSink, pageTypeOf, RateLimiter, type AnalyticsEvent } from './analytics.js';
import { CONSENT_KEY } from './consent.js';

const collect = () => {
  const events: AnalyticsEvent[] = [];
  return { events, sink: (e: AnalyticsEvent) => void events.push(e) };
};

describe('sink and consent', () => {
  afterEach(() => {
    delete (globalThis as { dataLayer?: unknown }).dataLayer;
    globalThis.localStorage?.clear?.();
  });

  it('the default sink pushes {event, ...params} onto window.dataLayer, creating it when missing', () => {
    dataLayerSink({ event: 'page_view', page_type: 'homepage' });
    dataLayerSink({ event: 'scroll_depth', percent: 25 });
    expect((globalThis as unknown as { dataLayer: unknown[] }).dataLayer).toEqual([
      { event: 'page_view', page_type: 'homepage' },
      { event: 'scroll_depth', percent: 25 },
    ]);
  });

  it('pushes nothing without consent, and the event with context and params once consent is given', () => {
    const { events, sink } = collect();
    let ok = false;
    const a = createAnalytics({ sink, consented: () => ok, context: { state: 'TX', language: 'es' } });
    expect(a.track('page_view', { page_type: 'homepage' })).toBe(false);
    expect(events).toEqual([]);
    ok = true;
    expect(a.track('page_view', { page_type: 'homepage' })).toBe(true);
    expect(events).toEqual([{ event: 'page_view', state: 'TX', language: 'es', page_type: 'homepage' }]);
  });

  it('by default reads the stored analytics_consent: undecided and declined push nothing, accepted pushes', () => {
    const { events, sink } = collect();
    const a = createAnalytics({ sink });
    a.track('wizard_started');
    localStorage.setItem(CONSENT_KEY, JSON.stringify({ analytics: false, marketing: false }));
    a.track('wizard_started');
    expect(events).toHaveLength(0);
    localStorage.setItem(CONSENT_KEY, JSON.stringify({ analytics: true, marketing: false }));
    a.track('wizard_started');
    expect(events.map((e) => e.event)).toEqual(['wizard_started']);
  });

  it('a sink that throws does not break the caller', () => {
    const a = createAnalytics({
      sink: () => {
        throw new Error('tag manager broke');
      },
      consented: () => true,
    });
    expect(a.track('page_view')).toBe(false);
  });

  it('the sink can be swapped (pluggable)', () => {
    const first = collect();
    const second = collect();
    const a = createAnalytics({ sink: first.sink, consented: () => true });
    a.track('wizard_started');
    a.setSink(second.sink);
    a.track('wizard_step', { step: 2 });
    expect(first.events.map((e) => e.event)).toEqual(['wizard_started']);
    expect(second.events).toEqual([{ event: 'wizard_step', step: 2 }]);
  });
});

describe('rate limit: 10 events per name per 60 s, page_view, tax_calculated and calculator_started exempt', () => {
  it('the 11th event of one name within 60 s is dropped; other names have their own budget', () => {
    let t = 0;
    const { events, sink } = collect();
    const a = createAnalytics({ sink, consented: () => true, now: () => t });
    const sent = Array.from({ length: 11 }, (_, i) => {
      t = i * 1000;
      return a.track('scroll_depth', { i });
    });
    expect(sent).toEqual([...Array(10).fill(true), false]);
    expect(a.track('wizard_step')).toBe(true);
    expect(events).toHaveLength(11);
  });

  it('the window slides: 60 s after the first event, one more is allowed', () => {
    let t = 0;
    const r = new RateLimiter(() => t);
    for (let i = 0; i < 10; i++) {
      t = i * 100;
      expect(r.allow('api_error')).toBe(true);
    }
    t = 59_999;
    expect(r.allow('api_error')).toBe(false);
    t = 60_000; // the event at t=0 has left the window
    expect(r.allow('api_error')).toBe(true);
    expect(r.allow('api_error')).toBe(false); // the one at t=100 is still in it
    t = 60_100;
    expect(r.allow('api_error')).toBe(true);
  });

  it.each(['page_view', 'tax_calculated', 'calculator_started'])('%s is never limited (50 in one second all pass)', (name) => {
    const r = new RateLimiter(() => 0);
    const results = Array.from({ length: 50 }, () => r.allow(name));
    expect(results.every(Boolean)).toBe(true);
  });

  it('a name that is not exempt, such as calculation_failed, is limited', () => {
    const r = new RateLimiter(() => 0);
    expect(Array.from({ length: 12 }, () => r.allow('calculation_failed')).filter(Boolean)).toHaveLength(10);
  });
});

describe('page types for analytics (seed 001 §2)', () => {
  it.each([
    ['/', 'homepage'],
    ['/es', 'homepage'],
    ['/es/', 'homepage'],
    ['/calculator', 'calculator'],
    ['/es/calculadora', 'calculator'],
    ['/guides/texas-property-tax-appeal', 'guide'],
    ['/tax-guides', 'guide'],
    ['/es/guias-impuestos', 'guide'],
    ['/es/guias/errores-comunes', 'guide'],
    ['/county/harris', 'county'],
    ['/es/condado/miami-dade', 'county'],
    ['/faq', 'faq'],
    ['/es/preguntas-frecuentes', 'faq'],
    ['/about', 'about'],
    ['/es/acerca-de', 'about'],
    ['/contact', 'other'],
    ['/privacy-policy', 'other'],
    ['/espanol', 'other'],
  ])('%s is %s', (path, type) => {
    expect(pageTypeOf(path)).toBe(type);
  });
});
