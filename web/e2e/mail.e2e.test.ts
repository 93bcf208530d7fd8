/**
 * The mail flows end to end, as a subscriber lives them: the site server (the production
 * build) started with PTAX_SMTP_URL pointing at a real SMTP server in this process
 * (smtp-server); Chromium signs up on the page, the mail is read from what the SMTP server
 * received (mailparser), and its links are followed in the browser: confirm, unsubscribe
 * with the button, ask for deletion in Spanish and confirm it. axe checks each mail page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, BrowserContext, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSiteServer, type SiteServer } from '../../scripts/site-server.js';
import { headerLine, linksOf, startSmtp, type ReceivedMail, type TestSmtp } from '../server/test/smtp.js';
import { REPO } from './env.js';
import { axe, launch, ready } from './helpers.js';

let smtp: TestSmtp;
let site: SiteServer;
let browser: Browser;
let dir = '';
let dbPath = '';

beforeAll(async () => {
  smtp = await startSmtp();
  dir = mkdtempSync(join(tmpdir(), 'ptax-mail-e2e-'));
  dbPath = join(dir, 'mail-e2e.sqlite');
  site = await startSiteServer(
    REPO,
    {
      PTAX_DB: dbPath,
      PTAX_WEB_DIR: process.env.PTAX_E2E_WEB_DIR ?? join(REPO, 'web/dist'),
      PTAX_RATE_LIMIT: '1000',
      PTAX_SMTP_URL: smtp.url,
      PTAX_MAIL_POLL_MS: '100',
      PTAX_MAIL_RETRY_MS: '100',
    },
    'mail e2e: ',
  );
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await site?.stop();
  await smtp?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** An edition's origin on the test server (`ny.localhost:<port>`; the hub at the server's own address). */
function origin(edition: 'NY' | 'TX' | 'FL' | 'HUB'): string {
  const url = new URL(site.url);
  if (edition !== 'HUB') url.hostname = `${edition.toLowerCase()}.localhost`;
  return url.origin;
}

/** A fresh browser context that may reach the test server only. */
async function newContext(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ locale: 'en-US' });
  const port = new URL(site.url).port;
  await context.route('**/*', (route) => {
    const u = new URL(route.request().url());
    const ours = u.protocol === 'data:' || (u.port === port && (u.hostname === '127.0.0.1' || u.hostname.endsWith('.localhost')));
    return ours ? route.continue() : route.abort();
  });
  await context.addInitScript(() => localStorage.setItem('ptax.newsletterPopupShown', '1'));
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return { context, page, errors };
}

function rows<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

