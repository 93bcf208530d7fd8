/**
 * Error boundaries at each level of seed 001 §8 (and seed 000 §2 for the calculator): the
 * app ('Something went wrong' with an error id, Reload Page, Go Home), a page ('Page Error',
 * Try Again, Go Home), a section (its message with Retry) and the calculator ('Calculator
 * Error', Try Again). Each failure is reported with its level and id.
 */
import { Component, type ReactNode } from 'react';
import { reportError } from '../lib/monitoring.js';

interface Props {
  children: ReactNode;
  fallback: (error: Error, reset: () => void, errorId: string) => ReactNode;
  component?: string;
}
interface State {
  error: Error | null;
  errorId: string;
}

/** A short id the visitor can quote (also sent with the report). */
export function newErrorId(): string {
  const c = globalThis.crypto;
  const raw = c && 'randomUUID' in c ? c.randomUUID() : Math.random().toString(16).slice(2) + Date.now().toString(16);
  return raw.replace(/-/g, '').slice(0, 10).toUpperCase();
}

export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, errorId: '' };
  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error, errorId: newErrorId() };
  }
  override componentDidCatch(error: Error): void {
    reportError(error, { component: this.props.component ?? 'property-tax-calculator', errorId: this.state.errorId });
  }
  reset = () => this.setState({ error: null, errorId: '' });
  override render() {
    return this.state.error ? this.props.fallback(this.state.error, this.reset, this.state.errorId) : this.props.children;
  }
}

/**
 * Test hook: with `?__throw=1` in the URL the calculator throws while rendering (`app`,
 * `page` or `section` for the other levels), so each error screen can be seen; 'Try
 * Again' / 'Retry' disarms the probe and renders the part again. (It keeps throwing until
 * then, because React retries a failed render once by itself.)
 */
let disarmed = false;
export function ThrowProbe({ level = '1' }: { level?: '1' | 'app' | 'page' | 'section' }) {
  if (!disarmed && typeof location !== 'undefined' && new URLSearchParams(location.search).get('__throw') === level) {
    throw new Error(`Test error requested with ?__throw=${level}`);
  }
  return null;
}
export function disarmThrowProbe(disarm = true): void {
  disarmed = disarm;
}
