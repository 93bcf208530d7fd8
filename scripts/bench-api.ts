/**
 * API benchmark: durable newsletter sign-ups per second, and the confirmation mails per second
 * the outbox sends for them.
 *
 * Starts the compiled server (dist/web/server/main.js) on a free loopback port with a fresh
 * temporary database and a rate limit high enough not to interfere, drives
 * POST /api/newsletter/subscribe with autocannon (50 connections, a unique e-mail per request),
 * and checks that the database holds exactly one row per 2xx answer.
 *
 * The run is sized by request count, not by time: autocannon drops in-flight requests when a
 * timed run ends, which would make rows and answers disagree. A short warm-up measures the
 * rate, then the main run sends ~10 s worth of requests.
 *
 * Every sign-up queues a confirmation mail (outbox row, same commit). After the warm-ups the
 * outbox is left to drain; after the main run the script waits until it is empty again and
 * reports mails/s (the main run's mails over the time from its start until the last was
 * sent), the mails sent while the load ran, and how long the queue took to drain after it.
 * The mails go to .eml files (the server's folder transport) or, with BENCH_MAIL=smtp, to an
 * SMTP server in this process that accepts and discards them.
 *
 * Targets: >= 1,000 requests/s, p99 latency < 50 ms, no errors or non-2xx answers; every
 * answered sign-up's mail sent.
 * Usage (after a build): npm run bench:api. Env: BENCH_SECONDS (10), BENCH_CONNECTIONS (50),
 * BENCH_MAIL (files | smtp);
 * PTAX_COMMIT_BATCH / PTAX_COMMIT_DELAY_MS pass through to the server to compare commit
 * strategies (PTAX_COMMIT_BATCH=1 commits every request alone).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { SMTPServer } from 'smtp-server';
import { spawnServer, type SpawnedServer } from '../web/server/dev/spawn-server.js';

const TARGET_REQUESTS_PER_SECOND = 1000;
const TARGET_P99_MS = 50;
const WARMUP_REQUESTS = 3000;

/** The part of autocannon's result this script reads (autocannon ships no types). */
interface AutocannonResult {
  duration: number; // seconds
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
}

interface AutocannonRequest {
  method: 'POST';
  path: string;
  headers: Record<string, string>;
  setupRequest: (request: { body?: string }) => { body?: string };
}

type Autocannon = (options: { url: string; connections: number; amount: number; timeout: number; requests: AutocannonRequest[] }) => Promise<AutocannonResult>;

// autocannon is CommonJS without type declarations; load it through require with the shape above.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

function positiveIntFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

/** One request template whose body carries a new address each time it is sent. */
function subscribeRequests(runId: string): AutocannonRequest[] {
  let counter = 0;
  return [
    {
      method: 'POST',
      path: '/api/newsletter/subscribe',
      headers: { 'content-type': 'application/json' },
      setupRequest: (request) => {
        counter += 1;
        request.body = JSON.stringify({
          email: `bench-${runId}-${counter}@example.com`,
          state: 'NY',
          language: 'en',
          tags: ['ny-newsletter', 'property-tax-updates'],
        });
        return request;
      },
    },
  ];
}

function count(dbPath: string, sql: string): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM ${sql}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

const countRows = (dbPath: string) => count(dbPath, 'subscribers');
const mailsSent = (dbPath: string) => count(dbPath, "mail_outbox WHERE status = 'sent'");
const mailsWaiting = (dbPath: string) => count(dbPath, "mail_outbox WHERE status IN ('queued', 'sending')");

/** Waits until the outbox has nothing queued or being sent; returns when that was seen (ms), or undefined after timeoutMs. */
async function outboxDrained(dbPath: string, timeoutMs: number): Promise<number | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (mailsWaiting(dbPath) === 0) return Date.now();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

/** An SMTP server that accepts every mail and keeps nothing (BENCH_MAIL=smtp). */
async function startSmtpSink(): Promise<{ url: string; close(): Promise<void> }> {
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => callback());
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = (server as unknown as { server: import('node:net').Server }).server.address() as import('node:net').AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function run(server: SpawnedServer, connections: number, amount: number, runId: string): Promise<AutocannonResult> {
  return autocannon({ url: server.url, connections, amount, timeout: 10, requests: subscribeRequests(runId) });
}

interface Check {
  name: string;
  pass: boolean;
}

