/**
 * The Texas, California and Florida editions and the hub, each on its own host name
 * (tx.localhost, … on the test server's port; the hub on 127.0.0.1), against the production
 * build on the real server: each edition's calculator and tools, every figure compared with
 * `ptax … --json` for the same input (the page's `data-value` is the engine's exact number),
 * the Spanish pages, the hub's links, and axe-core on every edition with its tools open.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright';
import { axe, calculate, editionURL, launch, open } from './helpers.js';
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
const at = (o: unknown, path: string): unknown => path.split('.').reduce<unknown>((x, k) => (x && typeof x === 'object' ? (x as Json)[k] : undefined), o);

async function value(page: Page, testId: string): Promise<number> {
  return Number(await page.getByTestId(testId).first().getAttribute('data-value'));
}

/** The main figures of the results card against the CLI's. */
async function expectMainFigures(page: Page, r: Json): Promise<void> {
  const ids: Record<string, string> = {
    'annual-tax': 'annualTax',
    'monthly-tax': 'monthlyTax',
    'effective-rate': 'effectiveRate',
    'taxable-value': 'taxableValue',
    'exemption-savings': 'exemptionSavings',
    'breakdown-school': 'countyBreakdown.school',
    'breakdown-county': 'countyBreakdown.county',
    'breakdown-city': 'countyBreakdown.city',
    'breakdown-special': 'countyBreakdown.special',
  };
  for (const [id, path] of Object.entries(ids)) expect([id, await value(page, id)]).toEqual([id, at(r, path)]);
  for (const [k, v] of Object.entries((r.exemptions ?? {}) as Record<string, number>)) if (v > 0) expect(await value(page, `exemption-${k}`)).toBe(v);
}

/** Opens a tool's panel (its code loads then) and waits for its form. */
async function openTool(page: Page, name: string): Promise<void> {
  await page.getByTestId(`tool-${name}`).locator('summary').click();
  await page.getByTestId(`tool-${name}-form`).waitFor();
}

async function runTool(page: Page, name: string): Promise<void> {
  await page.getByTestId(`tool-${name}-run`).click();
  await page.getByTestId(`tool-${name}-result`).waitFor();
}

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

