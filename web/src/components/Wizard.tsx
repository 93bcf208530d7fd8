/** The mobile wizard (seed 000 §2): four full-screen steps over the same form state. */
import { useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { events } from '../lib/monitoring.js';
import { CountyField, ExemptionFields, HomeValueField, OwnershipFields, PropertyTypeField, YearField } from './Fields.js';
import { useFormValues, type CalculatorForm } from './calculatorForm.js';
import { useDialog } from './useDialog.js';
import { canCalculate, isCommercial, type Edition } from '../lib/model.js';
import { clampValue } from '../lib/parseValue.js';
import { formatPercent, formatUsd, type Lang } from '../lib/format.js';
import { chosenExemptions } from '../lib/report.js';
import { countyName } from '../lib/places.js';

export const STEP_KEYS = ['wizard.step1', 'wizard.step2', 'wizard.step3', 'wizard.step4'] as const;

/** Seed 000 §2: step 1 needs a value above 0; step 2 a county and (where the county has classes) a property type; step 3 always; step 4 a county and a value above 0. */
export function stepAllowed(step: number, v: ReturnType<typeof useFormValues>, edition: Edition): boolean {
  const county = edition.county(v.county);
  switch (step) {
    case 0:
      return clampValue(v.homeValue) > 0;
    case 1:
      return !!county && (!county.needsPropertyType || !!v.propertyType);
    case 2:
      return true;
    default:
      return canCalculate(v, county);
  }
}

export function Wizard({
  form,
  edition,
  lang,
  step,
  setStep,
  onClose,
  onCalculate,
}: {
  form: CalculatorForm;
  edition: Edition;
  lang: Lang;
  step: number;
  setStep: (n: number) => void;
  onClose: () => void;
  onCalculate: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const v = useFormValues(form);
  const heading = useRef<HTMLHeadingElement>(null);
  const ref = useDialog<HTMLDivElement>(true, onClose, () => heading.current);
  const first = useRef(true);
  // Toasts move up while the wizard is open so they never cover its buttons.
  useEffect(() => {
    document.body.classList.add('wizard-open');
    return () => document.body.classList.remove('wizard-open');
  }, []);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    heading.current?.focus();
    events.wizardStep(step + 1, v.homeValue);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [step]);
  const allowed = stepAllowed(step, v, edition);
  const county = edition.county(v.county);
  const rates = county?.needsPropertyType ? edition.classRates(county) : {};
  const exemptions = isCommercial(v.propertyType) ? [] : chosenExemptions(v, edition, lang);
  return createPortal(
    <div className="wizard" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`} ref={ref} data-testid="wizard">
      <div className="wizard-top">
        <button type="button" className="btn btn-ghost" onClick={onClose} data-testid="wizard-back">
          {t('wizard.back')}
        </button>
        <p className="wizard-progress" data-testid="wizard-progress">
          {t('wizard.progress', { current: step + 1, total: STEP_KEYS.length })}
        </p>
      </div>
      <p id={`${id}-title`} className="wizard-title">
        {t('wizard.title')}
      </p>
      <ol className="wizard-steps" aria-hidden="true">
        {STEP_KEYS.map((k, i) => (
          <li key={k} className={i === step ? 'is-current' : i < step ? 'is-done' : ''}>
            {t(k)}
          </li>
        ))}
      </ol>
      <div className="wizard-body">
        <h2 tabIndex={-1} ref={heading} data-testid="wizard-step-title">
          {t(STEP_KEYS[step]!)}
        </h2>
        {step === 0 && <HomeValueField form={form} edition={edition} lang={lang} />}
        {step === 1 && (
          <>
            <CountyField form={form} edition={edition} lang={lang} rateDigits={3} />
            {v.county && <PropertyTypeField form={form} edition={edition} lang={lang} valueWarning />}
            {v.county && <YearField form={form} edition={edition} lang={lang} />}
          </>
        )}
        {step === 2 && (
          <>
            <OwnershipFields form={form} edition={edition} lang={lang} />
            <ExemptionFields form={form} edition={edition} lang={lang} grouped />
          </>
        )}
        {step === 3 && (
          <dl className="rows review" data-testid="wizard-review">
            <div className="row">
              <dt>{t('wizard.reviewValue')}</dt>
              <dd>{formatUsd(v.homeValue, lang)}</dd>
            </div>
            <div className="row">
              <dt>{t('wizard.reviewCounty')}</dt>
              <dd>
                {county
                  ? `${countyName(county.name, t)}${county.rate !== null && !county.needsPropertyType ? ` (${formatPercent(county.rate, lang, 3)})` : ''}`
                  : '—'}
              </dd>
            </div>
            <div className="row">
              <dt>{t('wizard.reviewType')}</dt>
              <dd>
                {v.propertyType
                  ? t(`propertyType.${v.propertyType}`, { rate: rates[v.propertyType] !== undefined ? formatPercent(rates[v.propertyType]!, lang, 3) : '' })
                  : t('wizard.notApplicable')}
              </dd>
            </div>
            <div className="row">
              <dt>{t('wizard.reviewExemptions')}</dt>
              <dd>{exemptions.length ? exemptions.join(', ') : t('wizard.none')}</dd>
            </div>
          </dl>
        )}
      </div>
      <div className="wizard-nav">
        <button type="button" className="btn btn-ghost" onClick={() => setStep(step - 1)} disabled={step === 0} data-testid="wizard-previous">
          {t('wizard.previous')}
        </button>
        {step < STEP_KEYS.length - 1 ? (
          <button type="button" className="btn btn-primary" onClick={() => setStep(step + 1)} disabled={!allowed} data-testid="wizard-next">
            {t('wizard.next')}
          </button>
        ) : (
          <button type="button" className="btn btn-primary" onClick={onCalculate} disabled={!allowed} data-testid="wizard-calculate">
            {t('wizard.calculate')}
          </button>
        )}
      </div>
    </div>,
    document.body,
  );
}
