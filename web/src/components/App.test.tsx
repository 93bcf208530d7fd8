// @vitest-environment happy-dom
/**
 * The page end to end in the DOM: data loading toasts, the calculation flow and its figures
 * (compared with the engine for the same input), the wizard, the error boundary and the
 * Texas fallback with a mocked loader.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { Calculator as Engine } from '../../../engine/index.js';
import { createI18n } from '../i18n/index.js';
import es from '../i18n/es.js';
import { App } from './App.js';
import * as homeParts from './HomeParts.js';
import { ToastProvider } from './Toaster.js';
import { disarmThrowProbe } from './ErrorBoundary.js';
import { fullBundle, statePackage } from '../test/edition.js';
import { taxLog } from '../lib/monitoring.js';
import { formatUsd } from '../lib/format.js';
import type { PackageLoaders } from '../lib/stateData.js';

const ny = statePackage('NY');
const loaders: PackageLoaders = { NY: async () => ny };

function renderApp(lang: 'en' | 'es' = 'en', l: PackageLoaders = loaders, pathname = lang === 'es' ? '/es' : '/') {
  return render(
    <I18nextProvider i18n={createI18n(lang, { es })}>
      <ToastProvider>
        <App lang={lang} pathname={pathname} loaders={l} home={homeParts} />
      </ToastProvider>
    </I18nextProvider>,
  );
}

async function flush(ms = 0) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: false });
  localStorage.clear();
  vi.spyOn(console, 'info').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  history.replaceState(null, '', '/');
  disarmThrowProbe(false);
});

/** The wizard and the popup are their own chunks: let them load and render. */
async function lazyParts() {
  await act(async () => {
    await import('./Wizard.js');
    await import('./NewsletterPopup.js');
  });
  await flush();
}

const toasts = () => screen.queryAllByTestId('toast').map((t) => t.textContent ?? '');

