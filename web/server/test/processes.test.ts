import { rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServer, type SpawnedServer } from '../dev/spawn-server.js';
import { PATHS, makeTempDir, queryRows } from './helpers.js';

/**
 * Issue 25, the runs that need real processes (the compiled server; `npm test` builds first):
 * two server processes on one database file under load refuse nothing, and SIGTERM under
 * keep-alive traffic answers every request (200 or 503 with Retry-After), resetting none.
 */
const MAIN_JS = resolve('dist/web/server/main.js');
const dir = makeTempDir('ptax-processes-');
const started: SpawnedServer[] = [];

afterAll(() => {
  for (const server of started) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function start(env: Record<string, string>): Promise<SpawnedServer> {
  // 60 s to start, not spawnServer's 10 (crash.test.ts: a start took longer at load 18).
  const server = await spawnServer({
    mainPath: MAIN_JS,
    env: { PTAX_WEB_DIR: join(dir, 'no-web-build'), PTAX_RATE_LIMIT: '1000000', ...env },
    startTimeoutMs: 60_000,
  });
  started.push(server);
  return server;
}

interface Outcome {
  status?: number;
  retryAfter?: string | undefined;
  error?: string;
}

/** One POST of a sign-up, through `agent` (keep-alive when the test wants it). */
function subscribe(baseUrl: string, email: string, agent: Agent | false): Promise<Outcome> {
  const body = JSON.stringify({ email, state: 'NY', language: 'en', tags: ['ny-newsletter'] });
  return new Promise((done) => {
    const req = httpRequest(
      new URL(PATHS.subscribe, baseUrl),
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } },
      (res) => {
        res.resume();
        res.on('end', () => done({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] }));
        res.on('error', (error: NodeJS.ErrnoException) => done({ error: error.code ?? error.message }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => done({ error: error.code ?? error.message }));
    req.end(body);
  });
}

const storedEmails = (dbPath: string) => new Set(queryRows<{ email: string }>(dbPath, 'SELECT email FROM subscribers').map((r) => r.email));

describe('two server processes on one database file', () => {
  it('25 clients on each, 20 sign-ups each (1,000 at once on one file): no refusal, every answered sign-up stored', async () => {
    const dbPath = join(dir, 'two.sqlite');
    const first = await start({ PTAX_DB: dbPath });
    const second = await start({ PTAX_DB: dbPath });
    // A fixed number of sign-ups, not a fixed time: it asserted "more than 500 in 10 s", a
    // throughput floor that a busy machine missed (396 at load 20) though nothing was wrong.
    // 50 keep-alive clients at once keep both processes writing the file together all along.
    const PER_CLIENT = 20;
    const statuses = new Map<string, number>();
    const acknowledged: string[] = [];
    let next = 0;
    const client = async (server: SpawnedServer, name: string) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      for (let i = 0; i < PER_CLIENT; i++) {
        const email = `two-${name}-${next++}@example.com`;
        const outcome = await subscribe(server.url, email, agent);
        const key = outcome.error ?? String(outcome.status);
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        if (outcome.status === 200) acknowledged.push(email);
      }
      agent.destroy();
    };
    await Promise.all([...Array.from({ length: 25 }, (_, i) => client(first, `a${i}`)), ...Array.from({ length: 25 }, (_, i) => client(second, `b${i}`))]);
    // Every answer a 200: no 503 "database is locked", no error.
    expect(Object.fromEntries(statuses)).toEqual({ 200: acknowledged.length });
    expect(acknowledged.length).toBe(50 * PER_CLIENT);
    const stored = storedEmails(dbPath);
    expect(acknowledged.filter((email) => !stored.has(email))).toEqual([]);
    first.child.kill('SIGTERM');
    second.child.kill('SIGTERM');
    expect([await first.exited, await second.exited]).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
  }, 60_000);
});

describe('SIGTERM under keep-alive traffic', () => {
  it('40 keep-alive clients: every request is answered 200 or 503 with Retry-After, none is reset', async () => {
    const dbPath = join(dir, 'shutdown.sqlite');
    const server = await start({ PTAX_DB: dbPath });
    const outcomes: Outcome[] = [];
    const acknowledged: string[] = [];
    let next = 0;
    let signalled = false;
    const client = async (name: string) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      for (;;) {
        const email = `down-${name}-${next++}@example.com`;
        const outcome = await subscribe(server.url, email, agent);
        if (outcome.status === 200) acknowledged.push(email);
        if (!signalled && acknowledged.length >= 400) {
          signalled = true;
          server.child.kill('SIGTERM');
        }
        // Refused connections (the listener is closed) are not a reset: the client stops.
        if (outcome.error === 'ECONNREFUSED') break;
        outcomes.push(outcome);
        if (outcome.status === 503 || outcome.error !== undefined) break;
        // A pause between requests, as a browser or an API client makes: at any instant some
        // connections are idle, which is when a shutdown that cuts idle connections resets them.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10));
      }
      agent.destroy();
    };
    await Promise.all(Array.from({ length: 40 }, (_, i) => client(`c${i}`)));
    const errors = outcomes.filter((o) => o.error !== undefined).map((o) => o.error);
    expect(errors).toEqual([]);
    const refusals = outcomes.filter((o) => o.status === 503);
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals.every((o) => o.retryAfter === '5')).toBe(true);
    expect(outcomes.every((o) => o.status === 200 || o.status === 503)).toBe(true);
    expect(await server.exited).toEqual({ code: 0, signal: null });
    const stored = storedEmails(dbPath);
    expect(acknowledged.filter((email) => !stored.has(email))).toEqual([]);
  }, 60_000);
});
