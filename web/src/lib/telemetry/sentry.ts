/**
 * Error reporting with @sentry/react, only when a DSN is configured. The SDK is loaded by
 * dynamic import, so without a DSN it is not even downloaded (its own chunk, never in the
 * first load), and nothing leaves the browser.
 *
 * Settings (seed 000 §9, seed 001 §3/§9): 10% of traces, every error, environment
 * production, release from the state code and the host, tags state / domain / component
 * property-tax-calculator / user segment property-tax-users, trace headers only to the
 * edition's own host and its sibling editions' hosts.
 *
 * Filters (seed 000 §8, seed 001 §8), each a pure function below with its own test:
 * structured-data noise, console breadcrumbs, logs mentioning password or ssn, debug and
 * trace logs, console capture at warn and error only.
 *
 * Privacy (deliberately against seed 001 §9's "personal data sending enabled"): the SDK's data
 * collection is off in every category (NO_PERSONAL_DATA; v11's replacement of sendDefaultPii)
 * and every event and log is scrubbed of property data (no user, cookies, query
 * strings, request bodies, extras outside a short list, amounts or e-mail addresses in text).
 */
import type { Breadcrumb, BrowserOptions, ErrorEvent, EventHint, Log } from '@sentry/react';

type SentryModule = typeof import('@sentry/react');

export const TRACES_SAMPLE_RATE = 0.1;
export const ERROR_SAMPLE_RATE = 1;
export const ENVIRONMENT = 'production';
export const COMPONENT = 'property-tax-calculator';
export const USER_SEGMENT = 'property-tax-users';
/** Console levels the structured logs capture. */
export const CONSOLE_LOG_LEVELS = ['warn', 'error'] as const;
/** The development host names of the editions (web/server/config.ts DEFAULT_SITES) and the hub's. */
export const DEV_HOSTS = ['localhost', '127.0.0.1', 'ny.localhost', 'tx.localhost', 'ca.localhost', 'fl.localhost'];

export interface SentryConfig {
  dsn: string;
  state: string;
  /** location.host of the page (with its port, if any). */
  host: string;
  /** Host names of the sibling editions (production); the *.localhost names are added in development. */
  siblings?: string[];
}

const hostnameOf = (host: string): string => host.replace(/:\d+$/, '').toLowerCase();
const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Release label: `ptax-<state>@<host>`. */
export const releaseOf = (state: string, host: string): string => `ptax-${state.toLowerCase()}@${host}`;

export function tagsOf(state: string, host: string): Record<string, string> {
  return { state: state.toUpperCase(), domain: host, component: COMPONENT, user_segment: USER_SEGMENT };
}

/** The hosts that get trace headers: the edition's own, its siblings, and in development the *.localhost editions. */
export function traceHosts(host: string, siblings: string[] = []): string[] {
  const own = hostnameOf(host);
  const dev = own === 'localhost' || own === '127.0.0.1' || own.endsWith('.localhost');
  return [...new Set([own, ...siblings.map(hostnameOf), ...(dev ? DEV_HOSTS : [])])].filter(Boolean);
}

/** Same-origin relative URLs, and absolute URLs on one of `traceHosts` (any port, http or https). */
export function tracePropagationTargets(host: string, siblings: string[] = []): RegExp[] {
  return [/^\/(?!\/)/, ...traceHosts(host, siblings).map((h) => new RegExp(`^https?://${escapeRe(h)}(:\\d+)?(/|$)`, 'i'))];
}

/* ---------- filters (pure) ---------- */

const STRUCTURED_DATA = /structured[-_ ]?data|ld\+json|json-?ld/i;
const LOWERCASE_OR_UNDEFINED = /toLowerCase|undefined is not an object/i;
const SECRET_WORDS = /password|\bssn\b/i;

function errorText(event: ErrorEvent, hint?: EventHint): string {
  const parts: string[] = [];
  if (event.message) parts.push(event.message);
  for (const ex of event.exception?.values ?? []) parts.push(`${ex.type ?? ''}: ${ex.value ?? ''}`);
  const orig = hint?.originalException;
  if (orig instanceof Error) parts.push(orig.message);
  else if (typeof orig === 'string') parts.push(orig);
  return parts.join('\n');
}

