import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '../http/messages.js';
import { CONTENT_SECURITY_POLICY, HSTS } from '../http/security-headers.js';
import { PATHS, VALID, awayFromMinuteBoundary, postJson, queryRows, send, startTestServer, type TestServer } from './helpers.js';

/**
 * What an outside test of the server found, each with its fix: a database that cannot take
 * writes, slow clients, requests during shutdown, charsets, HSTS behind a proxy, the client
 * address behind a proxy, a rate limit shared by processes, names with joiners.
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

const count = (server: TestServer, table: string) => queryRows<{ n: number }>(server.dbPath, `SELECT count(*) AS n FROM ${table}`)[0]?.n;

describe('a database that cannot take writes', () => {
  it('read-only: /healthz and the forms answer 503 with Retry-After, not 200 and 500', async () => {
    const server = await start();
    expect((await send(server.baseUrl, { path: '/healthz' })).status).toBe(200);
    server.app.ptax.db.pragma('query_only = ON'); // what a read-only file does to the server's writes
    const health = await send(server.baseUrl, { path: '/healthz' });
    expect(health.status).toBe(503);
    expect(health.headers['retry-after']).toBe('5');
    expect(health.json).toEqual({ error: 'unavailable', message: MESSAGES.unavailable.en, status: 503 });
    const write = await postJson(server.baseUrl, PATHS.subscribe, VALID.banner);
    expect(write.status).toBe(503);
    expect(write.headers['retry-after']).toBe('5');
    expect(write.json).toEqual({ error: 'unavailable', message: MESSAGES.unavailable.en, status: 503 });
    server.app.ptax.db.pragma('query_only = OFF');
    expect((await send(server.baseUrl, { path: '/healthz' })).status).toBe(200);
  });

  it('full: a write that needs a new page answers 503 with Retry-After', async () => {
    const server = await start();
    const db = server.app.ptax.db;
    db.exec('CREATE TABLE filler (x BLOB)');
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    try {
      for (;;) db.prepare('INSERT INTO filler VALUES (randomblob(1000))').run();
    } catch {
      // database or disk is full
    }
    // 8,000 bytes: more than a page, so the row needs new (overflow) pages.
    const res = await postJson(server.baseUrl, PATHS.contact, { ...VALID.contact, message: '\u00e9'.repeat(4000) });
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json).toMatchObject({ error: 'unavailable', status: 503 });
  });
});

/** Opens a raw connection; collects what the server sends until it closes the connection. */
function rawClient(baseUrl: string): { socket: Socket; closed: Promise<{ data: string; at: number }> } {
  const url = new URL(baseUrl);
  const socket = connect(Number(url.port), url.hostname);
  let data = '';
  socket.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
  socket.on('error', () => undefined);
  const closed = new Promise<{ data: string; at: number }>((resolve) => socket.on('close', () => resolve({ data, at: Date.now() })));
  return { socket, closed };
}

describe('slow clients', () => {
  it('a body sent one byte at a time is cut at the request timeout with 408 JSON', async () => {
    const server = await start({ requestTimeoutMs: 1_000, headersTimeoutMs: 500 });
    const { socket, closed } = rawClient(server.baseUrl);
    const started = Date.now();
    socket.write(`POST ${PATHS.contact} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{`);
    const drip = setInterval(() => socket.writable && socket.write(' '), 200);
    const { data, at } = await closed;
    clearInterval(drip);
    expect(data).toMatch(/^HTTP\/1\.1 408 /);
    expect(data).toContain('"status":408');
    // Cut after the 1 s limit (checked every 125 ms here), long before the drip would end (100 s).
    expect(at - started).toBeLessThan(5_000);
    expect(count(server, 'contact_messages')).toBe(0);
  });

  it('headers sent slowly are cut at the headers timeout', async () => {
    const server = await start({ requestTimeoutMs: 2_000, headersTimeoutMs: 500 });
    const { socket, closed } = rawClient(server.baseUrl);
    const started = Date.now();
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const drip = setInterval(() => socket.writable && socket.write('X-A: b\r\n'), 100);
    const { data, at } = await closed;
    clearInterval(drip);
    expect(data).toMatch(/^HTTP\/1\.1 408 /);
    expect(at - started).toBeLessThan(5_000);
  });
});

