import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrubText, scrubValue } from '../http/logging.js';
import { PATHS, VALID, postJson, send, startTestServer, type TestServer } from './helpers.js';

describe('scrubText', () => {
  it.each([
    ['subscribe ann@example.com now', 'subscribe [email] now'],
    ['"Ann.Lee+tag@Sub.Example.co.uk" is not valid JSON', '"[email]" is not valid JSON'],
    ['/api/x?email=ann%40example.com&x=1', '/api/x?email=[email]&x=1'],
    ['escaped ann\\u0040example.com', 'escaped [email]'],
    ['full-width ann＠example.com', 'full-width [email]'],
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
  });

  it('record that confirmations are due, by row id', () => {
    const due = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((e) => e.msg === 'confirmation email would be sent');
    expect(due).toEqual([
      expect.objectContaining({ list: 'newsletter', rowId: 1, newRow: true }),
      expect.objectContaining({ list: 'notify', rowId: 1, newRow: true }),
    ]);
  });
});