/** Seed 000/001 §8: a structured-data context key together with a toLowerCase or 'undefined is not an object' failure. */
export function isStructuredDataNoise(event: ErrorEvent, hint?: EventHint): boolean {
  const context = JSON.stringify([Object.keys(event.contexts ?? {}), event.contexts ?? {}, event.extra ?? {}, event.tags ?? {}]);
  return STRUCTURED_DATA.test(context) && LOWERCASE_OR_UNDEFINED.test(errorText(event, hint));
}

/** Seed §8: console breadcrumbs are dropped. */
export function filterBreadcrumb(b: Breadcrumb): Breadcrumb | null {
  if (b.category === 'console') return null;
  return scrubBreadcrumb(b);
}

/** Seed §8: debug and trace logs, and logs whose message contains password or ssn, are dropped. */
export function keepLog(log: Pick<Log, 'level' | 'message'>): boolean {
  if (log.level === 'debug' || log.level === 'trace') return false;
  return !SECRET_WORDS.test(String(log.message));
}

/** The same rule for events (captureMessage at debug level, an error text with password or ssn). */
export function keepEvent(event: ErrorEvent, hint?: EventHint): boolean {
  if (event.level === 'debug' || (event.level as string | undefined) === 'trace') return false;
  if (SECRET_WORDS.test(errorText(event, hint))) return false;
  return !isStructuredDataNoise(event, hint);
}

/* ---------- privacy scrubbing (pure) ---------- */

