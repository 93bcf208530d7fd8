// @vitest-environment happy-dom
/** The property form's rules: value parsing, enablement, the NYC property type, class4 clearing, income message. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { createI18n } from '../i18n/index.js';
import es from '../i18n/es.js';
import { PropertyForm } from './PropertyForm.js';
import { ToastProvider } from './Toaster.js';
import { useCalculatorForm, useFormValues, type CalculatorForm } from './calculatorForm.js';
import { DEFAULT_FORM, type FormValues } from '../lib/model.js';
import { nyEdition } from '../test/edition.js';

const edition = nyEdition();
let current: { form: CalculatorForm; values: FormValues } | null = null;
let calculated = 0;

function Harness({ calculating = false, lang = 'en' as const }) {
  const form = useCalculatorForm({ ...DEFAULT_FORM });
  const values = useFormValues(form);
  current = { form, values };
  return <PropertyForm form={form} edition={edition} lang={lang} calculating={calculating} onCalculate={() => calculated++} />;
}

function renderForm(props: { calculating?: boolean } = {}, lang: 'en' | 'es' = 'en') {
  return render(
    <I18nextProvider i18n={createI18n(lang, { es })}>
      <ToastProvider>
        <Harness {...props} />
      </ToastProvider>
    </I18nextProvider>,
  );
}

const valueInput = () => screen.getByLabelText('Home value (market value)') as HTMLInputElement;
const countySelect = () => screen.getByLabelText('County') as HTMLSelectElement;
const button = () => screen.getByTestId('calculate') as HTMLButtonElement;

beforeEach(() => {
  calculated = 0;
  localStorage.clear();
});
afterEach(cleanup);

describe('PropertyForm', () => {
  it('shows the default value 350,000 with separators and reads amounts as people write them', () => {
    renderForm();
    expect(valueInput().value).toBe('350,000');
    fireEvent.change(valueInput(), { target: { value: '1250000' } });
    expect(current!.values.homeValue).toBe(1250000);
    fireEvent.blur(valueInput());
    expect(valueInput().value).toBe('1,250,000');
    // A pasted price with cents is that price, not 100 times larger (issue 15).
    fireEvent.change(valueInput(), { target: { value: '$450,000.00' } });
    expect(current!.values.homeValue).toBe(450000);
    fireEvent.change(valueInput(), { target: { value: '$450,000.99' } });
    expect(current!.values.homeValue).toBe(450000.99);
    fireEvent.change(valueInput(), { target: { value: '-5000' } });
    expect(current!.values.homeValue).toBe(0);
    // Text that is not an amount gets the field's message and counts as no value.
    fireEvent.change(valueInput(), { target: { value: '1.5e6' } });
    expect(current!.values.homeValue).toBe(0);
    expect(screen.getByTestId('home-value-error').textContent).toBe('Please enter a valid value: an amount in dollars, like 350,000 or 350000.00.');
    fireEvent.blur(valueInput());
    expect(valueInput().value).toBe('1.5e6');
    fireEvent.change(valueInput(), { target: { value: '123456789012345678901' } });
    expect(current!.values.homeValue).toBe(0);
    expect(screen.getByTestId('home-value-error').textContent).toBe('That amount is too large. Please enter a valid value.');
    fireEvent.change(valueInput(), { target: { value: '' } });
    expect(screen.queryByTestId('home-value-error')).toBeNull();
    fireEvent.blur(valueInput());
    expect(valueInput().value).toBe('');
    expect(current!.values.homeValue).toBe(0);
  });

  it('lists every county with its combined rate from the data', () => {
    renderForm();
    const options = [...countySelect().options].map((o) => o.textContent);
    // The placeholder, New York City as a whole, and the 62 counties.
    expect(options).toHaveLength(64);
    expect(options).toContain('Albany County (1.894%)');
    // New York City is offered by borough, without a county rate (its counties are taxed by class).
    const nyc = countySelect().querySelector('optgroup')!;
    expect(nyc.label).toBe('New York City (taxed by property class)');
    expect([...nyc.querySelectorAll('option')].map((o) => [o.textContent, o.value])).toEqual([
      ['New York City (any borough)', 'New York City'],
      ['Brooklyn (Kings County)', 'Kings County'],
      ['Manhattan (New York County)', 'New York County'],
      ['Queens (Queens County)', 'Queens County'],
      ['Staten Island (Richmond County)', 'Richmond County'],
      ['The Bronx (Bronx County)', 'Bronx County'],
    ]);
  });

  it('calculates New York City as a whole with the same figures as a borough (ny.nyc)', () => {
    renderForm();
    fireEvent.change(countySelect(), { target: { value: 'New York City' } });
    expect(current!.values.county).toBe('New York City');
    expect(screen.getByTestId('property-type')).toBeTruthy();
    expect(button().disabled).toBe(true);
  });

  it('disables Calculate until a county is chosen and the value is above 0', () => {
    renderForm();
    expect(button().disabled).toBe(true);
    fireEvent.change(countySelect(), { target: { value: 'Albany County' } });
    expect(button().disabled).toBe(false);
    expect(button().textContent).toBe('Calculate Property Tax');
    fireEvent.change(valueInput(), { target: { value: '0' } });
    expect(button().disabled).toBe(true);
    fireEvent.change(valueInput(), { target: { value: '250000' } });
    fireEvent.click(button());
    expect(calculated).toBe(1);
    expect(localStorage.getItem('ptax.selectedCounty')).toBe('Albany County');
  });

  it('is disabled while calculating', () => {
    renderForm({ calculating: true });
    fireEvent.change(countySelect(), { target: { value: 'Albany County' } });
    expect(button().disabled).toBe(true);
    expect(button().textContent).toBe('Calculating...');
  });

  it('an NYC county asks for the property type first, with rates from the rule file', () => {
    renderForm();
    expect(screen.queryByLabelText('Property type')).toBeNull();
    fireEvent.change(countySelect(), { target: { value: 'Kings County' } });
    expect(button().disabled).toBe(true);
    expect(button().textContent).toBe('Select Property Type First');
    const type = screen.getByLabelText('Property type') as HTMLSelectElement;
    expect([...type.options].map((o) => o.value)).toEqual(['', 'class1', 'class2', 'class4']);
    // rules/ny/nyc/class-table.yaml, FY2026: class1 19.843, class2 12.439, class4 10.848.
    expect(type.options[1]!.textContent).toContain('19.843%');
    expect(type.options[2]!.textContent).toContain('12.439%');
    expect(type.options[3]!.textContent).toContain('10.848%');
    fireEvent.change(type, { target: { value: 'class1' } });
    expect(button().disabled).toBe(false);
    expect(button().textContent).toBe('Calculate Property Tax');
    // Leaving NYC drops the property type.
    fireEvent.change(countySelect(), { target: { value: 'Albany County' } });
    expect(current!.values.propertyType).toBe('');
    expect(screen.queryByLabelText('Property type')).toBeNull();
  });

  it('class4 clears and disables the residential exemptions and links to commercial exemptions', () => {
    renderForm();
    fireEvent.change(countySelect(), { target: { value: 'New York County' } });
    fireEvent.change(screen.getByLabelText('Property type'), { target: { value: 'class2' } });
    fireEvent.click(screen.getByLabelText('Primary residence (homestead / STAR)'));
    fireEvent.click(screen.getByLabelText('Owner 65 or older (Enhanced STAR)'));
    fireEvent.click(screen.getByLabelText('Senior citizen exemption (SCHE)'));
    fireEvent.click(screen.getByLabelText('Cold War veteran'));
    fireEvent.click(screen.getByLabelText('Veteran who served during a period of war'));
    fireEvent.click(screen.getByLabelText('Combat-zone veteran'));
    fireEvent.click(screen.getByLabelText('Person with a disability (DHE)'));
    fireEvent.change(screen.getByLabelText('Disabled veteran: disability rating'), { target: { value: '40' } });
    fireEvent.click(screen.getByLabelText('Show school tax breakdown'));
    expect(current!.values).toMatchObject({
      homestead: true,
      over65: true,
      seniorCitizen: true,
      coldWarVeteran: true,
      wartimeVeteran: true,
      combatVeteran: true,
      veteranDisability: 40,
    });

    fireEvent.change(screen.getByLabelText('Property type'), { target: { value: 'class4' } });
    expect(current!.values).toMatchObject({
      homestead: false,
      over65: false,
      seniorCitizen: false,
      coldWarVeteran: false,
      wartimeVeteran: false,
      combatVeteran: false,
      veteranDisability: 0,
      disabled: false,
      showSchoolTaxBreakdown: true,
    });
    for (const label of [
      'Primary residence (homestead / STAR)',
      'Owner 65 or older (Enhanced STAR)',
      'Senior citizen exemption (SCHE)',
      'Cold War veteran',
      'Veteran who served during a period of war',
      'Disabled veteran: disability rating',
    ]) {
      expect((screen.getByLabelText(label) as HTMLInputElement).disabled).toBe(true);
    }
    expect((screen.getByLabelText('Show school tax breakdown') as HTMLInputElement).disabled).toBe(false);
    const link = screen.getByRole('link', { name: /Commercial exemptions information/ });
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
  });

  it('over-65 reveals the senior income field and the income-limit message above the limit', () => {
    renderForm();
    fireEvent.change(countySelect(), { target: { value: 'Albany County' } });
    expect(screen.queryByLabelText(/Combined household income/)).toBeNull();
    fireEvent.click(screen.getByLabelText('Owner 65 or older (Enhanced STAR)'));
    const income = screen.getByLabelText(/Combined household income/) as HTMLInputElement;
    // Albany (outside NYC, tax year 2025) reads the 2024-25 limit, 98,700 (NYS Tax, benefit year 2024).
    expect(screen.getByText(/Enhanced STAR income limit: \$98,700/)).toBeTruthy();
    fireEvent.change(income, { target: { value: '98700' } });
    expect(screen.queryByTestId('income-limit-message')).toBeNull();
    fireEvent.change(income, { target: { value: '98701' } });
    expect(screen.getByTestId('income-limit-message').textContent).toBe('Income exceeds Enhanced STAR limit. You may qualify for Basic STAR instead.');
    expect(current!.values.seniorIncome).toBe(98701);
    fireEvent.click(screen.getByLabelText('Owner 65 or older (Enhanced STAR)'));
    expect(current!.values.seniorIncome).toBeNull();
  });

  it('speaks Spanish under /es', () => {
    renderForm({}, 'es');
    expect(screen.getByLabelText('Valor de la vivienda (valor de mercado)')).toBeTruthy();
    expect(button().textContent).toBe('Calcular impuesto a la propiedad');
  });
});
