import { rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SITES, parseSites } from '../config.js';
import { openDatabase } from '../db/database.js';
import { GroupCommitWriter } from '../db/group-commit.js';
import { Store } from '../db/store.js';
import { MESSAGES } from '../http/messages.js';
import { SECURITY_HEADERS } from '../http/security-headers.js';
import { LinkBuilder } from '../mail/links.js';
import { MailWorker, Outbox } from '../mail/outbox.js';
import type { MailTransport } from '../mail/transport.js';
import {
  PATHS,
  VALID,
  awayFromMinuteBoundary,
  makeTempDir,
  postJson,
  queryRows,
  send,
  startTestServer,
  waitForOutbox,
  type RawResponse,
  type TestServer,
} from './helpers.js';
import { linksOf, startSmtp, type TestSmtp } from './smtp.js';

/**
 * Issue 25: the site server under abuse. Each reproduction of the outside test, as a test: the
 * rate limit and connections reset by the client, token links opened by scanners (HEAD, GET),
 * a stalled body, the headers and body of every answer the server writes itself, the
 * deletion request's work for known and unknown addresses, the ports /api/sites reflects, the
 * client behind a trusted proxy, and the outbox's concurrency. The two-process and shutdown
 * runs need the compiled server: processes.test.ts.
 */
const servers: TestServer[] = [];
async function start(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const server = await startTestServer(options);
  servers.push(server);
  return server;
}
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close().catch(() => undefined);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const count = (server: TestServer, sql: string, ...params: unknown[]) =>
  queryRows<{ n: number }>(server.dbPath, `SELECT count(*) AS n FROM ${sql}`, ...params)[0]?.n;

/** Writes a whole request on a new connection and resets the connection at once (RST, not FIN). */
function writeAndReset(baseUrl: string, bytes: string): Promise<void> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(bytes);
      socket.resetAndDestroy();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
  });
}

