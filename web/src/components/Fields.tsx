/** The calculator's fields, shared by the desktop form and the wizard steps. */
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UI } from '../lib/config.js';
import { setCounty, setPropertyType, useFormValues, type CalculatorForm } from './calculatorForm.js';
import type { InputChoice, InputDecl } from '../lib/declarations.js';
import {
  boundsMessage,
  type CountyInfo,
  emptyValue,
  incomeExceedsLimit,
  inputShown,
  isCommercial,
  ownerInputs,
  type Ownership,
  isResidentialInput,
  type Edition,
  type InputValue,
  type PropertyType,
} from '../lib/model.js';
import { formatPercent, formatUsd, type Lang } from '../lib/format.js';
import { AmountControl, MoneyInput } from './MoneyInput.js';
import { boroughOf, compareNames, countyLabels, countyName } from '../lib/places.js';
import { COMMERCIAL_EXEMPTIONS_URL, PROPERTY_TYPES, VETERAN_RANGES } from '../lib/config.js';

interface FieldProps {
  form: CalculatorForm;
  edition: Edition;
  lang: Lang;
  idPrefix?: string;
}

export const NYC_PROPERTY_LOOKUP_URL = 'https://www.nyc.gov/site/finance/property/property-search-property-information.page';

/** Issue 21: a class 2 value at or above the rules' threshold looks like a sale price, not the City's market value. */
function Class2SalePriceWarning({ form, edition }: Pick<FieldProps, 'form' | 'edition'>) {
  const { t } = useTranslation();
  const v = useFormValues(form);
  const limit = edition.class2SalePriceWarning(edition.county(v.county));
  if (v.propertyType !== 'class2' || limit === null || !(v.homeValue >= limit)) return null;
  return (
    <p className="warning" role="status" data-testid="class2-sale-price-warning">
      {t('form.class2SalePrice')}{' '}
      <a href={NYC_PROPERTY_LOOKUP_URL} target="_blank" rel="noopener noreferrer">
        {t('form.class2Link')}
      </a>
    </p>
  );
}

export function HomeValueField({ form, edition, lang, inputRef }: FieldProps & { inputRef?: React.Ref<HTMLInputElement> }) {
  const { t } = useTranslation();
  const id = useId();
  const value = useFormValues(form).homeValue;
  const [problem, setProblem] = useState('');
  return (
    <div className="field">
      <label htmlFor={id}>{t('form.homeValue')}</label>
      <div className="input-prefix">
        <span aria-hidden="true">$</span>
        <MoneyInput
          id={id}
          inputRef={inputRef}
          testId="home-value"
          lang={lang}
          value={value > 0 ? value : null}
          invalid={!!problem}
          describedBy={`${id}-help${problem ? ` ${id}-error` : ''}`}
          onChange={(x, p) => {
            setProblem(p);
            form.setFieldValue('homeValue', x ?? 0);
          }}
        />
      </div>
      <p id={`${id}-help`} className="help">
        {t('form.homeValueHelp')}
      </p>
      {problem && (
        <p id={`${id}-error`} className="warning" role="alert" data-testid="home-value-error">
          {problem}
        </p>
      )}
      {/* Seed 000 §5: the high and low value warnings as the value is typed, beside it (issue 24), not in a toast. */}
      {!problem && value > 0 && (value > UI.veryHighValue || value < UI.veryLowValue) && (
        <p className="warning" role="status" data-testid="home-value-warning">
          {t(value > UI.veryHighValue ? 'toast.veryHigh' : 'toast.veryLow')}. {t('toast.verify')}
        </p>
      )}
      {!problem && <Class2SalePriceWarning form={form} edition={edition} />}
    </div>
  );
}

