/** axe-core (through @axe-core/playwright) finds no violations on the page, the results and the wizard. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright';
import { axe, calculate, fillForm, launch, open, PHONE } from './helpers.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** Violations as short readable lines (rule, impact, first targets), so a failure says what is wrong. */
async function violations(page: Page): Promise<string[]> {
  const result = await axe(page).analyze();
  return result.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(' '))
        .join(' | ')}`,
  );
}

describe('axe-core', () => {
  it('the page as loaded (desktop) has no violations', async () => {
    const { page, context } = await open(browser, '/', { popup: false });
    expect(await violations(page)).toEqual([]);
    await context.close();
  });

  it('the page with NYC results, school breakdown and the explanation open has no violations', async () => {
    const { page, context } = await open(browser, '/', { popup: false });
    await fillForm(page, { county: 'New York County', value: 900_000, cls: 'class2', homestead: true, over65: true, veteran: 20 });
    await page.getByTestId('school-breakdown').check();
    await calculate(page);
    await page.getByTestId('explanation').locator(':scope > summary').click();
    expect(await violations(page)).toEqual([]);
    await context.close();
  });

  it('the Spanish page with results has no violations', async () => {
    const { page, context } = await open(browser, '/es', { popup: false });
    await fillForm(page, { county: 'Albany County', value: 300_000, homestead: true });
    await calculate(page);
    expect(await violations(page)).toEqual([]);
    await context.close();
  });

  it('the wizard at 390 px has no violations on any of its 4 steps', async () => {
    const { page, context } = await open(browser, '/', { viewport: PHONE, mobile: true, popup: false });
    expect(await violations(page)).toEqual([]);
    await page.getByTestId('start-wizard').click();
    const wizard = page.getByTestId('wizard');
    await wizard.waitFor();
    const steps: Array<() => Promise<void>> = [
      async () => {
        await wizard.getByTestId('home-value').fill('650000');
      },
      async () => {
        await wizard.getByTestId('county-select').selectOption('Kings County');
        await wizard.getByTestId('property-type').selectOption('class2');
      },
      async () => {
        await wizard.getByTestId('over65').check();
      },
      async () => {},
    ];
    for (const [i, fill] of steps.entries()) {
      await fill();
      expect(await violations(page), `step ${i + 1}`).toEqual([]);
      if (i < 3) await page.getByTestId('wizard-next').click();
    }
    await page.getByTestId('wizard-calculate').click();
    await page.getByTestId('results').waitFor();
    expect(await violations(page), 'results on the phone').toEqual([]);
    await context.close();
  });

  it('the popup dialog has no violations', async () => {
    const { page, context } = await open(browser, '/');
    await fillForm(page, { county: 'Albany County', value: 300_000 });
    await calculate(page);
    await calculate(page); // a second calculation: the popup no longer waits for the visitor to scroll
    await page.getByTestId('newsletter-popup').waitFor({ timeout: 15_000 });
    expect(await violations(page)).toEqual([]);
    await context.close();
  });
});
