import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { simpleParser } from 'mailparser';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '../http/messages.js';
import { hashToken } from '../mail/tokens.js';
import { PATHS, VALID, postJson, queryRows, send, startTestServer, waitForOutbox, type RawResponse, type TestServer } from './helpers.js';
import { headerLine, linksOf, startSmtp, type ReceivedMail, type TestSmtp } from './smtp.js';

/**
 * The mail flows against a real SMTP server in the test process: what the confirmation mail
 * says and links to, following the links (confirm, unsubscribe, delete), the outbox's retries
 * and its promise of one delivery, and retention.
 */
let smtp: TestSmtp;
let server: TestServer;

const fast = { mailRetryBaseMs: 50, mailPollMs: 50, mailTimeoutMs: 2_000 };

beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(async () => {
  await smtp.close();
});
beforeEach(async () => {
  smtp.received.length = 0;
  smtp.attempts = 0;
  smtp.refuseNext = 0;
  smtp.dropNext = 0;
  smtp.stall = false;
  server = await startTestServer({ smtpUrl: smtp.url, ...fast });
});
afterEach(async () => {
  await server.close();
});

/** Requests a link from a mail on the test server, with the link's host as Host header. */
function follow(url: URL, method: 'GET' | 'POST' = 'GET', body?: string, contentType = 'application/x-www-form-urlencoded'): Promise<RawResponse> {
  return send(server.baseUrl, {
    method,
    path: `${url.pathname}${url.search}`,
    headers: { host: url.host, ...(body === undefined ? {} : { 'content-type': contentType }) },
    ...(body === undefined ? {} : { body }),
  });
}

function h1(res: RawResponse): string {
  return /<h1>([^<]*)<\/h1>/.exec(res.text)?.[1] ?? '';
}

/** Writes to the server's file through another connection, as an operator (or the clock) would. */
function sql(statement: string, ...params: unknown[]): void {
  const db = new Database(server.dbPath);
  db.pragma('busy_timeout = 5000');
  try {
    db.prepare(statement).run(...params);
  } finally {
    db.close();
  }
}

const rows = <T = Record<string, unknown>>(statement: string, ...params: unknown[]) => queryRows<T>(server.dbPath, statement, ...params);

async function subscribeAndReceive(payload: Record<string, unknown>, index = 0): Promise<ReceivedMail> {
  const res = await postJson(server.baseUrl, PATHS.subscribe, payload);
  expect(res.status).toBe(200);
  return (await smtp.waitFor(index + 1))[index]!;
}

