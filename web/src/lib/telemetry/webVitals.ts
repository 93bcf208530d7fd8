/**
 * Web vitals (seed 001 §7): the web-vitals module is loaded lazily (its own chunk, by dynamic
 * import, never in the first load) and reports CLS, INP, FCP, LCP and TTFB, unless the
 * browser is too old: Chrome below 92, or no Array.prototype.at.
 */
export const WEB_VITALS = ['CLS', 'INP', 'FCP', 'LCP', 'TTFB'] as const;
export const MIN_CHROME = 92;

export interface VitalMetric {
  name: string;
  value: number;
  rating?: string;
  id?: string;
  delta?: number;
}
type OnMetric = (cb: (m: VitalMetric) => void) => void;
export interface WebVitalsModule {
  onCLS: OnMetric;
  onINP: OnMetric;
  onFCP: OnMetric;
  onLCP: OnMetric;
  onTTFB: OnMetric;
}

/** Chrome below 92 (by its user agent), or an engine without Array.prototype.at. */
export function browserTooOld(userAgent: string, hasArrayAt: boolean = typeof (Array.prototype as { at?: unknown }).at === 'function'): boolean {
  if (!hasArrayAt) return true;
  const m = /\bChrom(?:e|ium)\/(\d+)/.exec(userAgent);
  return m !== null && Number(m[1]) < MIN_CHROME;
}

export const importWebVitals = (): Promise<WebVitalsModule> => import('web-vitals') as unknown as Promise<WebVitalsModule>;

/**
 * Loads the module (unless the browser is too old) and reports each metric. Resolves to
 * whether it was loaded; a failed load is silent.
 */
export async function loadWebVitals(
  report: (m: VitalMetric) => void,
  opts: { userAgent?: string; hasArrayAt?: boolean; importer?: () => Promise<WebVitalsModule> } = {},
): Promise<boolean> {
  const ua = opts.userAgent ?? globalThis.navigator?.userAgent ?? '';
  if (browserTooOld(ua, opts.hasArrayAt)) return false;
  let mod: WebVitalsModule;
  try {
    mod = await (opts.importer ?? importWebVitals)();
  } catch {
    return false;
  }
  const send = (m: VitalMetric) => report({ name: m.name, value: m.value, rating: m.rating, id: m.id, delta: m.delta });
  mod.onCLS(send);
  mod.onINP(send);
  mod.onFCP(send);
  mod.onLCP(send);
  mod.onTTFB(send);
  return true;
}
