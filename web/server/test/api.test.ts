import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '../http/messages.js';
import { PATHS, VALID, awayFromMinuteBoundary, postJson, queryRows, send, startTestServer, type TestServer } from './helpers.js';

interface SubscriberRow {
  email: string;
  state: string;
  first_name: string | null;
  language: string;
  tags: string;
  source: string;
  status: string;
}

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

const subscribers = () => queryRows<SubscriberRow>(server.dbPath, 'SELECT * FROM subscribers ORDER BY id');
const count = (table: string) => queryRows<{ n: number }>(server.dbPath, `SELECT count(*) AS n FROM ${table}`)[0]?.n;

describe('POST /api/newsletter/subscribe', () => {
  it('stores a banner subscription as pending, with a hashed confirmation token and its mail queued in the same commit', async () => {
    const res = await postJson(server.baseUrl, PATHS.subscribe, VALID.banner);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json).toEqual({ error: null, message: MESSAGES.subscribed.en, status: 200 });
    const [row, ...others] = subscribers();
    expect(others).toEqual([]);
    expect(row).toMatchObject({
      email: 'ann@example.com',
      state: 'NY',
      first_name: null,
      language: 'en',
      tags: '["ny-newsletter","property-tax-updates"]',
      source: 'banner',
      status: 'pending',
    });
    // Tokens are stored as SHA-256 hex only: one to confirm (expires), one to unsubscribe (does not).
    const tokens = queryRows<{ hash: string; purpose: string; list: string; expires_at: string | null }>(
      server.dbPath,
      'SELECT hash, purpose, list, expires_at FROM tokens ORDER BY purpose',
    );
    expect(tokens.map((t) => [t.purpose, t.list, t.hash.length, /^[0-9a-f]{64}$/.test(t.hash), t.expires_at === null])).toEqual([
      ['confirm', 'newsletter', 64, true, false],
      ['unsubscribe', 'newsletter', 64, true, true],
    ]);
    expect(queryRows(server.dbPath, 'SELECT kind, recipient FROM mail_outbox')).toEqual([{ kind: 'confirm_newsletter', recipient: 'ann@example.com' }]);
  });

  it('stores a popup subscription with the first name and nothing about the property', async () => {
    const res = await postJson(server.baseUrl, PATHS.subscribe, VALID.popup);
    expect(res.status).toBe(200);
    expect(subscribers()).toMatchObject([{ email: 'ann@example.com', first_name: 'Ann', source: 'popup', tags: '["county-kings","ny-calculator"]' }]);
    const columns = queryRows<{ name: string }>(server.dbPath, 'PRAGMA table_info(subscribers)').map((c) => c.name);
    expect(columns).toEqual(['id', 'email', 'state', 'first_name', 'language', 'tags', 'source', 'status', 'created_at', 'updated_at', 'confirmed_at']);
  });

  it('normalises case: lower-case state stored upper, email stored lower', async () => {
    const res = await postJson(server.baseUrl, PATHS.subscribe, { email: 'Dan.O@Example.COM', state: 'tx', language: 'es', tags: ['tx-newsletter'] });
    expect(res.status).toBe(200);
    expect(subscribers()).toMatchObject([{ email: 'dan.o@example.com', state: 'TX', language: 'es', tags: '["tx-newsletter"]' }]);
  });

  it('changes nothing on a repeat sign-up (a new confirmation mail carries the change), answered the same', async () => {
    const first = await postJson(server.baseUrl, PATHS.subscribe, VALID.banner);
    const second = await postJson(server.baseUrl, PATHS.subscribe, { ...VALID.popup, email: 'ANN@example.com', language: 'es' });
    const third = await postJson(server.baseUrl, PATHS.subscribe, VALID.banner);
    expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
    // Identical answers: a caller cannot tell whether the address was already subscribed.
    expect(third.text).toBe(first.text);
    const rows = subscribers();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      email: 'ann@example.com',
      first_name: null,
      language: 'en',
      source: 'banner',
      status: 'pending',
      tags: '["ny-newsletter","property-tax-updates"]',
    });
    // One confirmation mail per sign-up; the repeat's link holds what it asked for.
    expect(count('mail_outbox')).toBe(3);
    expect(queryRows(server.dbPath, "SELECT changes FROM tokens WHERE purpose = 'confirm' ORDER BY created_at, rowid").map((r) => r.changes)).toEqual([
      null,
      JSON.stringify({ language: 'es', tags: ['county-kings', 'ny-calculator'], firstName: 'Ann', source: 'popup' }),
      JSON.stringify({ language: 'en', tags: ['ny-newsletter', 'property-tax-updates'], firstName: null, source: 'banner' }),
    ]);
  });

  it('keeps the same email for another state as another subscriber', async () => {
    await postJson(server.baseUrl, PATHS.subscribe, VALID.banner);
    await postJson(server.baseUrl, PATHS.subscribe, { ...VALID.banner, state: 'CA', tags: ['ca-newsletter'] });
    expect(subscribers().map((r) => [r.email, r.state, r.tags])).toEqual([
      ['ann@example.com', 'NY', '["ny-newsletter","property-tax-updates"]'],
      ['ann@example.com', 'CA', '["ca-newsletter"]'],
    ]);
  });

  it.each([
    ['email missing', { state: 'NY' }, 'email_required'],
    ['email empty', { email: '', state: 'NY' }, 'email_required'],
    ['email without domain', { email: 'ann@', state: 'NY' }, 'invalid_email'],
    ['email with CRLF header injection', { email: 'ann@example.com\r\nBcc: x@evil.com', state: 'NY' }, 'invalid_email'],
    ['state missing', { email: 'ann@example.com' }, 'state_required'],
    ['state unknown', { email: 'ann@example.com', state: 'ZZ' }, 'invalid_state'],
    ['state in mixed case', { email: 'ann@example.com', state: 'Ny' }, 'invalid_state'],
    ['language unsupported', { email: 'ann@example.com', state: 'NY', language: 'fr' }, 'invalid_language'],
    ['popup without first name (county)', { email: 'ann@example.com', state: 'NY', county: 'Kings' }, 'first_name_required'],
    ['popup without first name (calculatedTax)', { email: 'ann@example.com', state: 'NY', calculatedTax: 10 }, 'first_name_required'],
    ['first name blank', { email: 'ann@example.com', state: 'NY', firstName: '   ' }, 'invalid_first_name'],
    ['first name empty', { email: 'ann@example.com', state: 'NY', firstName: '' }, 'first_name_required'],
    ['tag unknown', { email: 'ann@example.com', state: 'NY', tags: ['vip'] }, 'invalid_tags'],
    ['tag of another state', { email: 'ann@example.com', state: 'NY', tags: ['tx-newsletter'] }, 'invalid_tags'],
    ['county tag not kebab', { email: 'ann@example.com', state: 'NY', tags: ['county-Kings'] }, 'invalid_tags'],
    ['calculatedTax as string', { ...VALID.popup, calculatedTax: '4321' }, 'invalid_calculated_tax'],
    ['calculatedTax negative', { ...VALID.popup, calculatedTax: -1 }, 'invalid_calculated_tax'],
    ['unknown field', { ...VALID.banner, isAdmin: true }, 'unknown_field'],
  ])('refuses %s', async (_name, payload, code) => {
    const res = await postJson(server.baseUrl, PATHS.subscribe, payload);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: code, message: MESSAGES[code as keyof typeof MESSAGES].en, status: 400 });
    expect(count('subscribers')).toBe(0);
  });
});