export function CountyField({ form, edition, lang, rateDigits = 3, inputRef }: FieldProps & { rateDigits?: number; inputRef?: React.Ref<HTMLSelectElement> }) {
  const { t } = useTranslation();
  const id = useId();
  const county = useFormValues(form).county;
  // The options do not change with the choice: built once per edition and language (issue 28),
  // their labels without an i18next look-up per county (countyLabels).
  const options = useMemo(() => {
    const labels = countyLabels(t);
    const option = (c: CountyInfo) => (
      <option key={c.slug} value={c.name}>
        {c.rate === null || c.needsPropertyType ? labels.name(c.name) : labels.option(c.name, formatPercent(c.rate, lang, rateDigits))}
      </option>
    );
    // New York City's counties are taxed by property class, not by a county rate: they are
    // offered together, by borough, with the city as a whole, and without a rate.
    const byClass = edition.counties.filter((c) => c.needsPropertyType);
    const cityWide = edition.places.filter((p) => p.needsPropertyType);
    const boroughs = byClass
      .map((c) => ({ c, borough: boroughOf(c.slug, t) }))
      .sort((a, b) => compareNames(a.borough || a.c.name, b.borough || b.c.name, lang));
    return byClass.length > 0 ? (
      <>
        <optgroup label={t('place.nycGroup')}>
          {cityWide.map((p) => (
            <option key={p.slug} value={p.name}>
              {t('place.nycAll')}
            </option>
          ))}
          {boroughs.map(({ c, borough }) => (
            <option key={c.slug} value={c.name}>
              {borough ? t('place.borough', { borough, county: countyName(c.name, t) }) : countyName(c.name, t)}
            </option>
          ))}
        </optgroup>
        <optgroup label={t('place.otherCounties')}>{edition.counties.filter((c) => !c.needsPropertyType).map(option)}</optgroup>
      </>
    ) : (
      edition.counties.map(option)
    );
  }, [edition, lang, rateDigits, t]);
  return (
    <div className="field">
      <label htmlFor={id}>{t('form.county')}</label>
      <select id={id} ref={inputRef} data-testid="county-select" value={county} onChange={(e) => setCounty(form, edition, e.target.value)}>
        <option value="">{t('form.countyPlaceholder')}</option>
        {options}
      </select>
    </div>
  );
}