describe('App', () => {
  it('loads the counties without a toast (a toast is for news the visitor needs)', async () => {
    renderApp();
    expect(screen.getByTestId('form-skeleton')).toBeTruthy();
    await flush();
    expect(screen.getByTestId('property-form')).toBeTruthy();
    expect(toasts()).toEqual([]);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('New York Property Tax Calculator for New Yorkers');
  });

  it('restores the saved county', async () => {
    localStorage.setItem('ptax.selectedCounty', 'Erie County');
    renderApp();
    await flush();
    expect((screen.getByLabelText('County') as HTMLSelectElement).value).toBe('Erie County');
  });

  it('calculates after 500 ms and shows the engine figures (NYC class2 co-op, 1,000,000, primary residence)', async () => {
    renderApp();
    await flush();
    fireEvent.change(screen.getByLabelText('Home value (market value)'), { target: { value: '1000000' } });
    fireEvent.change(screen.getByLabelText('County'), { target: { value: 'New York County' } });
    // Choosing the county is not news: no toast; Calculate waits for the property type.
    expect(toasts()).toEqual([]);
    expect((screen.getByTestId('calculate') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Property type'), { target: { value: 'class2' } });
    fireEvent.click(screen.getByLabelText('Primary residence (homestead / STAR)'));
    fireEvent.click(screen.getByTestId('calculate'));
    expect(screen.getByTestId('results-skeleton')).toBeTruthy();
    await flush(499);
    expect(screen.queryByTestId('annual-tax')).toBeNull();
    await flush(1);
    const r = new Engine(fullBundle).calculate(
      { state: 'NY', county: 'New York', value: 1000000, propertyClass: 'class2', homestead: true },
      { explain: true },
    );
    const value = (id: string) => Number(screen.getByTestId(id).getAttribute('data-value'));
    expect(value('annual-tax')).toBe(r.annualTax);
    expect(value('monthly-tax')).toBe(r.monthlyTax);
    expect(value('effective-rate')).toBe(r.effectiveRate);
    expect(value('taxable-value')).toBe(r.taxableValue);
    expect(value('exemption-savings')).toBe(r.exemptionSavings);
    // Displayed: USD without cents, percent with 2 decimals (hand check: 45,938.06 / 1,000,000 = 4.59%).
    expect(screen.getByTestId('annual-tax').textContent).toBe('$45,938');
    expect(screen.getByTestId('monthly-tax').textContent).toBe('$3,828');
    expect(screen.getByTestId('effective-rate').textContent).toBe('4.59%');
    expect(screen.getByTestId('breakdown-school').textContent).toBe('$27,793');
    expect(screen.getByTestId('exemption-star').textContent).toBe('$293');
    expect(within(screen.getByTestId('exemptions-applied')).getByText('Basic STAR')).toBeTruthy();
    // Issue 24: STAR is claimed (primary residence ticked): no hint suggesting it.
    expect(r.potentialSavings).toBeGreaterThan(0);
    expect(screen.queryByTestId('potential-savings')).toBeNull();
    // The explanation's steps are put in the page when it is first opened (issue 27).
    expect(screen.queryByTestId('explain-step')).toBeNull();
    fireEvent.click(within(screen.getByTestId('explanation')).getByText(/./, { selector: 'summary' }));
    expect(screen.getAllByTestId('explain-step')).toHaveLength(r.explanation!.length);
    expect(screen.getAllByTestId('citation').length).toBeGreaterThan(0);
    expect(taxLog.map((e) => e.message)).toContain('Tax calculation completed');
    // The school tax breakdown toggle shows its detail at once (school tax before exemptions = nyc.schoolTaxPortion).
    expect(screen.queryByTestId('school-detail')).toBeNull();
    fireEvent.click(screen.getByLabelText('Show school tax breakdown'));
    expect(screen.getByTestId('school-tax-before').getAttribute('data-value')).toBe(String((r.nyc as { schoolTaxPortion: number }).schoolTaxPortion));
  });

  it('warns about very high values; the newsletter popup never over the first result: 3 s after a second calculation, once', async () => {
    renderApp();
    await flush();
    fireEvent.change(screen.getByLabelText('Home value (market value)'), { target: { value: '12000000' } });
    fireEvent.change(screen.getByLabelText('County'), { target: { value: 'Albany County' } });
    fireEvent.click(screen.getByTestId('calculate'));
    await flush(500);
    expect(screen.getByTestId('annual-tax')).toBeTruthy();
    // The check sits above the figures instead of a toast over them.
    expect(screen.getByTestId('value-check').textContent).toBe(
      'Very high property value detected. Please verify this amount is correct for accurate calculations',
    );
    expect(toasts()).toEqual([]);
    expect(screen.queryByRole('dialog')).toBeNull();
    // Issue 24: the first result is being read: no popup over it, however long the visitor stays.
    await flush(3000);
    await lazyParts();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(localStorage.getItem('ptax.newsletterPopupShown')).toBeNull();
    fireEvent.click(screen.getByTestId('calculate'));
    await flush(500);
    await flush(3000);
    await lazyParts();
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByLabelText('First name')).toBeTruthy();
    expect(localStorage.getItem('ptax.newsletterPopupShown')).toBe('1');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByTestId('calculate'));
    await flush(4000);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a calculation the rules refuse gives the failure toast with Retry, logged as failed', async () => {
    renderApp();
    await flush();
    // ny.nyc validation: 'Market value seems unreasonably high' above the rule file's ceiling.
    fireEvent.change(screen.getByLabelText('Home value (market value)'), { target: { value: '60000000' } });
    fireEvent.change(screen.getByLabelText('County'), { target: { value: 'Queens County' } });
    fireEvent.change(screen.getByLabelText('Property type'), { target: { value: 'class1' } });
    fireEvent.click(screen.getByTestId('calculate'));
    await flush(500);
    const failure = screen.getAllByTestId('toast').find((t) => t.textContent?.includes('Unable to calculate property tax'))!;
    expect(failure.textContent).toContain('Please check your inputs and try again');
    expect(failure.textContent).toContain('Market value seems unreasonably high');
    expect(taxLog[taxLog.length - 1]).toMatchObject({ message: 'Tax calculation failed', level: 'error' });
    // No figures of an earlier calculation stay under the refused inputs.
    expect(screen.queryByTestId('annual-tax')).toBeNull();
    fireEvent.click(within(failure).getByRole('button', { name: 'Retry' }));
    expect(screen.getByTestId('results-skeleton')).toBeTruthy();
    await flush(500);
    expect(taxLog.filter((e) => e.message === 'Tax calculation failed')).toHaveLength(2);
  });

  it('warns about very low values', async () => {
    renderApp();
    await flush();
    fireEvent.change(screen.getByLabelText('Home value (market value)'), { target: { value: '5000' } });
    fireEvent.change(screen.getByLabelText('County'), { target: { value: 'Albany County' } });
    fireEvent.click(screen.getByTestId('calculate'));
    await flush(500);
    expect(screen.getByTestId('value-check').textContent).toContain('Very low property value detected');
  });

  it('a shared address opens on the same result, and its share links carry the inputs and the figure', async () => {
    history.replaceState(null, '', '/es?county=kings&value=800000&class=class1&homestead=true');
    renderApp('es');
    await flush();
    await flush(500);
    const r = new Engine(fullBundle).calculate({ state: 'NY', county: 'Kings', value: 800000, propertyClass: 'class1', homestead: true });
    expect(Number(screen.getByTestId('annual-tax').getAttribute('data-value'))).toBe(r.annualTax);
    expect(screen.getByTestId('results-heading').textContent).toBe(`Condado de Kings, tarifas de ${r.year}`);
    const twitter = new URL(screen.getByTestId('share-twitter').getAttribute('href')!);
    expect(twitter.searchParams.get('url')).toBe(`${location.origin}/es?county=kings&value=800000&class=class1&homestead=true`);
    expect(twitter.searchParams.get('text')).toContain(formatUsd(r.annualTax, 'es'));
    const facebook = new URL(screen.getByTestId('share-facebook').getAttribute('href')!);
    expect(facebook.searchParams.get('u')).toBe(`${location.origin}/es?county=kings&value=800000&class=class1&homestead=true`);
    // Copy link (seed 001 §8): 'Enlace copiado', or 'No se puede copiar' with 'Por favor copia la URL manualmente.'
    const written: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: {
        writeText: async (x: string) => {
          written.push(x);
        },
      },
    });
    await act(async () => {
      fireEvent.click(screen.getByTestId('share-copy-link'));
    });
    expect(written).toEqual([`${location.origin}/es?county=kings&value=800000&class=class1&homestead=true`]);
    expect(toasts().some((x) => x.startsWith('Enlace copiado'))).toBe(true);
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: {
        writeText: async () => {
          throw new Error('denied');
        },
      },
    });
    await act(async () => {
      fireEvent.click(screen.getByTestId('share-copy-link'));
    });
    expect(toasts().some((x) => x.includes('No se puede copiar') && x.includes('Por favor copia la URL manualmente.'))).toBe(true);
  });

  it('a shown result follows the inputs, and is marked stale while they are incomplete', async () => {
    renderApp();
    await flush();
    fireEvent.change(screen.getByLabelText('Home value (market value)'), { target: { value: '300000' } });
    fireEvent.change(screen.getByLabelText('County'), { target: { value: 'Albany County' } });
    fireEvent.click(screen.getByTestId('calculate'));
    await flush(500);
    const engine = new Engine(fullBundle);
    const tax = () => Number(screen.getByTestId('annual-tax').getAttribute('data-value'));
    expect(tax()).toBe(engine.calculate({ state: 'NY', county: 'Albany', value: 300000 }).annualTax);
    // Beside the state average (rules: ny.state_average_rate 1.54%): 1.8937 − 1.54 = 0.35 points above.
    expect(screen.getByTestId('average-compare').textContent).toBe('Above the New York average of 1.54% by 0.35 percentage points.');
    // A new value updates the figures without pressing Calculate again.
    fireEvent.change(screen.getByLabelText('Home value (market value)'), { target: { value: '400000' } });
    await flush(400);
    expect(tax()).toBe(engine.calculate({ state: 'NY', county: 'Albany', value: 400000 }).annualTax);
    expect(screen.queryByTestId('result-stale')).toBeNull();
    // An NYC county without a property type cannot be calculated: the old figures are marked.
    fireEvent.change(screen.getByLabelText('County'), { target: { value: 'Kings County' } });
    await flush(400);
    expect(screen.getByTestId('result-stale').textContent).toBe(
      'These figures are for your previous inputs (Albany County, $400,000). Complete the form to update them.',
    );
    expect(tax()).toBe(engine.calculate({ state: 'NY', county: 'Albany', value: 400000 }).annualTax);
  });

  it('the wizard walks four steps over the same state and calculates', async () => {
    renderApp();
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Start step-by-step calculator' }));
    await lazyParts();
    const wizard = screen.getByRole('dialog');
    const next = () => within(wizard).getByRole('button', { name: 'Next' }) as HTMLButtonElement;
    expect(within(wizard).getByTestId('wizard-step-title').textContent).toBe('Property Value');
    fireEvent.change(within(wizard).getByLabelText('Home value (market value)'), { target: { value: '0' } });
    expect(next().disabled).toBe(true);
    fireEvent.change(within(wizard).getByLabelText('Home value (market value)'), { target: { value: '800000' } });
    fireEvent.click(next());
    expect(within(wizard).getByTestId('wizard-step-title').textContent).toBe('Location');
    expect(next().disabled).toBe(true);
    fireEvent.change(within(wizard).getByLabelText('County'), { target: { value: 'Kings County' } });
    expect(next().disabled).toBe(true);
    fireEvent.change(within(wizard).getByLabelText('Property type'), { target: { value: 'class1' } });
    fireEvent.click(next());
    expect(within(wizard).getByTestId('wizard-step-title').textContent).toBe('Exemptions');
    fireEvent.click(within(wizard).getByLabelText('Primary residence (homestead / STAR)'));
    fireEvent.click(next());
    expect(within(wizard).getByTestId('wizard-step-title').textContent).toBe('Review & Calculate');
    expect(within(wizard).getByTestId('wizard-review').textContent).toContain('$800,000');
    fireEvent.click(within(wizard).getByRole('button', { name: 'Previous' }));
    expect(within(wizard).getByTestId('wizard-step-title').textContent).toBe('Exemptions');
    fireEvent.click(next());
    fireEvent.click(within(wizard).getByRole('button', { name: 'Calculate Tax' }));
    expect(screen.queryByTestId('wizard')).toBeNull();
    // The desktop form shows the same state.
    expect((screen.getByLabelText('County') as HTMLSelectElement).value).toBe('Kings County');
    await flush(500);
    // README: Kings, class1, 800,000, homestead → 9,231.64.
    expect(screen.getByTestId('annual-tax').getAttribute('data-value')).toBe('9231.64');
  });

  it('falls back to the Texas package when the edition fails to load (mocked loader)', async () => {
    const tx = { ...ny, code: 'TX', state: { ...ny.state, code: 'TX', name: { en: 'Texas', es: 'Texas' } } };
    const tx1 = vi.fn(async () => tx);
    renderApp('en', {
      NY: async () => {
        throw new Error('chunk failed');
      },
      TX: tx1,
    });
    await flush();
    expect(tx1).toHaveBeenCalled();
    expect(toasts().some((t) => t.includes('showing TX instead'))).toBe(true);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toContain('Texas');
  });

  it('shows the load failure toast and panel when no package loads', async () => {
    renderApp('en', {
      NY: async () => {
        throw new Error('x');
      },
    });
    await flush();
    expect(screen.getByTestId('load-error')).toBeTruthy();
    expect(toasts().some((t) => t.includes('Failed to load county tax data. Please refresh the page to try again.'))).toBe(true);
  });

  it('?__throw=1 shows the Calculator Error panel; Try Again brings the calculator back', async () => {
    history.replaceState(null, '', '/?__throw=1');
    renderApp();
    await flush();
    expect(screen.getByTestId('error-boundary').textContent).toContain('Calculator Error');
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(screen.queryByTestId('error-boundary')).toBeNull();
    expect(screen.getByLabelText('County')).toBeTruthy();
  });

  it('Spanish page: texts, es-MX figures and engine notes in Spanish', async () => {
    renderApp('es');
    await flush();
    fireEvent.change(screen.getByLabelText('Valor de la vivienda (valor de mercado)'), { target: { value: '300000' } });
    fireEvent.change(screen.getByLabelText('Condado'), { target: { value: 'Albany County' } });
    fireEvent.click(screen.getByLabelText('Propietario de 65 años o más (STAR mejorado)'));
    fireEvent.change(screen.getByLabelText('Ingreso combinado del hogar (para STAR mejorado)'), { target: { value: '120000' } });
    fireEvent.click(screen.getByTestId('calculate'));
    await flush(500);
    // Albany, 300,000 × the Census rate 1.8937% = 5,681.10: STAR (Basic, income above the Enhanced limit) is shown
    // beside the estimate, not subtracted (docs/conventions.md, county rates).
    expect(screen.getByTestId('annual-tax').getAttribute('data-value')).toBe('5681.1');
    expect(screen.getByTestId('annual-tax').textContent?.replace(/\s/g, '')).toMatch(/^(USD|\$)5,681$/);
    const notes = screen.getAllByTestId('note').map((n) => n.textContent);
    expect(notes.join(' ')).not.toContain('Income too high');
    expect(notes.length).toBeGreaterThan(0);
  });
});
