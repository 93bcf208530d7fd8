// @vitest-environment happy-dom
/** Tooltips (seed 001 §9): 700 ms to open, no delay within 300 ms of one closing, tap and keyboard. */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Term } from './Term.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('Term', () => {
  it('opens 700 ms after the pointer rests on it; a second term within 300 ms of closing opens at once; Escape closes', () => {
    render(
      <p>
        <Term tip="A" testId="a">
          a
        </Term>
        <Term tip="B" testId="b">
          b
        </Term>
      </p>,
    );
    fireEvent.mouseEnter(screen.getByTestId('a'));
    act(() => void vi.advanceTimersByTime(699));
    expect(screen.queryByRole('tooltip')).toBeNull();
    act(() => void vi.advanceTimersByTime(1));
    expect(screen.getByRole('tooltip').textContent).toBe('A');
    expect(screen.getByTestId('a').getAttribute('aria-describedby')).toBe(screen.getByRole('tooltip').id);
    fireEvent.mouseLeave(screen.getByTestId('a'));
    expect(screen.queryByRole('tooltip')).toBeNull();
    act(() => void vi.advanceTimersByTime(200));
    fireEvent.mouseEnter(screen.getByTestId('b'));
    act(() => void vi.advanceTimersByTime(0));
    expect(screen.getByRole('tooltip').textContent).toBe('B');
    fireEvent.keyDown(screen.getByTestId('b'), { key: 'Escape' });
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('a tap (click) opens it at once and a second tap closes it', () => {
    render(
      <Term tip="C" testId="c">
        c
      </Term>,
    );
    act(() => void vi.advanceTimersByTime(1000));
    fireEvent.click(screen.getByTestId('c'));
    act(() => void vi.advanceTimersByTime(0));
    expect(screen.getByRole('tooltip').textContent).toBe('C');
    fireEvent.click(screen.getByTestId('c'));
    expect(screen.queryByRole('tooltip')).toBeNull();
  });
});
