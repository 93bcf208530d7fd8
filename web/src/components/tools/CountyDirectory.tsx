/**
 * The county directory (seed 001 §2, §3): search box, sort by name or rate, a card per
 * county with its rate and the monthly tax on the visitor's value (computed by the engine
 * with the county's rules, no exemptions), and the major-county table (the state profile's
 * major counties: rate and the tax on the default value). Population and appraisal
 * districts are not in the repository's data: the directory says where to find them.
 */
import { useDeferredValue, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { countyKey, DEFAULT_VALUE } from '../../../../engine/index.js';
import type { CountyInfo, Edition } from '../../lib/model.js';
import { formatPercent, formatUsd, type Lang } from '../../lib/format.js';
import { MoneyInput } from '../MoneyInput.js';
import { countyName } from '../../lib/places.js';

export type SortKey = 'name' | 'rate';

/**
 * Counties whose name contains the query, sorted. Names compare as the CLI and batch
 * compare them (engine countyKey: accents, case, Saint/St./Ste., spaces, hyphens, periods
 * and apostrophes do not matter; "Condado de" in front is the Spanish for "County").
 */
export function filterCounties(counties: CountyInfo[], query: string, sort: SortKey): CountyInfo[] {
  const q = countyKey(query.replace(/^\s*condado\s+de\s+/i, ''));
  const found = counties.filter((c) => !q || countyKey(c.name).includes(q));
  return sort === 'rate'
    ? [...found].sort((a, b) => (b.rate ?? -1) - (a.rate ?? -1) || a.name.localeCompare(b.name))
    : [...found].sort((a, b) => a.name.localeCompare(b.name));
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
  const lookUp = t('directory.where', { context: edition.code, defaultValue: '' });
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
                <h4>{countyName(c.name, t)}</h4>
                <p>{c.rate === null ? t('directory.noRate') : t('directory.rate', { rate: formatPercent(c.rate, lang, 3) })}</p>
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
                  <td>{t('directory.notInData')}</td>
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