describe('the confirmation mail', () => {
  it('says what was asked for, in English, with the links and the RFC 8058 headers', async () => {
    const mail = await subscribeAndReceive({ ...VALID.banner, state: 'TX', tags: ['tx-newsletter'] });
    const port = new URL(server.baseUrl).port;
    expect(mail.to).toEqual(['ann@example.com']);
    expect(mail.parsed.subject).toBe('Please confirm your subscription: Texas property tax newsletter');
    expect(mail.parsed.from?.value).toEqual([{ name: 'Property tax estimator', address: 'no-reply@localhost' }]);
    expect(headerLine(mail.parsed, 'content-language')).toBe('en');
    expect(mail.parsed.messageId).toMatch(/^<[0-9a-f]{24}@localhost>$/);

    const links = linksOf(mail);
    expect([...links.keys()].sort()).toEqual(['/confirm', '/delete-my-data', '/unsubscribe']);
    // Links go to the Texas edition's host, never to a host taken from the request.
    for (const link of links.values()) expect(link.host).toBe(`tx.localhost:${port}`);
    expect(links.get('/confirm')!.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{32}$/);

    const unsubscribe = links.get('/unsubscribe')!;
    expect(headerLine(mail.parsed, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(headerLine(mail.parsed, 'List-Unsubscribe')).toBe(`<${unsubscribe.toString()}>`);

    expect(mail.parsed.text).toContain('Someone, hopefully you, asked to receive the Texas property tax newsletter at ann@example.com.');
    expect(mail.parsed.text).toContain('it works for 7 days');
    expect(mail.parsed.text).toContain('the request is deleted after 30 days');
    // The HTML part has the same links.
    expect(mail.parsed.html).toContain(`href="${links.get('/confirm')!.toString()}"`);
    expect(mail.parsed.html).toContain('<html lang="en">');
  });

  it("is in the subscriber's language, Spanish, and shows an internationalised address in Unicode", async () => {
    const mail = await subscribeAndReceive({ email: 'José@München.de', state: 'FL', language: 'es', tags: ['fl-newsletter'] }).catch(() => undefined);
    // A non-ASCII local part is refused (only the domain may be internationalised).
    expect(mail).toBeUndefined();
    const ok = await subscribeAndReceive({ email: 'Jose@München.de', state: 'FL', language: 'es', tags: ['fl-newsletter'] });
    // Sent to the stored (punycode) address; the test server shows envelopes in Unicode.
    expect(headerLine(ok.parsed, 'to')).toBe('jose@xn--mnchen-3ya.de');
    expect(ok.to).toEqual(['jose@münchen.de']);
    expect(ok.parsed.subject).toBe('Confirma tu suscripción: boletín de impuestos a la propiedad de Florida');
    expect(ok.parsed.text).toContain('pidió recibir el boletín de impuestos a la propiedad de Florida en jose@münchen.de.');
    expect([...linksOf(ok).keys()].sort()).toEqual(['/es/borrar-mis-datos', '/es/cancelar-suscripcion', '/es/confirmar']);
    expect(rows('SELECT email FROM subscribers')).toEqual([{ email: 'jose@xn--mnchen-3ya.de' }]);
  }, 20_000);

  it('keeps only hashes of the tokens: once the mail is sent, the link is in no row of the database', async () => {
    const mail = await subscribeAndReceive(VALID.banner);
    await waitForOutbox(server.dbPath);
    const links = linksOf(mail);
    const tokens = ['/confirm', '/unsubscribe'].map((path) => links.get(path)!.searchParams.get('token')!);
    for (const token of tokens) {
      expect(rows('SELECT count(*) AS n FROM tokens WHERE hash = ?', hashToken(token))).toEqual([{ n: 1 }]);
      const pattern = `%${token}%`;
      expect(
        rows(
          `SELECT (SELECT count(*) FROM tokens WHERE hash LIKE ? OR coalesce(changes, '') LIKE ?)
            + (SELECT count(*) FROM mail_outbox WHERE coalesce(message, '') LIKE ? OR message_id LIKE ?) AS n`,
          pattern,
          pattern,
          pattern,
          pattern,
        ),
      ).toEqual([{ n: 0 }]);
    }
    // The sent mail's body (with its links) is gone from the outbox.
    expect(rows('SELECT status, message FROM mail_outbox')).toEqual([{ status: 'sent', message: null }]);
  });
});

describe('double opt-in', () => {
  it('confirms on the link, once; the page is in the stored language; a second use gets the clear page', async () => {
    const mail = await subscribeAndReceive({ ...VALID.banner, language: 'es' });
    const confirm = linksOf(mail).get('/es/confirmar')!;
    expect(rows('SELECT status FROM subscribers')).toEqual([{ status: 'pending' }]);

    // Opening the link (a GET, as a mail scanner does too) only shows the button.
    const button = await follow(confirm);
    expect([button.status, h1(button)]).toEqual([200, 'Confirma tu suscripción']);
    expect(rows('SELECT status FROM subscribers')).toEqual([{ status: 'pending' }]);
    const page = await follow(confirm, 'POST', '');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.text).toContain('<html lang="es">');
    expect(h1(page)).toBe('Suscripción confirmada');
    expect(rows('SELECT status, confirmed_at IS NOT NULL AS c FROM subscribers')).toEqual([{ status: 'confirmed', c: 1 }]);

    const again = await follow(confirm, 'POST', '');
    expect(again.status).toBe(200);
    expect(h1(await follow(confirm))).toBe('Este enlace caducó o ya se usó');
    expect(h1(again)).toBe('Este enlace caducó o ya se usó');
    // On the English path an unknown token gets the English page.
    const unknown = await send(server.baseUrl, { path: '/confirm?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    expect([unknown.status, h1(unknown)]).toEqual([200, 'This link has expired or was already used']);
    const garbage = await send(server.baseUrl, { path: '/confirm?token=%3Cscript%3E&token=x' });
    expect([garbage.status, h1(garbage)]).toEqual([200, 'This link has expired or was already used']);
    expect(garbage.text).not.toContain('<script>');
  });

  it('does not confirm with an expired link (7 days by default)', async () => {
    const mail = await subscribeAndReceive(VALID.banner);
    sql("UPDATE tokens SET expires_at = '2000-01-01T00:00:00.000Z' WHERE purpose = 'confirm'");
    const page = await follow(linksOf(mail).get('/confirm')!, 'POST', '');
    expect([page.status, h1(page)]).toEqual([200, 'This link has expired or was already used']);
    expect(page.text).toContain('Confirmation links work once, for 7 days.');
    expect(rows('SELECT status FROM subscribers')).toEqual([{ status: 'pending' }]);
  });

  it('applies a repeat sign-up only when its own link is followed, even on a confirmed row', async () => {
    const first = await subscribeAndReceive(VALID.banner);
    await follow(linksOf(first).get('/confirm')!, 'POST', '');
    const repeat = await subscribeAndReceive({ ...VALID.popup, language: 'es', firstName: 'Mallory' }, 1);
    // Nothing changed yet: whoever posted the address may not be its owner.
    expect(rows('SELECT first_name, language, tags, status FROM subscribers')).toEqual([
      { first_name: null, language: 'en', tags: '["ny-newsletter","property-tax-updates"]', status: 'confirmed' },
    ]);
    expect(repeat.parsed.subject).toBe('Confirma tu suscripción: boletín de impuestos a la propiedad de Nueva York');
    await follow(linksOf(repeat).get('/es/confirmar')!, 'POST', '');
    expect(rows('SELECT first_name, language, tags, status FROM subscribers')).toEqual([
      {
        first_name: 'Mallory',
        language: 'es',
        tags: '["county-kings","ny-calculator","ny-newsletter","property-tax-updates"]',
        status: 'confirmed',
      },
    ]);
  });

  it('bounds the tags of a row at 20, however many repeat sign-ups are confirmed', async () => {
    let index = 0;
    for (let round = 0; round < 3; round++) {
      const tags = Array.from({ length: 10 }, (_, i) => `county-r${String.fromCharCode(97 + round)}${String.fromCharCode(97 + i)}`);
      const mail = await subscribeAndReceive({ ...VALID.banner, tags }, index++);
      await follow(linksOf(mail).get('/confirm')!, 'POST', '');
    }
    const [row] = rows<{ tags: string }>('SELECT tags FROM subscribers');
    expect(JSON.parse(row!.tags)).toHaveLength(20);
  });

  it('sends at most 5 mails per address and hour, and answers the same', async () => {
    const answers: string[] = [];
    for (let i = 0; i < 7; i++) answers.push((await postJson(server.baseUrl, PATHS.subscribe, VALID.banner)).text);
    expect(new Set(answers).size).toBe(1);
    await waitForOutbox(server.dbPath);
    expect(smtp.received).toHaveLength(5);
    expect(rows('SELECT count(*) AS n FROM subscribers')).toEqual([{ n: 1 }]);
  });

  it('the notify list has the same double opt-in', async () => {
    const res = await postJson(server.baseUrl, PATHS.notify, { email: 'bob@example.com', state: 'CA', language: 'en' });
    expect(res.json).toEqual({ error: null, message: MESSAGES.notify_registered.en, status: 200 });
    const [mail] = await smtp.waitFor(1);
    expect(mail!.parsed.subject).toBe('Please confirm your subscription: notice when the new California rates are published');
    const page = await follow(linksOf(mail!).get('/confirm')!, 'POST', '');
    expect(h1(page)).toBe('Subscription confirmed');
    expect(page.text).toContain('you will receive the notice when the new California rates are published');
    expect(rows('SELECT status FROM notify_requests')).toEqual([{ status: 'confirmed' }]);
  });
});

describe('unsubscribe', () => {
  it('shows a page with a button on GET and changes nothing; the button unsubscribes', async () => {
    const mail = await subscribeAndReceive(VALID.banner);
    await follow(linksOf(mail).get('/confirm')!, 'POST', '');
    const link = linksOf(mail).get('/unsubscribe')!;
    const page = await follow(link);
    expect(page.status).toBe(200);
    expect(h1(page)).toBe('Unsubscribe');
    expect(page.text).toContain('Stop sending the New York property tax newsletter to ann@example.com?');
    expect(page.text).toMatch(/<form method="post" action="\/unsubscribe\?token=[A-Za-z0-9_-]{32}"><button type="submit">Unsubscribe<\/button><\/form>/);
    // A link scanner opening the link twice unsubscribes nobody.
    await follow(link);
    expect(rows('SELECT status FROM subscribers')).toEqual([{ status: 'confirmed' }]);

    const done = await follow(link, 'POST', '');
    expect([done.status, h1(done)]).toEqual([200, 'You are unsubscribed']);
    expect(rows('SELECT status FROM subscribers')).toEqual([{ status: 'unsubscribed' }]);
    // The link keeps working (a second press answers the same).
    expect(h1(await follow(link, 'POST', ''))).toBe('You are unsubscribed');
  });

  it('takes the RFC 8058 one-click POST of a mail client, urlencoded or multipart', async () => {
    const mail = await subscribeAndReceive({ ...VALID.banner, language: 'es' });
    const url = new URL(headerLine(mail.parsed, 'List-Unsubscribe')!.replace(/^<|>$/g, ''));
    expect(url.pathname).toBe('/es/cancelar-suscripcion');
    const res = await follow(url, 'POST', 'List-Unsubscribe=One-Click');
    expect(res.status).toBe(200);
    expect(h1(res)).toBe('Suscripción cancelada');
    expect(rows('SELECT status FROM subscribers')).toEqual([{ status: 'unsubscribed' }]);

    const notify = await postJson(server.baseUrl, PATHS.notify, VALID.notify);
    expect(notify.status).toBe(200);
    const [, second] = await smtp.waitFor(2);
    const boundary = 'xYzZY';
    const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`;
    const viaMultipart = await follow(linksOf(second!).get('/unsubscribe')!, 'POST', multipart, `multipart/form-data; boundary=${boundary}`);
    expect(viaMultipart.status).toBe(200);
    // The newsletter and the notify list are unsubscribed each by its own link.
    expect(rows('SELECT status FROM notify_requests')).toEqual([{ status: 'unsubscribed' }]);
  });

  it('an unsubscribed address that signs up again goes back to pending with a new confirmation', async () => {
    const mail = await subscribeAndReceive(VALID.banner);
    await follow(linksOf(mail).get('/unsubscribe')!, 'POST', 'List-Unsubscribe=One-Click');
    // The unsubscribe closed the open confirmation link.
    expect(h1(await follow(linksOf(mail).get('/confirm')!, 'POST', ''))).toBe('This link has expired or was already used');
    const again = await subscribeAndReceive(VALID.banner, 1);
    expect(rows('SELECT status FROM subscribers')).toEqual([{ status: 'pending' }]);
    await follow(linksOf(again).get('/confirm')!, 'POST', '');
    expect(rows('SELECT status FROM subscribers')).toEqual([{ status: 'confirmed' }]);
  });

  it('answers an unknown unsubscribe link with a clear page', async () => {
    const res = await send(server.baseUrl, {
      method: 'POST',
      path: '/unsubscribe?token=BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect([res.status, h1(res)]).toEqual([200, 'This unsubscribe link is not valid']);
  });
});

describe('deletion of everything about an address', () => {
  async function knownEverywhere(): Promise<void> {
    await postJson(server.baseUrl, PATHS.subscribe, VALID.banner);
    await postJson(server.baseUrl, PATHS.subscribe, { ...VALID.banner, state: 'TX', tags: [] });
    await postJson(server.baseUrl, PATHS.notify, { ...VALID.notify, email: 'ann@example.com' });
    await postJson(server.baseUrl, PATHS.contact, { ...VALID.contact, email: 'ann@example.com' });
    await postJson(server.baseUrl, PATHS.subscribe, { ...VALID.banner, email: 'other@example.com' });
    await smtp.waitFor(4);
  }

  it('answers the same whether or not the address is known, and mails only a known one', async () => {
    await knownEverywhere();
    const page = (email: string) =>
      send(server.baseUrl, {
        method: 'POST',
        path: '/delete-my-data',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `email=${encodeURIComponent(email)}`,
      });
    const known = await page('ann@example.com');
    const unknown = await page('nobody@example.com');
    expect([known.status, unknown.status]).toEqual([200, 200]);
    expect(known.text.replace('ann@example.com', 'X')).toBe(unknown.text.replace('nobody@example.com', 'X'));
    expect(h1(known)).toBe('Check your mail');

    const api = (email: string) => postJson(server.baseUrl, '/api/data-deletion', { email, language: 'es' });
    const [knownApi, unknownApi] = [await api('ann@example.com'), await api('nobody@example.com')];
    expect(knownApi.text).toBe(unknownApi.text);
    expect(knownApi.json).toEqual({ error: null, message: MESSAGES.deletion_requested.es, status: 200 });

    await waitForOutbox(server.dbPath);
    const deletionMails = smtp.received.filter((m) => /delet|borrado/i.test(m.parsed.subject ?? ''));
    expect(deletionMails.map((m) => [m.to[0], m.parsed.subject])).toEqual([
      ['ann@example.com', 'Please confirm the deletion of your data'],
      ['ann@example.com', 'Confirma el borrado de tus datos'],
    ]);
    expect(smtp.received.some((m) => m.to.includes('nobody@example.com'))).toBe(false);
  });

  it('deletes every row about the address only after the button on the linked page', async () => {
    await knownEverywhere();
    await send(server.baseUrl, {
      method: 'POST',
      path: '/es/borrar-mis-datos',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=ANN%40example.com',
    });
    const mail = (await smtp.waitFor(5))[4]!;
    expect(mail.parsed.subject).toBe('Confirma el borrado de tus datos');
    const link = linksOf(mail).get('/es/borrar-mis-datos/confirmar')!;
    const count = () =>
      rows<{ n: number }>(
        `SELECT (SELECT count(*) FROM subscribers WHERE email = 'ann@example.com') + (SELECT count(*) FROM notify_requests WHERE email = 'ann@example.com')
          + (SELECT count(*) FROM contact_messages WHERE email = 'ann@example.com') + (SELECT count(*) FROM tokens WHERE email = 'ann@example.com')
          + (SELECT count(*) FROM mail_outbox WHERE recipient = 'ann@example.com') AS n`,
      )[0]!.n;
    expect(count()).toBeGreaterThan(5);

    const ask = await follow(link);
    expect(h1(ask)).toBe('Borrar tus datos');
    expect(ask.text).toContain('<button type="submit">Borrar mis datos</button>');
    expect(count()).toBeGreaterThan(5);

    const done = await follow(link, 'POST', '');
    expect([done.status, h1(done)]).toEqual([200, 'Tus datos se borraron']);
    expect(count()).toBe(0);
    // The other address is untouched; the link is spent.
    expect(rows('SELECT email FROM subscribers')).toEqual([{ email: 'other@example.com' }]);
    expect(h1(await follow(link, 'POST', ''))).toBe('Este enlace caducó o ya se usó');
  });

  it('shows the request form with a labelled field, and a bad address again with its error', async () => {
    const form = await send(server.baseUrl, { path: '/delete-my-data' });
    expect(form.text).toContain('<label for="email">E-mail address</label><input id="email" name="email" type="email" required');
    const es = await send(server.baseUrl, { path: '/es/borrar-mis-datos' });
    expect(es.text).toContain('<html lang="es">');
    expect(es.text).toContain('<label for="email">Correo electrónico</label>');
    const bad = await send(server.baseUrl, {
      method: 'POST',
      path: '/delete-my-data',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=%3Cb%3Enot-an-address',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('role="alert">Please enter a valid e-mail address.</p>');
    expect(bad.text).toContain('value="&#60;b&#62;not-an-address"');
  });
});

describe('the outbox', () => {
  it('retries a mail the relay refused (451), with backoff, and delivers it once', async () => {
    smtp.refuseNext = 2;
    await postJson(server.baseUrl, PATHS.subscribe, VALID.banner);
    await smtp.waitFor(1);
    await waitForOutbox(server.dbPath);
    expect(smtp.attempts).toBe(3);
    expect(smtp.received).toHaveLength(1);
    expect(rows('SELECT status, attempts, last_error FROM mail_outbox')).toEqual([{ status: 'sent', attempts: 3, last_error: null }]);
  });

  it('retries when the relay drops the connection', async () => {
    smtp.dropNext = 2;
    smtp.connections = 0;
    await postJson(server.baseUrl, PATHS.subscribe, VALID.banner);
    await smtp.waitFor(1);
    await waitForOutbox(server.dbPath);
    // Two connections dropped, then delivered once (the SMTP pool retries a connection that
    // failed before the mail was handed over; the outbox retries what the pool gives up).
    expect(smtp.connections).toBeGreaterThanOrEqual(3);
    expect(smtp.received).toHaveLength(1);
    expect(rows('SELECT status FROM mail_outbox')).toEqual([{ status: 'sent' }]);
  });

  it('waits 50, 100, 200… ms between attempts (exponential backoff), and records the error', async () => {
    smtp.refuseNext = 100;
    await postJson(server.baseUrl, PATHS.subscribe, VALID.banner);
    const deadline = Date.now() + 5_000;
    let row: { attempts: number; next_attempt_at: string; last_error: string } | undefined;
    while (Date.now() < deadline) {
      [row] = rows<{ attempts: number; next_attempt_at: string; last_error: string }>(
        "SELECT attempts, next_attempt_at, last_error FROM mail_outbox WHERE status = 'queued' AND attempts >= 3",
      );
      if (row) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(row?.last_error).toMatch(/451/);
    // After the 3rd failure the next attempt is 50 × 2² = 200 ms after it was recorded.
    const [{ created }] = rows<{ created: string }>('SELECT created_at AS created FROM mail_outbox') as [{ created: string }];
    expect(Date.parse(row!.next_attempt_at) - Date.parse(created)).toBeGreaterThanOrEqual(50 + 100 + 200);
    smtp.refuseNext = 0;
    await smtp.waitFor(1);
  });

  it('never sends a mail again once the relay accepted it: a restart on the same file sends nothing', async () => {
    await subscribeAndReceive(VALID.banner);
    await waitForOutbox(server.dbPath);
    const dbPath = server.dbPath;
    await server.app.close();
    const again = await startTestServer({ dbPath, smtpUrl: smtp.url, ...fast });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300)); // several poll intervals
      expect(smtp.received).toHaveLength(1);
      expect(queryRows(dbPath, 'SELECT status, attempts FROM mail_outbox')).toEqual([{ status: 'sent', attempts: 1 }]);
    } finally {
      await again.close();
    }
    server = await startTestServer({ smtpUrl: smtp.url, ...fast }); // for afterEach
  });

  it('writes .eml files when no relay is configured', async () => {
    const local = await startTestServer({ ...fast });
    try {
      await postJson(local.baseUrl, PATHS.subscribe, VALID.banner);
      await waitForOutbox(local.dbPath);
      const dir = join(local.dir, 'db', 'mail');
      expect(readdirSync(dir)).toEqual(['000001.eml']);
      const raw = readFileSync(join(dir, '000001.eml'));
      expect(raw.includes('\r\n')).toBe(false); // Unix line ends, as a person opens the file
      const parsed = await simpleParser(raw);
      expect(parsed.subject).toBe('Please confirm your subscription: New York property tax newsletter');
      expect(parsed.messageId).toMatch(/^<[0-9a-f]{24}@localhost>$/);
      expect(parsed.date).toBeInstanceOf(Date);
      expect(headerLine(parsed, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    } finally {
      await local.close();
    }
  });
});

describe('retention', () => {
  it('purges pending sign-ups after 30 days and contact messages after PTAX_RETENTION_DAYS', async () => {
    const local = await startTestServer({ ...fast, retentionDays: 90 });
    try {
      await postJson(local.baseUrl, PATHS.subscribe, VALID.banner);
      await postJson(local.baseUrl, PATHS.subscribe, { ...VALID.banner, email: 'kept@example.com' });
      await postJson(local.baseUrl, PATHS.notify, VALID.notify);
      await postJson(local.baseUrl, PATHS.contact, VALID.contact);
      await postJson(local.baseUrl, PATHS.contact, { ...VALID.contact, email: 'recent@example.com' });
      await waitForOutbox(local.dbPath);
      const db = new Database(local.dbPath);
      db.prepare("UPDATE subscribers SET updated_at = '2000-01-01T00:00:00.000Z' WHERE email = 'ann@example.com'").run();
      db.prepare("UPDATE notify_requests SET updated_at = '2000-01-01T00:00:00.000Z'").run();
      db.prepare("UPDATE contact_messages SET created_at = ? WHERE email = 'carla@example.com'").run(new Date(Date.now() - 91 * 86_400_000).toISOString());
      db.prepare("UPDATE contact_messages SET created_at = ? WHERE email = 'recent@example.com'").run(new Date(Date.now() - 89 * 86_400_000).toISOString());
      db.close();
      const counts = await local.app.ptax.purge();
      expect(counts).toMatchObject({ subscribers: 1, notifyRequests: 1, contactMessages: 1 });
      expect(
        queryRows(local.dbPath, 'SELECT email FROM subscribers UNION ALL SELECT email FROM notify_requests UNION ALL SELECT email FROM contact_messages'),
      ).toEqual([{ email: 'kept@example.com' }, { email: 'recent@example.com' }]);
      // The purged rows' links went with them.
      expect(queryRows(local.dbPath, "SELECT count(*) AS n FROM tokens WHERE email IN ('ann@example.com', 'bob@example.com')")).toEqual([{ n: 0 }]);
    } finally {
      await local.close();
    }
  });
});
