/**
 * Telemetry entry: `initTelemetry({state, host, dsn?})`, called once by main.tsx.
 *
 * - Analytics (analytics.ts) pushes to window.dataLayer only, and only after the visitor has
 *   accepted analytics (consent.ts, the ConsentBanner). Installed at once (they push nothing
 *   without consent): the fetch wrapper, the uncaught-error handlers, scroll milestones and
 *   engagement. On acceptance (now or later): the visit is recorded (new/returning), a
 *   page_view is pushed, web-vitals is loaded. On decline: the session keys are removed.
 * - Error reporting (sentry.ts) only with a DSN, loaded after the page's load event.
 *
 * Components use `getTelemetry()` (a no-op until initTelemetry has run).
 */
import { analytics as defaultAnalytics, createAnalytics, pageTypeOf, type Analytics, type EventParams } from './analytics.js';
import { analyticsAllowed, onConsentChange } from './consent.js';
import { installEngagementTracking } from './engagement.js';
import { installErrorHandlers } from './errors.js';
import { calculationCompleteAllowed, calculationCompletePayload, EVENTS, type CalculationComplete } from './events.js';
import { installFetchWrapper } from './fetchWrapper.js';
import { installScrollTracking } from './scroll.js';
import { expectSentry, initSentry, importSentry, reportError as sentryReportError } from './sentry.js';
import { clearSession, recordCalculation, recordVisit, type UserType } from './session.js';
import { safeLocalStorage, type KeyValueStore } from './store.js';
import { wizardStepTracked } from './tiers.js';
import { importWebVitals, loadWebVitals, type VitalMetric } from './webVitals.js';

export interface TelemetryOptions {
  /** Edition state code (NY, TX, CA, FL, HUB). */
  state: string;
  /** location.host. */
  host: string;
  /** Sentry DSN; none (the default) means no error reporting at all. */
  dsn?: string;
  /** Host names of the sibling editions, for Sentry's trace headers. */
  siblings?: string[];
  lang?: 'en' | 'es';
  pathname?: string;
  /* Injection points for tests. */
  win?: Window;
  store?: KeyValueStore;
  analytics?: Analytics;
  importSentry?: typeof importSentry;
  importWebVitals?: typeof importWebVitals;
  userAgent?: string;
}

export type CalculationInput = Omit<CalculationComplete, 'state'> & { state?: string };

export interface Telemetry {
  track(name: string, params?: EventParams): boolean;
  calculationStarted(county: string): boolean;
  /** Records the calculation in the session (with consent) and pushes tax_calculated when §5 allows. */
  calculationComplete(c: CalculationInput): boolean;
  calculationFailed(county: string): boolean;
  wizardStarted(): boolean;
  /** `step` counted from 1; pushed only when the home value is above 50,000. */
  wizardStep(step: number, homeValue: number): boolean;
  reportError(e: unknown, extra?: Record<string, unknown>): void;
  /** Resolves when Sentry has been loaded (or was not configured). */
  readonly sentryReady: Promise<unknown>;
  dispose(): void;
}

const NOOP: Telemetry = {
  track: () => false,
  calculationStarted: () => false,
  calculationComplete: () => false,
  calculationFailed: () => false,
  wizardStarted: () => false,
  wizardStep: () => false,
  reportError: () => {},
  sentryReady: Promise.resolve(null),
  dispose: () => {},
};

let current: Telemetry | null = null;

/** The page's telemetry, or a no-op before initTelemetry (tests, pre-rendering). */
export function getTelemetry(): Telemetry {
  return current ?? NOOP;
}

const round = (m: VitalMetric): number => (m.name === 'CLS' ? Math.round(m.value * 1000) / 1000 : Math.round(m.value));

function afterLoad(win: Window, run: () => void): void {
  if (win.document.readyState === 'complete') setTimeout(run, 0);
  else win.addEventListener('load', () => setTimeout(run, 0), { once: true });
}

export function initTelemetry(opts: TelemetryOptions): Telemetry {
  if (current) return current;
  const win = opts.win ?? (globalThis as unknown as Window);
  const store = opts.store ?? safeLocalStorage;
  const a = opts.analytics ?? (opts.store ? createAnalytics({ consented: () => analyticsAllowed(store) }) : defaultAnalytics);
  const state = opts.state.toUpperCase();
  const pathname = opts.pathname ?? win.location?.pathname ?? '/';
  const pageType = pageTypeOf(pathname);
  const consented = () => a.consented();
  a.setContext({ state, ...(opts.lang ? { language: opts.lang } : {}) });

  const track = (name: string, params?: EventParams) => a.track(name, params);
  const removers: Array<() => void> = [];
  const dsn = opts.dsn?.trim();
  const dsnHost = dsn
    ? (() => {
        try {
          return new URL(dsn).host;
        } catch {
          return '';
        }
      })()
    : '';

  removers.push(installFetchWrapper(win, (name, params) => void track(name, params), { ignore: (u) => dsnHost !== '' && u.includes(dsnHost) }));
  removers.push(installErrorHandlers(win, (p) => track(EVENTS.exception, p)));
  removers.push(installScrollTracking(win, (percent) => track(EVENTS.scrollDepth, { percent, page_type: pageType })));
  removers.push(installEngagementTracking(win, (seconds) => void track(EVENTS.engagement, { engaged_seconds: seconds, page_type: pageType })));

  let userType: UserType | undefined;
  let started = false;
  const start = () => {
    if (started || !consented()) return;
    started = true;
    userType = recordVisit(store);
    track(EVENTS.pageView, { page_type: pageType, page_path: pathname, user_type: userType });
    void loadWebVitals((m) => void track(EVENTS.webVitals, { metric_name: m.name, value: round(m), rating: m.rating, metric_id: m.id }), {
      importer: opts.importWebVitals ?? importWebVitals,
      userAgent: opts.userAgent,
    });
  };
  start();
  removers.push(
    onConsentChange((c) => {
      if (c.analytics) start();
      else clearSession(store);
    }),
  );

  if (dsn) expectSentry();
  const sentryReady = dsn
    ? new Promise((resolve) => afterLoad(win, () => void initSentry({ dsn, state, host: opts.host, siblings: opts.siblings }, opts.importSentry).then(resolve)))
    : Promise.resolve(null);

  const t: Telemetry = {
    track,
    calculationStarted: (county) => track(EVENTS.calculatorStarted, { county }),
    calculationComplete(c) {
      const input = { ...c, state: c.state ?? state };
      // Seed 001 §5 first; nothing is recorded or pushed without consent.
      if (!calculationCompleteAllowed(input) || !consented()) return false;
      const session = recordCalculation(input.state, input.propertyValue, store);
      return track(EVENTS.calculationComplete, calculationCompletePayload(input, session, userType)!);
    },
    calculationFailed: (county) => track(EVENTS.calculationFailed, { county }),
    wizardStarted: () => track(EVENTS.wizardStarted),
    wizardStep: (step, homeValue) => (wizardStepTracked(homeValue) ? track(EVENTS.wizardStep, { step }) : false),
    reportError: (e, extra) => sentryReportError(e, extra),
    sentryReady,
    dispose() {
      for (const r of removers.splice(0)) r();
      if (current === t) current = null;
    },
  };
  current = t;
  return t;
}

export { CONSENT_KEY, readConsent, writeConsent, onConsentChange, analyticsAllowed } from './consent.js';
export type { Consent } from './consent.js';
export { EVENTS } from './events.js';