/** Amounts (4+ digits, or with thousands separators) and e-mail addresses become placeholders. */
export function redactText(s: string): string {
  return s.replace(/[^\s@<>()"']+@[^\s@<>()"']+\.[a-z]{2,}/gi, '[email]').replace(/\$?\d{1,3}(?:,\d{3})+(?:\.\d+)?|\$?\d{4,}(?:\.\d+)?/g, '[number]');
}

/** A URL without its query and fragment (calculator inputs never travel in a report). */
export function stripQuery(url: string): string {
  return url.replace(/[?#].*$/, '');
}

const EXTRA_KEYS = new Set(['component', 'where', 'boundary', 'page_type', 'status']);
const CONTEXT_KEYS = new Set(['trace', 'os', 'browser', 'device', 'culture', 'runtime', 'app', 'react', 'response']);
const URL_FIELDS = ['url', 'from', 'to'];

export function scrubBreadcrumb(b: Breadcrumb): Breadcrumb {
  const out: Breadcrumb = { ...b };
  if (out.message) out.message = redactText(out.category === 'navigation' ? stripQuery(out.message) : out.message);
  if (out.data) {
    const data: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(out.data)) {
      if (URL_FIELDS.includes(k) && typeof v === 'string') data[k] = stripQuery(v);
      else if (k === 'method' || k === 'status_code' || k === 'level') data[k] = v;
    }
    out.data = data;
  }
  return out;
}

/** No user, no cookies or request body, no query string, extras and contexts from short lists, amounts redacted. */
export function scrubEvent(event: ErrorEvent): ErrorEvent {
  const out: ErrorEvent = { ...event };
  delete out.user;
  if (out.request) {
    const ua = out.request.headers?.['User-Agent'];
    out.request = { ...(out.request.url ? { url: stripQuery(out.request.url) } : {}), ...(ua ? { headers: { 'User-Agent': ua } } : {}) };
  }
  if (out.extra)
    out.extra = Object.fromEntries(
      Object.entries(out.extra).filter(([k, v]) => EXTRA_KEYS.has(k) && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')),
    );
  if (out.contexts) out.contexts = Object.fromEntries(Object.entries(out.contexts).filter(([k]) => CONTEXT_KEYS.has(k)));
  if (out.message) out.message = redactText(out.message);
  if (out.transaction) out.transaction = stripQuery(out.transaction);
  if (out.exception?.values)
    out.exception = { ...out.exception, values: out.exception.values.map((v) => ({ ...v, ...(v.value ? { value: redactText(v.value) } : {}) })) };
  if (out.breadcrumbs) out.breadcrumbs = out.breadcrumbs.filter((b) => b.category !== 'console').map(scrubBreadcrumb);
  return out;
}

/** A log keeps its template (not the console arguments) and only the SDK's own attributes. */
export function scrubLog(log: Log): Log {
  const attrs = log.attributes ?? {};
  const template = attrs['sentry.message.template'];
  const attributes = Object.fromEntries(Object.entries(attrs).filter(([k]) => k.startsWith('sentry.') && !k.startsWith('sentry.message.parameter.')));
  return { ...log, message: redactText(typeof template === 'string' ? template : String(log.message)), attributes };
}

/* ---------- options and initialisation ---------- */

export function beforeSend(event: ErrorEvent, hint: EventHint): ErrorEvent | null {
  return keepEvent(event, hint) ? scrubEvent(event) : null;
}

export function beforeSendLog(log: Log): Log | null {
  return keepLog(log) ? scrubLog(log) : null;
}

/**
 * @sentry/react 11 has no `sendDefaultPii`: what it collects is `dataCollection`, and its
 * defaults collect user info, cookies, headers, bodies and query strings. Every category is off.
 */
export const NO_PERSONAL_DATA = {
  userInfo: false,
  cookies: false,
  httpHeaders: false,
  httpBodies: [],
  urlQueryParams: false,
  graphQL: { document: false, variables: false },
  genAI: { inputs: false, outputs: false },
  mcp: { inputs: false, outputs: false },
  databaseQueryData: false,
  queues: false,
  stackFrameVariables: false,
} satisfies NonNullable<BrowserOptions['dataCollection']>;

/** Everything but the integrations (which need the loaded SDK). */
export function sentryOptions(cfg: SentryConfig): BrowserOptions {
  return {
    dsn: cfg.dsn,
    environment: ENVIRONMENT,
    release: releaseOf(cfg.state, cfg.host),
    sampleRate: ERROR_SAMPLE_RATE,
    tracesSampleRate: TRACES_SAMPLE_RATE,
    tracePropagationTargets: tracePropagationTargets(cfg.host, cfg.siblings),
    dataCollection: NO_PERSONAL_DATA,
    beforeSend,
    beforeSendLog,
    beforeBreadcrumb: (b) => filterBreadcrumb(b),
    initialScope: { tags: tagsOf(cfg.state, cfg.host) },
  };
}

let sdk: SentryModule | null = null;
let loading = false;
const pending: Array<[unknown, Record<string, unknown> | undefined]> = [];
const MAX_PENDING = 20;

export const importSentry = (): Promise<SentryModule> => import('@sentry/react');

/**
 * Loads and starts the SDK when `cfg.dsn` is set; resolves to the module, or null without a
 * DSN or when the load fails (error reporting is optional).
 */
export async function initSentry(
  cfg: Partial<SentryConfig> & { state: string; host: string },
  importer: () => Promise<SentryModule> = importSentry,
): Promise<SentryModule | null> {
  const dsn = cfg.dsn?.trim();
  if (!dsn) return null;
  loading = true;
  try {
    const S = await importer();
    S.init({
      ...sentryOptions({ ...cfg, dsn }),
      integrations: [S.browserTracingIntegration(), S.consoleLoggingIntegration({ levels: [...CONSOLE_LOG_LEVELS] })],
    });
    sdk = S;
    for (const [e, extra] of pending.splice(0)) S.captureException(e, { extra });
    return S;
  } catch {
    pending.length = 0;
    return null;
  } finally {
    loading = false;
  }
}

/** Errors reported from now on are queued until initSentry has run (called when a DSN is configured, before the page's load event). */
export function expectSentry(): void {
  if (!sdk) loading = true;
}

/** Reports an error: at once when the SDK is up, queued while it loads, dropped without a DSN. */
export function reportError(e: unknown, extra?: Record<string, unknown>): void {
  if (sdk) sdk.captureException(e, { extra });
  else if (loading && pending.length < MAX_PENDING) pending.push([e, extra]);
}

/** For tests: forget the loaded SDK. */
export function resetSentryForTests(): void {
  sdk = null;
  loading = false;
  pending.length = 0;
}
