import { resolve } from 'node:path';
import { DEFAULT_GROUP_COMMIT, type GroupCommitOptions } from './db/group-commit.js';
import type { LogStream } from './http/logging.js';
import { isStateCode, STATE_CODES, type StateCode } from './validation/states.js';

/**
 * Which edition a host name serves: lower-case host names without port. Hosts not in the map
 * get the hub (HUB).
 */
export type SiteMap = ReadonlyMap<string, StateCode>;

/** The development map: one `*.localhost` name per state; 127.0.0.1, localhost and the rest get the hub. */
export const DEFAULT_SITES: SiteMap = new Map<string, StateCode>([
  ['ny.localhost', 'NY'],
  ['tx.localhost', 'TX'],
  ['ca.localhost', 'CA'],
  ['fl.localhost', 'FL'],
]);

/** The edition every host that is not in the map gets. */
export const FALLBACK_EDITION: StateCode = 'HUB';

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
}

export const DEFAULT_OPTIONS: ServerOptions = {
  dbPath: './data/ptax.sqlite',
  webDir: 'web/dist',
  sites: DEFAULT_SITES,
  rateLimitPerMinute: 30,
  logLevel: 'info',
  groupCommit: DEFAULT_GROUP_COMMIT,
};

/** Request bodies above this are refused with 413; the largest valid form is far below. */
export const BODY_LIMIT_BYTES = 16 * 1024;

export function resolveServerOptions(options: Partial<ServerOptions>, cwd = process.cwd()): ServerOptions {
  const merged = { ...DEFAULT_OPTIONS, ...withoutUndefined(options) };
  if (!Number.isInteger(merged.rateLimitPerMinute) || merged.rateLimitPerMinute < 1) {
    throw new RangeError(`rateLimitPerMinute must be a positive integer, got ${merged.rateLimitPerMinute}`);
  }
  return { ...merged, dbPath: resolve(cwd, merged.dbPath), webDir: resolve(cwd, merged.webDir) };
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

const EDITION_NAMES: Readonly<Record<StateCode, string>> = {
  NY: 'New York',
  TX: 'Texas',
  CA: 'California',
  FL: 'Florida',
  HUB: 'Hub',
};

/**
 * The lines main.ts prints once it listens: one URL per host of the map, in edition order,
 * with the port of `address` (the URL the server listens on); the hub, when no host is
 * mapped to it, at `address`'s own host.
 */
export function siteLines(sites: SiteMap, address: string): string[] {
  const listening = new URL(address);
  const port = listening.port === '' ? '' : `:${listening.port}`;
  const rows: [string, string][] = [];
  for (const code of STATE_CODES) {
    const hosts = [...sites].filter(([, edition]) => edition === code).map(([host]) => host);
    if (code === FALLBACK_EDITION && hosts.length === 0) hosts.push(listening.hostname);
    for (const host of hosts) rows.push([EDITION_NAMES[code], `${listening.protocol}//${host}${port}/`]);
  }
  const width = Math.max(...rows.map(([name]) => name.length)) + 2;
  return [
    'The calculators (Spanish under /es; API under /api; Ctrl-C to stop):',
    ...rows.map(([name, url]) => `  ${name.padEnd(width)}${url}`),
  ];
}

const HOST_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

/**
 * PTAX_SITES: `host=CODE` entries separated by commas (spaces around them ignored), e.g.
 * `ny.example.org=NY,tx.example.org=TX,www.example.org=HUB`. Host names are matched without
 * case and without port; CODE is NY, TX, CA, FL or HUB (any case). The map replaces the
 * default one; hosts it does not list get the hub. Throws a one-line RangeError on a bad entry.
 */
export function parseSites(raw: string, name = 'PTAX_SITES'): SiteMap {
  const sites = new Map<string, StateCode>();
  const expected = `host=CODE entries separated by commas, CODE one of ${STATE_CODES.join(', ')}`;
  for (const entry of raw.split(',').map((part) => part.trim())) {
    if (entry === '') continue; // a trailing comma
    const equals = entry.indexOf('=');
    if (equals === -1) throw new RangeError(`${name} must be ${expected}; "${entry}" has no "="`);
    const host = entry.slice(0, equals).trim().toLowerCase();
    const code = entry.slice(equals + 1).trim().toUpperCase();
    if (!HOST_NAME.test(host) || host.length > 253) {
      throw new RangeError(`${name} must be ${expected}; "${entry}": "${host}" is not a host name (no scheme, port or path)`);
    }
    if (!isStateCode(code)) throw new RangeError(`${name} must be ${expected}; "${entry}": unknown edition "${code}"`);
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
export function optionsFromEnv(env: NodeJS.ProcessEnv): { server: Partial<ServerOptions>; listen: ListenOptions } {
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
    },
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
