import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { buildServer, type ServerOptions } from '../app.js';

/** A real server on a free loopback port with its own temporary database. */
export interface TestServer {
  app: FastifyInstance;
  baseUrl: string;
  dir: string;
  dbPath: string;
  close(): Promise<void>;
}

export function makeTempDir(prefix = 'ptax-server-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function startTestServer(options: Partial<ServerOptions> = {}): Promise<TestServer> {
  const dir = makeTempDir();
  const dbPath = join(dir, 'db', 'ptax.sqlite');
  const app = await buildServer({
    dbPath,
    webDir: join(dir, 'no-web-build'),
    rateLimitPerMinute: 10_000,
    logLevel: 'silent',
    ...options,
  });
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    baseUrl,
    dir,
    dbPath,
    close: async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/**
 * Sends exactly the bytes given (node:http, not fetch, so that bodies and content types can
 * be as broken as a test needs). A body gets a content-length header.
 */
export function send(baseUrl: string, req: RawRequest): Promise<RawResponse> {
  const url = new URL(req.path, baseUrl);
  const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, 'utf8');
  const headers: Record<string, string> = { ...req.headers };
  if (body !== undefined) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: req.method ?? 'GET', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: parseJson(text) });
      });
      res.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** POSTs a value as JSON. */
export function postJson(baseUrl: string, path: string, value: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  return send(baseUrl, {
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(value),
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Reads the database through a separate read-only connection, as an operator would. */
export function queryRows<T = Record<string, unknown>>(dbPath: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

export const PATHS = {
  subscribe: '/api/newsletter/subscribe',
  notify: '/api/notify',
  contact: '/api/contact',
} as const;

/** Valid payloads, as the web forms send them. */
export const VALID = {
  banner: { email: 'ann@example.com', state: 'NY', language: 'en', tags: ['ny-newsletter', 'property-tax-updates'] },
  popup: {
    email: 'ann@example.com',
    firstName: 'Ann',
    state: 'NY',
    county: 'Kings',
    language: 'en',
    calculatedTax: 4321.5,
    tags: ['ny-calculator', 'county-kings'],
  },
  notify: { email: 'bob@example.com', state: 'FL', language: 'en' },
  contact: {
    name: 'Carla Gómez',
    email: 'carla@example.com',
    subject: 'Question about my estimate',
    message: 'Hello,\nhow is the school tax computed?\nThanks',
    language: 'es',
  },
} as const;

/** Waits until no mail of the outbox is queued or being sent (the worker runs in the server). */
export async function waitForOutbox(dbPath: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = queryRows<{ n: number }>(dbPath, "SELECT count(*) AS n FROM mail_outbox WHERE status IN ('queued', 'sending')");
    if (row?.n === 0) return;
    if (Date.now() > deadline) throw new Error(`the outbox still has ${row?.n} mails after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The rate limit counts in one-minute windows of the clock: a test that spends a budget waits
 * first, when needed, so that its requests do not straddle two windows.
 */
export async function awayFromMinuteBoundary(needMs = 5_000): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 60_000 - needMs) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 50));
}