describe('languages of answers', () => {
  it("uses the payload's language", async () => {
    const ok = await postJson(server.baseUrl, PATHS.subscribe, { ...VALID.banner, language: 'es' });
    expect(ok.json).toEqual({ error: null, message: MESSAGES.subscribed.es, status: 200 });
    const bad = await postJson(server.baseUrl, PATHS.subscribe, { email: 'nope', state: 'NY', language: 'es' });
    expect(bad.json).toEqual({ error: 'invalid_email', message: MESSAGES.invalid_email.es, status: 400 });
  });

  it('falls back to Accept-Language, then to English', async () => {
    const es = await postJson(server.baseUrl, PATHS.subscribe, { email: 'nope', state: 'NY' }, { 'accept-language': 'fr-FR, es-MX;q=0.8, en;q=0.5' });
    expect(es.json).toMatchObject({ message: MESSAGES.invalid_email.es });
    const invalidLanguage = await postJson(server.baseUrl, PATHS.subscribe, { ...VALID.banner, language: 'fr' }, { 'accept-language': 'es' });
    expect(invalidLanguage.json).toMatchObject({ error: 'invalid_language', message: MESSAGES.invalid_language.es });
    const en = await postJson(server.baseUrl, PATHS.subscribe, { email: 'nope', state: 'NY' }, { 'accept-language': 'de' });
    expect(en.json).toMatchObject({ message: MESSAGES.invalid_email.en });
  });
});

