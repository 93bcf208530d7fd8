/** The Spanish page under /es: Spanish labels and es-MX number formats, same figures as the CLI. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright';
import { pdfTextLines } from './pdf-text.js';
import { browserFormat, calculate, cli, expectedFigures, fillForm, launch, open, type Input } from './helpers.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('Spanish page (/es)', () => {
  it('shows Spanish labels and es-MX figures equal to ptax calc --json', async () => {
    const { page, context, errors } = await open(browser, '/es', { popup: false });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
    expect(await page.getByTestId('page-title').innerText()).toMatch(/^Calculadora de impuestos a la propiedad de .+ para neoyorquinos$/);
    // Labels a visitor reads (and that name the controls).
    expect(await page.getByLabel('Valor de la vivienda (valor de mercado)').count()).toBe(1);
    expect(await page.getByLabel('Condado', { exact: true }).count()).toBe(1);
    expect(await page.getByLabel('Residencia principal (homestead / STAR)').count()).toBe(1);
    expect(await page.getByTestId('calculate').innerText()).toBe('Calcular impuesto a la propiedad');
    expect(await page.getByTestId('language-switch').getAttribute('href')).toBe('/');
    // County options carry es-MX percentages.
    expect(await page.getByTestId('county-select').locator('option[value="Albany County"]').innerText()).toMatch(/^Condado de Albany \(1\.894\s?%\)$/);

    await fillForm(page, { county: 'Albany County', value: 300_000 });
    // What was typed stays while the field has focus; leaving it shows es-MX separators.
    expect(await page.getByTestId('home-value').inputValue()).toBe('300000');
    await page.getByTestId('home-value').blur();
    expect(await page.getByTestId('home-value').inputValue()).toBe('300,000');
    await calculate(page);
    expect(await page.getByTestId('results-heading').innerText()).toMatch(/^Condado de Albany, tarifas de \d{4}$/);
    // Hand-checked: 300,000 × 1.8937% = 5,681.10; es-MX groups thousands with ",".
    expect(await page.getByTestId('annual-tax').innerText()).toBe('$5,681'); // USD with the narrow "$", no decimals
    expect(await page.getByTestId('effective-rate').innerText()).toMatch(/^1\.89\s?%$/);

    const r = cli({ county: 'Albany County', value: 300_000 });
    const { fmtAll } = await browserFormat(page, 'es');
    const ids = Object.keys(expectedFigures(r, { usd: String, pct: String }));
    const values = expectedFigures(r, { usd: (n) => `usd:${n}`, pct: (n) => `pct:${n}` });
    const formatted: Record<string, string> = {};
    for (const id of ids) {
      const [kind, n] = values[id]!.split(':') as ['usd' | 'pct', string];
      formatted[id] = (await fmtAll([Number(n)], kind))[0]!;
    }
    const shown: Record<string, string> = {};
    for (const id of ids) shown[id] = (await page.getByTestId(id).innerText()).trim();
    expect(shown).toEqual(formatted);
    expect(await page.getByText('Impuesto a la propiedad anual', { exact: true }).first().isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an NYC co-op in Spanish has the same figures as the CLI', async () => {
    const input: Input = { county: 'Kings County', value: 750_000, cls: 'class2', homestead: true };
    const { page, context } = await open(browser, '/es', { popup: false });
    await fillForm(page, input);
    await calculate(page);
    const r = cli(input);
    const { fmtAll } = await browserFormat(page, 'es');
    const [annual, monthly] = await fmtAll([r.annualTax, r.monthlyTax], 'usd');
    const [rate] = await fmtAll([r.effectiveRate], 'pct');
    expect(await page.getByTestId('annual-tax').innerText()).toBe(annual);
    expect(await page.getByTestId('monthly-tax').innerText()).toBe(monthly);
    expect(await page.getByTestId('effective-rate').innerText()).toBe(rate);
    await context.close();
  });

  it('the Spanish PDF report is named after the county and has the es-MX annual tax', async () => {
    const { page, context } = await open(browser, '/es', { popup: false });
    await fillForm(page, { county: 'Albany County', value: 300_000 });
    await calculate(page);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-pdf').click()]);
    const dir = mkdtempSync(join(tmpdir(), 'ptax-pdf-es-'));
    const file = join(dir, download.suggestedFilename());
    await download.saveAs(file);
    expect(download.suggestedFilename()).toMatch(/albany.*\.pdf$/i);
    const pdf = readFileSync(file);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfTextLines(pdf).join('\n');
    expect(text).toContain('Condado de Albany');
    expect(text).toContain('$5,681');
    rmSync(dir, { recursive: true, force: true });
    await context.close();
  });
});
