/**
 * Error reporting and the tax-calculation log. Sentry is optional: it is loaded (its own
 * chunk) only when VITE_SENTRY_DSN is set, after the page is up, so it costs nothing in the
 * first load. Filters and sampling follow seed 000 §8/§9.
 */
type Sentry = typeof import('@sentry/react');
let sentry: Sentry | null = null;
const pending: Array<[unknown, Record<string, unknown> | undefined]> = [];

export function initMonitoring(state: string): void {
  const dsn = import.meta.env.VITE_SENTRY_DSN as string | undefined;
  if (!dsn) return;
  const start = () => {
    import('@sentry/react').then((S) => {
      S.init({
        dsn,
        environment: 'production',
        release: `ptax-${state.toLowerCase()}@${location.host}`,
        tracesSampleRate: 0.1,
        sampleRate: 1,
        tracePropagationTargets: ['localhost', /^\//],
        beforeBreadcrumb: (b) => (b.category === 'console' ? null : b),
        beforeSend(event, hint) {
          const text = `${(hint.originalException as Error | undefined)?.message ?? ''} ${event.message ?? ''}`;
          if (/structured-?data|ld\+json/i.test(JSON.stringify(event.contexts ?? {})) && /toLowerCase|undefined is not an object/.test(text)) return null;
          if (/password|ssn/i.test(text)) return null;
          if (event.level === 'debug' || (event.level as string) === 'trace') return null;
          return event;
        },
        initialScope: { tags: { state, domain: location.host, component: 'property-tax-calculator', user_segment: 'property-tax-users' } },
      });
      sentry = S;
      for (const [e, extra] of pending.splice(0)) S.captureException(e, { extra });
    }).catch(() => { /* monitoring is optional */ });
  };
  if (document.readyState === 'complete') setTimeout(start, 0);
  else addEventListener('load', () => setTimeout(start, 0), { once: true });
}

export function reportError(e: unknown, extra?: Record<string, unknown>): void {
  if (sentry) sentry.captureException(e, { extra });
  else if (import.meta.env.VITE_SENTRY_DSN) pending.push([e, extra]);
}

export interface LogEntry { level: 'info' | 'error'; message: string; timestamp: string; [extra: string]: unknown }
const logListeners: Array<(e: LogEntry) => void> = [];
/** The log kept for tests and tooling (window.__ptaxLog). */
export const taxLog: LogEntry[] = [];

/** Seed 000 §4: 'Tax calculation' plus a status word, ISO timestamp and extras; 'failed' at error level. */
export function logTaxCalculation(status: string, extras: Record<string, unknown> = {}): LogEntry {
  const entry: LogEntry = { ...extras, level: status === 'failed' ? 'error' : 'info', message: `Tax calculation ${status}`, timestamp: new Date().toISOString() };
  taxLog.push(entry);
  if (taxLog.length > 50) taxLog.shift();
  if (entry.level === 'error') console.error(entry.message, entry);
  else console.info(entry.message, entry);
  for (const l of logListeners) l(entry);
  return entry;
}

/** Analytics events (seed 000 §7): pushed to a dataLayer if the host page has one; nothing is sent by ptax itself. */
export function track(event: string, payload: Record<string, unknown> = {}): void {
  const w = globalThis as unknown as { dataLayer?: unknown[] };
  if (Array.isArray(w.dataLayer)) w.dataLayer.push({ event, ...payload });
}