async function mailTo(address: string, nth = 1): Promise<ReceivedMail> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const mails = smtp.received.filter((m) => m.to.includes(address));
    if (mails.length >= nth) return mails[nth - 1]!;
    if (Date.now() > deadline) throw new Error(`no mail number ${nth} to ${address} in 15 s (${smtp.received.length} received in all)`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * POSTs to a URL on the test server the way a program would (a mail client, the page's
 * script): to 127.0.0.1 on the URL's port, with the URL's host as Host header (Node does not
 * resolve *.localhost by itself).
 */
function post(url: string, body: string, contentType: string): Promise<number> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: u.port,
        path: `${u.pathname}${u.search}`,
        method: 'POST',
        headers: { host: u.host, 'content-type': contentType, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function expectAccessible(page: Page): Promise<void> {
  const result = await axe(page).analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
}

describe('the newsletter keeps its promise', () => {
  it('sign up on the page, confirm from the mail, then unsubscribe with the button', async () => {
    const { context, page, errors } = await newContext();
    const email = `mail-e2e-${Date.now()}@example.com`;
    await page.goto(`${origin('NY')}/`);
    // The click needs the page's script (before it runs, the form would submit natively).
    await ready(page);
    const banner = page.getByTestId('newsletter-banner');
    await banner.getByLabel('Email address').fill(email);
    await banner.getByRole('button', { name: 'Subscribe' }).click();
    await banner.getByTestId('banner-status').waitFor();
    expect(await banner.getByTestId('banner-status').innerText()).toBe('Thanks for subscribing! Please check your email to confirm your subscription.');

    const mail = await mailTo(email);
    expect(mail.parsed.subject).toBe('Please confirm your subscription: New York property tax newsletter');
    expect(headerLine(mail.parsed, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const links = linksOf(mail);
    expect(rows('SELECT status FROM subscribers WHERE email = ?', email)).toEqual([{ status: 'pending' }]);

    // The link from the mail, opened in the browser, on the New York edition's host.
    const confirm = links.get('/confirm')!;
    expect(confirm.origin).toBe(origin('NY'));
    // Opening the link shows a button (a mail scanner's GET or HEAD confirms nothing); the click confirms.
    await page.goto(confirm.toString());
    expect(await page.locator('h1').innerText()).toBe('Confirm your subscription');
    await expectAccessible(page);
    expect(rows('SELECT status FROM subscribers WHERE email = ?', email)).toEqual([{ status: 'pending' }]);
    await page.getByRole('button', { name: 'Confirm my subscription' }).click();
    await page.locator('h1', { hasText: 'Subscription confirmed' }).waitFor();
    expect(await page.locator('h1').innerText()).toBe('Subscription confirmed');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.locator('main').innerText()).toContain('you will receive the New York property tax newsletter');
    await expectAccessible(page);
    expect(rows('SELECT status FROM subscribers WHERE email = ?', email)).toEqual([{ status: 'confirmed' }]);

    // Unsubscribe: opening the link changes nothing; the button does.
    await page.goto(links.get('/unsubscribe')!.toString());
    expect(await page.locator('h1').innerText()).toBe('Unsubscribe');
    await expectAccessible(page);
    expect(rows('SELECT status FROM subscribers WHERE email = ?', email)).toEqual([{ status: 'confirmed' }]);
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.locator('h1', { hasText: 'You are unsubscribed' }).waitFor();
    expect(await page.locator('main').innerText()).toContain(`We will send no more of the New York property tax newsletter to ${email}.`);
    expect(rows('SELECT status FROM subscribers WHERE email = ?', email)).toEqual([{ status: 'unsubscribed' }]);

    // Following the confirmation link again: a clear page, not an error.
    await page.goto(confirm.toString());
    expect(await page.locator('h1').innerText()).toBe('This link has expired or was already used');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('asks for deletion in Spanish, gets the same page for an unknown address, and deletes everything from the mail', async () => {
    const { context, page, errors } = await newContext();
    const email = `borrar-${Date.now()}@example.com`;
    // Known from a Spanish sign-up on the Texas edition and a contact message.
    for (const [path, body] of [
      ['/api/newsletter/subscribe', { email, state: 'TX', language: 'es', tags: ['tx-newsletter'] }],
      ['/api/contact', { name: 'Ana', email, subject: 'Hola', message: 'Una pregunta', language: 'es' }],
    ] as const) {
      expect(await post(`${origin('TX')}${path}`, JSON.stringify(body), 'application/json')).toBe(200);
    }
    const confirmation = await mailTo(email);
    expect(confirmation.parsed.subject).toBe('Confirma tu suscripción: boletín de impuestos a la propiedad de Texas');
    const requestPage = linksOf(confirmation).get('/es/borrar-mis-datos')!;
    expect(requestPage.origin).toBe(origin('TX'));

    // An unknown address first: the answer must not tell.
    await page.goto(requestPage.toString());
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    await expectAccessible(page);
    await page.getByLabel('Correo electrónico').fill('nadie@example.com');
    await page.getByRole('button', { name: 'Enviarme el enlace de borrado' }).click();
    await page.locator('h1', { hasText: 'Revisa tu correo' }).waitFor();
    const unknownText = (await page.locator('main').innerText()).replace('nadie@example.com', 'X');

    await page.goto(requestPage.toString());
    await page.getByLabel('Correo electrónico').fill(email.toUpperCase());
    await page.getByRole('button', { name: 'Enviarme el enlace de borrado' }).click();
    await page.locator('h1', { hasText: 'Revisa tu correo' }).waitFor();
    expect((await page.locator('main').innerText()).replace(email, 'X')).toBe(unknownText);

    const deletion = await mailTo(email, 2);
    expect(deletion.parsed.subject).toBe('Confirma el borrado de tus datos');
    expect(smtp.received.some((m) => m.to.includes('nadie@example.com'))).toBe(false);
    const link = linksOf(deletion).get('/es/borrar-mis-datos/confirmar')!;
    await page.goto(link.toString());
    expect(await page.locator('h1').innerText()).toBe('Borrar tus datos');
    await expectAccessible(page);
    const count = () =>
      rows<{ n: number }>(
        'SELECT (SELECT count(*) FROM subscribers WHERE email = ?) + (SELECT count(*) FROM contact_messages WHERE email = ?) AS n',
        email,
        email,
      )[0]!.n;
    expect(count()).toBe(2);
    await page.getByRole('button', { name: 'Borrar mis datos' }).click();
    await page.locator('h1', { hasText: 'Tus datos se borraron' }).waitFor();
    expect(count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a mail client unsubscribes with the RFC 8058 one-click POST to the List-Unsubscribe address', async () => {
    const email = `one-click-${Date.now()}@example.com`;
    expect(await post(`${origin('HUB')}/api/notify`, JSON.stringify({ email, state: 'FL' }), 'application/json')).toBe(200);
    const mail = await mailTo(email);
    const target = headerLine(mail.parsed, 'List-Unsubscribe')!.replace(/^<|>$/g, '');
    expect(new URL(target).origin).toBe(origin('FL'));
    expect(await post(target, 'List-Unsubscribe=One-Click', 'application/x-www-form-urlencoded')).toBe(200);
    expect(rows('SELECT status FROM notify_requests WHERE email = ?', email)).toEqual([{ status: 'unsubscribed' }]);
  });
});
