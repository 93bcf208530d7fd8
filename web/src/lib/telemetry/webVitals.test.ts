/** web-vitals (seed 001 §7): lazy, the five metrics, nothing on Chrome below 92 or without Array.prototype.at. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { browserTooOld, loadWebVitals, type VitalMetric, type WebVitalsModule } from './webVitals.js';

const CHROME = (v: number) => `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.4515.107 Safari/537.36`;
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

function fakeModule(): WebVitalsModule & { fire: () => void } {
  const cbs: Array<[string, (m: VitalMetric) => void]> = [];
  const on = (name: string) => (cb: (m: VitalMetric) => void) => void cbs.push([name, cb]);
  return {
    onCLS: on('CLS'),
    onINP: on('INP'),
    onFCP: on('FCP'),
    onLCP: on('LCP'),
    onTTFB: on('TTFB'),
    fire: () => cbs.forEach(([name, cb], i) => cb({ name, value: i + 0.5, rating: 'good', id: `v-${i}`, delta: i + 0.5 })),
  };
}

describe('too old a browser', () => {
  it('Chrome 91 is too old, Chrome 92 is not; a browser without Array.prototype.at is too old', () => {
    expect(browserTooOld(CHROME(91), true)).toBe(true);
    expect(browserTooOld(CHROME(92), true)).toBe(false);
    expect(browserTooOld(FIREFOX, true)).toBe(false);
    expect(browserTooOld(FIREFOX, false)).toBe(true);
  });
});

describe('loading', () => {
  it('reports CLS, INP, FCP, LCP and TTFB from the lazily imported module', async () => {
    const mod = fakeModule();
    const importer = vi.fn(async () => mod);
    const seen: string[] = [];
    expect(await loadWebVitals((m) => seen.push(m.name), { userAgent: CHROME(120), hasArrayAt: true, importer })).toBe(true);
    mod.fire();
    expect(seen).toEqual(['CLS', 'INP', 'FCP', 'LCP', 'TTFB']);
  });

  it('does not even import the module on a too-old browser', async () => {
    const importer = vi.fn(async () => fakeModule());
    expect(await loadWebVitals(() => {}, { userAgent: CHROME(80), hasArrayAt: true, importer })).toBe(false);
    expect(importer).not.toHaveBeenCalled();
  });

  it('a failed load is silent', async () => {
    expect(await loadWebVitals(() => {}, { userAgent: FIREFOX, hasArrayAt: true, importer: () => Promise.reject(new Error('chunk')) })).toBe(false);
  });

  it('the real web-vitals package has the five functions', async () => {
    const real = await import('web-vitals');
    for (const f of ['onCLS', 'onINP', 'onFCP', 'onLCP', 'onTTFB']) expect(typeof (real as Record<string, unknown>)[f]).toBe('function');
  });
});

describe('first-load bundle', () => {
  it('web-vitals and @sentry/react are imported only dynamically (or as types) anywhere in telemetry', () => {
    const dir = import.meta.dirname;
    const sources = readdirSync(dir).filter((f) => /\.tsx?$/.test(f) && !/\.test\./.test(f));
    expect(sources.length).toBeGreaterThan(5);
    for (const f of sources) {
      const text = readFileSync(join(dir, f), 'utf8');
      const staticImports = [...text.matchAll(/^import\s+(?!type\b)[^;]*from\s+'(web-vitals|@sentry\/[^']+)'/gm)].map((m) => m[1]);
      expect({ file: f, staticImports }).toEqual({ file: f, staticImports: [] });
    }
  });
});
