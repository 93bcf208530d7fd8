// @vitest-environment happy-dom
/** Scroll milestones (seed 001 §5): 25, 50, 75 and 90 only, each once. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createScrollTracker, installScrollTracking, SCROLL_MILESTONES, scrollPercent } from './scroll.js';

describe('scroll milestones', () => {
  afterEach(() => vi.restoreAllMocks());

  it('are 25, 50, 75 and 90', () => expect([...SCROLL_MILESTONES]).toEqual([25, 50, 75, 90]));

  it('percent is the bottom of the viewport over the page height', () => {
    expect(scrollPercent(0, 1000, 4000)).toBe(25);
    expect(scrollPercent(1000, 1000, 4000)).toBe(50);
    expect(scrollPercent(2600, 1000, 4000)).toBe(90);
    expect(scrollPercent(0, 1000, 800)).toBe(100); // a page shorter than the screen
  });

  it('reports each milestone once, in order, and nothing in between (30 %, 60 % are not milestones)', () => {
    let pct = 0;
    const seen: number[] = [];
    const t = createScrollTracker(
      () => pct,
      (m) => seen.push(m),
    );
    for (pct of [10, 24.9, 25, 30, 26, 60, 50, 74, 95, 100, 20, 95]) t.check();
    expect(seen).toEqual([25, 50, 75, 90]); // 75 and 90 together at 95 %
    expect(t.reached()).toEqual([25, 50, 75, 90]);
  });

  it('a milestone refused (no consent yet) stays open and is reported at a later scroll', () => {
    let ok = false;
    const seen: number[] = [];
    const t = createScrollTracker(
      () => 60,
      (m) => (ok ? void seen.push(m) : false),
    );
    expect(t.check()).toEqual([]);
    ok = true;
    expect(t.check()).toEqual([25, 50]);
    expect(seen).toEqual([25, 50]);
  });

  it('a jump from the top to the bottom reports all four', () => {
    const seen: number[] = [];
    createScrollTracker(
      () => 100,
      (m) => seen.push(m),
    ).check();
    expect(seen).toEqual([25, 50, 75, 90]);
  });

  it('the window listener measures the page on scroll', async () => {
    Object.defineProperty(document.documentElement, 'scrollHeight', { configurable: true, value: 4000 });
    Object.defineProperty(window, 'innerHeight', { configurable: true, value: 1000 });
    const seen: number[] = [];
    const off = installScrollTracking(window, (m) => seen.push(m));
    Object.defineProperty(window, 'scrollY', { configurable: true, value: 1100 }); // (1100 + 1000) / 4000 = 52.5 %
    window.dispatchEvent(new Event('scroll'));
    await new Promise((r) => setTimeout(r, 50));
    off();
    expect(seen).toEqual([25, 50]);
  });
});
