/**
 * Desktop form flow against the production build: the page's figures equal those of
 * `ptax calc --json` for the same input, formatted as the page formats them (en-US, USD
 * without decimals, percent with 2 decimals); class4 clearing; the PDF report; the error
 * boundary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright';
import { calculate, cli, expectedFigures, fillForm, open, pct, shownExemptionIds, shownFigures, usd, type Input } from './helpers.js';

let browser: Browser;
beforeAll(async () => { browser = await (await import('./helpers.js')).launch(); });
afterAll(async () => { await browser?.close(); });

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
    expect(exemptionIds.sort()).toEqual(Object.keys(expected).filter((k) => k.startsWith('exemption-') && k !== 'exemption-savings').sort());
    expect(errors).toEqual([]);
    await context.close();
  });

  it('New York County class2 co-op with homestead and a 20% disabled veteran: every figure equals ptax calc --json', async () => {
    const input: Input = { county: 'New York County', value: 900_000, cls: 'class2', homestead: true, veteran: 20 };
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
