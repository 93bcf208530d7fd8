/**
 * The county directory (seed 001 §2, §3): search box, sort by name or rate, a card per
 * county with its rate and the monthly tax on the visitor's value (computed by the engine
 * with the county's rules, no exemptions), and the major-county table (the state profile's
 * major counties: rate and the tax on the default value). Each card links to its county
 * page and gives the county's population (Census Vintage 2023, county facts); sort by name,
 * rate or population (seed 001 §2–§3); a bar chart of the state's counties by rate with the
 * visitor's county marked in words and shape, its figures as text (issue 24).
 */
import { useDeferredValue, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { countyKey, DEFAULT_VALUE } from '../../../../engine/index.js';
import type { CountyInfo, Edition } from '../../lib/model.js';
import { formatNumber, formatPercent, formatUsd, type Lang } from '../../lib/format.js';
import { phrase } from '../../lib/editionText.js';
import { pathOf } from '../../lib/routes.js';
import { getItem, KEYS } from '../../lib/storage.js';
import { MoneyInput } from '../MoneyInput.js';
import { countyName } from '../../lib/places.js';

export type SortKey = 'name' | 'rate' | 'population';

/**
 * Counties whose name contains the query, sorted. Names compare as the CLI and batch
 * compare them (engine countyKey: accents, case, Saint/St./Ste., spaces, hyphens, periods
 * and apostrophes do not matter; "Condado de" in front is the Spanish for "County").
 */
export function filterCounties(counties: CountyInfo[], query: string, sort: SortKey): CountyInfo[] {
  const q = countyKey(query.replace(/^\s*condado\s+de\s+/i, ''));
  const found = counties.filter((c) => !q || countyKey(c.name).includes(q));
  if (sort === 'rate') return [...found].sort((a, b) => (b.rate ?? -1) - (a.rate ?? -1) || a.name.localeCompare(b.name));
  if (sort === 'population') return [...found].sort((a, b) => (b.population ?? -1) - (a.population ?? -1) || a.name.localeCompare(b.name));
  return [...found].sort((a, b) => a.name.localeCompare(b.name));
}

function taxes(edition: Edition, county: CountyInfo, value: number): { annual: number; monthly: number } | null {
  try {
    const r = edition.calculator.calculate({ state: edition.code, county: county.slug, value, propertyClass: county.needsPropertyType ? 'class1' : null });
    return { annual: r.annualTax as number, monthly: r.monthlyTax as number };
  } catch {
    return null;
  }
}

export default function CountyDirectory({ edition, lang }: { edition: Edition; lang: Lang }) {
  const { t } = useTranslation();
  const id = useId();
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<SortKey>('name');
  const [value, setValue] = useState<number>(DEFAULT_VALUE);
  const q = useDeferredValue(query);
  const v = useDeferredValue(value);
  const list = useMemo(() => filterCounties(edition.counties, q, sort), [edition, q, sort]);
  const major = edition.state.profile?.major_counties ?? [];
  const majorRows = major.map((slug) => edition.counties.find((c) => c.slug === slug)).filter((c): c is CountyInfo => !!c);
  const lookUp = phrase(edition.code, 'where', lang) ?? '';
  return (
    <div className="directory" data-testid="directory">
      <div className="directory-controls">
        <div className="field">
          <label htmlFor={`${id}-q`}>{t('directory.search')}</label>
          <input id={`${id}-q`} type="search" data-testid="directory-search" value={query} onChange={(e) => setQuery(e.target.value)} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor={`${id}-sort`}>{t('directory.sort')}</label>
          <select id={`${id}-sort`} data-testid="directory-sort" value={sort} onChange={(e) => setSort(e.target.value as SortKey)}>
            <option value="name">{t('directory.sortName')}</option>
            <option value="rate">{t('directory.sortRate')}</option>
            <option value="population">{t('directory.sortPopulation')}</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-v`}>{t('directory.value')}</label>
          <div className="input-prefix">
            <span aria-hidden="true">$</span>
            <MoneyInput id={`${id}-v`} testId="directory-value" lang={lang} value={value > 0 ? value : null} onChange={(x) => setValue(x ?? 0)} />
          </div>
        </div>
      </div>
      <p className="help">
        {t('directory.missing')} {lookUp}
      </p>
      <p role="status" className="sr-only">
        {t('directory.count', { count: list.length })}
      </p>
      {list.length === 0 ? (
        <p data-testid="directory-empty">{t('directory.none', { query: q })}</p>
      ) : (
        <ul className="county-cards" data-testid="directory-list" tabIndex={0} aria-label={t('directory.listLabel', { count: list.length })}>
          {list.map((c) => {
            const x = v > 0 ? taxes(edition, c, v) : null;
            return (
              <li key={c.slug} className="county-card" data-testid="county-card" data-slug={c.slug}>
                <h4>
                  <a href={pathOf({ page: 'county', param: c.slug }, lang)} data-testid="county-card-link">
                    {countyName(c.name, t)}
                  </a>
                </h4>
                <p>{c.rate === null ? t('directory.noRate') : t('directory.rate', { rate: formatPercent(c.rate, lang, 3) })}</p>
                {c.population ? (
                  <p data-testid="county-card-population" data-value={c.population}>
                    {t('directory.populationOf', { count: c.population, population: formatNumber(c.population, lang, 0) })}
                  </p>
                ) : null}
                {x && (
                  <p data-testid="county-card-monthly" data-value={x.monthly}>
                    {t('directory.monthly', { amount: formatUsd(x.monthly, lang), value: formatUsd(v, lang) })}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <RateChart counties={edition.counties} mine={getItem(KEYS.county)} lang={lang} />
      {majorRows.length > 0 && (
        <table className="major-table" data-testid="major-counties">
          <caption>{t('directory.majorTitle', { value: formatUsd(DEFAULT_VALUE, lang) })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('directory.county')}</th>
              <th scope="col">{t('directory.rateCol')}</th>
              <th scope="col">{t('directory.population')}</th>
              <th scope="col">{t('directory.taxCol', { value: formatUsd(DEFAULT_VALUE, lang) })}</th>
            </tr>
          </thead>
          <tbody>
            {majorRows.map((c) => {
              const x = taxes(edition, c, DEFAULT_VALUE);
              return (
                <tr key={c.slug} data-slug={c.slug}>
                  <th scope="row">{countyName(c.name, t)}</th>
                  <td>{c.rate === null ? '—' : formatPercent(c.rate, lang, 3)}</td>
                  <td data-testid="major-population" data-value={c.population ?? undefined}>
                    {c.population ? formatNumber(c.population, lang, 0) : '—'}
                  </td>
                  <td data-testid="major-tax" data-value={x?.annual}>
                    {x ? formatUsd(x.annual, lang) : '—'}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}

/**
 * The state's counties by rate, highest first, as a bar chart that reads without colour: each
 * bar's figure is written beside it, and the visitor's county (the one last chosen) is marked
 * with a word and a thicker outlined bar, not a colour alone.
 */
export function RateChart({ counties, mine, lang }: { counties: CountyInfo[]; mine: string | null; lang: Lang }) {
  const { t } = useTranslation();
  const rated = counties.filter((c) => c.rate !== null).sort((a, b) => b.rate! - a.rate! || a.name.localeCompare(b.name));
  if (rated.length < 2) return null;
  const max = rated[0]!.rate!;
  const own = rated.find((c) => c.name === mine);
  return (
    <details className="rate-chart" data-testid="rate-chart">
      <summary>{t('directory.chartTitle', { count: rated.length })}</summary>
      {own && <p className="help">{t('directory.chartYours', { county: countyName(own.name, t), rate: formatPercent(own.rate!, lang, 3) })}</p>}
      <ol className="bars">
        {rated.map((c) => {
          const yours = c === own;
          return (
            <li key={c.slug} className={yours ? 'bar-row bar-yours' : 'bar-row'} data-testid={yours ? 'rate-chart-yours' : undefined} data-value={c.rate!}>
              <span className="bar-name">
                {countyName(c.name, t)}
                {yours && <strong> {t('directory.chartMark')}</strong>}
              </span>
              <span className="bar-track" aria-hidden="true">
                <span className="bar" style={{ width: `${(c.rate! / max) * 100}%` }} />
              </span>
              <span className="bar-figure">{formatPercent(c.rate!, lang, 3)}</span>
            </li>
          );
        })}
      </ol>
    </details>
  );
}