function jsonPost(path: string, value: unknown, host = '127.0.0.1'): string {
  const body = JSON.stringify(value);
  return `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

describe('the rate limit when the client resets its connection', () => {
  it('stores no sign-up and queues no mail once the budget is spent, however the connection ends', async () => {
    await awayFromMinuteBoundary(20_000);
    const server = await start({ rateLimitPerMinute: 3 });
    // The budget spent with ordinary POSTs: 3 stored, the 4th refused.
    const spent = [];
    for (let i = 0; i < 4; i++) spent.push((await postJson(server.baseUrl, PATHS.subscribe, { ...VALID.banner, email: `spend-${i}@example.com` })).status);
    expect(spent).toEqual([200, 200, 200, 429]);
    // 40 whole sign-ups, each on a raw socket reset as soon as it is written.
    for (let round = 0; round < 4; round++) {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          writeAndReset(server.baseUrl, jsonPost(PATHS.subscribe, { ...VALID.banner, email: `reset-${round}-${i}@example.com` })),
        ),
      );
    }
    // The server may still be handling the last ones: an ordinary request after them, then a pause.
    await send(server.baseUrl, { path: '/healthz' });
    await sleep(500);
    expect(count(server, "subscribers WHERE email LIKE 'reset-%'")).toBe(0);
    expect(count(server, 'mail_outbox')).toBe(3);
  });

  it('holds the per-address mail limit (5 an hour) for sign-ups on reset connections', async () => {
    const server = await start({ rateLimitPerMinute: 10_000 });
    // The same address on five editions (five rows) and five times more: at most 5 mails.
    const states = ['NY', 'TX', 'CA', 'FL', 'HUB'];
    for (let round = 0; round < 2; round++) {
      await Promise.all(
        states.map((state) =>
          writeAndReset(server.baseUrl, jsonPost(PATHS.subscribe, { email: 'victim@example.com', state, language: 'en', tags: ['property-tax-updates'] })),
        ),
      );
    }
    await send(server.baseUrl, { path: '/healthz' });
    await sleep(500);
    expect(count(server, "mail_outbox WHERE recipient = 'victim@example.com'")).toBeLessThanOrEqual(5);
  });

  it('refuses a POST whose counter cannot be written (503), instead of letting it through', async () => {
    const server = await start({ rateLimitPerMinute: 3 });
    // What a counter that cannot be written looks like: the side connection refuses writes.
    const side = server.app.ptax.side;
    side.pragma('query_only = ON');
    const res = await postJson(server.baseUrl, PATHS.subscribe, VALID.banner);
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json).toEqual({ error: 'unavailable', message: MESSAGES.unavailable.en, status: 503 });
    expect(count(server, 'subscribers')).toBe(0);
    side.pragma('query_only = OFF');
  });
});

describe('token links opened by a link scanner (HEAD, GET)', () => {
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await smtp.close();
  });

  const h1 = (res: RawResponse) => /<h1>([^<]*)<\/h1>/.exec(res.text)?.[1] ?? '';
  const forms = (res: RawResponse) => [...res.text.matchAll(/<form method="post" action="([^"]*)">/g)].map((m) => m[1]!.replace(/&#38;/g, '&'));
  const buttons = (res: RawResponse) => [...res.text.matchAll(/<button type="submit">([^<]*)<\/button>/g)].map((m) => m[1]);

  async function open(server: TestServer, url: URL, method: 'GET' | 'HEAD' | 'POST' = 'GET'): Promise<RawResponse> {
    return send(server.baseUrl, {
      method,
      path: `${url.pathname}${url.search}`,
      headers: { host: url.host, ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(method === 'POST' ? { body: '' } : {}),
    });
  }

  for (const language of ['en', 'es'] as const) {
    it(`confirm, unsubscribe and delete links (${language}): HEAD and GET change nothing and show one button that POSTs`, async () => {
      smtp.received.length = 0;
      const server = await start({ smtpUrl: smtp.url, mailRetryBaseMs: 50, mailPollMs: 50, mailTimeoutMs: 2_000 });
      const paths =
        language === 'en'
          ? { confirm: '/confirm', unsubscribe: '/unsubscribe', deleteRequest: '/delete-my-data', deleteConfirm: '/delete-my-data/confirm' }
          : {
              confirm: '/es/confirmar',
              unsubscribe: '/es/cancelar-suscripcion',
              deleteRequest: '/es/borrar-mis-datos',
              deleteConfirm: '/es/borrar-mis-datos/confirmar',
            };
      const titles =
        language === 'en'
          ? { confirm: 'Confirm your subscription', confirmed: 'Subscription confirmed', unsubscribe: 'Unsubscribe', unsubscribed: 'You are unsubscribed' }
          : {
              confirm: 'Confirma tu suscripción',
              confirmed: 'Suscripción confirmada',
              unsubscribe: 'Cancelar la suscripción',
              unsubscribed: 'Suscripción cancelada',
            };
      expect((await postJson(server.baseUrl, PATHS.subscribe, { ...VALID.banner, language })).status).toBe(200);
      const [mail] = await smtp.waitFor(1);
      const links = linksOf(mail!);
      const status = () => queryRows<{ status: string }>(server.dbPath, 'SELECT status FROM subscribers')[0]?.status;
      const used = () => count(server, 'tokens WHERE used_at IS NOT NULL');

      // Confirmation: a scanner's HEAD and GET, twice each, spend nothing.
      const confirm = links.get(paths.confirm)!;
      for (let i = 0; i < 2; i++) {
        expect((await open(server, confirm, 'HEAD')).status).toBe(200);
        const page = await open(server, confirm);
        expect(page.status).toBe(200);
        expect(page.headers['cache-control']).toBe('no-store');
        expect(page.headers['referrer-policy']).toBe('no-referrer');
        expect(page.text).toContain(`<html lang="${language}">`);
        expect(h1(page)).toBe(titles.confirm);
        expect(forms(page)).toEqual([`${paths.confirm}${confirm.search}`]);
        expect(buttons(page)).toHaveLength(1);
      }
      expect([status(), used()]).toEqual(['pending', 0]);
      // The person's click (the form's POST) confirms.
      const confirmed = await open(server, confirm, 'POST');
      expect([confirmed.status, h1(confirmed)]).toEqual([200, titles.confirmed]);
      expect(status()).toBe('confirmed');

      // Unsubscribe: HEAD and GET change nothing; the POST (button or RFC 8058 one-click) does.
      const unsubscribe = links.get(paths.unsubscribe)!;
      expect((await open(server, unsubscribe, 'HEAD')).status).toBe(200);
      const unsubscribePage = await open(server, unsubscribe);
      expect(h1(unsubscribePage)).toBe(titles.unsubscribe);
      expect(forms(unsubscribePage)).toEqual([`${paths.unsubscribe}${unsubscribe.search}`]);
      expect(buttons(unsubscribePage)).toHaveLength(1);
      expect(status()).toBe('confirmed');
      const oneClick = await send(server.baseUrl, {
        method: 'POST',
        path: `${unsubscribe.pathname}${unsubscribe.search}`,
        headers: { host: unsubscribe.host, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect([oneClick.status, h1(oneClick)]).toEqual([200, titles.unsubscribed]);
      expect(status()).toBe('unsubscribed');

      // Deletion: the link from the deletion mail, opened by a scanner, deletes nothing.
      const asked = await send(server.baseUrl, {
        method: 'POST',
        path: paths.deleteRequest,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `email=${encodeURIComponent(VALID.banner.email)}`,
      });
      expect(asked.status).toBe(200);
      const [, deletionMail] = await smtp.waitFor(2);
      const deleteLink = linksOf(deletionMail!).get(paths.deleteConfirm)!;
      for (let i = 0; i < 2; i++) {
        expect((await open(server, deleteLink, 'HEAD')).status).toBe(200);
        const page = await open(server, deleteLink);
        expect(forms(page)).toEqual([`${paths.deleteConfirm}${deleteLink.search}`]);
        expect(buttons(page)).toHaveLength(1);
      }
      expect(count(server, 'subscribers')).toBe(1);
      expect(count(server, "tokens WHERE purpose = 'delete' AND used_at IS NULL")).toBe(1);
      expect((await open(server, deleteLink, 'POST')).status).toBe(200);
      expect(count(server, 'subscribers')).toBe(0);
    });
  }
});

/** Sends raw bytes; collects what comes back until the server closes or `waitMs` passes. */
function rawExchange(baseUrl: string, bytes: string, waitMs = 3_000): Promise<string> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    let data = '';
    const socket: Socket = connect(Number(url.port), url.hostname, () => socket.write(bytes));
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(data);
    });
  });
}

interface ParsedAnswer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

function parseAnswer(raw: string): ParsedAnswer | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (!raw.startsWith('HTTP/1.1 ') || end === -1) return undefined;
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body: raw.slice(end + 4) };
}

/** The security headers and the JSON shape, whatever wrote the answer. */
function expectSafeJsonAnswer(raw: string, status: number, what: string): void {
  const answer = parseAnswer(raw);
  expect(answer, `${what}: an HTTP answer, got ${JSON.stringify(raw.slice(0, 200))}`).toBeDefined();
  expect(answer!.status, what).toBe(status);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(answer!.headers.get(name), `${what}: ${name}`).toBe(value);
  expect(answer!.headers.get('content-type'), what).toBe('application/json; charset=utf-8');
  const body = JSON.parse(answer!.body) as { error: unknown; message: unknown; status: unknown };
  expect(body.status, what).toBe(status);
  expect(typeof body.error, what).toBe('string');
  expect(typeof body.message, what).toBe('string');
}

describe('every answer the server writes carries the security headers and the JSON shape', () => {
  it('malformed requests, oversized headers, a missing Host, CONNECT, bad URLs and the routed refusals', async () => {
    const server = await start({ rateLimitPerMinute: 1 });
    const cases: Array<[string, string, number]> = [
      ['malformed Content-Length', 'POST /api/notify HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', 400],
      ['garbage request line', 'HELLO THERE\r\n\r\n', 400],
      ['headers over 16 KB', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
      ['no Host header', 'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n', 400],
      ['CONNECT', 'CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n', 405],
      ['undecodable URL', 'GET /es/%ff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 400],
      ['unknown API path', 'GET /api/nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 404],
      ['wrong content type', 'POST /api/notify HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi', 415],
      ['over the rate limit', 'POST /api/notify HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi', 429],
    ];
    for (const [what, bytes, status] of cases) expectSafeJsonAnswer(await rawExchange(server.baseUrl, bytes), status, what);
  });

  it('408 when the headers are too slow', async () => {
    const server = await start({ requestTimeoutMs: 2_000, headersTimeoutMs: 300 });
    expectSafeJsonAnswer(await rawExchange(server.baseUrl, 'GET /healthz HTTP/1.1\r\nHost: x\r\n', 5_000), 408, 'headers timeout');
  });

  it('a body that stops arriving gets the documented 408 JSON, not a silent close', async () => {
    // The socket's idle timeout (1 s) comes before the request timeout (3 s): either way, 408.
    const server = await start({ requestTimeoutMs: 3_000, headersTimeoutMs: 500, socketTimeoutMs: 1_000 });
    const raw = await rawExchange(
      server.baseUrl,
      `POST ${PATHS.contact} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`,
      8_000,
    );
    expectSafeJsonAnswer(raw, 408, 'stalled body');
    expect(JSON.parse(parseAnswer(raw)!.body)).toEqual({ error: 'request_timeout', message: MESSAGES.request_timeout.en, status: 408 });
    expect(parseAnswer(raw)!.headers.get('connection')).toBe('close');
    expect(count(server, 'contact_messages')).toBe(0);
  });

  it('a body that stops arriving, with the default ratio of timeouts (socket = request)', async () => {
    const server = await start({ requestTimeoutMs: 1_000, headersTimeoutMs: 500, socketTimeoutMs: 1_000 });
    const raw = await rawExchange(
      server.baseUrl,
      `POST ${PATHS.contact} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
      8_000,
    );
    expectSafeJsonAnswer(raw, 408, 'stalled body');
  });
});