describe('the hub edition (HUB)', () => {
  it('subscribes to the hub newsletter with its own tags, in either case', async () => {
    const banner = await postJson(server.baseUrl, PATHS.subscribe, {
      email: 'hub@example.com',
      state: 'HUB',
      language: 'en',
      tags: ['hub-newsletter', 'property-tax-updates'],
    });
    const popup = await postJson(server.baseUrl, PATHS.subscribe, {
      email: 'hub2@example.com',
      state: 'hub',
      firstName: 'Hu',
      calculatedTax: 0,
      tags: ['hub-calculator'],
    });
    expect([banner.status, popup.status]).toEqual([200, 200]);
    expect(subscribers()).toMatchObject([
      { email: 'hub@example.com', state: 'HUB', tags: '["hub-newsletter","property-tax-updates"]', first_name: null },
      { email: 'hub2@example.com', state: 'HUB', tags: '["hub-calculator"]', first_name: 'Hu' },
    ]);
  });

  it("refuses a hub tag on a state's subscription and a state's tag on the hub's", async () => {
    for (const payload of [
      { email: 'ann@example.com', state: 'NY', tags: ['hub-newsletter'] },
      { email: 'ann@example.com', state: 'HUB', tags: ['ny-newsletter'] },
    ]) {
      const res = await postJson(server.baseUrl, PATHS.subscribe, payload);
      expect(res.json).toMatchObject({ error: 'invalid_tags', status: 400 });
    }
    expect(count('subscribers')).toBe(0);
  });

  it('takes HUB on the notify and contact forms', async () => {
    expect((await postJson(server.baseUrl, PATHS.notify, { email: 'bob@example.com', state: 'HUB' })).status).toBe(200);
    expect((await postJson(server.baseUrl, PATHS.contact, { ...VALID.contact, state: 'HUB' })).status).toBe(200);
    expect(queryRows(server.dbPath, 'SELECT state FROM notify_requests UNION ALL SELECT state FROM contact_messages')).toEqual([
      { state: 'HUB' },
      { state: 'HUB' },
    ]);
  });
});

describe('POST /api/notify', () => {
  it("stores one pending request per email and state (a repeat changes nothing); without a state, the host's edition", async () => {
    const first = await postJson(server.baseUrl, PATHS.notify, VALID.notify);
    const again = await postJson(server.baseUrl, PATHS.notify, { ...VALID.notify, email: 'Bob@Example.com', language: 'es' });
    const noState = await postJson(server.baseUrl, PATHS.notify, { email: 'bob@example.com' }); // to 127.0.0.1: the hub
    const onTexas = await postJson(server.baseUrl, PATHS.notify, { email: 'bob@example.com' }, { host: 'TX.localhost:8080' });
    const stated = await postJson(server.baseUrl, PATHS.notify, { email: 'bob@example.com', state: 'CA' }, { host: 'tx.localhost' });
    expect(first.json).toEqual({ error: null, message: MESSAGES.notify_registered.en, status: 200 });
    expect(again.json).toEqual({ error: null, message: MESSAGES.notify_registered.es, status: 200 });
    expect([noState.status, onTexas.status, stated.status]).toEqual([200, 200, 200]);
    expect(queryRows(server.dbPath, 'SELECT email, state, language, status FROM notify_requests ORDER BY id')).toEqual([
      { email: 'bob@example.com', state: 'FL', language: 'en', status: 'pending' },
      { email: 'bob@example.com', state: 'HUB', language: 'en', status: 'pending' },
      { email: 'bob@example.com', state: 'TX', language: 'en', status: 'pending' },
      { email: 'bob@example.com', state: 'CA', language: 'en', status: 'pending' },
    ]);
  });

  it.each([
    [{}, 'email_required'],
    [{ email: 'bob@@example.com' }, 'invalid_email'],
    [{ email: 'bob@example.com', state: 'Texas' }, 'invalid_state'],
    [{ email: 'bob@example.com', firstName: 'Bob' }, 'unknown_field'],
  ])('refuses %j', async (payload, code) => {
    const res = await postJson(server.baseUrl, PATHS.notify, payload);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: code, status: 400 });
    expect(count('notify_requests')).toBe(0);
  });
});

