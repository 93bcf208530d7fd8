/**
 * Issue 21 in the production build: "buying, or owned a while?" (a radio group used with the
 * keyboard) shows and uses California's purchase figures only for an owner; a New York City
 * class 2 value that looks like a sale price gets a warning beside the field as it is typed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright';
import { calculate, launch, open, shownFigures } from './helpers.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('buyer or owner, and the NYC class 2 sale price (issue 21)', () => {
  it('California, Los Angeles, 900,000 with the homeowners exemption: owned since 2015 at 500,000 = $7,115; back to buying = $10,546', async () => {
    const { page, context, errors } = await open(browser, '/', { popup: false, edition: 'CA' });
    await page.getByTestId('home-value').fill('900000');
    await page.getByTestId('county-select').selectOption('Los Angeles County');
    await page.getByTestId('homestead').check();
    const group = page.getByRole('group', { name: 'Are you buying (or did you buy this year), or have you owned the home for a while?' });
    await expect.poll(() => group.getByTestId('ownership-buying').isChecked()).toBe(true);
    expect(await page.getByTestId('purchase-price').count()).toBe(0);
    // The keyboard: into the group, then the arrow key moves the choice (a native radio group).
    await group.getByTestId('ownership-buying').focus();
    await page.keyboard.press('ArrowDown');
    expect(await group.getByTestId('ownership-owned').isChecked()).toBe(true);
    await group.getByTestId('purchase-price').fill('500000');
    await group.getByTestId('purchase-year').fill('2015');
    await calculate(page);
    // 500,000 × 1.02^10 = 609,497.21 assessed; − 7,000 homeowners' = 602,497.21 × 1.181 % = 7,115.49
    expect((await shownFigures(page, ['annual-tax']))['annual-tax']).toBe('$7,115');
    await group.getByTestId('ownership-owned').focus();
    await page.keyboard.press('ArrowUp');
    expect(await group.getByTestId('ownership-buying').isChecked()).toBe(true);
    expect(await page.getByTestId('purchase-price').count()).toBe(0);
    await calculate(page);
    // (900,000 − 7,000) × 1.181 % = 10,546.33: the purchase figures typed before are not used.
    await expect.poll(async () => (await shownFigures(page, ['annual-tax']))['annual-tax']).toBe('$10,546');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('New York County, class 2: 1,100,000 gets the sale-price warning with the City look-up link as it is typed; 900,000 does not', async () => {
    const { page, context, errors } = await open(browser, '/', { popup: false });
    await page.getByTestId('county-select').selectOption('New York County');
    await page.getByTestId('property-type').selectOption('class2');
    await page.getByTestId('home-value').fill('1100000');
    const warning = page.getByTestId('class2-sale-price-warning');
    await warning.waitFor();
    expect(await warning.innerText()).toContain('This looks like a sale price');
    expect(await warning.getByRole('link').getAttribute('href')).toBe('https://www.nyc.gov/site/finance/property/property-search-property-information.page');
    await page.getByTestId('home-value').fill('900000');
    await warning.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await context.close();
  });
});