/** Warm-up, main run, graceful stop; returns the figures' report lines and the checks. */
async function benchmark(server: SpawnedServer, dbPath: string, seconds: number, connections: number): Promise<{ lines: string[]; checks: Check[] }> {
  // Two warm-ups: the first lets V8 optimise the server, the second (~2 s at the first's
  // rate) measures the rate used to size a main run of `seconds`.
  const answeredPerSecond = (r: AutocannonResult) => (r['2xx'] + r.non2xx) / r.duration;
  let rate = answeredPerSecond(await run(server, connections, WARMUP_REQUESTS, 'warmup1'));
  rate = answeredPerSecond(await run(server, connections, Math.max(WARMUP_REQUESTS, Math.round(rate * 2)), 'warmup2'));
  const amount = Math.max(connections * 20, Math.round(rate * seconds));
  // The warm-ups' mails are sent before the main run starts, so that it measures its own.
  const warmupDrained = await outboxDrained(dbPath, 300_000);
  const rowsBefore = countRows(dbPath);
  const sentBefore = mailsSent(dbPath);
  console.log(`warm-up: ${rate.toFixed(0)} req/s; main run: ${amount} requests, ${connections} connections`);

  const started = Date.now();
  const result = await run(server, connections, amount, 'main');
  const loadEnded = Date.now();
  const sentDuringLoad = mailsSent(dbPath) - sentBefore;
  const drained = await outboxDrained(dbPath, 300_000);
  const mails = mailsSent(dbPath) - sentBefore;
  server.child.kill('SIGTERM');
  const exit = await server.exited;
  const newRows = countRows(dbPath) - rowsBefore;

  const ok2xx = result['2xx'];
  const durableRate = ok2xx / result.duration;
  const failures = result.errors + result.timeouts + result.non2xx;
  const mailSeconds = drained === undefined ? undefined : (drained - started) / 1000;
  const checks = [
    { name: `durable sign-ups/s >= ${TARGET_REQUESTS_PER_SECOND}`, pass: durableRate >= TARGET_REQUESTS_PER_SECOND },
    { name: `p99 latency < ${TARGET_P99_MS} ms`, pass: result.latency.p99 < TARGET_P99_MS },
    { name: 'no errors, timeouts or non-2xx', pass: failures === 0 },
    { name: 'rows in database = 2xx answers', pass: newRows === ok2xx },
    { name: 'every answered sign-up had its mail sent', pass: warmupDrained !== undefined && drained !== undefined && mails === ok2xx },
    { name: 'graceful shutdown exit code 0', pass: exit.code === 0 },
  ];
  const lines = [
    `duration         ${result.duration.toFixed(2)} s`,
    `requests/s       ${result.requests.average.toFixed(0)} (autocannon average)`,
    `sign-ups/s       ${durableRate.toFixed(0)} (durable: 2xx answers over the run's duration)`,
    `mails/s          ${mailSeconds === undefined ? 'outbox not drained within 300 s' : `${(mails / mailSeconds).toFixed(0)} (${mails} mails, from the run's start until the last was sent: ${mailSeconds.toFixed(2)} s)`}`,
    `mails in load    ${sentDuringLoad} sent while the load ran (${(sentDuringLoad / result.duration).toFixed(0)}/s)`,
    `outbox drained   ${drained === undefined ? 'no' : `${((drained - loadEnded) / 1000).toFixed(2)} s after the load stopped`}`,
    `latency          p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
    `2xx              ${ok2xx}`,
    `non-2xx          ${result.non2xx}`,
    `errors           ${result.errors} (timeouts ${result.timeouts})`,
    `new rows         ${newRows}`,
  ];
  return { lines, checks };
}

async function main(): Promise<number> {
  const seconds = positiveIntFromEnv('BENCH_SECONDS', 10);
  const connections = positiveIntFromEnv('BENCH_CONNECTIONS', 50);
  const dir = mkdtempSync(join(tmpdir(), 'ptax-bench-'));
  const dbPath = join(dir, 'bench.sqlite');
  const mail = process.env.BENCH_MAIL ?? 'files';
  if (mail !== 'files' && mail !== 'smtp') throw new Error('BENCH_MAIL must be files or smtp');
  let server: SpawnedServer | undefined;
  const smtp = mail === 'smtp' ? await startSmtpSink() : undefined;
  try {
    server = await spawnServer({
      mainPath: fileURLToPath(new URL('../web/server/main.js', import.meta.url)),
      env: {
        PTAX_DB: dbPath,
        PTAX_WEB_DIR: join(dir, 'no-web-build'),
        PTAX_RATE_LIMIT: String(Number.MAX_SAFE_INTEGER),
        // Every bench address is new; the per-address budget does not come into play.
        ...(smtp ? { PTAX_SMTP_URL: smtp.url } : {}),
      },
    });
    console.log(`server ${server.url}, database ${dbPath}, mail ${smtp ? `SMTP ${smtp.url} (discarded)` : '.eml files'}`);
    const { lines, checks } = await benchmark(server, dbPath, seconds, connections);
    console.log([...lines, ...checks.map((check) => `${check.pass ? 'PASS' : 'FAIL'}  ${check.name}`)].join('\n'));
    const passed = checks.every((check) => check.pass);
    console.log(passed ? 'PASS' : 'FAIL');
    return passed ? 0 : 1;
  } finally {
    if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await smtp?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
