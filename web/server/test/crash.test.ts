import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { spawnServer, type SpawnedServer } from '../dev/spawn-server.js';
import { PATHS, makeTempDir, postJson, queryRows, send } from './helpers.js';
import { startSmtp } from './smtp.js';

/**
 * Durability under a crash: the compiled server is killed with SIGKILL while subscriptions are
 * in flight; after a restart on the same file, every subscription that had been answered 2xx
 * must be there. The test command builds before running vitest, so dist must exist.
 */
const MAIN_JS = resolve('dist/web/server/main.js');
const WORKERS = 24;
const ANSWERS_BEFORE_SIGNAL = 400;

const dir = makeTempDir('ptax-crash-');
const dbPath = join(dir, 'crash.sqlite');
const env = { PTAX_DB: dbPath, PTAX_WEB_DIR: join(dir, 'no-web-build'), PTAX_RATE_LIMIT: '1000000' };
const started: SpawnedServer[] = [];

afterAll(() => {
  for (const server of started) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function start(extra: Record<string, string> = {}): Promise<SpawnedServer> {
  // 60 s to start, not spawnServer's 10: npm test runs vitest's files two at a time beside
  // the browser suite, and on the shared machine a start took longer than 10 s (load 18).
  const server = await spawnServer({ mainPath: MAIN_JS, env: { ...env, ...extra }, startTimeoutMs: 60_000 });
  started.push(server);
  return server;
}

/**
 * Workers post unique subscriptions in a loop and record the ones answered 2xx. When enough
 * are answered, the server gets `signal`; requests then in flight either complete (SIGTERM) or
 * die with the connection (SIGKILL), and a request without an answer is not recorded.
 */
async function subscribeUntilSignal(server: SpawnedServer, signal: NodeJS.Signals, prefix: string): Promise<string[]> {
  const acknowledged: string[] = [];
  let next = 0;
  let signalled = false;
  const worker = async () => {
    while (!signalled) {
      const email = `${prefix}-${next++}@example.com`;
      try {
        const res = await postJson(server.url, PATHS.subscribe, { email, state: 'NY', language: 'en', tags: ['ny-newsletter'] });
        if (res.status >= 200 && res.status < 300) acknowledged.push(email);
      } catch {
        // The connection died with the server: no answer, so no promise was made.
      }
      if (!signalled && acknowledged.length >= ANSWERS_BEFORE_SIGNAL) {
        signalled = true;
        server.child.kill(signal);
      }
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, worker));
  return acknowledged;
}

function storedEmails(): Set<string> {
  return new Set(queryRows<{ email: string }>(dbPath, 'SELECT email FROM subscribers').map((r) => r.email));
}

describe('crash safety of the compiled server', () => {
  it('has been built (npm test builds before running vitest)', () => {
    expect(existsSync(MAIN_JS), `${MAIN_JS} is missing: run the build (npx tsc -p tsconfig.json) first`).toBe(true);
  });

  it('keeps every subscription answered 2xx across a SIGKILL', async () => {
    const first = await start();
    const acknowledged = await subscribeUntilSignal(first, 'SIGKILL', 'crash');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(acknowledged.length).toBeGreaterThanOrEqual(ANSWERS_BEFORE_SIGNAL);

    // The restart recovers the WAL and serves again on the same file.
    const second = await start();
    expect((await send(second.url, { path: '/healthz' })).status).toBe(200);
    const after = await postJson(second.url, PATHS.subscribe, { email: 'after-restart@example.com', state: 'NY' });
    expect(after.status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });

    const stored = storedEmails();
    expect(acknowledged.filter((email) => !stored.has(email))).toEqual([]);
    expect(stored.has('after-restart@example.com')).toBe(true);
    expect(queryRows(dbPath, 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
  });

  it('on SIGTERM under load finishes in-flight requests, keeps every 2xx and exits 0', async () => {
    const server = await start();
    const acknowledged = await subscribeUntilSignal(server, 'SIGTERM', 'term');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    const stored = storedEmails();
    expect(acknowledged.filter((email) => !stored.has(email))).toEqual([]);
  });

  it('sends a mail committed before a SIGKILL exactly once after the restart', async () => {
    const smtp = await startSmtp();
    try {
      const mailDb = join(dir, 'mail.sqlite');
      const mailEnv = { PTAX_DB: mailDb, PTAX_SMTP_URL: smtp.url, PTAX_MAIL_TIMEOUT_MS: '500', PTAX_MAIL_POLL_MS: '100', PTAX_MAIL_RETRY_MS: '100' };
      // The relay takes the mail and never answers: the send is in flight, not handed over.
      smtp.stall = true;
      const first = await start(mailEnv);
      const res = await postJson(first.url, PATHS.subscribe, { email: 'kill-before-send@example.com', state: 'NY', language: 'en' });
      expect(res.status).toBe(200); // the row and its mail are committed
      const deadline = Date.now() + 10_000;
      while (smtp.attempts === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(smtp.attempts).toBe(1);
      first.child.kill('SIGKILL');
      await first.exited;
      expect(smtp.received).toHaveLength(0);

      smtp.stall = false;
      // The restarted server with a generous send timeout: on a loaded machine (CI beside
      // the other suites) 500 ms could run out while the relay answers, and the retry would
      // count a third attempt. The lease it waits for is the first process's (500 ms × 3 + 5 s).
      const second = await start({ ...mailEnv, PTAX_MAIL_TIMEOUT_MS: '10000' });
      const [mail] = await smtp.waitFor(1, 20_000); // once the dead process's lease has run out
      expect(mail!.to).toEqual(['kill-before-send@example.com']);
      // The relay has the mail; the server records it as sent when the relay's answer reaches
      // it (on a loaded machine, later than the mail itself).
      const recorded = Date.now() + 10_000;
      while (queryRows<{ status: string }>(mailDb, 'SELECT status FROM mail_outbox')[0]?.status === 'sending' && Date.now() < recorded) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await new Promise((resolve) => setTimeout(resolve, 500)); // several poll intervals: nothing more comes
      expect(smtp.received).toHaveLength(1);
      second.child.kill('SIGTERM');
      expect(await second.exited).toEqual({ code: 0, signal: null });
      const rows = queryRows<{ recipient: string; status: string; attempts: number }>(mailDb, 'SELECT recipient, status, attempts FROM mail_outbox');
      expect(rows.map(({ recipient, status }) => ({ recipient, status }))).toEqual([{ recipient: 'kill-before-send@example.com', status: 'sent' }]);
      // Claims (each counts an attempt, web/server/mail/outbox.ts): the first process's, killed
      // in flight, then the restart's: 2. Or 3, when a loaded machine let the first process's
      // 500 ms send timeout run out and its retry claim the mail again before the SIGKILL (a
      // clean-clone CI run, 2026-11-28). Either way the relay received the mail once (above).
      expect([2, 3]).toContain(rows[0]!.attempts);
    } finally {
      await smtp.close();
    }
  }, 40_000);

  it('on SIGTERM does not wait for a slow client: closes it before the grace period ends and exits 0', async () => {
    const server = await start({ PTAX_SHUTDOWN_GRACE_MS: '4000', PTAX_REQUEST_TIMEOUT_MS: '60000', PTAX_SOCKET_TIMEOUT_MS: '60000' });
    const url = new URL(server.url);
    const socket = connect(Number(url.port), url.hostname);
    socket.on('error', () => undefined);
    socket.write(`POST ${PATHS.contact} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`);
    const drip = setInterval(() => socket.writable && socket.write(' '), 300);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    clearInterval(drip);
    socket.destroy();
    // Exit 0: the server closed the slow client's connection (web/server/main.ts, at
    // max(grace / 2, grace − 1 s) = 3 s here) and stopped before its grace timer, which exits 1.
    // The client alone would have held it for its 60 s socket timeout. (The wall time was
    // asserted under 4 s before: 1 s above the close, which a loaded CI machine overran once,
    // 4,250 ms, with the exit still 0.)
    expect(exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalled).toBeLessThan(30_000);
  });
});
