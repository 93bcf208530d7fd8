/** Scroll milestones (seed 001 §5): only 25, 50, 75 and 90 percent count, each once per page. */
export const SCROLL_MILESTONES = [25, 50, 75, 90] as const;

/** How far down the page the bottom of the viewport is, 0 to 100. */
export function scrollPercent(scrollTop: number, viewportHeight: number, documentHeight: number): number {
  if (documentHeight <= 0) return 0;
  if (documentHeight <= viewportHeight) return 100;
  return Math.max(0, Math.min(100, ((scrollTop + viewportHeight) / documentHeight) * 100));
}

export interface ScrollTracker {
  /** Measures and reports every milestone newly passed; returns them. */
  check(): number[];
  reached(): number[];
}

/**
 * `onMilestone` may return false (the event was refused, e.g. no consent yet): the milestone
 * then stays open and is reported at the next scroll after the visitor accepts.
 */
export function createScrollTracker(measure: () => number, onMilestone: (percent: number) => boolean | void): ScrollTracker {
  const reached = new Set<number>();
  return {
    check() {
      const pct = measure();
      const fresh: number[] = [];
      for (const m of SCROLL_MILESTONES) {
        if (pct < m || reached.has(m)) continue;
        if (onMilestone(m) === false) break;
        reached.add(m);
        fresh.push(m);
      }
      return fresh;
    },
    reached: () => [...reached].sort((a, b) => a - b),
  };
}

/** Listens to the window's scroll (passive, at most once per animation frame). Returns the remover. */
export function installScrollTracking(win: Window, onMilestone: (percent: number) => boolean | void): () => void {
  const doc = win.document.documentElement;
  const tracker = createScrollTracker(
    () => scrollPercent(win.scrollY, win.innerHeight, Math.max(doc.scrollHeight, win.document.body?.scrollHeight ?? 0)),
    onMilestone,
  );
  let queued = false;
  const onScroll = () => {
    if (queued) return;
    queued = true;
    const run = () => {
      queued = false;
      tracker.check();
    };
    if (typeof win.requestAnimationFrame === 'function') win.requestAnimationFrame(run);
    else setTimeout(run, 0);
  };
  win.addEventListener('scroll', onScroll, { passive: true });
  return () => win.removeEventListener('scroll', onScroll);
}
