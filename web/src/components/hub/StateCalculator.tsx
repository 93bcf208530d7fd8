/**
 * The calculator of a hub state page and county page (issue 26): home value and county,
 * then the engine's figures (annual, monthly, the rate used), its notes in plain words and
 * the comparison of the county's rate with the state's and the nation's median county
 * rates. The state's data and the engine load when the visitor turns to the form
 * (hubEngine.ts, its own chunk with the state's package); nothing is sent anywhere.
 */
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MoneyInput } from '../MoneyInput.js';
import { formatPercent, formatUsd } from '../../lib/format.js';
import { countyName } from '../../lib/places.js';
import type { StateCalcProps } from './hubTypes.js';
import type { Estimate } from './hubEngine.js';

const loadEngine = () => import('./hubEngine.js');

type Status = { kind: 'idle' } | { kind: 'busy' } | { kind: 'done'; result: Estimate } | { kind: 'error'; message: string } | { kind: 'load-error' };

export function StateCalculator({ lang, code, state, counties, county: preset, value: presetValue, stateRate, nationalRate }: StateCalcProps) {
  const { t } = useTranslation();
  const id = useId();
  const [value, setValue] = useState<number | null>(presetValue ?? null);
  const [county, setCounty] = useState(preset ?? '');
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const stateName = state[lang];
  // The state's package and the engine start loading when the visitor turns to the form
  // (pointer over it, focus in it), not with the page: nothing competes with the first paint.
  const preloaded = useRef(false);
  const preload = () => {
    if (preloaded.current) return;
    preloaded.current = true;
    void loadEngine()
      .then((m) => m.stateEdition(code))
      .catch(() => undefined);
  };
  const ready = !!county && value !== null && value > 0;
  const run = async () => {
    if (!ready) return;
    setStatus({ kind: 'busy' });
    let m: Awaited<ReturnType<typeof loadEngine>>;
    try {
      m = await loadEngine();
      await m.stateEdition(code);
    } catch {
      setStatus({ kind: 'load-error' });
      return;
    }
    try {
      setStatus({ kind: 'done', result: await m.estimate(code, county, value, lang) });
    } catch (e) {
      setStatus({ kind: 'error', message: e instanceof Error ? e.message : String(e) });
    }
  };
  const r = status.kind === 'done' ? status.result : undefined;
  const place = r ? (counties.find(([slug]) => slug === r.slug)?.[1] ?? countyName(r.county, t)) : '';
  return (
    <section className="card hub-calc" id="calculator" aria-labelledby={`${id}title`} data-testid="state-calculator">
      <h2 id={`${id}title`}>{t('hubStates.calcTitle')}</h2>
      <form
        className="hub-calc-form"
        data-testid="property-form"
        onPointerEnter={preload}
        onFocus={preload}
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <div className="field">
          <label htmlFor={`${id}value`}>{t('hubStates.valueLabel')}</label>
          <div className="input-prefix">
            <span aria-hidden="true">$</span>
            <MoneyInput id={`${id}value`} value={value} onChange={(v) => setValue(v)} lang={lang} testId="home-value" describedBy={`${id}need`} />
          </div>
        </div>
        <div className="field">
          <label htmlFor={`${id}county`}>{t('hubStates.countyLabel')}</label>
          <select id={`${id}county`} value={county} onChange={(e) => setCounty(e.target.value)} data-testid="county-select">
            <option value="">{t('hubStates.chooseCounty')}</option>
            {counties.map(([slug, label]) => (
              <option key={slug} value={slug}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <p id={`${id}need`} className="help">
          {t('hubStates.needValue')}
        </p>
        <button type="submit" className="btn btn-primary" disabled={!ready || status.kind === 'busy'} data-testid="calculate">
          {status.kind === 'busy' ? t('hubStates.calculating') : t('hubStates.calculate')}
        </button>
      </form>
      <div aria-live="polite">
        {status.kind === 'load-error' && (
          <div role="alert" className="hub-error" data-testid="load-error">
            <p>{t('hubStates.loadError', { state: stateName })}</p>
            <button type="button" className="btn" onClick={() => void run()}>
              {t('hubStates.retry')}
            </button>
          </div>
        )}
        {status.kind === 'error' && (
          <p role="alert" className="hub-error" data-testid="calc-error">
            {status.message}
          </p>
        )}
        {r && (
          <div className="hub-result" data-testid="results">
            <h3 data-testid="results-heading">{t('hubStates.resultHeading', { county: place, state: stateName })}</h3>
            <dl className="hub-figures">
              <div>
                <dt>{t('hubStates.annual')}</dt>
                <dd data-testid="annual-tax" data-value={r.view.annualTax}>
                  {formatUsd(r.view.annualTax, lang)}
                </dd>
              </div>
              <div>
                <dt>{t('hubStates.monthly')}</dt>
                <dd data-testid="monthly-tax" data-value={r.view.monthlyTax}>
                  {formatUsd(r.view.monthlyTax, lang)}
                </dd>
              </div>
              <div>
                <dt>{t('hubStates.rate')}</dt>
                <dd data-testid="effective-rate" data-value={r.view.effectiveRate}>
                  {formatPercent(r.view.effectiveRate, lang)}
                </dd>
              </div>
            </dl>
            {r.view.notes.length > 0 && (
              <>
                <h4>{t('hubStates.notes')}</h4>
                <ul data-testid="notes">
                  {r.view.notes.map((n, i) => (
                    <li key={i} data-testid="note">
                      {n}
                    </li>
                  ))}
                </ul>
              </>
            )}
            <Comparison lang={lang} county={place} state={stateName} countyRate={r.countyRate} stateRate={stateRate} nationalRate={nationalRate} />
          </div>
        )}
      </div>
    </section>
  );
}

/** The county's median rate beside the state's and the nation's median county rates. */
export function Comparison({
  lang,
  county,
  state,
  countyRate,
  stateRate,
  nationalRate,
}: {
  lang: StateCalcProps['lang'];
  county: string;
  state: string;
  countyRate: number | null;
  stateRate: number | null;
  nationalRate: number | null;
}) {
  const { t } = useTranslation();
  const rows: Array<[string, string, number | null]> = [
    ['context-county', t('hubStates.compareCounty', { county }), countyRate],
    ['context-state', t('hubStates.compareState', { state }), stateRate],
    ['context-national', t('hubStates.compareNational'), nationalRate],
  ];
  const max = Math.max(...rows.map(([, , v]) => v ?? 0));
  return (
    <section className="hub-compare" aria-label={t('hubStates.compareTitle')} data-testid="result-context">
      <h4>{t('hubStates.compareTitle')}</h4>
      <dl>
        {rows.map(([testId, label, v]) => (
          <div key={testId} className="hub-compare-row">
            <dt>{label}</dt>
            <dd data-testid={testId} data-value={v ?? undefined}>
              {v === null ? t('hubStates.noData') : formatPercent(v, lang)}
              {v !== null && max > 0 && <span className="hub-bar" aria-hidden="true" style={{ width: `${(100 * v) / max}%` }} />}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
