/** The calculator's fields, shared by the desktop form and the wizard steps. */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { setCounty, setPropertyType, useFormValues, type CalculatorForm } from './calculatorForm.js';
import { incomeExceedsLimit, isCommercial, type Edition, type PropertyType } from '../lib/model.js';
import { formatNumber, formatPercent, formatUsd, type Lang } from '../lib/format.js';
import { parseHomeValue, parseOptionalAmount } from '../lib/parseValue.js';
import { COMMERCIAL_EXEMPTIONS_URL, PROPERTY_TYPES, VETERAN_LEVELS, VETERAN_RANGES } from '../lib/config.js';

interface FieldProps { form: CalculatorForm; edition: Edition; lang: Lang; idPrefix?: string }

export function HomeValueField({ form, lang, inputRef }: FieldProps & { inputRef?: React.Ref<HTMLInputElement> }) {
  const { t } = useTranslation();
  const id = useId();
  const value = useFormValues(form).homeValue;
  const [empty, setEmpty] = useState(false);
  const shown = empty && value === 0 ? '' : formatNumber(value, lang);
  return (
    <div className="field">
      <label htmlFor={id}>{t('form.homeValue')}</label>
      <div className="input-prefix">
        <span aria-hidden="true">$</span>
        <input id={id} ref={inputRef} type="text" inputMode="numeric" autoComplete="off" data-testid="home-value" aria-describedby={`${id}-help`}
          value={shown}
          onChange={(e) => {
            setEmpty(e.target.value.trim() === '');
            form.setFieldValue('homeValue', parseHomeValue(e.target.value));
          }} />
      </div>
      <p id={`${id}-help`} className="help">{t('form.homeValueHelp')}</p>
    </div>
  );
}

export function CountyField({ form, edition, lang, rateDigits = 3, inputRef }: FieldProps & { rateDigits?: number; inputRef?: React.Ref<HTMLSelectElement> }) {
  const { t } = useTranslation();
  const id = useId();
  const county = useFormValues(form).county;
  return (
    <div className="field">
      <label htmlFor={id}>{t('form.county')}</label>
      <select id={id} ref={inputRef} data-testid="county-select" value={county} onChange={(e) => setCounty(form, edition, e.target.value)}>
        <option value="">{t('form.countyPlaceholder')}</option>
        {edition.counties.map((c) => (
          <option key={c.slug} value={c.name}>
            {c.rate === null ? t('form.countyOptionNoRate', { name: c.name }) : t('form.countyOption', { name: c.name, rate: formatPercent(c.rate, lang, rateDigits) })}
          </option>
        ))}
      </select>
    </div>
  );
}

export function PropertyTypeField({ form, edition, lang }: FieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const v = useFormValues(form);
  const county = edition.county(v.county);
  if (!county?.needsPropertyType) return null;
  const rates = edition.classRates(county);
  return (
    <div className="field">
      <label htmlFor={id}>{t('form.propertyType')}</label>
      <select id={id} data-testid="property-type" value={v.propertyType} aria-describedby={`${id}-help`}
        onChange={(e) => setPropertyType(form, e.target.value as PropertyType)}>
        <option value="">{t('form.propertyTypePlaceholder')}</option>
        {PROPERTY_TYPES.filter((c) => rates[c] !== undefined).map((c) => (
          <option key={c} value={c}>{t(`propertyType.${c}`, { rate: formatPercent(rates[c]!, lang, 3) })}</option>
        ))}
      </select>
      <p id={`${id}-help`} className="help">{t('form.nycHelp')}</p>
    </div>
  );
}

