/**
 * The form's rules and the mapping to and from the engine, with figures checked against
 * the engine itself and against hand computations from fixtures/ny/*.yaml.
 */
import { describe, expect, it } from 'vitest';
import { Calculator } from '../../../engine/index.js';
import { nyEdition, fullBundle } from '../test/edition.js';
import { calculate, canCalculate, defaultForm, incomeExceedsLimit, ratesYearOf, toCalcInput, type FormValues } from './model.js';
import { clampValue, parseOptionalAmount } from './parseValue.js';
import { formatPercent, formatUsd } from './format.js';

const edition = nyEdition();
const form = (over: Partial<FormValues>): FormValues => ({ ...defaultForm(edition), ...over });

describe('values reaching the calculation (seed 000 §5; the text itself is read by engine/core/money.ts)', () => {
  it('clamps negative and non-numbers to 0 and keeps cents', () => {
    expect(clampValue(-1)).toBe(0);
    expect(clampValue(Number.NaN)).toBe(0);
    expect(clampValue(450000.99)).toBe(450000.99);
  });
  it('years: empty means not given, digits only', () => {
    expect(parseOptionalAmount('')).toBeNull();
    expect(parseOptionalAmount('2019')).toBe(2019);
  });
});

describe('data from the rules', () => {
  it("offers New York City as a whole (the rules' alias), calculated like a borough by the NYC program", () => {
    const city = edition.county('New York City')!;
    expect(city).toMatchObject({ program: 'ny.nyc', needsPropertyType: true, rate: null });
    const v = form({ county: 'New York City', propertyType: 'class1', homeValue: 800000 });
    const kings = new Calculator(fullBundle).calculate({ state: 'NY', county: 'Kings', value: 800000, propertyClass: 'class1' });
    expect(calculate(edition, v, 'en').annualTax).toBe(kings.annualTax);
    expect(calculate(edition, v, 'en').county).toBe('New York City');
  });
  it('knows the latest tax year the rules hold (New York City FY2026), so the notify card announces 2027, not a year already shown', () => {
    expect(edition.years(edition.county('Kings County'))).toEqual([2025, 2026]);
    expect(edition.latestYear).toBe(2026);
  });
  it('says which year of rates the estimates use (issue 24): 2025, the year of the program of 57 of the 62 counties (outside NYC), not NYC FY2026', () => {
    // 57 counties on ny.outside (years [2025]) against 5 on ny.nyc ([2025, 2026]): the outside program's latest year.
    expect(edition.counties.filter((c) => c.program === 'ny.outside')).toHaveLength(57);
    expect(edition.ratesYear).toBe(2025);
    // A tie goes to the later year; no counties, no year.
    expect(ratesYearOf(['a', 'b'], (p) => (p === 'a' ? [2024] : [2025, 2026]))).toBe(2026);
    expect(ratesYearOf([], () => [2025])).toBe(0);
  });
  it('lists the 62 counties with their combined rate, NYC counties asking for a property type', () => {
    expect(edition.counties).toHaveLength(62);
    const albany = edition.county('albany county')!;
    // rules/ny/counties.yaml: Albany County 1.8937%.
    expect(albany.rate).toBe(1.8937);
    expect(albany.needsPropertyType).toBe(false);
    const nyc = edition.counties
      .filter((c) => c.needsPropertyType)
      .map((c) => c.name)
      .sort();
    expect(nyc).toEqual(['Bronx County', 'Kings County', 'New York County', 'Queens County', 'Richmond County']);
  });
  it('reads the class rates of the latest NYC year from the rule file (FY2026: 19.843, 12.439, 10.848)', () => {
    const rates = edition.classRates(edition.county('Kings County')!);
    expect(rates).toMatchObject({ class1: 19.843, class2: 12.439, class4: 10.848 });
  });
  it('reads the Enhanced STAR income limit from the rules for the county program year (outside NYC 2025: the 2024-25 limit 98,700; NYC FY2026: 107,300)', () => {
    expect(edition.incomeLimit(edition.county('Albany County'))).toBe(98700);
    expect(edition.incomeLimit(edition.county('Kings County'))).toBe(107300);
  });
});

