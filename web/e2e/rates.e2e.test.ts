/**
 * Issue 21, tried as a new visitor would: the estimate uses the county's nominal rate, names
 * the rates apart ("your effective rate", "county rate", "typical owner's rate") and starts its
 * plain explanation from the value typed. Figures worked out by hand in engine/rates.test.ts
 * (the data rows: nominal_rates_ca_2024.csv, nominal_rates_fl_2025.csv, nominal_rates_tx_2025.csv).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright';
import { calculate, launch, open } from './helpers.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const value = async (page: Page, testId: string) => Number(await page.getByTestId(testId).first().getAttribute('data-value'));

async function estimate(edition: string, county: string, homeValue: number): Promise<{ page: Page; close: () => Promise<void>; errors: string[] }> {
  const { page, context, errors } = await open(browser, '/', { edition, popup: false });
  await page.getByTestId('home-value').fill(String(homeValue));
  await page.getByTestId('county-select').selectOption(county);
  await page.getByTestId('homestead').check();
  await calculate(page);
  return { page, close: () => context.close(), errors };
}

describe('estimates that match the bill', () => {
  it("San Luis Obispo, $425,000, a buyer with the homeowners' exemption: the BOE rate 1.09% on $418,000 = $4,556.20", async () => {
    const { page, close, errors } = await estimate('CA', 'San Luis Obispo County', 425000);
    expect(await value(page, 'annual-tax')).toBe(4556.2);
    expect(await value(page, 'county-rate-used')).toBe(1.09);
    expect(await value(page, 'typical-rate')).toBe(0.7045);
    expect(await page.getByTestId('plain-value').innerText()).toContain('$425,000');
    expect(errors).toEqual([]);
    await close();
  });

  it('Miami-Dade, $425,000 with homestead: school mills on $400,000, the rest on $374,278 = $7,090.75', async () => {
    const { page, close, errors } = await estimate('FL', 'Miami-Dade County', 425000);
    expect(await value(page, 'annual-tax')).toBe(7090.75);
    expect(await value(page, 'county-rate-used')).toBe(1.84893);
    expect(await page.getByTestId('plain-value').innerText()).toContain('$425,000');
    expect(errors).toEqual([]);
    await close();
  });

  it('Harris, $400,000 with homestead: the Houston ISD, Harris County and City of Houston rates it used', async () => {
    const { page, close, errors } = await estimate('TX', 'Harris County', 400000);
    expect(await value(page, 'annual-tax')).toBe(5872.75);
    const detail = await page.getByTestId('results').innerText();
    expect(detail).toContain('Houston ISD');
    expect(detail).toContain('Houston');
    expect(await value(page, 'detail-texas-rates-school')).toBe(0.8783);
    expect(await value(page, 'detail-texas-rates-county')).toBe(0.38096);
    expect(await value(page, 'detail-texas-rates-city')).toBe(0.51919);
    expect(detail).toContain('Your effective rate');
    expect(detail).toContain("Typical owner's rate");
    expect(await page.getByTestId('plain-value').innerText()).toContain('$400,000');
    expect(errors).toEqual([]);
    await close();
  });
});