function Check({ label, checked, disabled, onChange, testId, children }: {
  label: string; checked: boolean; disabled?: boolean; onChange: (v: boolean) => void; testId: string; children?: React.ReactNode;
}) {
  const id = useId();
  return (
    <div className={`check${disabled ? ' is-disabled' : ''}`}>
      <input id={id} type="checkbox" checked={checked} disabled={disabled} data-testid={testId} onChange={(e) => onChange(e.target.checked)} />
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}

export function ExemptionFields({ form, edition, lang, grouped = false }: FieldProps & { grouped?: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  const v = useFormValues(form);
  const county = edition.county(v.county);
  const commercial = !!county?.needsPropertyType && isCommercial(v.propertyType);
  const limit = edition.incomeLimit(county);
  const set = <K extends keyof typeof v>(k: K) => (x: (typeof v)[K]) => form.setFieldValue(k, x as never);
  const over = incomeExceedsLimit(v, limit) && v.seniorIncome !== null;
  return (
    <fieldset className="exemptions" data-testid="exemptions">
      <legend>{t('form.exemptions')}</legend>
      {commercial && (
        <p className="commercial-note" data-testid="commercial-note">
          {t('form.commercialNote')}{' '}
          <a href={COMMERCIAL_EXEMPTIONS_URL} target="_blank" rel="noopener noreferrer" data-testid="commercial-link">{t('form.commercialLink')}</a>
        </p>
      )}
      <Check label={t('form.homestead')} testId="homestead" checked={v.homesteadExemption} disabled={commercial} onChange={set('homesteadExemption')} />
      <Check label={t('form.over65')} testId="over65" checked={v.over65Exemption} disabled={commercial}
        onChange={(on) => { set('over65Exemption')(on); if (!on) set('seniorIncome')(null); }} />
      {v.over65Exemption && !commercial && (
        <div className="field nested">
          <label htmlFor={`${id}-income`}>{t('form.seniorIncome')}</label>
          <div className="input-prefix">
            <span aria-hidden="true">$</span>
            <input id={`${id}-income`} type="text" inputMode="numeric" autoComplete="off" data-testid="senior-income"
              aria-describedby={`${id}-income-help`}
              value={v.seniorIncome === null ? '' : formatNumber(v.seniorIncome, lang)}
              onChange={(e) => set('seniorIncome')(parseOptionalAmount(e.target.value))} />
          </div>
          <p id={`${id}-income-help`} className="help">
            {t('form.seniorIncomeHelp')} {limit !== null && t('form.incomeLimit', { limit: formatUsd(limit, lang) })}
          </p>
          {over && <p className="warning" role="status" data-testid="income-limit-message">{t('form.incomeTooHigh')}</p>}
        </div>
      )}
      <Check label={t('form.disabled')} testId="disabled-person" checked={v.disabledPersonExemption} disabled={commercial} onChange={set('disabledPersonExemption')} />
      <div className="field">
        <label htmlFor={`${id}-vet`}>{t('form.disabledVeteran')}</label>
        <select id={`${id}-vet`} data-testid="veteran-level" value={v.disabledVeteranExemption} disabled={commercial}
          onChange={(e) => set('disabledVeteranExemption')(e.target.value)}>
          <option value="none">{t('form.veteranNone')}</option>
          {grouped
            ? VETERAN_RANGES.map((r) => (
              <optgroup key={r.key} label={t(`form.veteranRange_${r.key}`)}>
                {r.levels.map((l) => <option key={l} value={l}>{t('form.veteranLevel', { level: l })}</option>)}
              </optgroup>
            ))
            : VETERAN_LEVELS.map((l) => <option key={l} value={l}>{t('form.veteranLevel', { level: l })}</option>)}
        </select>
      </div>
      <Check label={t('form.seniorCitizen')} testId="senior-citizen" checked={v.seniorCitizen} disabled={commercial} onChange={set('seniorCitizen')} />
      <Check label={t('form.coldWarVeteran')} testId="cold-war-veteran" checked={v.coldWarVeteran} disabled={commercial} onChange={set('coldWarVeteran')} />
      <Check label={t('form.schoolBreakdown')} testId="school-breakdown" checked={v.showSchoolTaxBreakdown} onChange={set('showSchoolTaxBreakdown')} />
    </fieldset>
  );
}
