/**
 * Error reporting, analytics events and the tax-calculation log. Reporting and analytics
 * are lib/telemetry (Sentry only with VITE_SENTRY_DSN, analytics only with consent); the
 * log is kept here for tests and tooling.
 */
import type { Telemetry } from './telemetry/index.js';

/**
 * lib/telemetry is its own chunk, loaded after the page is up (main.tsx); until then the
 * calls wait here (at most 100), then go to it in order.
 */
let telemetry: Telemetry | null = null;
const waiting: Array<(t: Telemetry) => void> = [];
export function setTelemetry(t: Telemetry): void {
  telemetry = t;
  for (const f of waiting.splice(0)) f(t);
}
function whenReady(f: (t: Telemetry) => void): void {
  if (telemetry) f(telemetry);
  else if (waiting.length < 100) waiting.push(f);
}

/** The calculator's analytics events (lib/telemetry: only with the visitor's consent). */
export const events = {
  calculationStarted: (county: string) => whenReady((t) => t.calculationStarted(county)),
  calculationComplete: (x: Parameters<Telemetry['calculationComplete']>[0]) => whenReady((t) => t.calculationComplete(x)),
  calculationFailed: (county: string) => whenReady((t) => t.calculationFailed(county)),
  wizardStarted: () => whenReady((t) => t.wizardStarted()),
  wizardStep: (step: number, value: number) => whenReady((t) => t.wizardStep(step, value)),
};

/** An error for the error reporter (lib/telemetry: Sentry only when a DSN is configured). */
export function reportError(e: unknown, extra?: Record<string, unknown>): void {
  whenReady((t) => t.reportError(e, extra));
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
  whenReady((t) => t.track(event, payload));
}