describe('form rules', () => {
  it('needs a county and a value above 0, and a property type in NYC', () => {
    const albany = edition.county('Albany County');
    const kings = edition.county('Kings County');
    expect(canCalculate(form({ county: 'Albany County' }), albany)).toBe(true);
    expect(canCalculate(form({ county: 'Albany County', homeValue: 0 }), albany)).toBe(false);
    expect(canCalculate(form({}), undefined)).toBe(false);
    expect(canCalculate(form({ county: 'Kings County' }), kings)).toBe(false);
    expect(canCalculate(form({ county: 'Kings County', propertyType: 'class1' }), kings)).toBe(true);
  });
  it('flags an income above the Enhanced STAR limit', () => {
    expect(incomeExceedsLimit(form({ over65: true, seniorIncome: 107301 }), 107300)).toBe(true);
    expect(incomeExceedsLimit(form({ over65: true, seniorIncome: 107300 }), 107300)).toBe(false);
    expect(incomeExceedsLimit(form({ over65: true, seniorIncome: null }), 107300)).toBe(true);
    expect(incomeExceedsLimit(form({ over65: false, seniorIncome: 500000 }), 107300)).toBe(false);
  });
  it('maps the form to the engine input; class4 sends no residential exemption', () => {
    const kings = edition.county('Kings County')!;
    const input = toCalcInput(
      form({ county: 'Kings County', propertyType: 'class4', homestead: true, veteranDisability: 50, coldWarVeteran: true }),
      edition,
      kings,
    );
    expect(input).toMatchObject({ state: 'NY', county: 'kings', propertyClass: 'class4', homestead: false, veteranDisability: 0, coldWarVeteran: false });
    const albany = edition.county('Albany County')!;
    const out = toCalcInput(form({ county: 'Albany County', propertyType: 'class2', veteranDisability: 30, homeValue: -10 }), edition, albany);
    expect(out).toMatchObject({ county: 'albany', propertyClass: null, veteranDisability: 30, value: 0 });
  });
});

describe('result mapping', () => {
  const engine = new Calculator(fullBundle);

  it('shows exactly the engine figures for an NYC class2 co-op (same input as the CLI)', () => {
    const v = form({ county: 'New York County', homeValue: 1000000, propertyType: 'class2', homestead: true });
    const view = calculate(edition, v, 'en');
    const r = engine.calculate({ state: 'NY', county: 'New York', value: 1000000, propertyClass: 'class2', homestead: true }, { explain: true });
    expect(view.annualTax).toBe(r.annualTax);
    expect(view.monthlyTax).toBe(r.monthlyTax);
    expect(view.effectiveRate).toBe(r.effectiveRate);
    expect(view.taxableValue).toBe(r.taxableValue);
    expect(view.exemptionSavings).toBe(r.exemptionSavings);
    expect(view.breakdown).toEqual(r.countyBreakdown);
    expect(view.exemptions.map((e) => [e.key, e.amount])).toEqual(Object.entries(r.exemptions as object));
    expect(view.steps.map((s) => s.rule)).toEqual(r.explanation!.map((s) => s.rule));
    // Hand check (rules reference §3, FY2026): AV = 1,000,000 × 45% = 450,000; base tax =
    // 450,000 × 12.439% = 55,975.50; basic STAR capped at 293; abatement 17.5% of the rest
    // (AV above 60,000): (55,975.50 − 293) × 17.5% = 9,744.44; final 45,938.06.
    expect(view.baseAssessedValue).toBe(450000);
    expect(view.annualTax).toBe(45938.06);
    expect(view.exemptions.find((e) => e.key === 'coopCondoAbatement')?.amount).toBe(9744.44);
    expect(view.quarterlyPayment).toBe(11484.52);
  });

  it('Albany County, no exemptions (fixtures/ny/ny-outside.yaml: 5,681.10 = 300,000 × 1.8937%)', () => {
    const view = calculate(edition, form({ county: 'Albany County', homeValue: 300000 }), 'en');
    expect(view.annualTax).toBe(5681.1);
    expect(view.monthlyTax).toBe(473.43);
    expect(view.breakdown).toEqual({ school: 2840.55, county: 1704.33, city: 852.17, special: 284.06 });
    expect(view.potentialSavings).toBe(852.17);
    expect(view.exemptions).toEqual([]);
    expect(formatUsd(view.annualTax, 'en')).toBe('$5,681');
    expect(formatPercent(view.effectiveRate, 'en')).toBe('1.89%');
  });

  it('Kings class1 with homestead (README: 9,231.64 with STAR 293)', () => {
    const view = calculate(edition, form({ county: 'Kings County', homeValue: 800000, propertyType: 'class1', homestead: true }), 'en');
    expect(view.annualTax).toBe(9231.64);
    expect(view.exemptions).toEqual([{ key: 'star', amount: 293, detail: { type: 'basic', amount: 293 }, label: 'STAR' }]);
  });

  it('over-65 above the income limit gets Basic STAR with the engine note, in the page language', () => {
    const v = form({ county: 'Albany County', homeValue: 300000, over65: true, seniorIncome: 120000 });
    const en = calculate(edition, v, 'en');
    // Albany 300,000 × 1.8937% (the Census rate, which already averages STAR) = 5,681.10; Basic STAR (income above
    // the Enhanced limit) is worth 30,000 × 0.94685% = 284.06, shown beside and not subtracted (docs/conventions.md).
    expect(en.annualTax).toBe(5681.1);
    expect(en.details.find((d) => d.key === 'newYork')!.fields.find((f) => f.id === 'newYork.starValueNotSubtracted')!.value).toBe(284.06);
    expect(en.notes).toContain('Income too high for Enhanced STAR - Basic STAR applied instead');
    const es = calculate(edition, v, 'es');
    expect(es.notes.join(' ')).not.toContain('Income too high');
    expect(es.steps[0]!.label.es).toBeTruthy();
  });
});

