/**
 * Desktop form flow against the production build: the page's figures equal those of
 * `ptax calc --json` for the same input, formatted as the page formats them (en-US, USD
 * without decimals, percent with 2 decimals); class4 clearing; the PDF report; the error
 * boundary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright';
import { pdfTextLines } from './pdf-text.js';
import { calculate, cli, expectedFigures, fillForm, open, pct, shownExemptionIds, shownFigures, usd, type Input } from './helpers.js';

let browser: Browser;
beforeAll(async () => {
  browser = await (await import('./helpers.js')).launch();
});
afterAll(async () => {
  await browser?.close();
});

const fmt = { usd: (n: number) => usd(n), pct: (n: number) => pct(n) };

async function flow(input: Input) {
  const o = await open(browser, '/', { popup: false });
  await fillForm(o.page, input);
  await calculate(o.page);
  const expected = expectedFigures(cli(input), fmt);
  const shown = await shownFigures(o.page, [...Object.keys(expected), 'quarterly-payment']);
  const exemptionIds = await shownExemptionIds(o.page);
  return { ...o, expected, shown, exemptionIds };
}

describe('desktop form', () => {
  it('Albany County, $300,000, no exemptions: 300,000 × 1.8937% = 5,681.10 → "$5,681" (hand-checked)', async () => {
    const { page, context, shown, expected, errors } = await flow({ county: 'Albany County', value: 300_000 });
    expect(shown['annual-tax']).toBe('$5,681');
    expect(shown['monthly-tax']).toBe('$473'); // 5,681.10 / 12 = 473.43
    expect(shown['effective-rate']).toBe('1.89%');
    expect(shown['taxable-value']).toBe('$300,000');
    expect(shown['exemption-savings']).toBe('$0');
    expect(shown).toEqual(expected);
    expect(await page.getByTestId('no-exemptions').count()).toBe(1);
    expect(await page.getByTestId('results-heading').innerText()).toContain('Albany County');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Albany County with homestead: every figure equals ptax calc --json', async () => {
    const input: Input = { county: 'Albany County', value: 425_000, homestead: true };
    const { context, shown, expected, exemptionIds, errors } = await flow(input);
    expect(shown).toEqual(expected);
    expect(exemptionIds.sort()).toEqual(
      Object.keys(expected)
        .filter((k) => k.startsWith('exemption-') && k !== 'exemption-savings')
        .sort(),
    );
    expect(errors).toEqual([]);
    await context.close();
  });

  it('New York County class2 co-op with homestead and a wartime veteran rated 20%: every figure equals ptax calc --json', async () => {
    const input: Input = { county: 'New York County', value: 900_000, cls: 'class2', homestead: true, wartime: true, veteran: 20 };
    const r = cli(input);
    // The input really exercises the exemptions and the co-op abatement.
    expect(r.exemptions.star).toBeGreaterThan(0);
    expect(r.exemptions.veteran).toBeGreaterThan(0);
    expect(r.exemptions.coopCondoAbatement).toBeGreaterThan(0);
    const { context, shown, expected, exemptionIds, errors } = await flow(input);
    expect(shown).toEqual(expected);
    expect(shown['quarterly-payment']).toBeDefined();
    expect(exemptionIds.sort()).toEqual(['exemption-coopCondoAbatement', 'exemption-star', 'exemption-veteran']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Kings County class2 with over-65 and an income under the limit, disabled person: every figure equals ptax calc --json', async () => {
    const input: Input = { county: 'Kings County', value: 650_000, cls: 'class2', homestead: true, over65: true, seniorIncome: 40_000, disabled: true };
    const { context, shown, expected, errors } = await flow(input);
    expect(shown).toEqual(expected);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('class4 (commercial)', () => {
  it('clears and disables the residential exemptions, shows the commercial-exemptions link (new tab, noopener), and figures equal the CLI without exemptions', async () => {
    const { page, context, errors } = await open(browser, '/', { popup: false });
    await fillForm(page, {
      county: 'New York County',
      value: 2_000_000,
      cls: 'class2',
      homestead: true,
      over65: true,
      disabled: true,
      veteran: 50,
      seniorCitizen: true,
      coldWar: true,
    });
    expect(await page.getByTestId('homestead').isChecked()).toBe(true);
    expect(await page.getByTestId('commercial-link').count()).toBe(0);
    await page.getByTestId('property-type').selectOption('class4');
    for (const id of ['homestead', 'over65', 'disabled-person', 'senior-citizen', 'cold-war-veteran']) {
      expect(await page.getByTestId(id).isChecked(), id).toBe(false);
      expect(await page.getByTestId(id).isDisabled(), id).toBe(true);
    }
    expect(await page.getByTestId('veteran-level').inputValue()).toBe('0'); // None
    expect(await page.getByTestId('veteran-level').isDisabled()).toBe(true);
    expect(await page.getByTestId('senior-income').count()).toBe(0);
    expect(await page.getByTestId('school-breakdown').isDisabled()).toBe(false);
    const link = page.getByTestId('commercial-link');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect((await link.getAttribute('rel'))!.split(/\s+/)).toContain('noopener');
    expect(await link.getAttribute('href')).toMatch(/^https:\/\/www\.nyc\.gov\//);
    expect(await link.innerText()).toContain('Commercial exemptions');

    await calculate(page);
    const expected = expectedFigures(cli({ county: 'New York County', value: 2_000_000, cls: 'class4' }), fmt);
    expect(await shownFigures(page, Object.keys(expected))).toEqual(expected);
    expect(await page.getByTestId('exemption-savings').innerText()).toBe('$0');
    expect(await page.getByTestId('no-exemptions').count()).toBe(1);

    // Back to class2: the toggles are enabled again (and stay cleared).
    await page.getByTestId('property-type').selectOption('class2');
    expect(await page.getByTestId('homestead').isDisabled()).toBe(false);
    expect(await page.getByTestId('homestead').isChecked()).toBe(false);
    expect(await page.getByTestId('commercial-link').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('PDF report', () => {
  it('downloads a real PDF named after the county, containing the county name and the annual tax; jspdf loads only then', async () => {
    const { page, context, errors } = await open(browser, '/', { popup: false });
    const scripts: string[] = [];
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await fillForm(page, { county: 'Albany County', value: 300_000 });
    await calculate(page);
    expect(scripts.filter((s) => /jspdf/i.test(s))).toEqual([]);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-pdf').click()]);
    const dir = mkdtempSync(join(tmpdir(), 'ptax-pdf-'));
    const file = join(dir, download.suggestedFilename());
    await download.saveAs(file);
    expect(scripts.some((s) => /jspdf/i.test(s))).toBe(true);
    expect(download.suggestedFilename()).toMatch(/albany/i);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const pdf = readFileSync(file);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.length).toBeGreaterThan(1000);
    const text = pdfTextLines(pdf).join('\n');
    expect(text).toContain('Albany County');
    expect(text).toContain('$5,681');
    expect(text).toContain('Property Tax Estimate');
    await page.getByText('Report downloaded successfully!').waitFor();
    rmSync(dir, { recursive: true, force: true });
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('error boundary', () => {
  it("shows 'Calculator Error' with 'Try Again' when the calculator throws, and Try Again brings the calculator back", async () => {
    const { page, context } = await open(browser, '/?__throw=1', { popup: false, waitFor: 'error-boundary' });
    const panel = page.getByTestId('error-boundary');
    expect(await panel.getByRole('heading').innerText()).toBe('Calculator Error');
    expect(await panel.getAttribute('role')).toBe('alert');
    expect(await page.getByTestId('error-message').innerText()).toContain('Test error');
    expect(await page.getByTestId('property-form').count()).toBe(0);
    await panel.getByRole('button', { name: 'Try Again' }).click();
    await page.getByTestId('property-form').waitFor();
    expect(await page.getByTestId('error-boundary').count()).toBe(0);
    await fillForm(page, { county: 'Albany County', value: 300_000 });
    await calculate(page);
    expect(await page.getByTestId('annual-tax').innerText()).toBe('$5,681');
    await context.close();
  });
});

describe('form rules on the page', () => {
  it("loads the counties without a toast, enables Calculate by the seed's rules ('Select Property Type First'), reveals the senior income and its limit message", async () => {
    const { page, context, errors } = await open(browser, '/', { popup: false });
    expect(await page.getByTestId('toast').count()).toBe(0);
    const button = page.getByTestId('calculate');
    await page.getByTestId('home-value').fill('500000');
    expect(await button.isDisabled()).toBe(true); // no county yet
    await page.getByTestId('county-select').selectOption('Bronx County');
    expect(await button.innerText()).toBe('Select Property Type First');
    expect(await button.isDisabled()).toBe(true);
    await page.getByTestId('property-type').selectOption('class1');
    expect(await button.innerText()).toBe('Calculate Property Tax');
    expect(await button.isDisabled()).toBe(false);
    await page.getByTestId('home-value').fill('');
    expect(await button.isDisabled()).toBe(true); // empty value = 0
    await page.getByTestId('home-value').fill('1,250,000');
    expect(await page.getByTestId('home-value').inputValue()).toBe('1,250,000');
    expect(await button.isDisabled()).toBe(false);
    await page.getByTestId('county-select').selectOption('Albany County');
    expect(await page.getByTestId('property-type').count()).toBe(0);

    // Over 65 reveals the income field; an income above the Enhanced STAR limit shows the message.
    expect(await page.getByTestId('senior-income').count()).toBe(0);
    await page.getByTestId('over65').check();
    const income = page.getByTestId('senior-income');
    await income.fill('40000');
    expect(await page.getByTestId('income-limit-message').count()).toBe(0);
    await income.fill('999999');
    expect(await page.getByTestId('income-limit-message').innerText()).toBe('Income exceeds Enhanced STAR limit. You may qualify for Basic STAR instead.');
    await page.getByTestId('over65').uncheck();
    expect(await page.getByTestId('senior-income').count()).toBe(0);

    // The result explains itself: steps with their sources.
    await calculate(page);
    expect(await page.getByTestId('annual-tax').innerText()).toBe(usd(cli({ county: 'Albany County', value: 1_250_000 }).annualTax));
    await page.getByTestId('explanation').locator(':scope > summary').click();
    // The steps are put in the page when the panel is first opened (issue 27).
    await page.getByTestId('explain-step').first().waitFor();
    expect(await page.getByTestId('explain-step').count()).toBeGreaterThan(1);
    expect(await page.getByTestId('citation').count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("Copy to clipboard puts the estimate on the clipboard and says 'Report details copied to clipboard!'", async () => {
    const { page, context } = await open(browser, '/', { popup: false });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
    await fillForm(page, { county: 'Albany County', value: 300_000 });
    await calculate(page);
    await page.getByTestId('share-copy').click();
    await page.getByText('Report details copied to clipboard!').first().waitFor();
    const text = await page.evaluate(() => navigator.clipboard.readText());
    expect(text).toContain('Albany County');
    expect(text).toContain('$5,681');
    await context.close();
  });
});
