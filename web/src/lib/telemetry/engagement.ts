/**
 * Engagement (seed 001 §9): every 15 seconds, reported only if the visitor interacted within
 * the last 30 seconds.
 */
export const ENGAGEMENT_INTERVAL_MS = 15_000;
export const ENGAGEMENT_WINDOW_MS = 30_000;
export const INTERACTION_EVENTS = ['pointerdown', 'keydown', 'scroll', 'touchstart', 'input'] as const;

export interface EngagementTracker {
  interacted(): void;
  /** One 15-second tick: reports (and returns true) if there was an interaction in the last 30 s. */
  tick(): boolean;
}

export function createEngagementTracker(now: () => number, onEngaged: (engagedSeconds: number) => void): EngagementTracker {
  let last = -Infinity;
  let engagedSeconds = 0;
  return {
    interacted() {
      last = now();
    },
    tick() {
      if (now() - last > ENGAGEMENT_WINDOW_MS) return false;
      engagedSeconds += ENGAGEMENT_INTERVAL_MS / 1000;
      onEngaged(engagedSeconds);
      return true;
    },
  };
}

/** Listens for interactions and ticks every 15 s. Returns the remover. */
export function installEngagementTracking(win: Window, onEngaged: (engagedSeconds: number) => void, now: () => number = Date.now): () => void {
  const tracker = createEngagementTracker(now, onEngaged);
  const mark = () => tracker.interacted();
  for (const type of INTERACTION_EVENTS) win.addEventListener(type, mark, { passive: true, capture: true });
  const timer = setInterval(() => tracker.tick(), ENGAGEMENT_INTERVAL_MS);
  return () => {
    clearInterval(timer);
    for (const type of INTERACTION_EVENTS) win.removeEventListener(type, mark, { capture: true });
  };
}
