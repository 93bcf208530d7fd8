/**
 * Error reporting, analytics events and the tax-calculation log. Reporting and analytics
 * are lib/telemetry (Sentry only with VITE_SENTRY_DSN, analytics only with consent); the
 * log is kept here for tests and tooling.
 */
import { getTelemetry } from './telemetry/index.js';

/** An error for the error reporter (lib/telemetry: Sentry only when a DSN is configured). */
export function reportError(e: unknown, extra?: Record<string, unknown>): void {
  getTelemetry().reportError(e, extra);
}

export interface LogEntry {
  level: 'info' | 'error';
  message: string;
  timestamp: string;
  [extra: string]: unknown;
}
const logListeners: Array<(e: LogEntry) => void> = [];
/** The log kept for tests and tooling (window.__ptaxLog). */
export const taxLog: LogEntry[] = [];

/** Seed 000 §4: 'Tax calculation' plus a status word, ISO timestamp and extras; 'failed' at error level. */
export function logTaxCalculation(status: string, extras: Record<string, unknown> = {}): LogEntry {
  const entry: LogEntry = {
    ...extras,
    level: status === 'failed' ? 'error' : 'info',
    message: `Tax calculation ${status}`,
    timestamp: new Date().toISOString(),
  };
  taxLog.push(entry);
  if (taxLog.length > 50) taxLog.shift();
  if (entry.level === 'error') console.error(entry.message, entry);
  else console.info(entry.message, entry);
  for (const l of logListeners) l(entry);
  return entry;
}

/** An analytics event (lib/telemetry: only with the visitor's consent, to window.dataLayer by default). */
export function track(event: string, payload: Record<string, unknown> = {}): void {
  getTelemetry().track(event, payload);
}
