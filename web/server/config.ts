import { dirname, join, resolve } from 'node:path';
import { DEFAULT_GROUP_COMMIT, type GroupCommitOptions } from './db/group-commit.js';
import type { LogStream } from './http/logging.js';
import { EDITION_CODES, isEditionCode, STATES, type StateCode } from './validation/states.js';

/**
 * Which edition a host name serves: lower-case host names without port. Hosts not in the map
 * get the hub (HUB).
 */
export type SiteMap = ReadonlyMap<string, StateCode>;

/** The development map: one `*.localhost` name per edition (the bundle's states of tier edition); 127.0.0.1, localhost and the rest get the hub. */
export const DEFAULT_SITES: SiteMap = new Map<string, StateCode>(
  EDITION_CODES.filter((code) => code !== STATES.hub).map((code) => [`${code.toLowerCase()}.localhost`, code]),
);

/** The edition every host that is not in the map gets. */
export const FALLBACK_EDITION: StateCode = STATES.hub;

/** What buildServer needs. Relative paths are relative to process.cwd() (the repo root). */
export interface ServerOptions {
  /** SQLite file; its folder is created. */
  dbPath: string;
  /**
   * Production build of the web app: one complete site per edition in `<webDir>/ny`, `tx`,
   * `ca`, `fl` and `hub`. An edition whose build is missing answers its pages with 503.
   */
  webDir: string;
  /** Host name -> edition; see editionForHost. */
  sites: SiteMap;
  /** POSTs per minute allowed per client address, shared by the form routes. */
  rateLimitPerMinute: number;
  /** pino level: fatal, error, warn, info, debug, trace or silent. */
  logLevel: string;
  /** Where log lines go (tests capture them); stdout when absent. */
  logStream?: LogStream | undefined;
  groupCommit: GroupCommitOptions;
  /** SMTP relay (`smtp://user:pass@host:587`, `smtps://…`); without it mail is written as .eml files to mailDir. */
  smtpUrl?: string | undefined;
  /** Where .eml files go when there is no relay; default: `mail/` next to the database file. */
  mailDir?: string | undefined;
  /** The From of every mail. */
  mailFrom: string;
  /** Base of the links in mails (`https://www.example.org`); default: the address the server listens on. */
  publicUrl?: string | undefined;
  /** Confirmation and deletion links expire after this many days. */
  tokenDays: number;
  /** Sign-ups never confirmed are deleted after this many days. */
  pendingDays: number;
  /** Contact messages are deleted after this many days. */
  retentionDays: number;
  /** Most mails queued per address and hour. */
  mailsPerAddressPerHour: number;
  /** Outbox: first retry delay (doubling up to mailRetryMaxMs), SMTP timeout, idle poll interval. */
  mailRetryBaseMs: number;
  mailRetryMaxMs: number;
  mailTimeoutMs: number;
  mailPollMs: number;
  /** Which peers may name the client (X-Forwarded-For/-Proto): false, a hop count, or addresses/CIDRs. */
  trustProxy: TrustProxy;
  /** Node HTTP server limits: whole request, headers, idle keep-alive, idle socket. */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  socketTimeoutMs: number;
}

/** PTAX_TRUST_PROXY: off, the number of proxy hops in front, or the proxies' addresses/CIDRs. */
export type TrustProxy = false | number | string[];

export const DEFAULT_OPTIONS: ServerOptions = {
  dbPath: './data/ptax.sqlite',
  webDir: 'web/dist',
  sites: DEFAULT_SITES,
  rateLimitPerMinute: 30,
  logLevel: 'info',
  groupCommit: DEFAULT_GROUP_COMMIT,
  mailFrom: 'Property tax estimator <no-reply@localhost>',
  tokenDays: 7,
  pendingDays: 30,
  retentionDays: 365,
  mailsPerAddressPerHour: 5,
  mailRetryBaseMs: 5_000,
  mailRetryMaxMs: 3_600_000,
  mailTimeoutMs: 30_000,
  mailPollMs: 5_000,
  trustProxy: false,
  requestTimeoutMs: 10_000,
  headersTimeoutMs: 5_000,
  keepAliveTimeoutMs: 5_000,
  socketTimeoutMs: 10_000,
};

