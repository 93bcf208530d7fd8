/**
 * A term a layperson may not know, with its explanation in a tooltip (seed 001 §9, issue 24):
 * it opens 700 ms after the pointer rests on it or focus reaches it, at once when another
 * tooltip closed less than 300 ms before (moving along a row of terms), and at once on a tap
 * or Enter/Space; Escape, leaving or blurring close it. The term is a button, so keyboards and
 * touch reach it; the tooltip is tied to it with aria-describedby while open.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_MS = 300;
/** When the last tooltip closed (shared by every term on the page). */
let lastClosed = -Infinity;

export function Term({ children, tip, testId }: { children: ReactNode; tip: string; testId?: string }) {
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const id = useId();
  useEffect(() => () => clearTimeout(timer.current), []);
  const show = (now = false) => {
    clearTimeout(timer.current);
    const delay = now || Date.now() - lastClosed < TOOLTIP_SKIP_MS ? 0 : TOOLTIP_DELAY_MS;
    timer.current = setTimeout(() => setOpen(true), delay);
  };
  const hide = () => {
    clearTimeout(timer.current);
    setOpen((was) => {
      if (was) lastClosed = Date.now();
      return false;
    });
  };
  return (
    <span className="term">
      <button
        type="button"
        className="term-button"
        aria-describedby={open ? id : undefined}
        data-testid={testId}
        onMouseEnter={() => show()}
        onMouseLeave={hide}
        onFocus={() => show()}
        onBlur={hide}
        onClick={() => (open ? hide() : show(true))}
        onKeyDown={(e) => {
          if (e.key === 'Escape') hide();
        }}
      >
        {children}
      </button>
      {open && (
        <span role="tooltip" id={id} className="tooltip" data-testid={testId ? `${testId}-tip` : undefined}>
          {tip}
        </span>
      )}
    </span>
  );
}
