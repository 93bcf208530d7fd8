/**
 * The contact and notify forms post to the real API of the test server (the page shows the
 * server's message, the row is in the temporary database); the value warnings; and a
 * failed load of the county data: the error panel and toast, then "Try Again" recovers.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { Browser, Page } from 'playwright';
import { calculate, editionURL, fillForm, launch, open } from './helpers.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

function row<T>(sql: string, ...args: unknown[]): T | undefined {
  const db = new Database(inject('dbPath'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).get(...args) as T | undefined;
  } finally {
    db.close();
  }
}

/** Submits with `click` and returns the API's answer (status and the JSON the page sent). */
async function post(page: Page, path: string, click: () => Promise<void>): Promise<{ status: number; sent: Record<string, unknown> }> {
  const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith(path) && r.request().method() === 'POST'), click()]);
  return { status: response.status(), sent: JSON.parse(response.request().postData()!) };
}

describe('contact form', () => {
  /** The page's words for one language: the fields' labels (name, email, subject, message), the button and the server's answer. */
  interface Words {
    path: string;
    labels: [string, string, string, string];
    send: string;
    answer: string;
    language: 'en' | 'es';
  }
  const EN: Words = {
    path: '/contact',
    labels: ['Name', 'Email address', 'Subject', 'Message'],
    send: 'Send message',
    answer: "Thanks for your message! We'll get back to you soon.",
    language: 'en',
  };
  const ES: Words = {
    path: '/es/contacto',
    labels: ['Nombre', 'Correo electrónico', 'Asunto', 'Mensaje'],
    send: 'Enviar mensaje',
    answer: '¡Gracias por tu mensaje! Te responderemos pronto.',
    language: 'es',
  };

  /** Fills the form with [name, email, subject, message] in `words`' language and sends it; checks the answer on the page; the JSON sent. */
  async function send(words: Words, values: [string, string, string, string]): Promise<Record<string, unknown>> {
    const { page, context, errors } = await open(browser, words.path, { waitFor: 'contact-form' });
    const form = page.getByTestId('contact-form');
    for (let i = 0; i < 4; i++) await form.getByLabel(words.labels[i]!).fill(values[i]!);
    const { status, sent } = await post(page, '/api/contact', () => form.getByRole('button', { name: words.send }).click());
    expect(status).toBe(200);
    await page.getByTestId('contact-status').waitFor();
    expect(await page.getByTestId('contact-status').innerText()).toBe(words.answer);
    expect(errors).toEqual([]);
    await context.close();
    return sent;
  }
  const stored = (email: string) => row('SELECT name, email, subject, message, state, language FROM contact_messages WHERE email = ?', email);

  it('/contact: the message goes through POST /api/contact, the page says it was received, the row is stored (edges trimmed)', async () => {
    const email = `contact-${Date.now()}@example.com`;
    const sent = await send(EN, ['  Ana Pérez ', email, 'Albany rate', 'Is the 1.8937% rate for 2025?']);
    const want = { name: 'Ana Pérez', email, subject: 'Albany rate', message: 'Is the 1.8937% rate for 2025?', state: 'NY', language: 'en' };
    expect(sent).toMatchObject(want);
    expect(stored(email)).toEqual(want);
  });

  it('/es/contacto: Spanish labels, the Spanish answer, language es in the row', async () => {
    const email = `contacto-${Date.now()}@example.com`;
    await send(ES, ['Luis', email, 'Tasas', '¿Cuándo salen las tasas de 2026?']);
    expect(stored(email)).toEqual({ name: 'Luis', email, subject: 'Tasas', message: '¿Cuándo salen las tasas de 2026?', state: 'NY', language: 'es' });
  });
});

