// @vitest-environment happy-dom
/**
 * Issue 21: "buying, or owned a while?" drives the owner-only fields (California's purchase year
 * and price, Florida's and New York City's last assessed value, Texas's last appraised value),
 * and a New York City class 2 value that looks like a sale price is warned of beside the field.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { createI18n } from '../i18n/index.js';
import es from '../i18n/es.js';
import { PropertyForm } from './PropertyForm.js';
import { Wizard } from './Wizard.js';
import { ToastProvider } from './Toaster.js';
import { useCalculatorForm, useFormValues, type CalculatorForm } from './calculatorForm.js';
import { calculate, defaultForm, makeEdition, toCalcInput, type Edition, type FormValues } from '../lib/model.js';
import { readShare, shareQuery } from '../lib/shareLink.js';
import { toBundle } from '../lib/stateData.js';
import { statePackage } from '../test/edition.js';

const editions: Record<string, Edition> = {};
const editionOf = (code: string) => (editions[code] ??= makeEdition(toBundle(statePackage(code))));
let current: { form: CalculatorForm; values: FormValues } | null = null;

function Harness({ edition, wizardStep }: { edition: Edition; wizardStep?: number }) {
  const form = useCalculatorForm(defaultForm(edition));
  current = { form, values: useFormValues(form) };
  return wizardStep === undefined ? (
    <PropertyForm form={form} edition={edition} lang="en" calculating={false} onCalculate={() => {}} />
  ) : (
    <Wizard form={form} edition={edition} lang="en" step={wizardStep} setStep={() => {}} onClose={() => {}} onCalculate={() => {}} />
  );
}

function renderForm(code: string, lang: 'en' | 'es' = 'en', wizardStep?: number) {
  const edition = editionOf(code);
  render(
    <I18nextProvider i18n={createI18n(lang, { es })}>
      <ToastProvider>
        <Harness edition={edition} wizardStep={wizardStep} />
      </ToastProvider>
    </I18nextProvider>,
  );
  return edition;
}

const QUESTION = 'Are you buying (or did you buy this year), or have you owned the home for a while?';
const county = (name: string) => fireEvent.change(screen.getByLabelText('County'), { target: { value: name } });
const value = (x: string) => fireEvent.change(screen.getByLabelText('Home value (market value)'), { target: { value: x } });

afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('buyer or owner (issue 21)', () => {
  it('California: a radio group with a legend, buying by default; owned shows the purchase year and price, and only then are they used', () => {
    const edition = renderForm('CA');
    county('Los Angeles County');
    value('900000');
    fireEvent.click(screen.getByLabelText("Homeowners' exemption (primary residence)"));
    const group = screen.getByRole('group', { name: QUESTION });
    const buying = within(group).getByLabelText('Buying, or bought this year') as HTMLInputElement;
    const owned = within(group).getByLabelText('Owned it for a while') as HTMLInputElement;
    expect(buying.type).toBe('radio');
    expect(buying.name).toBe(owned.name);
    expect(buying.checked).toBe(true);
    expect(screen.queryByLabelText('Purchase price')).toBeNull();
    expect(screen.queryByLabelText('Year of purchase')).toBeNull();
    expect(within(group).getByTestId('ownership-help').textContent).toContain("The estimate is a buyer's");

    fireEvent.click(owned);
    expect(current!.values.ownership).toBe('owned');
    fireEvent.change(within(group).getByLabelText('Purchase price'), { target: { value: '500000' } });
    fireEvent.change(within(group).getByLabelText('Year of purchase'), { target: { value: '2015' } });
    const la = edition.county('Los Angeles County')!;
    expect(toCalcInput(current!.values, edition, la)).toMatchObject({ purchasePrice: 500000, purchaseYear: 2015 });
    // 500,000 × 1.02^10 = 609,497.21 assessed; − 7,000 homeowners' = 602,497.21 × 1.181 % (BOE average rate) = 7,115.49
    expect(calculate(edition, current!.values, 'en').annualTax).toBe(7115.49);

    // Back to buying: the fields go, and the figures typed are not used (no hidden value).
    fireEvent.click(buying);
    expect(screen.queryByLabelText('Purchase price')).toBeNull();
    const input = toCalcInput(current!.values, edition, la);
    expect(input).not.toHaveProperty('purchasePrice');
    expect(input).not.toHaveProperty('purchaseYear');
    const buyer = calculate(edition, current!.values, 'en');
    // (900,000 − 7,000 homeowners') × 1.181 % = 893,000 × 0.01181 = 10,546.33
    expect(buyer.annualTax).toBe(10546.33);
    expect(buyer.notes.join(' ')).toContain("A buyer's estimate");
    expect(shareQuery(current!.values, edition)).not.toContain('purchase');
  });

  it("Texas asks last year's appraised value and Florida last year's assessed value, only of an owner", () => {
    renderForm('TX');
    county('Harris County');
    expect(screen.queryByLabelText("Last year's appraised value")).toBeNull();
    fireEvent.click(screen.getByLabelText('Owned it for a while'));
    expect(screen.getByLabelText("Last year's appraised value")).toBeTruthy();
    cleanup();
    renderForm('FL');
    county('Miami-Dade County');
    expect(screen.queryByLabelText("Last year's assessed value")).toBeNull();
    fireEvent.click(screen.getByLabelText('Owned it for a while'));
    expect(screen.getByLabelText("Last year's assessed value")).toBeTruthy();
  });

  it("New York: asked for New York City (last year's assessed value), not outside it where the law needs no owner's figure", () => {
    const edition = renderForm('NY');
    county('Albany County');
    expect(screen.queryByRole('group', { name: QUESTION })).toBeNull();
    county('Kings County');
    fireEvent.change(screen.getByLabelText('Property type'), { target: { value: 'class1' } });
    fireEvent.click(screen.getByLabelText('Owned it for a while'));
    fireEvent.change(screen.getByLabelText("Last year's assessed value"), { target: { value: '30000' } });
    const kings = edition.county('Kings County')!;
    expect(toCalcInput(current!.values, edition, kings)).toMatchObject({ priorAssessed: 30000 });
    fireEvent.click(screen.getByLabelText('Buying, or bought this year'));
    expect(toCalcInput(current!.values, edition, kings)).not.toHaveProperty('priorAssessed');
  });

  it('a share link with an owner figure opens as owned; one without opens as buying', () => {
    const fl = editionOf('FL');
    const owned = readShare('?county=miami-dade&value=450000&homestead=true&priorAssessed=300000', fl)!;
    expect(owned.ownership).toBe('owned');
    expect(owned.priorAssessed).toBe(300000);
    expect(shareQuery(owned, fl)).toContain('priorAssessed=300000');
    expect(readShare('?county=miami-dade&value=450000&homestead=true', fl)!.ownership).toBe('buying');
  });

  it('the wizard asks it on the exemptions step, in Spanish too', () => {
    renderForm('CA', 'es', 2);
    const group = screen.getByRole('group', { name: '¿Está comprando (o compró este año) la vivienda, o es su dueño desde hace tiempo?' });
    fireEvent.click(within(group).getByLabelText('Soy dueño desde hace tiempo'));
    // (The inputs' own Spanish labels come with the Spanish data package, not loaded here.)
    expect(within(group).getByTestId('purchase-price')).toBeTruthy();
    expect(within(group).getByTestId('purchase-year')).toBeTruthy();
    fireEvent.click(within(group).getByLabelText('Estoy comprando, o compré este año'));
    expect(within(group).queryByTestId('purchase-price')).toBeNull();
  });
});

describe('New York City class 2: a value that looks like a sale price (issue 21)', () => {
  it('warns beside the value from the rules threshold (ny.nyc.class2_sale_price_warning: 1,000,000), with the City look-up link', () => {
    const edition = renderForm('NY');
    county('New York County');
    fireEvent.change(screen.getByLabelText('Property type'), { target: { value: 'class2' } });
    const threshold = edition.class2SalePriceWarning(edition.county('New York County'));
    expect(threshold).toBe(1000000);
    value('999999');
    expect(screen.queryByTestId('class2-sale-price-warning')).toBeNull();
    value('1,100,000');
    const warning = screen.getByTestId('class2-sale-price-warning');
    expect(warning.textContent).toContain('This looks like a sale price');
    expect(within(warning).getByRole('link').getAttribute('href')).toBe('https://www.nyc.gov/site/finance/property/property-search-property-information.page');
    // Only class 2: class 1 at the same value gets no such warning.
    fireEvent.change(screen.getByLabelText('Property type'), { target: { value: 'class1' } });
    expect(screen.queryByTestId('class2-sale-price-warning')).toBeNull();
    // Outside New York City there is no threshold.
    expect(edition.class2SalePriceWarning(edition.county('Albany County'))).toBeNull();
  });

  it('in Spanish', () => {
    renderForm('NY', 'es');
    fireEvent.change(screen.getByLabelText('Condado'), { target: { value: 'Kings County' } });
    fireEvent.change(screen.getByLabelText('Tipo de propiedad'), { target: { value: 'class2' } });
    fireEvent.change(screen.getByLabelText('Valor de la vivienda (valor de mercado)'), { target: { value: '1200000' } });
    expect(screen.getByTestId('class2-sale-price-warning').textContent).toContain('Esto parece un precio de venta');
  });
});