/** `valueWarning`: the class 2 sale-price warning here too (the wizard, where the value was typed a step before). */
export function PropertyTypeField({ form, edition, lang, valueWarning = false }: FieldProps & { valueWarning?: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  const v = useFormValues(form);
  const county = edition.county(v.county);
  if (!county?.needsPropertyType) return null;
  const rates = edition.classRates(county);
  return (
    <div className="field">
      <label htmlFor={id}>{t('form.propertyType')}</label>
      <select
        id={id}
        data-testid="property-type"
        value={v.propertyType}
        aria-describedby={`${id}-help`}
        onChange={(e) => setPropertyType(form, e.target.value as PropertyType, edition)}
      >
        <option value="">{t('form.propertyTypePlaceholder')}</option>
        {PROPERTY_TYPES.filter((c) => rates[c] !== undefined).map((c) => (
          <option key={c} value={c}>
            {t(`propertyType.${c}`, { rate: formatPercent(rates[c]!, lang, 3) })}
          </option>
        ))}
      </select>
      <p id={`${id}-help`} className="help">
        {t('form.nycHelp')}
      </p>
      {v.propertyType === 'class2' && (
        <p className="help" data-testid="class2-help">
          {t('form.class2Help')}{' '}
          <a href={NYC_PROPERTY_LOOKUP_URL} target="_blank" rel="noopener noreferrer">
            {t('form.class2Link')}
          </a>
        </p>
      )}
      {valueWarning && <Class2SalePriceWarning form={form} edition={edition} />}
    </div>
  );
}

function Check({
  label,
  checked,
  disabled,
  onChange,
  testId,
  children,
}: {
  label: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (v: boolean) => void;
  testId: string;
  children?: React.ReactNode;
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

/** Test ids kept from the first edition; every other input's id is its name in kebab case. */
const TEST_IDS: Record<string, string> = { disabled: 'disabled-person', veteranDisability: 'veteran-level' };
export const testIdOf = (id: string) => TEST_IDS[id] ?? id.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** An input's label in the edition: the state's own name for it when it has one. */
export function inputLabel(d: InputDecl, state: string, lang: Lang): string {
  const l = d.state_labels?.[state] ?? d.label;
  return l[lang] ?? l.en;
}

/** The tax year, offered where the county's rules hold more than one year. */
export function YearField({ form, edition, lang }: FieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const v = useFormValues(form);
  const county = edition.county(v.county);
  const years = edition.years(county);
  const decl = edition.decl.inputs.find((d) => d.id === 'year');
  if (years.length < 2 || !decl) return null;
  const fiscal = !!county?.needsPropertyType;
  return (
    <div className="field">
      <label htmlFor={id}>{inputLabel(decl, edition.code, lang)}</label>
      <select id={id} data-testid="tax-year" value={v.year} onChange={(e) => form.setFieldValue('year', e.target.value)}>
        <option value="">{t('form.yearLatest', { year: years[years.length - 1] })}</option>
        {[...years].reverse().map((y) => (
          <option key={y} value={String(y)}>
            {fiscal ? t('form.fiscalYear', { year: y }) : String(y)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A money or year input of a declared input (empty: not given). */
function AmountInput({
  d,
  value,
  onChange,
  lang,
  state,
  disabled,
  year,
}: {
  d: InputDecl;
  value: number | null;
  onChange: (x: number | null) => void;
  lang: Lang;
  state: string;
  disabled?: boolean;
  year?: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [error, setError] = useState('');
  const check = (x: number | null) => boundsMessage(d, x, lang, t);
  return (
    <div className="field nested">
      <label htmlFor={id}>{inputLabel(d, state, lang)}</label>
      <AmountControl
        year={!!year}
        id={id}
        testId={testIdOf(d.id)}
        lang={lang}
        value={value}
        disabled={disabled}
        invalid={!!error}
        describedBy={`${id}-help${error ? ` ${id}-error` : ''}`}
        onChange={(x, p) => {
          setError(p || check(x));
          onChange(x);
        }}
      />
      {d.help && (
        <p id={`${id}-help`} className="help">
          {d.help[lang] ?? d.help.en}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="warning" role="status">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * Issue 21: "buying, or owned a while?", asked where the law needs an owner's figure (California's
 * purchase year and price, Florida's and New York City's last assessed value, Texas's last
 * appraised value). Buying: those fields stay hidden and are not used (a buyer's estimate).
 */
export function OwnershipFields({ form, edition, lang }: FieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const v = useFormValues(form);
  const county = edition.county(v.county);
  const asked = ownerInputs(edition, county);
  if (!asked.length) return null;
  const owned = v.ownership === 'owned';
  const choice = (value: Ownership, label: string) => (
    <div className="check">
      <input
        id={`${id}-${value}`}
        type="radio"
        name={`${id}-ownership`}
        value={value}
        checked={v.ownership === value}
        data-testid={`ownership-${value}`}
        onChange={() => form.setFieldValue('ownership', value)}
      />
      <label htmlFor={`${id}-${value}`}>{label}</label>
    </div>
  );
  return (
    <fieldset className="exemptions" data-testid="ownership" aria-describedby={`${id}-help`}>
      <legend>{t('form.ownership')}</legend>
      {choice('buying', t('form.ownershipBuying'))}
      {choice('owned', t('form.ownershipOwned'))}
      <p id={`${id}-help`} className="help" data-testid="ownership-help">
        {t(owned ? 'form.ownershipOwnedHelp' : 'form.ownershipBuyingHelp')}
      </p>
      {owned &&
        asked.map((d) => (
          <AmountInput
            key={d.id}
            d={d}
            value={(v[d.id] as number | null) ?? null}
            onChange={(x) => form.setFieldValue(d.id, x as never)}
            lang={lang}
            state={edition.code}
            year={d.type === 'year'}
          />
        ))}
    </fieldset>
  );
}

export function ExemptionFields({ form, edition, lang, grouped = false }: FieldProps & { grouped?: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  const v = useFormValues(form);
  const county = edition.county(v.county);
  const commercial = !!county?.needsPropertyType && isCommercial(v.propertyType);
  const limit = edition.incomeLimit(county);
  const set = (k: string) => (x: InputValue) => form.setFieldValue(k, x as never);
  const over = incomeExceedsLimit(v, limit) && v.seniorIncome !== null && v.seniorIncome !== undefined;
  // The owner-only inputs are asked under the buyer-or-owner question (OwnershipFields).
  const shown = edition.formInputs.filter((d) => !d.owner_only && inputShown(d, v, county, edition.code));
  const state = edition.code;
  return (
    <fieldset className="exemptions" data-testid="exemptions">
      <legend>{t('form.exemptions')}</legend>
      {commercial && (
        <p className="commercial-note" data-testid="commercial-note">
          {t('form.commercialNote')}{' '}
          <a href={COMMERCIAL_EXEMPTIONS_URL} target="_blank" rel="noopener noreferrer" data-testid="commercial-link">
            {t('form.commercialLink')}
          </a>
        </p>
      )}
      {shown.map((d) => {
        const off = commercial && isResidentialInput(d);
        if (d.type === 'boolean') {
          return (
            <Check
              key={d.id}
              label={inputLabel(d, state, lang)}
              testId={testIdOf(d.id)}
              checked={!!v[d.id]}
              disabled={off}
              onChange={(on) => {
                set(d.id)(on);
                // Inputs that require this one are cleared with it.
                if (!on) for (const x of edition.formInputs) if (x.requires === d.id) set(x.id)(emptyValue(x));
              }}
            />
          );
        }
        if (d.values) {
          const levels = d.values.filter((c) => c.value !== d.default);
          const none = d.values.find((c) => c.value === d.default);
          const label = (c: InputChoice) => c.label[lang] ?? c.label.en;
          return (
            <div className="field" key={d.id}>
              <label htmlFor={`${id}-${d.id}`}>{inputLabel(d, state, lang)}</label>
              <select
                id={`${id}-${d.id}`}
                data-testid={testIdOf(d.id)}
                value={String(v[d.id] ?? d.default ?? '')}
                disabled={off}
                onChange={(e) => {
                  const c = d.values!.find((x) => String(x.value) === e.target.value);
                  set(d.id)(c ? c.value : null);
                }}
              >
                {none && <option value={String(none.value)}>{label(none)}</option>}
                {grouped && d.id === 'veteranDisability'
                  ? VETERAN_RANGES.map((r) => (
                      <optgroup key={r.key} label={t(`form.veteranRange_${r.key}`)}>
                        {levels
                          .filter((c) => r.levels.includes(String(c.value)))
                          .map((c) => (
                            <option key={String(c.value)} value={String(c.value)}>
                              {label(c)}
                            </option>
                          ))}
                      </optgroup>
                    ))
                  : levels.map((c) => (
                      <option key={String(c.value)} value={String(c.value)}>
                        {label(c)}
                      </option>
                    ))}
              </select>
            </div>
          );
        }
        if (d.type === 'money' || d.type === 'year' || d.type === 'integer' || d.type === 'number') {
          const amount = (
            <AmountInput
              key={d.id}
              d={d}
              value={(v[d.id] as number | null) ?? null}
              onChange={set(d.id)}
              lang={lang}
              state={state}
              disabled={off}
              year={d.type === 'year'}
            />
          );
          if (d.id !== 'seniorIncome') return amount;
          return (
            <div key={d.id}>
              {amount}
              {limit !== null && <p className="help">{t('form.incomeLimit', { limit: formatUsd(limit, lang) })}</p>}
              {over && (
                <p className="warning" role="status" data-testid="income-limit-message">
                  {t('form.incomeTooHigh')}
                </p>
              )}
            </div>
          );
        }
        return null;
      })}
      {edition.code === 'NY' && (
        <Check
          label={t('form.schoolBreakdown')}
          testId="school-breakdown"
          checked={!!v.showSchoolTaxBreakdown}
          onChange={(x) => form.setFieldValue('showSchoolTaxBreakdown', x)}
        />
      )}
    </fieldset>
  );
}
