/** Calls made before the telemetry chunk has loaded wait, then reach it in order (lib/monitoring.ts). */
import { describe, expect, it } from 'vitest';
import { events, reportError, setTelemetry, track } from './monitoring.js';
import type { Telemetry } from './telemetry/index.js';

describe('monitoring before and after the telemetry chunk', () => {
  it('queues the calls, then hands them over in order, then calls at once', () => {
    const seen: string[] = [];
    track('page_view', { a: 1 });
    events.calculationStarted('harris');
    reportError(new Error('early'));
    const fake = {
      track: (name: string) => (seen.push(`track:${name}`), true),
      calculationStarted: (c: string) => (seen.push(`started:${c}`), true),
      reportError: (e: unknown) => void seen.push(`error:${(e as Error).message}`),
    } as unknown as Telemetry;
    expect(seen).toEqual([]);
    setTelemetry(fake);
    expect(seen).toEqual(['track:page_view', 'started:harris', 'error:early']);
    track('later');
    expect(seen.at(-1)).toBe('track:later');
  });
});