describe('notify form', () => {
  it('"Notify me" goes through POST /api/notify, the page says so, the request is stored', async () => {
    const { page, context, errors } = await open(browser, '/', { popup: false });
    const section = page.getByTestId('notify-section');
    const email = `notify-${Date.now()}@example.com`;
    await section.getByLabel('Email address').fill(email);
    const { status, sent } = await post(page, '/api/notify', () => section.getByRole('button', { name: 'Notify me' }).click());
    expect(status).toBe(200);
    expect(sent).toMatchObject({ email, state: 'NY', language: 'en' });
    await page.getByTestId('notify-status').waitFor();
    expect(await page.getByTestId('notify-status').innerText()).toBe("Thanks! We'll email you as soon as the new rates are published.");
    expect(row('SELECT email, state, language, status FROM notify_requests WHERE email = ?', email)).toEqual({
      email,
      state: 'NY',
      language: 'en',
      status: 'pending',
    });
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('value warnings', () => {
  /** The titles of the toasts on screen. */
  const toasts = (page: Page) => page.getByTestId('toast').allInnerTexts();

  it('a value above $10,000,000 or below $10,000 gets a check above the figures (and still calculates); one in between does not; no toast covers the result', async () => {
    const { page, context, errors } = await open(browser, '/', { popup: false });
    const check = page.getByTestId('value-check');
    await fillForm(page, { county: 'Albany County', value: 12_000_000 });
    await calculate(page);
    expect(await check.innerText()).toBe('Very high property value detected. Please verify this amount is correct for accurate calculations');
    await page.getByTestId('annual-tax').filter({ hasText: '$227,244' }).waitFor(); // 12,000,000 × 1.8937%
    await page.getByTestId('home-value').fill('9000');
    await page.getByTestId('calculate').click();
    await page.getByTestId('annual-tax').filter({ hasText: '$170' }).waitFor(); // 9,000 × 1.8937% = 170.43
    expect(await check.innerText()).toContain('Very low property value detected');
    await page.getByTestId('home-value').fill('300000');
    await page.getByTestId('calculate').click();
    await page.getByTestId('annual-tax').filter({ hasText: '$5,681' }).waitFor(); // 300,000 × 1.8937%
    expect(await check.count()).toBe(0);
    expect(await toasts(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the warning appears beside the field as the value is typed, before any calculation (seed 000 §5, issue 24)', async () => {
    const { page, context } = await open(browser, '/', { popup: false });
    const warning = page.getByTestId('home-value-warning');
    await page.getByTestId('home-value').fill('12000000');
    await warning.waitFor();
    expect(await warning.innerText()).toBe('Very high property value detected. Please verify this amount is correct for accurate calculations');
    expect(await page.getByTestId('annual-tax').count()).toBe(0);
    await page.getByTestId('home-value').fill('9k');
    expect(await warning.innerText()).toContain('Very low property value detected');
    await page.getByTestId('home-value').fill('425k');
    await warning.waitFor({ state: 'detached' });
    expect(await toasts(page)).toEqual([]);
    await context.close();
  });
});

describe('county data that fails to load', () => {
  it('shows the error panel and the error toast; "Try Again" loads it once it can be fetched', async () => {
    const baseURL = editionURL('NY');
    const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await context.addInitScript(() => localStorage.setItem('ptax.newsletterPopupShown', '1'));
    const origin = new URL(baseURL).origin;
    // The state packages (assets/NY-….json and the fallback TX-….json) fail while `down` is set.
    let down = true;
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (!url.startsWith(origin)) return route.abort();
      if (down && /\/assets\/(NY|TX)-[^/]*\.(js|json)$/.test(url)) return route.abort();
      return route.continue();
    });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByTestId('load-error').waitFor();
    expect(await page.getByTestId('load-error').innerText()).toContain('County data unavailable');
    await page.getByTestId('toast').filter({ hasText: 'Failed to load county tax data' }).waitFor();
    down = false;
    await page.getByTestId('load-error').getByRole('button', { name: 'Try Again' }).click();
    await page.getByTestId('property-form').waitFor({ timeout: 15_000 });
    await fillForm(page, { county: 'Albany County', value: 300_000 });
    await calculate(page);
    expect(await page.getByTestId('annual-tax').innerText()).toContain('$5,681');
    await context.close();
  });
});
