/**
 * The mobile wizard at a 390 px wide viewport: its four steps with the enablement rules of
 * seed 000 §2 (Back, Previous, Next, 'Calculate Tax'), ending on the same figures as
 * `ptax calc --json` for the same input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright';
import { execFileSync } from 'node:child_process';
import { cli, expectedFigures, launch, open, PHONE, pct, shownFigures, usd, type Input } from './helpers.js';
import { REPO } from './env.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const title = (page: Page) => page.getByTestId('wizard-step-title').innerText();
const progress = (page: Page) => page.getByTestId('wizard-progress').innerText();
const disabled = (page: Page, id: string) => page.getByTestId(id).isDisabled();

describe('wizard at 390 px', () => {
  it('walks the 4 steps with their enablement rules and shows the CLI figures for an NYC co-op', async () => {
    const { page, context, errors } = await open(browser, '/', { viewport: PHONE, mobile: true, popup: false });
    const panel = page.getByTestId('mobile-panel');
    expect(await panel.isVisible()).toBe(true);
    const start = page.getByTestId('start-wizard');
    await start.click();
    const wizard = page.getByTestId('wizard');
    await wizard.waitFor();
    expect(await wizard.getAttribute('role')).toBe('dialog');
    expect(await wizard.getAttribute('aria-modal')).toBe('true');
    const box = (await wizard.boundingBox())!;
    expect(box.width).toBe(PHONE.width); // full screen
    expect(box.height).toBe(PHONE.height);

    // Step 1: Property Value. Previous disabled; Next needs a value above 0.
    expect(await title(page)).toBe('Property Value');
    expect(await progress(page)).toBe('Step 1 of 4');
    expect(await disabled(page, 'wizard-previous')).toBe(true);
    const value = wizard.getByTestId('home-value');
    await value.fill('');
    expect(await disabled(page, 'wizard-next')).toBe(true);
    await value.fill('0');
    expect(await disabled(page, 'wizard-next')).toBe(true);
    await value.fill('900000');
    // The field keeps what is typed while it has focus, and shows separators after.
    expect(await value.inputValue()).toBe('900000');
    expect(await disabled(page, 'wizard-next')).toBe(false);
    expect(await page.getByTestId('wizard-calculate').count()).toBe(0);
    await page.getByTestId('wizard-next').click();

    // Step 2: Location. Next needs a county and, for NYC, a property type.
    expect(await title(page)).toBe('Location');
    expect(await progress(page)).toBe('Step 2 of 4');
    expect(await disabled(page, 'wizard-previous')).toBe(false);
    expect(await disabled(page, 'wizard-next')).toBe(true);
    await wizard.getByTestId('county-select').selectOption('New York County');
    expect(await disabled(page, 'wizard-next')).toBe(true);
    await wizard.getByTestId('property-type').selectOption('class2');
    expect(await disabled(page, 'wizard-next')).toBe(false);
    // Previous goes back with the value kept.
    await page.getByTestId('wizard-previous').click();
    expect(await title(page)).toBe('Property Value');
    expect(await wizard.getByTestId('home-value').inputValue()).toBe('900,000');
    await page.getByTestId('wizard-next').click();
    expect(await title(page)).toBe('Location');
    await page.getByTestId('wizard-next').click();

    // Step 3: Exemptions. Always allowed; the veteran levels are grouped by range.
    expect(await title(page)).toBe('Exemptions');
    expect(await progress(page)).toBe('Step 3 of 4');
    expect(await disabled(page, 'wizard-next')).toBe(false);
    expect(await wizard.locator('optgroup').count()).toBe(3);
    await wizard.getByTestId('homestead').check();
    await wizard.getByTestId('wartime-veteran').check();
    await wizard.getByTestId('veteran-level').selectOption('20');
    await page.getByTestId('wizard-next').click();

    // Step 4: Review & Calculate.
    expect(await title(page)).toBe('Review & Calculate');
    expect(await progress(page)).toBe('Step 4 of 4');
    expect(await page.getByTestId('wizard-next').count()).toBe(0);
    const calc = page.getByTestId('wizard-calculate');
    expect(await calc.innerText()).toBe('Calculate Tax');
    expect(await calc.isDisabled()).toBe(false);
    const review = await page.getByTestId('wizard-review').innerText();
    expect(review).toContain('$900,000');
    expect(review).toContain('New York County');
    expect(review).toMatch(/County\nNew York County\nProperty type/); // NYC counties are taxed by class: no county rate beside them
    expect(review).toContain('Class 2');

    // Back closes the wizard, focus returns to its opener, and the state is kept.
    await page.getByTestId('wizard-back').click();
    await wizard.waitFor({ state: 'detached' });
    expect(await start.evaluate((el) => el === document.activeElement)).toBe(true);
    await start.click();
    await wizard.waitFor();
    expect(await title(page)).toBe('Property Value');
    expect(await wizard.getByTestId('home-value').inputValue()).toBe('900,000');
    for (let i = 0; i < 3; i++) await page.getByTestId('wizard-next').click();
    expect(await title(page)).toBe('Review & Calculate');

    await calc.click();
    await wizard.waitFor({ state: 'detached' });
    await page.getByTestId('results').waitFor();
    const input: Input = { county: 'New York County', value: 900_000, cls: 'class2', homestead: true, wartime: true, veteran: 20 };
    const expected = expectedFigures(cli(input), { usd: (n) => usd(n), pct: (n) => pct(n) });
    expect(await shownFigures(page, Object.keys(expected))).toEqual(expected);
    // The wizard edited the same state as the desktop form.
    expect(await page.getByTestId('property-form').getByTestId('county-select').inputValue()).toBe('New York County');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a county outside NYC needs no property type: Albany County $300,000 through the wizard gives "$5,681"', async () => {
    const { page, context } = await open(browser, '/', { viewport: PHONE, mobile: true, popup: false });
    await page.getByTestId('start-wizard').click();
    await page.getByTestId('wizard').waitFor();
    await page.getByTestId('wizard').getByTestId('home-value').fill('300000');
    await page.getByTestId('wizard-next').click();
    expect(await page.getByTestId('wizard-next').isDisabled()).toBe(true);
    await page.getByTestId('wizard').getByTestId('county-select').selectOption('Albany County');
    expect(await page.getByTestId('wizard').getByTestId('property-type').count()).toBe(0); // not NYC: no type
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-next').click();
    expect(await page.getByTestId('wizard-review').innerText()).toContain('Not applicable');
    await page.getByTestId('wizard-calculate').click();
    await page.getByTestId('results').waitFor();
    expect(await page.getByTestId('annual-tax').innerText()).toBe('$5,681');
    await context.close();
  });
});

describe('the wizard in the other editions', () => {
  for (const e of [
    {
      code: 'TX',
      county: 'Harris County',
      value: '400000',
      checks: ['homestead', 'over65'],
      review: ['Harris County', 'Homestead', 'Owner 65 or older'],
      args: ['--homestead', '--over65'],
    },
    {
      code: 'CA',
      county: 'Los Angeles County',
      value: '900000',
      checks: ['homestead'],
      review: ['Los Angeles County', "Homeowners' exemption"],
      args: ['--homestead'],
    },
    {
      code: 'FL',
      county: 'Miami-Dade County',
      value: '450000',
      checks: ['homestead', 'over65'],
      review: ['Miami-Dade County', 'Homestead', 'Senior'],
      args: ['--homestead', '--over65'],
    },
  ]) {
    it(`${e.code}: value, county, the state's exemptions, a review naming them, and ptax's figures`, async () => {
      const { page, context, errors } = await open(browser, '/', { viewport: PHONE, mobile: true, popup: false, edition: e.code });
      await page.getByTestId('start-wizard').click();
      const wizard = page.getByTestId('wizard');
      await wizard.getByTestId('home-value').fill(e.value);
      await page.getByTestId('wizard-next').click();
      await wizard.getByTestId('county-select').selectOption(e.county);
      await page.getByTestId('wizard-next').click();
      for (const c of e.checks) await wizard.getByTestId(c).check();
      await page.getByTestId('wizard-next').click();
      const review = await page.getByTestId('wizard-review').innerText();
      for (const x of e.review) expect(review).toContain(x);
      await page.getByTestId('wizard-calculate').click();
      await page.getByTestId('results').waitFor();
      const r = JSON.parse(
        execFileSync(process.execPath, ['dist/cli/main.js', 'calc', '--state', e.code, '--county', e.county, '--value', e.value, ...e.args, '--json'], {
          cwd: REPO,
          encoding: 'utf8',
        }),
      ) as { annualTax: number };
      expect(Number(await page.getByTestId('annual-tax').getAttribute('data-value'))).toBe(r.annualTax);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

describe('wizard by keyboard', () => {
  it('opens with Enter, moves focus to each step heading, keeps Tab inside, Escape closes and returns focus', async () => {
    const { page, context } = await open(browser, '/', { viewport: PHONE, mobile: true, popup: false });
    const activeTestId = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? null);
    await page.getByTestId('start-wizard').focus();
    await page.keyboard.press('Enter');
    const wizard = page.getByTestId('wizard');
    await wizard.waitFor();
    // The page behind the dialog is inert.
    expect(await page.evaluate(() => (document.getElementById('root') as HTMLElement & { inert: boolean }).inert)).toBe(true);
    expect(await wizard.evaluate((w) => w.contains(document.activeElement))).toBe(true);
    await wizard.getByTestId('home-value').fill('300000');
    await wizard.getByTestId('wizard-next').focus();
    await page.keyboard.press('Enter');
    expect(await title(page)).toBe('Location');
    expect(await activeTestId()).toBe('wizard-step-title');
    // Tab 30 times: focus never leaves the dialog.
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      expect(await wizard.evaluate((w) => w.contains(document.activeElement)), `tab ${i + 1}`).toBe(true);
    }
    await wizard.getByTestId('county-select').focus();
    await wizard.getByTestId('county-select').selectOption('Albany County');
    await wizard.getByTestId('wizard-next').focus();
    await page.keyboard.press('Enter');
    expect(await title(page)).toBe('Exemptions');
    expect(await activeTestId()).toBe('wizard-step-title');
    await page.keyboard.press('Escape');
    await wizard.waitFor({ state: 'detached' });
    expect(await activeTestId()).toBe('start-wizard');
    expect(await page.evaluate(() => (document.getElementById('root') as HTMLElement & { inert: boolean }).inert)).toBe(false);
    // The state edited in the wizard is the form's.
    expect(await page.getByTestId('county-select').inputValue()).toBe('Albany County');
    expect(await page.getByTestId('home-value').inputValue()).toBe('300,000');
    await context.close();
  });
});
