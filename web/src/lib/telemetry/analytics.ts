/**
 * Analytics: one small module with a pluggable sink. The default sink pushes to
 * `window.dataLayer` and nothing else: no third-party script is loaded, so nothing leaves the
 * browser unless the site's operator adds a tag manager that reads the dataLayer.
 *
 * Rules (seed 001 §9): at most 10 events per event name per 60 seconds, except page_view,
 * tax_calculated and calculator_started. Nothing is pushed without analytics consent
 * (consent.ts).
 */
import { analyticsAllowed } from './consent.js';

export type EventParams = Record<string, unknown>;
export interface AnalyticsEvent extends EventParams {
  event: string;
}
export type Sink = (e: AnalyticsEvent) => void;

/** window.dataLayer, created when missing (the tag-manager convention). */
export const dataLayerSink: Sink = (e) => {
  const w = globalThis as unknown as { dataLayer?: unknown[] };
  if (!Array.isArray(w.dataLayer)) w.dataLayer = [];
  w.dataLayer.push(e);
};

export const RATE_LIMIT = {
  max: 10,
  windowMs: 60_000,
  exempt: ['page_view', 'tax_calculated', 'calculator_started'] as readonly string[],
};

/** A sliding 60-second window per event name. */
export class RateLimiter {
  private readonly times = new Map<string, number[]>();
  constructor(
    private readonly now: () => number = Date.now,
    private readonly max = RATE_LIMIT.max,
    private readonly windowMs = RATE_LIMIT.windowMs,
    private readonly exempt: readonly string[] = RATE_LIMIT.exempt,
  ) {}

  /** True (and counted) when `name` may be sent now. */
  allow(name: string): boolean {
    if (this.exempt.includes(name)) return true;
    const t = this.now();
    const recent = (this.times.get(name) ?? []).filter((s) => t - s < this.windowMs);
    if (recent.length >= this.max) {
      this.times.set(name, recent);
      return false;
    }
    recent.push(t);
    this.times.set(name, recent);
    return true;
  }
}

export interface AnalyticsOptions {
  sink?: Sink;
  now?: () => number;
  consented?: () => boolean;
  /** Added to every event (state, language). */
  context?: EventParams;
}

export interface Analytics {
  /** Pushes `{event: name, ...context, ...params}`; false when refused (no consent, rate limit). */
  track(name: string, params?: EventParams): boolean;
  setSink(sink: Sink): void;
  setContext(context: EventParams): void;
  consented(): boolean;
}

export function createAnalytics(opts: AnalyticsOptions = {}): Analytics {
  let sink = opts.sink ?? dataLayerSink;
  let context: EventParams = { ...opts.context };
  const consented = opts.consented ?? (() => analyticsAllowed());
  const limiter = new RateLimiter(opts.now ?? Date.now);
  return {
    track(name, params = {}) {
      if (!consented()) return false;
      if (!limiter.allow(name)) return false;
      try {
        sink({ ...context, ...params, event: name });
      } catch {
        return false; // a broken sink never breaks the page
      }
      return true;
    },
    setSink(s) {
      sink = s;
    },
    setContext(c) {
      context = { ...context, ...c };
    },
    consented,
  };
}

/** The page's instance (dataLayer sink, stored consent). */
export const analytics: Analytics = createAnalytics();
export const track = (name: string, params?: EventParams): boolean => analytics.track(name, params);

/** Page types recognised for analytics (seed 001 §2), English and Spanish paths. */
export type PageType = 'homepage' | 'calculator' | 'guide' | 'county' | 'faq' | 'about' | 'other';

export function pageTypeOf(pathname: string): PageType {
  const p = (pathname.replace(/[?#].*$/, '').replace(/\/+$/, '') || '/').toLowerCase();
  const rest = p.replace(/^\/es(?=\/|$)/, '') || '/';
  if (rest === '/') return 'homepage';
  if (/^\/(calculator|calculadora)(\/|$)/.test(rest)) return 'calculator';
  if (/^\/(county|condado|counties|condados)(\/|$)/.test(rest)) return 'county';
  if (/^\/(guides|guias|tax-guides|guias-impuestos)(\/|$)/.test(rest)) return 'guide';
  if (/^\/(faq|preguntas-frecuentes)(\/|$)/.test(rest)) return 'faq';
  if (/^\/(about|acerca-de)(\/|$)/.test(rest)) return 'about';
  return 'other';
}
