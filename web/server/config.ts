import { resolve } from 'node:path';
import { DEFAULT_GROUP_COMMIT, type GroupCommitOptions } from './db/group-commit.js';
import type { LogStream } from './http/logging.js';

/** What buildServer needs. Relative paths are relative to process.cwd() (the repo root). */
export interface ServerOptions {
  /** SQLite file; its folder is created. */
  dbPath: string;
  /** Production build of the web app; may not exist (pages then answer 503). */
  webDir: string;
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
 * Reads the environment of main.ts: PORT (8080), HOST (127.0.0.1), PTAX_DB, PTAX_WEB_DIR,
 * PTAX_RATE_LIMIT (per minute), PTAX_LOG_LEVEL, and the group-commit tuning knobs
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