/** Request bodies above this are refused with 413; the largest valid form is far below. */
export const BODY_LIMIT_BYTES = 16 * 1024;

export function resolveServerOptions(options: Partial<ServerOptions>, cwd = process.cwd()): ServerOptions {
  const merged = { ...DEFAULT_OPTIONS, ...withoutUndefined(options) };
  if (!Number.isInteger(merged.rateLimitPerMinute) || merged.rateLimitPerMinute < 1) {
    throw new RangeError(`rateLimitPerMinute must be a positive integer, got ${merged.rateLimitPerMinute}`);
  }
  for (const key of [
    'tokenDays',
    'pendingDays',
    'retentionDays',
    'mailsPerAddressPerHour',
    'mailRetryBaseMs',
    'mailRetryMaxMs',
    'mailTimeoutMs',
    'mailPollMs',
    'requestTimeoutMs',
    'headersTimeoutMs',
    'keepAliveTimeoutMs',
    'socketTimeoutMs',
  ] as const) {
    if (!Number.isInteger(merged[key]) || merged[key] < 1) throw new RangeError(`${key} must be a positive integer, got ${merged[key]}`);
  }
  if (merged.publicUrl !== undefined) parsePublicUrl(merged.publicUrl);
  const dbPath = resolve(cwd, merged.dbPath);
  return {
    ...merged,
    dbPath,
    webDir: resolve(cwd, merged.webDir),
    mailDir: merged.mailDir === undefined ? join(dirname(dbPath), 'mail') : resolve(cwd, merged.mailDir),
  };
}

/** PTAX_PUBLIC_URL: an http(s) origin, no path, query or fragment. */
export function parsePublicUrl(raw: string, name = 'PTAX_PUBLIC_URL'): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RangeError(`${name} must be an http:// or https:// address like https://www.example.org, got "${raw}"`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '') {
    throw new RangeError(`${name} must be an http:// or https:// address like https://www.example.org, got "${raw}"`);
  }
  return url.origin;
}

const IPV4_OR_CIDR = /^(?:\d{1,3}\.){3}\d{1,3}(?:\/\d{1,2})?$/;
const IPV6_OR_CIDR = /^[0-9a-f:.]*:[0-9a-f:.]*(?:\/\d{1,3})?$/i;

/**
 * PTAX_TRUST_PROXY: empty, `0`, `false` or `off`: no proxy (X-Forwarded-* ignored); a number
 * n: trust n hops in front (the client is the n-th address from the right of
 * X-Forwarded-For); else a comma list of proxy addresses or CIDRs (`127.0.0.1,10.0.0.0/8`),
 * or `loopback`, `linklocal`, `uniquelocal`.
 */
export function parseTrustProxy(raw: string, name = 'PTAX_TRUST_PROXY'): TrustProxy {
  const value = raw.trim().toLowerCase();
  if (value === '' || value === '0' || value === 'false' || value === 'off') return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) throw new RangeError(`${name} must be a hop count of at most 10 or a list of addresses, got "${raw}"`);
    return hops;
  }
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of entries) {
    if (entry === 'loopback' || entry === 'linklocal' || entry === 'uniquelocal') continue;
    if (!IPV4_OR_CIDR.test(entry) && !IPV6_OR_CIDR.test(entry)) {
      throw new RangeError(`${name} must be off, a hop count or a list of proxy addresses/CIDRs; "${entry}" is none of these`);
    }
  }
  if (entries.length === 0) throw new RangeError(`${name} must be off, a hop count or a list of proxy addresses/CIDRs, got "${raw}"`);
  return entries;
}