describe('POST /delete-my-data does the same work for a known and an unknown address', () => {
  it('runs the same statements in the same order, and mails the known address only', async () => {
    const dir = makeTempDir();
    const db = openDatabase(join(dir, 'deletion.sqlite'));
    // Every statement run, by its SQL text, through a wrapper around prepare().
    const ran: string[] = [];
    const prepare = db.prepare.bind(db);
    db.prepare = ((source: string) => {
      const statement = prepare(source) as unknown as Record<string, (...args: unknown[]) => unknown>;
      for (const method of ['run', 'get', 'all']) {
        const original = statement[method]!.bind(statement);
        statement[method] = (...args: unknown[]) => {
          ran.push(source.replace(/\s+/g, ' ').trim());
          return original(...args);
        };
      }
      return statement;
    }) as unknown as typeof db.prepare;
    const writer = new GroupCommitWriter(db);
    const store = new Store(db, writer, {
      links: new LinkBuilder(() => 'http://127.0.0.1:8080', DEFAULT_SITES),
      outbox: new Outbox(db, 'localhost'),
      tokenTtlMs: 7 * 86_400_000,
      pendingDays: 30,
      mailsPerAddressPerHour: 5,
    });
    try {
      await store.saveContactMessage({ name: 'Ann', email: 'known@example.com', subject: 'Hi', message: 'Hello', language: 'en' });
      ran.length = 0;
      await store.requestDeletion('known@example.com', 'en');
      const known = ran.splice(0);
      await store.requestDeletion('unknown@example.com', 'en');
      const unknown = ran.splice(0);
      expect(known.length).toBeGreaterThan(2);
      expect(unknown).toEqual(known);
      // Only the known address has a mail and a live token.
      expect(db.prepare('SELECT recipient FROM mail_outbox').all()).toEqual([{ recipient: 'known@example.com' }]);
      expect(db.prepare('SELECT email FROM tokens').all()).toEqual([{ email: 'known@example.com' }]);
    } finally {
      writer.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('GET /api/sites and the Host header', () => {
  it('does not reflect a port that cannot be one (99999)', async () => {
    const server = await start();
    const res = await server.app.inject({ method: 'GET', url: '/api/sites', headers: { host: '127.0.0.1:99999' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('99999');
    expect(res.json()).toEqual({
      sites: { NY: 'http://ny.localhost/', TX: 'http://tx.localhost/', CA: 'http://ca.localhost/', FL: 'http://fl.localhost/' },
    });
  });

  it('with PTAX_PUBLIC_URL, takes the scheme and port from it, never from Host', async () => {
    const server = await start({ publicUrl: 'https://www.example.org:8443', sites: parseSites('www.example.org=HUB,tx.example.org=TX') });
    const res = await server.app.inject({ method: 'GET', url: '/api/sites', headers: { host: 'www.example.org:1234' } });
    expect(res.json()).toEqual({ sites: { TX: 'https://tx.example.org:8443/', HUB: 'https://www.example.org:8443/' } });
  });
});

describe('the client behind a trusted proxy', () => {
  it('a string in X-Forwarded-For that is not an address gets no budget of its own', async () => {
    for (const trustProxy of [1, ['127.0.0.1']] as const) {
      await awayFromMinuteBoundary();
      const server = await start({ trustProxy: trustProxy as number | string[], rateLimitPerMinute: 2 });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await postJson(server.baseUrl, PATHS.notify, VALID.notify, { 'x-forwarded-for': `client-${i}` })).status);
      expect(statuses, String(trustProxy)).toEqual([200, 200, 429, 429]);
    }
  });

  it('takes the address the trusted proxy saw (the rightmost), whatever the visitor put before it', async () => {
    await awayFromMinuteBoundary();
    const server = await start({ trustProxy: 1, rateLimitPerMinute: 2 });
    const from = (xff: string) => postJson(server.baseUrl, PATHS.notify, VALID.notify, { 'x-forwarded-for': xff });
    const statuses = [
      await from('198.51.100.1, 203.0.113.9'),
      await from('198.51.100.2, 203.0.113.9'),
      await from('garbage, 203.0.113.9'),
      await from('203.0.113.10'),
    ].map((r) => r.status);
    expect(statuses).toEqual([200, 200, 429, 200]);
  });

  it('counts an IPv6 client by its /64 (one host holds a whole /64)', async () => {
    await awayFromMinuteBoundary();
    const server = await start({ trustProxy: 1, rateLimitPerMinute: 2 });
    const from = (xff: string) => postJson(server.baseUrl, PATHS.notify, VALID.notify, { 'x-forwarded-for': xff });
    const statuses = [await from('2001:db8:1:2::1'), await from('2001:db8:1:2::2'), await from('2001:db8:1:2:ffff::3'), await from('2001:db8:1:3::1')].map(
      (r) => r.status,
    );
    expect(statuses).toEqual([200, 200, 429, 200]);
  });
});

describe('the outbox sends with bounded concurrency', () => {
  it('has several mails in flight at once, never more than its bound', async () => {
    const dir = makeTempDir();
    const db = openDatabase(join(dir, 'outbox.sqlite'));
    const outbox = new Outbox(db, 'localhost');
    const now = new Date();
    for (let i = 0; i < 30; i++) {
      outbox.enqueue('confirm_newsletter', { to: `m${i}@example.com`, subject: 's', text: 't', html: '<p>t</p>', headers: {}, language: 'en' } as never, now);
    }
    let inFlight = 0;
    let most = 0;
    let sent = 0;
    const transport: MailTransport = {
      description: 'test',
      async send() {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await sleep(20);
        inFlight -= 1;
        sent += 1;
      },
      close() {},
    };
    const silent = {
      info() {},
      warn() {},
      error() {},
      debug() {},
      trace() {},
      fatal() {},
      child() {
        return silent;
      },
      level: 'silent',
    } as never;
    const worker = new MailWorker(
      db,
      transport,
      { retryBaseMs: 50, retryMaxMs: 1_000, leaseMs: 10_000, pollMs: 50, giveUpAfterMs: 86_400_000, from: 'x <x@localhost>' },
      silent,
    );
    try {
      worker.start();
      const deadline = Date.now() + 10_000;
      while (sent < 30 && Date.now() < deadline) await sleep(10);
      await worker.stop();
      expect(sent).toBe(30);
      expect(most).toBeGreaterThan(1);
      expect(most).toBeLessThanOrEqual(MailWorker.CONCURRENCY);
      expect(db.prepare("SELECT count(*) AS n FROM mail_outbox WHERE status = 'sent'").get()).toEqual({ n: 30 });
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('pools SMTP connections: fewer connections than mails', async () => {
    const smtp = await startSmtp();
    const server = await start({ smtpUrl: smtp.url, mailPollMs: 50, mailTimeoutMs: 2_000, rateLimitPerMinute: 10_000 });
    try {
      for (let i = 0; i < 12; i++) expect((await postJson(server.baseUrl, PATHS.notify, { ...VALID.notify, email: `pool-${i}@example.com` })).status).toBe(200);
      await waitForOutbox(server.dbPath);
      expect(smtp.received).toHaveLength(12);
      expect(smtp.connections).toBeLessThan(12);
    } finally {
      await smtp.close();
    }
  });
});
