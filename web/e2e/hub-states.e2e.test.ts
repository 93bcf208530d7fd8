/**
 * The hub as the national entry (issue 26): a county-level state's page and a county's page
 * show the CLI's figures (`ptax calc --state OH … --json`, compared through each figure's
 * `data-value`, the engine's exact number), the list of states finds a state by its Spanish
 * name, and the county table sorts by a column (mouse and keyboard). The hub is served at
 * 127.0.0.1 on the test server's port (helpers `open(…, { edition: 'HUB' })`).
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright';
import { launch, open } from './helpers.js';
import { REPO } from './env.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

type Json = Record<string, unknown>;
const ptax = (...args: string[]): Json =>
  JSON.parse(execFileSync(process.execPath, ['dist/cli/main.js', ...args, '--json'], { cwd: REPO, encoding: 'utf8' })) as Json;
const value = async (page: Page, testId: string) => Number(await page.getByTestId(testId).first().getAttribute('data-value'));

async function expectCliFigures(page: Page, r: Json): Promise<void> {
  for (const [id, key] of [
    ['annual-tax', 'annualTax'],
    ['monthly-tax', 'monthlyTax'],
    ['effective-rate', 'effectiveRate'],
  ] as const)
    expect([id, await value(page, id)]).toEqual([id, r[key]]);
}

describe('a county-level state on the hub (Ohio)', () => {
  it('the state page calculates Franklin County as `ptax calc --state OH` does, with the note and the comparison', async () => {
    const { page, context, errors } = await open(browser, '/ohio', { edition: 'HUB', popup: false, waitFor: 'state-calculator' });
    expect(await page.title()).toContain('Ohio');
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toMatch(/\/ohio$/);
    expect(await page.locator('link[rel="alternate"][hreflang="es"]').getAttribute('href')).toMatch(/\/es\/ohio$/);
    await page.locator('html[data-ready="1"]').waitFor();
    await page.getByTestId('home-value').fill('300000');
    await page.getByTestId('county-select').selectOption('franklin');
    await page.getByTestId('calculate').click();
    await page.getByTestId('annual-tax').waitFor();
    await expectCliFigures(page, ptax('calc', '--state', 'OH', '--county', 'Franklin', '--value', '300000'));
    // The plain note says what the rate is; the comparison has the state's and the nation's median rates.
    expect((await page.getByTestId('note').allInnerTexts()).join(' ')).toMatch(/typical/i);
    expect(await value(page, 'context-state')).toBeGreaterThan(0);
    expect(await value(page, 'context-national')).toBeGreaterThan(0);
    expect(await page.getByTestId('tier-note').innerText()).toMatch(/does not cover/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a county page in Spanish shows the figures on its median home and calculates them as the CLI does', async () => {
    const { page, context, errors } = await open(browser, '/es/ohio/franklin', { edition: 'HUB', popup: false, waitFor: 'state-calculator' });
    expect(await page.getByTestId('page-title').innerText()).toContain('Condado de Franklin');
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    const median = await value(page, 'fact-value');
    expect(median).toBeGreaterThan(0);
    const r = ptax('calc', '--state', 'OH', '--county', 'Franklin', '--value', String(median));
    // The pre-rendered tax on the median home is the engine's, to the cent.
    expect(await value(page, 'fact-tax')).toBe(r.annualTax);
    await page.locator('html[data-ready="1"]').waitFor();
    // The calculator comes with the county and its median value chosen.
    expect(await page.getByTestId('county-select').inputValue()).toBe('franklin');
    await page.getByTestId('calculate').click();
    await page.getByTestId('annual-tax').waitFor();
    await expectCliFigures(page, r);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the county table sorts by rate (mouse) and by population (keyboard)', async () => {
    const { page, context } = await open(browser, '/ohio', { edition: 'HUB', popup: false, waitFor: 'county-table' });
    await page.locator('html[data-ready="1"]').waitFor();
    const column = (n: number) =>
      page.locator('[data-testid="county-row"]').evaluateAll((rows, i) => rows.map((r) => Number(r.children[i]!.getAttribute('data-value') ?? 'NaN')), n);
    const sortedDown = (xs: number[]) => xs.filter((x) => !Number.isNaN(x)).every((x, i, a) => i === 0 || a[i - 1]! >= x);
    await page.getByTestId('sort-rate').click();
    expect(await page.getByTestId('sort-rate').locator('xpath=..').getAttribute('aria-sort')).toBe('descending');
    expect(sortedDown(await column(1))).toBe(true);
    await page.getByTestId('sort-rate').click();
    expect(await page.getByTestId('sort-rate').locator('xpath=..').getAttribute('aria-sort')).toBe('ascending');
    expect(sortedDown((await column(1)).reverse())).toBe(true);
    await page.getByTestId('sort-population').focus();
    await page.keyboard.press('Enter');
    expect(await page.getByTestId('sort-population').locator('xpath=..').getAttribute('aria-sort')).toBe('descending');
    const population = await column(4);
    expect(sortedDown(population)).toBe(true);
    // Franklin County (Columbus) is Ohio's most populous county.
    expect(await page.locator('[data-testid="county-row"]').first().getAttribute('data-slug')).toBe('franklin');
    await context.close();
  });
});

describe("the hub's list of states", () => {
  it('finds New Jersey by its Spanish name on the Spanish page and links to its page', async () => {
    const { page, context } = await open(browser, '/es', { edition: 'HUB', popup: false, waitFor: 'state-list' });
    await page.locator('html[data-ready="1"]').waitFor();
    const all = await page.getByTestId('state-item').count();
    // The 50 states and DC (and Puerto Rico when the rules have it).
    expect(all).toBeGreaterThanOrEqual(51);
    await page.getByTestId('state-search').fill('Nueva Jersey');
    await expect.poll(() => page.getByTestId('state-item').count()).toBe(1);
    expect(await page.getByTestId('state-item').getAttribute('data-code')).toBe('NJ');
    expect(await page.getByTestId('state-link-nj').getAttribute('href')).toBe('/es/new-jersey');
    await page.getByTestId('state-search').fill('zzz');
    await expect.poll(() => page.getByTestId('state-item').count()).toBe(0);
    await context.close();
  });
});
