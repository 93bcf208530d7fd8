/**
 * A state's specialised calculator in the browser (seed 001 §2–§4): the Texas payment
 * calculator and November 2025 vote panel, California's Proposition 13 demo, Florida's
 * tax-shock calculator and early-payment discounts. One component for all of them: the
 * inputs are those rules/inputs.yaml declares for the calculator, the figures those
 * rules/results.yaml declares for it, and the engine's calculator (`ptax tx payment`, …)
 * computes them. Loaded only when its panel is opened.
 */
import type { TFunction } from 'i18next';
import { useId, useState } from 'react';
import { useForm } from '@tanstack/react-form';
import { useTranslation } from 'react-i18next';
import type { CalcInput, CalcResult } from '../../../../engine/index.js';
import { at, type InputDecl } from '../../lib/declarations.js';
import { boundsMessage, type Edition } from '../../lib/model.js';
import type { Lang } from '../../lib/format.js';
import { AmountControl } from '../MoneyInput.js';
import { countyName } from '../../lib/places.js';
import { formatField } from '../ResultsCard.js';
import { inputLabel, testIdOf } from '../Fields.js';
import { ParameterChanges, Propositions } from './ParameterChanges.js';
import { Schedule, monthOffset } from './Schedule.js';

type Value = string | number | boolean | null;