describe('New York City details (issue 24)', () => {
  it('one row per figure; the school figure of the details says it is before STAR (the breakdown above is after)', () => {
    const r = calculate(edition, form({ county: 'Kings County', homeValue: 800000, propertyType: 'class2', homestead: true }), 'en');
    const fields = r.details.find((d) => d.key === 'nyc')!.fields;
    const labels = fields.map((f) => f.label);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels.filter((l) => l === 'STAR savings')).toHaveLength(1);
    const before = fields.find((f) => f.label === 'School tax before STAR and other savings')!.value as number;
    expect(before).toBeGreaterThan(r.breakdown.school);
  });
});

describe('California with Mello-Roos (issue 24)', () => {
  it('the total a buyer budgets for: tax 7,115.49 + Mello-Roos 2,000 = 9,115.49 a year, 759.62 a month', async () => {
    const { statePackage } = await import('../test/edition.js');
    const { toBundle } = await import('./stateData.js');
    const { makeEdition } = await import('./model.js');
    const ca = makeEdition(toBundle(statePackage('CA')));
    const v = {
      ...defaultForm(ca),
      county: 'Los Angeles County',
      homeValue: 900000,
      homestead: true,
      ownership: 'owned',
      purchasePrice: 500000,
      purchaseYear: 2015,
      melloRoos: 2000,
    };
    const r = calculate(ca, v as FormValues, 'en');
    // 500,000 × 1.02^10 = 609,497.21 assessed; − 7,000 homeowners' = 602,497.21 × 1.181 % (BOE average rate) = 7,115.49
    expect(r.annualTax).toBe(7115.49);
    // 9,115.49 / 12 = 759.624… → 759.62
    expect(r.withMelloRoos).toEqual({ melloRoos: 2000, total: 9115.49, monthly: 759.62 });
  });
});

describe('Texas taxable values per levy (issue 24)', () => {
  it('with homestead and over-65 each levy has its own: school 400,000 − 140,000 − 60,000 = 200,000; county 400,000 − 3,000 = 397,000; city 400,000', async () => {
    const { statePackage } = await import('../test/edition.js');
    const { toBundle } = await import('./stateData.js');
    const { makeEdition } = await import('./model.js');
    const tx = makeEdition(toBundle(statePackage('TX')));
    const r = calculate(tx, { ...defaultForm(tx), county: 'Harris County', homeValue: 400000, homestead: true, over65: true } as FormValues, 'en');
    expect(r.taxableValues).toMatchObject({ school: 200000, county: 397000, city: 400000 });
  });
});