describe('shutdown', () => {
  it('answers a request arriving during shutdown with the API 503: JSON, security headers, Retry-After', async () => {
    const server = await start();
    const { socket, closed } = rawClient(server.baseUrl);
    const body = JSON.stringify(VALID.contact);
    // Request A is in flight (its body not complete) when the server starts closing.
    socket.write(`POST ${PATHS.contact} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
    socket.write(body.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = server.app.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // A completes; B, pipelined behind it on the same connection, arrives while closing.
    socket.write(body.slice(10));
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: es\r\n\r\n');
    const { data } = await closed;
    await closing;
    const responses = data.split(/(?=HTTP\/1\.1 \d{3} )/);
    expect(responses).toHaveLength(2);
    expect(responses[0]).toMatch(/^HTTP\/1\.1 200 /);
    const [head, json] = responses[1]!.split('\r\n\r\n') as [string, string];
    expect(head).toMatch(/^HTTP\/1\.1 503 /);
    expect(head.toLowerCase()).toContain('retry-after: 5');
    expect(head.toLowerCase()).toContain(`content-security-policy: ${CONTENT_SECURITY_POLICY.toLowerCase()}`);
    expect(head.toLowerCase()).toContain('x-content-type-options: nosniff');
    expect(JSON.parse(json)).toEqual({ error: 'unavailable', message: MESSAGES.unavailable.es, status: 503 });
    expect(queryRows(server.dbPath, 'SELECT count(*) AS n FROM contact_messages')).toEqual([{ n: 1 }]);
  });
});

describe('request bodies are UTF-8', () => {
  it('refuses a declared charset other than UTF-8 with 415, invalid UTF-8 with 400, and stores nothing', async () => {
    const server = await start();
    const latin1 = Buffer.from(JSON.stringify({ ...VALID.contact, name: 'José' }), 'latin1');
    const declared = await send(server.baseUrl, {
      method: 'POST',
      path: PATHS.contact,
      headers: { 'content-type': 'application/json; charset=iso-8859-1' },
      body: latin1,
    });
    expect(declared.status).toBe(415);
    // Refused before the body is read: the language is Accept-Language's, here none (English).
    expect(declared.json).toEqual({ error: 'unsupported_charset', message: MESSAGES.unsupported_charset.en, status: 415 });
    const undeclared = await send(server.baseUrl, { method: 'POST', path: PATHS.contact, headers: { 'content-type': 'application/json' }, body: latin1 });
    expect(undeclared.status).toBe(400);
    expect(undeclared.json).toMatchObject({ error: 'invalid_encoding', status: 400 });
    const quoted = await send(server.baseUrl, {
      method: 'POST',
      path: PATHS.contact,
      headers: { 'content-type': 'application/json; charset="UTF-8"' },
      body: JSON.stringify(VALID.contact),
    });
    expect(quoted.status).toBe(200);
    expect(queryRows(server.dbPath, 'SELECT name FROM contact_messages')).toEqual([{ name: 'Carla Gómez' }]);
  });
});

describe('names with joiners and flags', () => {
  it('accepts a Persian name with a zero-width non-joiner and a subdivision flag, stored as sent', async () => {
    const server = await start();
    const persian = '\u0645\u06cc\u0644\u0627\u062f\u200C\u0631\u0636\u0627';
    const flag = 'Ann \u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}';
    expect((await postJson(server.baseUrl, PATHS.contact, { ...VALID.contact, name: persian })).status).toBe(200);
    expect((await postJson(server.baseUrl, PATHS.subscribe, { ...VALID.popup, firstName: flag })).status).toBe(200);
    expect(queryRows(server.dbPath, 'SELECT name FROM contact_messages')).toEqual([{ name: persian }]);
    expect(queryRows(server.dbPath, 'SELECT first_name FROM subscribers')).toEqual([{ first_name: flag }]);
  });
});

describe('behind a proxy', () => {
  it('sends HSTS when a trusted proxy says the request came over HTTPS, not when anyone else says so', async () => {
    const trusting = await start({ trustProxy: ['127.0.0.1'] });
    const https = await send(trusting.baseUrl, { path: '/healthz', headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers['strict-transport-security']).toBe(HSTS);
    const http = await send(trusting.baseUrl, { path: '/healthz' });
    expect(http.headers['strict-transport-security']).toBeUndefined();
    const direct = await start();
    const spoofed = await send(direct.baseUrl, { path: '/healthz', headers: { 'x-forwarded-proto': 'https' } });
    expect(spoofed.headers['strict-transport-security']).toBeUndefined();
  });

  it('counts the rate limit per real client behind a trusted proxy (hop count or address list)', async () => {
    for (const trustProxy of [1, ['127.0.0.1/8']] as const) {
      await awayFromMinuteBoundary();
      const server = await start({ trustProxy: trustProxy as number | string[], rateLimitPerMinute: 2 });
      const from = (client: string) => postJson(server.baseUrl, PATHS.notify, VALID.notify, { 'x-forwarded-for': client });
      const statuses = [await from('203.0.113.1'), await from('203.0.113.1'), await from('203.0.113.1'), await from('203.0.113.2')].map((r) => r.status);
      // Client 1 spends its budget; client 2, behind the same proxy, still has its own.
      expect(statuses).toEqual([200, 200, 429, 200]);
    }
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy: spoofing it gives no new budget', async () => {
    for (const trustProxy of [false, ['10.0.0.1']] as const) {
      await awayFromMinuteBoundary();
      const server = await start({ trustProxy: trustProxy as false | string[], rateLimitPerMinute: 2 });
      const from = (client: string) => postJson(server.baseUrl, PATHS.notify, VALID.notify, { 'x-forwarded-for': client });
      const statuses = [await from('203.0.113.1'), await from('203.0.113.2'), await from('203.0.113.3')].map((r) => r.status);
      expect(statuses).toEqual([200, 200, 429]);
    }
  });

  it('shares one budget between server processes on the same database file', async () => {
    await awayFromMinuteBoundary();
    const first = await start({ rateLimitPerMinute: 3 });
    const second = await start({ dbPath: first.dbPath, rateLimitPerMinute: 3 });
    const statuses = [
      await postJson(first.baseUrl, PATHS.notify, VALID.notify),
      await postJson(second.baseUrl, PATHS.notify, VALID.notify),
      await postJson(first.baseUrl, PATHS.notify, VALID.notify),
      await postJson(second.baseUrl, PATHS.notify, VALID.notify),
    ].map((r) => r.status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