describe('POST /api/contact', () => {
  it("stores the message as sent; without a state, the host's edition", async () => {
    const res = await postJson(server.baseUrl, PATHS.contact, VALID.contact);
    expect(res.json).toEqual({ error: null, message: MESSAGES.contact_received.es, status: 200 });
    expect((await postJson(server.baseUrl, PATHS.contact, VALID.contact, { host: 'fl.localhost:8080' })).status).toBe(200);
    expect(queryRows(server.dbPath, 'SELECT name, email, subject, message, state, language FROM contact_messages ORDER BY id')).toEqual([
      { ...VALID.contact, state: 'HUB' },
      { ...VALID.contact, state: 'FL' },
    ]);
  });

  it.each([
    ['name missing', { ...VALID.contact, name: undefined }, 'name_required'],
    ['subject with a line break', { ...VALID.contact, subject: 'Hi\r\nBcc: x@evil.com' }, 'invalid_subject'],
    ['subject too long', { ...VALID.contact, subject: 's'.repeat(151) }, 'invalid_subject'],
    ['message empty', { ...VALID.contact, message: '' }, 'message_required'],
    ['message too long', { ...VALID.contact, message: 'm'.repeat(4001) }, 'invalid_message'],
    ['message with a bidi override', { ...VALID.contact, message: 'pay \u202Eoliver' }, 'invalid_message'],
    ['name with a zero-width space', { ...VALID.contact, name: 'Car\u200Bla' }, 'invalid_name'],
  ])('refuses %s', async (_name, payload, code) => {
    const res = await postJson(server.baseUrl, PATHS.contact, payload);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: code, status: 400 });
    expect(count('contact_messages')).toBe(0);
  });
});

describe('transport limits and unknown routes', () => {
  it('refuses a body above 16 KB with 413 JSON', async () => {
    const res = await postJson(server.baseUrl, PATHS.contact, { ...VALID.contact, message: 'x'.repeat(17 * 1024) });
    expect(res.status).toBe(413);
    expect(res.json).toEqual({ error: 'body_too_large', message: MESSAGES.body_too_large.en, status: 413 });
  });

  it('refuses a non-JSON content type with 415 JSON', async () => {
    const res = await send(server.baseUrl, {
      method: 'POST',
      path: PATHS.subscribe,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=ann%40example.com&state=NY',
    });
    expect(res.status).toBe(415);
    expect(res.json).toEqual({ error: 'unsupported_media_type', message: MESSAGES.unsupported_media_type.en, status: 415 });
  });

  it('refuses broken JSON with 400 JSON', async () => {
    const res = await send(server.baseUrl, { method: 'POST', path: PATHS.notify, headers: { 'content-type': 'application/json' }, body: '{"email":' });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: 'invalid_json', message: MESSAGES.invalid_json.en, status: 400 });
  });

  it('answers unknown API paths and methods with 404 JSON', async () => {
    for (const req of [{ path: '/api/nope' }, { path: PATHS.subscribe }, { method: 'DELETE', path: PATHS.contact }]) {
      const res = await send(server.baseUrl, req);
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ error: 'not_found', message: MESSAGES.not_found.en, status: 404 });
    }
  });

  it('reports readiness on /healthz', async () => {
    const res = await send(server.baseUrl, { path: '/healthz' });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json).toEqual({ error: null, message: 'ok', status: 200 });
  });
});

describe('rate limit', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ rateLimitPerMinute: 3 });
  });
  afterAll(async () => {
    await limited.close();
  });

  it('shares one per-address budget across the form routes and answers 429 JSON past it', async () => {
    await awayFromMinuteBoundary();
    const answers = [
      await postJson(limited.baseUrl, PATHS.subscribe, VALID.banner),
      await postJson(limited.baseUrl, PATHS.notify, VALID.notify),
      await postJson(limited.baseUrl, PATHS.subscribe, { email: 'bad' }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 400]);

    const refused = await postJson(limited.baseUrl, PATHS.contact, VALID.contact, { 'accept-language': 'es' });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    // Refused before the body is read, so Accept-Language picks the language.
    expect(refused.json).toEqual({ error: 'rate_limited', message: MESSAGES.rate_limited.es, status: 429 });
    expect(queryRows(limited.dbPath, 'SELECT count(*) AS n FROM contact_messages')).toEqual([{ n: 0 }]);

    // Reads are not limited.
    expect((await send(limited.baseUrl, { path: '/healthz' })).status).toBe(200);
  });
});
