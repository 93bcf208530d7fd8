/** The property-information form (seed 000 §2): value, county, property type, exemptions, calculate. */
import { useId, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CountyField, ExemptionFields, HomeValueField, OwnershipFields, PropertyTypeField, YearField } from './Fields.js';
import { useFormValues, type CalculatorForm } from './calculatorForm.js';
import { canCalculate, type Edition } from '../lib/model.js';
import type { Lang } from '../lib/format.js';

export interface CalcButtonState {
  disabled: boolean;
  label: string;
}

/** Seed 000 §2: disabled without a county or a value above 0, while calculating, and for NYC until a type is chosen. */
export function useCalcButton(form: CalculatorForm, edition: Edition, calculating: boolean): CalcButtonState {
  const { t } = useTranslation();
  const v = useFormValues(form);
  const county = edition.county(v.county);
  const needType = !!county?.needsPropertyType && !v.propertyType;
  return {
    disabled: calculating || !canCalculate(v, county),
    label: calculating ? t('form.calculating') : needType ? t('form.selectTypeFirst') : t('form.calculate'),
  };
}

export function PropertyForm({
  form,
  edition,
  lang,
  calculating,
  onCalculate,
}: {
  form: CalculatorForm;
  edition: Edition;
  lang: Lang;
  calculating: boolean;
  onCalculate: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const button = useCalcButton(form, edition, calculating);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!button.disabled) onCalculate();
  };
  return (
    <section className="card" aria-labelledby={`${id}-title`} id="calculator">
      <h2 id={`${id}-title`}>{t('form.title')}</h2>
      <form onSubmit={onSubmit} data-testid="property-form" noValidate>
        <HomeValueField form={form} edition={edition} lang={lang} />
        <CountyField form={form} edition={edition} lang={lang} />
        <PropertyTypeField form={form} edition={edition} lang={lang} />
        <YearField form={form} edition={edition} lang={lang} />
        <OwnershipFields form={form} edition={edition} lang={lang} />
        <ExemptionFields form={form} edition={edition} lang={lang} />
        <button type="submit" className="btn btn-primary btn-block" data-testid="calculate" disabled={button.disabled} aria-busy={calculating}>
          {button.label}
        </button>
      </form>
    </section>
  );
}
