// @vitest-environment happy-dom
/** The visitor's explanation (issue 15): steps in words with the result's amounts, public sources, conventions linked to a public page. */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { createI18n } from '../i18n/index.js';
import es from '../i18n/es.js';
import { statePackage } from '../test/edition.js';
import { toBundle } from '../lib/stateData.js';
import { calculate, defaultForm, makeEdition } from '../lib/model.js';
import { PlainExplanation, sourcesOf } from './PlainExplanation.js';

afterEach(cleanup);
const tx = makeEdition(toBundle(statePackage('TX')));
// ptax calc --state TX --county Harris --value 400000 --homestead
const r = calculate(tx, { ...defaultForm(tx), county: 'Harris County', homeValue: 400000, homestead: true }, 'en');

describe('PlainExplanation', () => {
  it('says the steps in words with the amounts of the result (Texas, Harris, $400,000, homestead)', () => {
    render(
      <I18nextProvider i18n={createI18n('en')}>
        <PlainExplanation r={r} lang="en" stateAverage={tx.stateAverageRate} stateName="Texas" />
      </I18nextProvider>,
    );
    expect(screen.getByTestId('plain-value').textContent).toBe('You entered a market value of $400,000.');
    // Hand check: school value 400,000 − 140,000 homestead = 260,000; county 400,000 − 3,000 = 397,000.
    expect(screen.getByTestId('plain-taxable').textContent).toBe(
      'Taxable values after exemptions: $260,000 for schools, $397,000 for the county, $400,000 for the city and $400,000 for special districts.',
    );
    expect(screen.getByTestId('plain-exemption').textContent).toBe(
      `Homestead exemption lowers your tax by $${Math.round(r.exemptions[0]!.amount).toLocaleString('en-US')}.`,
    );
    expect(screen.getByTestId('plain-total').textContent).toContain(`$${Math.round(r.annualTax).toLocaleString('en-US')} a year`);
    expect(screen.getByTestId('plain-total').textContent).toContain('The Texas average is 1.68%.');
    for (const a of screen.getAllByTestId('citation')) expect(a.getAttribute('href')).toMatch(/^https:\/\//);
    expect(screen.getByTestId('convention-link').getAttribute('href')).toBe('/how-it-works#conventions');
  });

  it('in Spanish, with the conventions page in Spanish', () => {
    render(
      <I18nextProvider i18n={createI18n('es', { es })}>
        <PlainExplanation
          r={calculate(tx, { ...defaultForm(tx), county: 'Harris County', homeValue: 400000, homestead: true }, 'es')}
          lang="es"
          stateAverage={tx.stateAverageRate}
          stateName="Texas"
        />
      </I18nextProvider>,
    );
    expect(screen.getByTestId('plain-value').textContent).toBe('Usted indicó un valor de mercado de $400,000.');
    expect(screen.getByTestId('convention-link').getAttribute('href')).toBe('/es/como-funciona#conventions');
  });

  it("includes the statute section a step applies (the step's own reference in the rules)", () => {
    const vet = calculate(tx, { ...defaultForm(tx), county: 'Harris County', homeValue: 400000, homestead: true, veteranDisability: 50 }, 'en');
    const stepRefs = vet.steps.filter((s) => s.value && s.reference?.length).flatMap((s) => s.reference!.map((r) => r.href));
    expect(stepRefs.length).toBeGreaterThan(0);
    const hrefs = sourcesOf(vet.steps, '/how-it-works').map((s) => s.href);
    for (const h of stepRefs) expect(hrefs).toContain(h);
  });

  it('lists no internal file as a source: conventions point to the how-it-works page', () => {
    const sources = sourcesOf(r.steps, '/how-it-works');
    expect(sources.length).toBeGreaterThan(0);
    for (const s of sources) expect(s.href).toMatch(s.convention ? /^\/how-it-works#convention-/ : /^https?:\/\//);
  });
});