/** Today's date as the date input writes it (YYYY-MM-DD, local time). */
export function today(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

/** The calculator's input from the panel's values: numbers by type, a date split into its facts. */
export function toolInput(state: string, county: string, inputs: InputDecl[], v: Record<string, Value>): CalcInput {
  const out: Record<string, unknown> = { state, county, value: 0 };
  for (const d of inputs) {
    const x = v[d.id];
    if (d.type === 'date') {
      const m = typeof x === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(x) : null;
      if (m && d.facts) {
        out[d.facts.year] = Number(m[1]);
        out[d.facts.month] = Number(m[2]);
        out[d.facts.day] = Number(m[3]);
      }
    } else if (d.type === 'boolean') out[d.id] = !!x;
    else if (x !== null && x !== undefined && x !== '') out[d.id] = typeof x === 'number' ? x : Number(x);
  }
  return out as unknown as CalcInput;
}

export default function ToolPanel({ edition, calculatorName, lang }: { edition: Edition; calculatorName: string; lang: Lang }) {
  const { t } = useTranslation();
  const id = useId();
  const k = edition.state.calculators.find((c) => c.name === calculatorName)!;
  const key = `${edition.code.toLowerCase()}.${k.name}`;
  const inputs = edition.decl.inputs.filter((d) => d.calculators?.includes(key) && d.web !== false);
  const [result, setResult] = useState<CalcResult | null>(null);
  const [error, setError] = useState('');
  const initial: Record<string, Value> = { county: '' };
  for (const d of inputs)
    initial[d.id] =
      d.type === 'date'
        ? today()
        : d.type === 'boolean'
          ? false
          : d.id === 'value'
            ? ((d.default as number) ?? null)
            : d.values
              ? ((d.default as number) ?? null)
              : null;
  const form = useForm({
    defaultValues: initial,
    onSubmit: ({ value }) => {
      try {
        const county = String(value.county ?? '');
        if (k.county && !county) throw new Error(t('toast.needCounty'));
        setResult(edition.calculator.run(k.name, toolInput(edition.code, county, inputs, value), { lang }));
        setError('');
      } catch (e) {
        setResult(null);
        setError(`${t('tools.failed')} ${e instanceof Error ? e.message : String(e)}`);
      }
    },
  });
  const figures = result
    ? edition.decl.results
        .filter((f) => f.calculators?.includes(key))
        .map((f) => ({ ...f, label: f.label[lang] ?? f.label.en, value: at(result, f.id) }))
        .filter((f) => f.value !== undefined && f.value !== null && typeof f.value !== 'object')
    : [];
  return (
    <div className="tool" data-testid={`tool-${k.name}-panel`}>
      <p className="help">{t(`tools.intro_${k.name.replace(/-/g, '_')}`, { defaultValue: '' })}</p>
      {k.compare &&
        (k.propositions?.length ? (
          <Propositions edition={edition} calculator={k} lang={lang} result={result} />
        ) : (
          <ParameterChanges edition={edition} years={k.compare.years} lang={lang} />
        ))}
      {k.program &&
        inputs.some((d) => d.type === 'date') &&
        Object.values(edition.bundle.programs[k.program]?.parameters ?? {})
          .map((pid) => edition.bundle.parameters[pid])
          .filter((p) => p && p.type === 'bands' && p.unit === 'percent')
          .map((p) => (
            <Schedule
              key={p!.id}
              p={p!}
              date={today()}
              lang={lang}
              offset={monthOffset(edition.bundle, edition.bundle.programs[k.program!]!, p!.id, today())}
            />
          ))}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void form.handleSubmit();
        }}
        data-testid={`tool-${k.name}-form`}
      >
        {k.county && (
          <form.Field name="county" validators={{ onSubmit: ({ value }) => (value ? undefined : t('toast.needCounty')) }}>
            {(field) => (
              <div className="field">
                <label htmlFor={`${id}-county`}>{t('form.county')}</label>
                <select
                  id={`${id}-county`}
                  data-testid="tool-county"
                  value={String(field.state.value ?? '')}
                  onChange={(e) => field.handleChange(e.target.value)}
                  aria-invalid={field.state.meta.errors.length ? true : undefined}
                  aria-describedby={`${id}-county-err`}
                >
                  <option value="">{t('form.countyPlaceholder')}</option>
                  {edition.counties.map((c) => (
                    <option key={c.slug} value={c.slug}>
                      {countyName(c.name, t)}
                    </option>
                  ))}
                </select>
                <p id={`${id}-county-err`} className="warning" role="status">
                  {field.state.meta.errors.join(' ')}
                </p>
              </div>
            )}
          </form.Field>
        )}
        {inputs.map((d) => (
          <form.Field
            key={d.id}
            name={d.id}
            validators={{ onChange: ({ value }) => validate(d, value, lang, t), onSubmit: ({ value }) => validate(d, value, lang, t) }}
          >
            {(field) => (
              <ToolInput
                d={d}
                state={edition.code}
                lang={lang}
                value={field.state.value as Value}
                onChange={(x) => field.handleChange(x)}
                error={field.state.meta.errors.join(' ')}
              />
            )}
          </form.Field>
        ))}
        <button type="submit" className="btn btn-primary" data-testid={`tool-${k.name}-run`}>
          {t('tools.run')}
        </button>
      </form>
      <div aria-live="polite">
        {error && (
          <p className="warning" role="alert" data-testid={`tool-${k.name}-error`}>
            {error}
          </p>
        )}
        {result && (
          <div data-testid={`tool-${k.name}-result`}>
            <dl className="rows">
              {figures.map((f) => (
                <div className="row" key={f.id}>
                  <dt>{f.label}</dt>
                  <dd data-testid={`tool-${f.id}`} data-value={typeof f.value === 'number' ? f.value : String(f.value)}>
                    {formatField(f, lang, t)}
                  </dd>
                </div>
              ))}
            </dl>
            {result.notes.length > 0 && (
              <ul className="notes">
                {result.notes.map((n, i) => (
                  <li key={i} data-testid="tool-note">
                    {n}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </div>
    </div>
  );
}

function validate(d: InputDecl, value: unknown, lang: Lang, t: TFunction): string | undefined {
  if (d.type === 'date') return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? undefined : t('tools.needDate');
  return boundsMessage(d, value, lang, t) || undefined;
}

function ToolInput({
  d,
  state,
  lang,
  value,
  onChange,
  error: fieldError,
}: {
  d: InputDecl;
  state: string;
  lang: Lang;
  value: Value;
  onChange: (x: Value) => void;
  error: string;
}) {
  const id = useId();
  const [problem, setProblem] = useState('');
  const error = problem || fieldError;
  const label = inputLabel(d, state, lang);
  const help = d.help?.[lang];
  const described = [help ? `${id}-help` : '', error ? `${id}-err` : ''].filter(Boolean).join(' ') || undefined;
  const tail = (
    <>
      {help && (
        <p id={`${id}-help`} className="help">
          {help}
        </p>
      )}
      {error && (
        <p id={`${id}-err`} className="warning" role="status">
          {error}
        </p>
      )}
    </>
  );
  if (d.type === 'boolean') {
    return (
      <div className="check">
        <input id={id} type="checkbox" checked={!!value} data-testid={`tool-input-${testIdOf(d.id)}`} onChange={(e) => onChange(e.target.checked)} />
        <label htmlFor={id}>{label}</label>
      </div>
    );
  }
  if (d.values) {
    return (
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <select id={id} data-testid={`tool-input-${testIdOf(d.id)}`} value={String(value ?? '')} onChange={(e) => onChange(Number(e.target.value))}>
          {d.values.map((c) => (
            <option key={String(c.value)} value={String(c.value)}>
              {c.label[lang] ?? c.label.en}
            </option>
          ))}
        </select>
      </div>
    );
  }
  if (d.type === 'date') {
    return (
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          type="date"
          data-testid={`tool-input-${testIdOf(d.id)}`}
          value={String(value ?? '')}
          aria-describedby={described}
          aria-invalid={error ? true : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
        {tail}
      </div>
    );
  }
  const year = d.type === 'year';
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <AmountControl
        year={year}
        id={id}
        testId={`tool-input-${testIdOf(d.id)}`}
        lang={lang}
        describedBy={described}
        invalid={!!error}
        value={value === null || value === undefined || value === '' ? null : Number(value)}
        onChange={(x, p) => {
          setProblem(p);
          onChange(x);
        }}
      />
      {tail}
    </div>
  );
}
