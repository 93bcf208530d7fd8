/**
 * The pre-rendered pages are hydrated, not replaced: the first render in the browser gives
 * the markup the build wrote (no hydration error on any page type of any edition), and what
 * a visitor types before the script has run is still there, and used, once it has.
 */
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calculate, cli, editionURL, launch, ready, usd } from './helpers.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** A page type of each kind, per edition (county pages of the edition's own counties). */
const PAGES: Record<string, string[]> = {
  NY: ['/', '/es', '/calculator', '/how-it-works', '/counties', '/county/albany', '/es/condado/albany', '/tax-guides', '/faq', '/about', '/es/contacto'],
  TX: ['/', '/es/calculadora', '/counties', '/county/fort-bend', '/es/guias-impuestos', '/es/preguntas-frecuentes', '/privacy-policy'],
  CA: ['/', '/county/los-angeles', '/es/como-funciona', '/terms-of-service'],
  FL: ['/es', '/county/miami-dade', '/es/condado/st-lucie', '/disclaimer'],
  HUB: ['/', '/es', '/about', '/faq'],
};

describe('pre-rendered pages are hydrated', () => {
  for (const [edition, paths] of Object.entries(PAGES)) {
    it(`${edition}: ${paths.join(', ')} hydrate without an error, and an unknown address gets the not-found page`, async () => {
      const context = await browser.newContext({ baseURL: editionURL(edition) });
      await context.addInitScript(() => localStorage.setItem('analytics_consent', '{"analytics":false,"marketing":false}'));
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message.slice(0, 200)}`));
      page.on('console', (m) => {
        // The not-found page's own status line is expected; any other console error is not.
        if (m.type() === 'error' && !m.text().includes('status of 404')) errors.push(`${page.url()}: ${m.text().slice(0, 200)}`);
      });
      for (const path of paths) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBe(200);
        await ready(page);
        expect(await page.locator('#root').getAttribute('data-rendered-for'), path).toBe(path);
      }
      // An unknown county is the not-found page (pre-rendered once, for /404), rendered afresh.
      const missing = await page.goto('/county/no-such-county');
      expect(missing?.status()).toBe(404);
      await ready(page);
      expect(await page.locator('h1').innerText()).toBe('Page not found');
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('what is typed before the script has run is kept: the banner subscribes with it, the contact form keeps its fields', async () => {
    const context = await browser.newContext({ baseURL: editionURL('NY') });
    await context.addInitScript(() => {
      localStorage.setItem('analytics_consent', '{"analytics":false,"marketing":false}');
      localStorage.setItem('ptax.newsletterPopupShown', '1');
    });
    // Hold every script until the visitor has typed (a slow connection).
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await context.route(/\/assets\/.*\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    const page = await context.newPage();
    // Module scripts run before DOMContentLoaded: wait for the pre-rendered banner instead.
    const navigation = page.goto('/', { waitUntil: 'commit' });
    await page.getByTestId('newsletter-banner').waitFor();
    const email = `early-${Date.now()}@example.com`;
    const field = page.getByTestId('newsletter-banner').getByLabel('Email address');
    await field.fill(email);
    expect(await page.evaluate(() => document.documentElement.dataset.ready)).toBeUndefined();
    release();
    await navigation;
    await ready(page);
    expect(await field.inputValue()).toBe(email);
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith('/api/newsletter/subscribe') && r.method() === 'POST'),
      page.getByTestId('newsletter-banner').getByRole('button', { name: 'Subscribe' }).click(),
    ]);
    expect(JSON.parse(request.postData() ?? '{}').email).toBe(email);

    // The contact form, likewise: every field typed early is kept.
    const contact = await context.newPage();
    let releaseContact!: () => void;
    const contactReleased = new Promise<void>((resolve) => (releaseContact = resolve));
    await contact.route(/\/assets\/.*\.js$/, async (route) => {
      await contactReleased;
      await route.continue();
    });
    const contactNavigation = contact.goto('/contact', { waitUntil: 'commit' });
    const form = contact.getByTestId('contact-form');
    await form.waitFor();
    await form.getByLabel('Name').fill('Ana Early');
    await form.getByLabel('Message').fill('Typed before the script ran.');
    releaseContact();
    await contactNavigation;
    await ready(contact);
    expect(await form.getByLabel('Name').inputValue()).toBe('Ana Early');
    expect(await form.getByLabel('Message').inputValue()).toBe('Typed before the script ran.');
    await context.close();
  });

  it('the calculator is pre-rendered as the real form (issue 28): a value, a county and a box chosen before the script ran are the ones calculated', async () => {
    const context = await browser.newContext({ baseURL: editionURL('TX') });
    await context.addInitScript(() => {
      localStorage.setItem('analytics_consent', '{"analytics":false,"marketing":false}');
      localStorage.setItem('ptax.newsletterPopupShown', '1');
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await context.route(/\/assets\/.*\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    const page = await context.newPage();
    const navigation = page.goto('/', { waitUntil: 'commit' });
    // No skeleton: the build's form, with every county, before any script has run.
    await page.getByTestId('property-form').waitFor();
    expect(await page.getByTestId('form-skeleton').count()).toBe(0);
    await page.getByTestId('home-value').fill('250000');
    await page.getByTestId('county-select').selectOption('Harris County');
    await page.getByTestId('homestead').check();
    expect(await page.evaluate(() => document.documentElement.dataset.ready)).toBeUndefined();
    release();
    await navigation;
    await ready(page);
    expect(await page.getByTestId('county-select').inputValue()).toBe('Harris County');
    expect(await page.getByTestId('homestead').isChecked()).toBe(true);
    await calculate(page);
    // What ptax calc gives for the same input (Harris County, $250,000, homestead).
    const r = cli({ state: 'TX', county: 'Harris County', value: 250_000, homestead: true });
    expect(await page.getByTestId('annual-tax').innerText()).toContain(usd(r.annualTax));
    await context.close();
  });
});
