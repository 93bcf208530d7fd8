import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrubText, scrubValue } from '../http/logging.js';
import { PATHS, VALID, postJson, send, startTestServer, waitForOutbox, type TestServer } from './helpers.js';

describe('scrubText', () => {
  it.each([
    ['subscribe ann@example.com now', 'subscribe [email] now'],
    ['"Ann.Lee+tag@Sub.Example.co.uk" is not valid JSON', '"[email]" is not valid JSON'],
    ['/api/x?email=ann%40example.com&x=1', '/api/x?email=[email]&x=1'],
    ['escaped ann\\u0040example.com', 'escaped [email]'],
    ['full-width ann＠example.com', 'full-width [email]'],
    ['/confirm?e=ann%2540example.com&x=1', '/confirm?e=[email]&x=1'],
    ['/confirm?e=ann%252540example.com', '/confirm?e=[email]'],
    ['/x?e=ann%EF%BC%A0example.com', '/x?e=[email]'],
    ['/x?e=ann%25EF%25BC%25A0example.com', '/x?e=[email]'],
    ['/x?e=ann%ef%b9%abexample.com', '/x?e=[email]'],
    ['html ann&#64;example.com', 'html [email]'],
    ['/confirm?token=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MDEy', '/confirm?token=[redacted]'],
    ['/es/cancelar-suscripcion?x=1&token=abc-DEF_123', '/es/cancelar-suscripcion?x=1&token=[redacted]'],
    ['ssn 123-45-6789 and 123 45 6789 and 123456789', 'ssn [ssn] and [ssn] and [ssn]'],
    ['?password=hunter2&x=1', '?password=[redacted]&x=1'],
    ['{"password":"hunter2"}', '{"password":"[redacted]"}'],
    ['node_modules/@fastify/static/index.js:12', 'node_modules/@fastify/static/index.js:12'],
  ])('%s', (input, expected) => {
    expect(scrubText(input)).toBe(expected);
  });

  it('scrubs strings nested in plain objects and arrays only', () => {
    const error = new Error('ann@example.com');
    expect(scrubValue({ a: ['x ann@example.com'], b: { c: 'ssn 123-45-6789' }, error })).toEqual({
      a: ['x [email]'],
      b: { c: 'ssn [ssn]' },
      error,
    });
  });
});

describe('server logs', () => {
  const lines: string[] = [];
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ logLevel: 'info', logStream: { write: (line: string) => void lines.push(line) } });
    await postJson(server.baseUrl, PATHS.subscribe, VALID.popup);
    await postJson(server.baseUrl, PATHS.notify, VALID.notify);
    await postJson(server.baseUrl, PATHS.contact, { ...VALID.contact, message: 'My SSN is 123-45-6789 and my password is hunter2' });
    await postJson(server.baseUrl, PATHS.subscribe, { email: 'eve@example.com\r\nBcc: x@evil.com', state: 'NY' });
    await send(server.baseUrl, {
      method: 'POST',
      path: PATHS.notify,
      headers: { 'content-type': 'application/json' },
      body: '{"email":"broken@example.com", "ssn": "123-45-6789", "password": "hunter2"',
    });
    await send(server.baseUrl, { path: '/api/lookup?email=query@example.com&password=hunter2&ssn=123-45-6789' });
    await send(server.baseUrl, { path: '/healthz', headers: { authorization: 'Bearer secret-token', cookie: 'session=abc' } });
    await send(server.baseUrl, { path: '/confirm?token=x&e=ann%2540example.com&f=ann%EF%BC%A0example.com' });
    await waitForOutbox(server.dbPath);
  });
  afterAll(async () => {
    await server.close();
  });

  it('are one JSON object per line', () => {
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('contain no e-mail address, SSN, password or credentials', () => {
    const all = lines.join('\n');
    expect(all).not.toMatch(/[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+\.[A-Za-z]/);
    expect(all).not.toContain('%40');
    expect(all).not.toMatch(/\d{3}-\d{2}-\d{4}/);
    expect(all).not.toContain('hunter2');
    expect(all).not.toContain('secret-token');
    expect(all).not.toContain('session=abc');
    expect(all).not.toContain('token=x&');
    expect(all).toContain('/confirm?token=[redacted]');
  });

  it('record the sign-ups and the mails sent by row id, never by address', () => {
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.filter((e) => e.msg === 'sign-up stored')).toEqual([
      expect.objectContaining({ list: 'newsletter', rowId: 1, newRow: true, mailQueued: true }),
      expect.objectContaining({ list: 'notify', rowId: 1, newRow: true, mailQueued: true }),
    ]);
    expect(entries.filter((e) => e.msg === 'mail sent')).toEqual([
      expect.objectContaining({ mailId: 1, kind: 'confirm_newsletter', attempts: 1 }),
      expect.objectContaining({ mailId: 2, kind: 'confirm_notify', attempts: 1 }),
    ]);
  });
});
