// @vitest-environment happy-dom
/** Engagement (seed 001 §9): every 15 s, only if there was an interaction in the last 30 s. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEngagementTracker, ENGAGEMENT_INTERVAL_MS, ENGAGEMENT_WINDOW_MS, installEngagementTracking } from './engagement.js';

describe('engagement', () => {
  afterEach(() => vi.useRealTimers());

  it('ticks every 15 s and counts an interaction for 30 s', () => {
    expect(ENGAGEMENT_INTERVAL_MS).toBe(15_000);
    expect(ENGAGEMENT_WINDOW_MS).toBe(30_000);
  });

  it('reports at a tick within 30 s of an interaction, not after, with the engaged seconds so far', () => {
    let t = 0;
    const reports: number[] = [];
    const e = createEngagementTracker(
      () => t,
      (s) => reports.push(s),
    );
    t = 15_000;
    expect(e.tick()).toBe(false); // no interaction yet
    e.interacted(); // at 15 s
    t = 30_000;
    expect(e.tick()).toBe(true);
    t = 45_000; // exactly 30 s after the interaction
    expect(e.tick()).toBe(true);
    t = 60_000; // 45 s after
    expect(e.tick()).toBe(false);
    e.interacted();
    t = 75_000;
    expect(e.tick()).toBe(true);
    expect(reports).toEqual([15, 30, 45]);
  });

  it('installed on the window: a click then 15 s reports once; 45 s of silence stops the reports', () => {
    vi.useFakeTimers();
    const reports: number[] = [];
    const off = installEngagementTracking(
      window,
      (s) => reports.push(s),
      () => Date.now(),
    );
    window.dispatchEvent(new Event('pointerdown'));
    vi.advanceTimersByTime(15_000);
    expect(reports).toEqual([15]);
    vi.advanceTimersByTime(45_000); // ticks at 30 s (within the window), 45 s (outside), 60 s
    expect(reports).toEqual([15, 30]);
    off();
    window.dispatchEvent(new Event('keydown'));
    vi.advanceTimersByTime(30_000);
    expect(reports).toEqual([15, 30]);
  });
});