export interface ListenOptions {
  port: number;
  host: string;
}

/**
 * The edition that answers a request, from its Host header value (`request.host`: the Host
 * header, or X-Forwarded-Host only if Fastify's trustProxy were on, which it is not): lower
 * case, port and a trailing dot dropped, looked up in the map; anything else (127.0.0.1,
 * localhost, an unknown name, no Host at all) gets the hub.
 */
export function editionForHost(host: string | undefined, sites: SiteMap): StateCode {
  return sites.get(hostName(host ?? '')) ?? FALLBACK_EDITION;
}

/** `Tx.Localhost:8080` -> `tx.localhost`; `[::1]:8080` -> `[::1]`. */
export function hostName(host: string): string {
  let name = host.trim().toLowerCase();
  if (name.startsWith('[')) {
    const end = name.indexOf(']');
    name = end === -1 ? name : name.slice(0, end + 1);
  } else {
    const colon = name.indexOf(':');
    if (colon !== -1) name = name.slice(0, colon);
  }
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

/** An edition's name in the listing (the state file's English name; the hub: Hub). */
const editionName = (code: StateCode): string => (code === STATES.hub ? 'Hub' : (STATES.names[code]?.en ?? code));

/**
 * The lines main.ts prints once it listens: one URL per host of the map, in edition order,
 * with the port of `address` (the URL the server listens on); the hub, when no host is
 * mapped to it, at `address`'s own host.
 */
export function siteLines(sites: SiteMap, address: string): string[] {
  const listening = new URL(address);
  const port = listening.port === '' ? '' : `:${listening.port}`;
  const rows: [string, string][] = [];
  for (const code of EDITION_CODES) {
    const hosts = [...sites].filter(([, edition]) => edition === code).map(([host]) => host);
    if (code === FALLBACK_EDITION && hosts.length === 0) hosts.push(listening.hostname);
    for (const host of hosts) rows.push([editionName(code), `${listening.protocol}//${host}${port}/`]);
  }
  const width = Math.max(...rows.map(([name]) => name.length)) + 2;
  return ['The calculators (Spanish under /es; API under /api; Ctrl-C to stop):', ...rows.map(([name, url]) => `  ${name.padEnd(width)}${url}`)];
}

const HOST_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

/**
 * PTAX_SITES: `host=CODE` entries separated by commas (spaces around them ignored), e.g.
 * `ny.example.org=NY,tx.example.org=TX,www.example.org=HUB`. Host names are matched without
 * case and without port; CODE is an edition's code (a state of tier edition in the rules, or the hub; any case). The map replaces the
 * default one; hosts it does not list get the hub. Throws a one-line RangeError on a bad entry.
 */
export function parseSites(raw: string, name = 'PTAX_SITES'): SiteMap {
  const sites = new Map<string, StateCode>();
  const expected = `host=CODE entries separated by commas, CODE one of ${EDITION_CODES.join(', ')}`;
  for (const entry of raw.split(',').map((part) => part.trim())) {
    if (entry === '') continue; // a trailing comma
    const equals = entry.indexOf('=');
    if (equals === -1) throw new RangeError(`${name} must be ${expected}; "${entry}" has no "="`);
    const host = entry.slice(0, equals).trim().toLowerCase();
    const code = entry
      .slice(equals + 1)
      .trim()
      .toUpperCase();
    if (!HOST_NAME.test(host) || host.length > 253) {
      throw new RangeError(`${name} must be ${expected}; "${entry}": "${host}" is not a host name (no scheme, port or path)`);
    }
    if (!isEditionCode(code)) throw new RangeError(`${name} must be ${expected}; "${entry}": unknown edition "${code}"`);
    if (sites.has(host)) throw new RangeError(`${name} must be ${expected}; "${host}" is listed twice`);
    sites.set(host, code);
  }
  if (sites.size === 0) throw new RangeError(`${name} must be ${expected}; got "${raw}"`);
  return sites;
}

/**
 * Reads the environment of main.ts: PORT (8080), HOST (127.0.0.1), PTAX_DB, PTAX_WEB_DIR,
 * PTAX_SITES (host=CODE,…; see parseSites), PTAX_RATE_LIMIT (per minute), PTAX_LOG_LEVEL, and the group-commit tuning knobs
 * PTAX_COMMIT_BATCH (rows per transaction, 1 = commit each write alone) and
 * PTAX_COMMIT_DELAY_MS (wait for more writes; 0 = next event-loop turn). Bad values throw.
 */
export function optionsFromEnv(env: NodeJS.ProcessEnv): { server: Partial<ServerOptions>; listen: ListenOptions; shutdownGraceMs: number } {
  const groupCommit = {
    maxBatch: integerFromEnv(env, 'PTAX_COMMIT_BATCH', 1) ?? DEFAULT_GROUP_COMMIT.maxBatch,
    maxDelayMs: integerFromEnv(env, 'PTAX_COMMIT_DELAY_MS', 0) ?? DEFAULT_GROUP_COMMIT.maxDelayMs,
  };
  return {
    server: {
      dbPath: env.PTAX_DB || undefined,
      webDir: env.PTAX_WEB_DIR || undefined,
      sites: env.PTAX_SITES ? parseSites(env.PTAX_SITES) : undefined,
      rateLimitPerMinute: integerFromEnv(env, 'PTAX_RATE_LIMIT', 1),
      logLevel: env.PTAX_LOG_LEVEL || undefined,
      groupCommit,
      smtpUrl: env.PTAX_SMTP_URL || undefined,
      mailDir: env.PTAX_MAIL_DIR || undefined,
      mailFrom: env.PTAX_MAIL_FROM || undefined,
      publicUrl: env.PTAX_PUBLIC_URL ? parsePublicUrl(env.PTAX_PUBLIC_URL) : undefined,
      tokenDays: integerFromEnv(env, 'PTAX_TOKEN_DAYS', 1, 365),
      pendingDays: integerFromEnv(env, 'PTAX_PENDING_DAYS', 1, 3650),
      retentionDays: integerFromEnv(env, 'PTAX_RETENTION_DAYS', 1, 36_500),
      mailsPerAddressPerHour: integerFromEnv(env, 'PTAX_MAILS_PER_ADDRESS_PER_HOUR', 1, 1000),
      mailRetryBaseMs: integerFromEnv(env, 'PTAX_MAIL_RETRY_MS', 1),
      mailRetryMaxMs: integerFromEnv(env, 'PTAX_MAIL_RETRY_MAX_MS', 1),
      mailTimeoutMs: integerFromEnv(env, 'PTAX_MAIL_TIMEOUT_MS', 1),
      mailPollMs: integerFromEnv(env, 'PTAX_MAIL_POLL_MS', 1),
      trustProxy: env.PTAX_TRUST_PROXY === undefined ? undefined : parseTrustProxy(env.PTAX_TRUST_PROXY),
      requestTimeoutMs: integerFromEnv(env, 'PTAX_REQUEST_TIMEOUT_MS', 1),
      headersTimeoutMs: integerFromEnv(env, 'PTAX_HEADERS_TIMEOUT_MS', 1),
      keepAliveTimeoutMs: integerFromEnv(env, 'PTAX_KEEPALIVE_TIMEOUT_MS', 1),
      socketTimeoutMs: integerFromEnv(env, 'PTAX_SOCKET_TIMEOUT_MS', 1),
    },
    shutdownGraceMs: integerFromEnv(env, 'PTAX_SHUTDOWN_GRACE_MS', 1_000) ?? 10_000,
    listen: {
      port: integerFromEnv(env, 'PORT', 0, 65_535) ?? 8080,
      host: env.HOST || '127.0.0.1',
    },
  };
}

function integerFromEnv(env: NodeJS.ProcessEnv, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
