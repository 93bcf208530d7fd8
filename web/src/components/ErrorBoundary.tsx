/** Rendering failures inside the calculator show 'Calculator Error' with the message and 'Try Again' (seed 000 §2, §8). */
import { Component, type ReactNode } from 'react';
import { reportError } from '../lib/monitoring.js';

interface Props { children: ReactNode; fallback: (error: Error, reset: () => void) => ReactNode }
interface State { error: Error | null }

export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };
  static getDerivedStateFromError(error: Error): State {
    return { error };
  }
  override componentDidCatch(error: Error): void {
    reportError(error, { component: 'property-tax-calculator' });
  }
  reset = () => this.setState({ error: null });
  override render() {
    return this.state.error ? this.props.fallback(this.state.error, this.reset) : this.props.children;
  }
}

/**
 * Test hook: with `?__throw=1` in the URL the calculator throws while rendering, so the
 * error panel can be seen; 'Try Again' disarms the probe and renders the calculator again.
 * (It keeps throwing until then, because React retries a failed render once by itself.)
 */
let disarmed = false;
export function ThrowProbe() {
  if (!disarmed && typeof location !== 'undefined' && new URLSearchParams(location.search).get('__throw') === '1') {
    throw new Error('Test error requested with ?__throw=1');
  }
  return null;
}
export function disarmThrowProbe(disarm = true): void {
  disarmed = disarm;
}