describe('Texas edition (tx.localhost)', () => {
  it('names Texas everywhere and calculates Harris County as ptax does, in 2025 and 2024', async () => {
    const { page, context, errors } = await open(browser, '/', { edition: 'TX', popup: false });
    expect(await page.title()).toContain('Texas');
    expect(await page.getByTestId('page-title').innerText()).toBe('Texas Property Tax Calculator for Texans');
    const disclaimer = await page.getByTestId('disclaimer').innerText();
    expect(disclaimer).toContain('appraisal district');
    expect(disclaimer).not.toContain('NYC');
    await page.getByTestId('home-value').fill('400000');
    await page.getByTestId('county-select').selectOption('Harris County');
    await page.getByTestId('homestead').check();
    await page.getByTestId('over65').check();
    await calculate(page);
    const r = ptax('calc', '--state', 'TX', '--county', 'Harris', '--value', '400000', '--homestead', '--over65');
    await expectMainFigures(page, r);
    // The Texas detail object, and the chart's figures as text.
    expect(await value(page, 'detail-texas-exemptValues-homesteadSchool')).toBe(at(r, 'texas.exemptValues.homesteadSchool'));
    expect(await page.getByTestId('chart-levies-text').textContent()).toContain('School tax');
    // The notes: the units the rates are of first (issue 21), then the over-65 school tax ceiling.
    expect((await page.getByTestId('note').allInnerTexts()).join(' ')).toContain('school tax ceiling');
    // The tax year: 2024's rules (before the November 2025 amendments).
    await page.getByTestId('tax-year').selectOption('2024');
    await calculate(page);
    const r2024 = ptax('calc', '--state', 'TX', '--county', 'Harris', '--value', '400000', '--homestead', '--over65', '--year', '2024');
    await page.getByTestId('results-heading').filter({ hasText: '2024' }).waitFor();
    await expectMainFigures(page, r2024);
    expect(r2024.annualTax).not.toBe(r.annualTax);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the payment calculator and the November 2025 vote panel give ptax tx payment / vote figures', async () => {
    const { page, context, errors } = await open(browser, '/', { edition: 'TX', popup: false });
    await openTool(page, 'payment');
    await page.getByTestId('tool-input-tax-amount').fill('5000');
    await page.getByTestId('tool-input-payment-date').fill('2026-03-15');
    await runTool(page, 'payment');
    const pay = ptax('tx', 'payment', '--tax', '5000', '--date', '2026-03-15');
    for (const k of ['penalty', 'penaltyRate', 'totalDue']) expect([k, await value(page, `tool-${k}`)]).toEqual([k, pay[k]]);
    expect(await page.getByTestId('tool-status').innerText()).toBe('delinquent');

    await openTool(page, 'vote');
    // Each proposition with its change, read from the parameters (the school homestead exemption), and the election date.
    const props = page.getByTestId('proposition');
    expect(await props.count()).toBe(2);
    expect(await props.filter({ hasText: 'Proposition 13' }).innerText()).toContain('$100,000 → $140,000');
    expect(await props.filter({ hasText: 'Proposition 11' }).innerText()).toContain('$10,000 → $60,000');
    expect(await page.getByTestId('voting-dates').innerText()).toContain('November 4, 2025');
    const panel = page.getByTestId('tool-vote-panel');
    await panel.getByTestId('tool-county').selectOption('harris');
    await panel.getByTestId('tool-input-value').fill('400000');
    await panel.getByTestId('tool-input-homestead').check();
    await panel.getByTestId('tool-input-over65').check();
    await runTool(page, 'vote');
    const vote = ptax('tx', 'vote', '--county', 'Harris', '--value', '400000', '--homestead', '--over65');
    for (const k of ['taxBefore', 'taxAfter', 'savings']) expect([k, await value(page, `tool-${k}`)]).toEqual([k, vote[k]]);
    // What each proposition saves here, as ptax tx vote --json gives it (together, the whole saving).
    const saved = await page.getByTestId('proposition-savings').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-value'))));
    expect(saved).toEqual((vote.propositions as Array<{ savings: number }>).map((p) => p.savings));
    expect(Math.round(saved.reduce((a, b) => a + b, 0) * 100) / 100).toBe(vote.savings);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the county directory searches, sorts and prices a county with the engine; says when nothing matches', async () => {
    const { page, context } = await open(browser, '/', { edition: 'TX', popup: false });
    await page.getByTestId('county-directory').locator('summary').click();
    await page.getByTestId('directory-search').fill('fort bend');
    // The cards of every county are there before the filter runs: wait for the filter, not the first card.
    await expect.poll(() => page.getByTestId('county-card').count(), { timeout: 10_000 }).toBe(1);
    const monthly = await value(page, 'county-card-monthly');
    expect(monthly).toBe(ptax('calc', '--state', 'TX', '--county', 'Fort Bend', '--value', '350000').monthlyTax);
    await page.getByTestId('directory-search').fill('zzz');
    expect(await page.getByTestId('directory-empty').innerText()).toBe('No counties found matching "zzz".');
    // The major-county table: the 24 Texas keys of seed 001 §3, each priced by the engine on $350,000.
    const rows = page.getByTestId('major-counties').locator('tbody tr');
    expect(await rows.count()).toBe(24);
    expect(await rows.first().getAttribute('data-slug')).toBe('harris');
    expect(Number(await rows.first().getByTestId('major-tax').getAttribute('data-value'))).toBe(
      ptax('calc', '--state', 'TX', '--county', 'Harris', '--value', '350000').annualTax,
    );
    await context.close();
  });

  it('the Spanish page speaks Spanish and gives the same figures', async () => {
    const { page, context, errors } = await open(browser, '/es', { edition: 'TX', popup: false });
    expect(await page.title()).toContain('Texas');
    expect(await page.getByTestId('page-title').innerText()).toBe('Calculadora de impuestos a la propiedad de Texas para texanos');
    await page.getByTestId('home-value').fill('300000');
    await page.getByTestId('county-select').selectOption('Travis County');
    await page.getByTestId('homestead').check();
    await page.getByRole('button', { name: 'Calcular impuesto a la propiedad' }).click();
    await page.getByTestId('results').waitFor();
    const r = ptax('calc', '--state', 'TX', '--county', 'Travis', '--value', '300000', '--homestead', '--lang', 'es');
    await expectMainFigures(page, r);
    expect(await page.getByTestId('detail-texas').innerText()).toContain('Detalles de Texas');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('California edition (ca.localhost)', () => {
  it('calculates with Mello-Roos and runs the Proposition 13 demo as ptax does', async () => {
    const { page, context, errors } = await open(browser, '/', { edition: 'CA', popup: false });
    expect(await page.getByTestId('page-title').innerText()).toBe('California Property Tax Calculator for Californians');
    await page.getByTestId('home-value').fill('900000');
    await page.getByTestId('county-select').selectOption('Los Angeles County');
    await page.getByTestId('homestead').check();
    await page.getByTestId('mello-roos').fill('5000');
    await calculate(page);
    const r = ptax('calc', '--state', 'CA', '--county', 'Los Angeles', '--value', '900000', '--homestead', '--mello-roos', '5000');
    await expectMainFigures(page, r);
    expect(await value(page, 'detail-california-totalWithMelloRoos')).toBe(at(r, 'california.totalWithMelloRoos'));
    expect((await page.getByTestId('note').allInnerTexts()).some((n) => n.includes('above 0.5%'))).toBe(true);

    await openTool(page, 'prop13');
    const panel = page.getByTestId('tool-prop13-panel');
    await panel.getByTestId('tool-county').selectOption('alameda');
    await panel.getByTestId('tool-input-value').fill('1200000');
    await panel.getByTestId('tool-input-purchase-price').fill('600000');
    await panel.getByTestId('tool-input-purchase-year').fill('2010');
    await runTool(page, 'prop13');
    const p = ptax('ca', 'prop13', '--county', 'Alameda', '--value', '1200000', '--purchase-price', '600000', '--purchase-year', '2010');
    for (const k of ['protectedAssessment', 'taxWithoutProp13', 'actualTax', 'annualSavings', 'totalSavingsSincePurchase', 'yearsHeld']) {
      expect([k, await value(page, `tool-${k}`)]).toEqual([k, p[k]]);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('Florida edition (fl.localhost)', () => {
  it('shows the two-tier breakdown and the tax-shock and early-payment tools with ptax figures', async () => {
    const { page, context, errors } = await open(browser, '/', { edition: 'FL', popup: false });
    expect(await page.getByTestId('page-title').innerText()).toBe('Florida Property Tax Calculator for Floridians');
    await page.getByTestId('home-value').fill('400000');
    await page.getByTestId('county-select').selectOption('Orange County');
    await page.getByTestId('homestead').check();
    await page.getByTestId('over65').check();
    await calculate(page);
    const r = ptax('calc', '--state', 'FL', '--county', 'Orange', '--value', '400000', '--homestead', '--over65');
    await expectMainFigures(page, r);
    for (const k of ['homesteadExemption', 'over65Exemption', 'schoolTaxableValue', 'schoolTax', 'nonSchoolTaxableValue', 'nonSchoolTax', 'savings.total']) {
      expect([k, await value(page, `detail-florida-${k.replace('.', '-')}`)]).toEqual([k, at(r, `florida.${k}`)]);
    }

    await openTool(page, 'tax-shock');
    const shock = page.getByTestId('tool-tax-shock-panel');
    await shock.getByTestId('tool-county').selectOption('orange');
    await shock.getByTestId('tool-input-purchase-price').fill('450000');
    await shock.getByTestId('tool-input-seller-tax').fill('3200');
    await runTool(page, 'tax-shock');
    const s = ptax('fl', 'tax-shock', '--county', 'Orange', '--purchase-price', '450000', '--seller-tax', '3200');
    for (const k of ['firstYearTax', 'increase', 'increasePercent']) expect([k, await value(page, `tool-${k}`)]).toEqual([k, s[k]]);

    await openTool(page, 'early-payment');
    // The schedule is read from the rule file's bands: November first, at 4%.
    const first = page.getByTestId('discount-schedule').locator('tbody tr').first();
    expect(await first.innerText()).toMatch(/November\s+4%/);
    await page.getByTestId('tool-input-tax-amount').fill('4000');
    await page.getByTestId('tool-input-payment-date').fill('2025-12-10');
    await runTool(page, 'early-payment');
    const e = ptax('fl', 'early-payment', '--tax', '4000', '--date', '2025-12-10');
    for (const k of ['discountRate', 'discount', 'amountDue']) expect([k, await value(page, `tool-${k}`)]).toEqual([k, e[k]]);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the hub (any other host)', () => {
  it('introduces the product and links to the four editions on their hosts', async () => {
    const { page, context, errors } = await open(browser, '/', { edition: 'HUB', waitFor: 'hub' });
    // The year of the rates from the bundle (issue 24): the hub's program's latest year.
    const hubYear = (
      JSON.parse(readFileSync(join(REPO, 'dist/rules/bundle.json'), 'utf8')) as { programs: Record<string, { years: number[] }> }
    ).programs.hub!.years.at(-1);
    expect(await page.title()).toBe(`Property Tax Calculator for every state, ${hubYear} rates | Free estimate by county`);
    for (const code of ['ny', 'tx', 'ca', 'fl']) {
      expect(await page.getByTestId(`hub-link-${code}`).getAttribute('href')).toBe(`${editionURL(code.toUpperCase())}/`);
    }
    await page.getByTestId('hub-link-fl').click();
    await page.getByTestId('property-form').waitFor();
    expect(await page.getByTestId('page-title').innerText()).toBe('Florida Property Tax Calculator for Floridians');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('axe-core on every edition', () => {
  for (const edition of ['TX', 'CA', 'FL', 'HUB']) {
    it(`${edition}: the page with its tools and directory open has no violations`, async () => {
      const { page, context } = await open(browser, '/', { edition, popup: false, waitFor: edition === 'HUB' ? 'hub' : 'property-form' });
      for (const panel of await page.locator('details.panel').all()) {
        await panel.locator('summary').click();
      }
      if (edition !== 'HUB') await page.locator('[data-testid$="-form"]').first().waitFor();
      expect(await violations(page)).toEqual([]);
      await context.close();
    });
  }
});
