/**
 * A state's county table on its hub page (issue 26): median rate, median home value, the
 * engine's tax on that home and population, sortable by each column with a button in its
 * header (keyboard: Tab to it, Enter or Space; `aria-sort` says the order). Each county
 * links to its own page. Rows without a figure go last whatever the order.
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber, formatPercent, formatUsd, type Lang } from '../../lib/format.js';
import { countyName } from '../../lib/places.js';
import { hubPath, type CountyRow } from './hubTypes.js';

export type SortKey = 'name' | 'rate' | 'value' | 'tax' | 'population';
type Dir = 'ascending' | 'descending';

/** The rows in the order of `key` and `dir`; a row without the figure goes last; ties by name. */
export function sortRows(rows: readonly CountyRow[], key: SortKey, dir: Dir): CountyRow[] {
  const sign = dir === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    if (key === 'name') return sign * a.name.localeCompare(b.name, 'en');
    const x = a[key];
    const y = b[key];
    if (x === null || y === null) return x === y ? a.name.localeCompare(b.name, 'en') : x === null ? 1 : -1;
    return x === y ? a.name.localeCompare(b.name, 'en') : sign * (x - y);
  });
}

export function CountyTable({ lang, stateSlug, state, rows }: { lang: Lang; stateSlug: string; state: string; rows: CountyRow[] }) {
  const { t } = useTranslation();
  const [sort, setSort] = useState<{ key: SortKey; dir: Dir }>({ key: 'name', dir: 'ascending' });
  const sorted = useMemo(() => sortRows(rows, sort.key, sort.dir), [rows, sort]);
  const columns: Array<[SortKey, string]> = [
    ['name', t('hubStates.colCounty')],
    ['rate', t('hubStates.colRate')],
    ['value', t('hubStates.colValue')],
    ['tax', t('hubStates.colTax')],
    ['population', t('hubStates.colPopulation')],
  ];
  const none = <span className="help">{t('hubStates.noData')}</span>;
  return (
    <div className="table-scroll" data-testid="county-table">
      <table className="hub-table">
        <caption>{t('hubStates.tableCaption', { state })}</caption>
        <thead>
          <tr>
            {columns.map(([key, label]) => (
              <th key={key} scope="col" aria-sort={sort.key === key ? sort.dir : undefined}>
                <button
                  type="button"
                  className="sort-button"
                  data-testid={`sort-${key}`}
                  aria-label={t('hubStates.sortBy', { column: label })}
                  onClick={() =>
                    setSort((s) => ({
                      key,
                      dir: s.key === key ? (s.dir === 'ascending' ? 'descending' : 'ascending') : key === 'name' ? 'ascending' : 'descending',
                    }))
                  }
                >
                  {label}
                  <span aria-hidden="true">{sort.key === key ? (sort.dir === 'ascending' ? ' ▲' : ' ▼') : ' ↕'}</span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sorted.map((r) => (
            <tr key={r.slug} data-testid="county-row" data-slug={r.slug}>
              <th scope="row">
                <a href={hubPath(lang, stateSlug, r.slug)}>{r.label ?? countyName(r.name, t)}</a>
              </th>
              <td data-value={r.rate ?? undefined}>
                {r.rate === null ? none : formatPercent(r.rate, lang)}
                {r.topCoded && <span className="help"> ({t('hubStates.understated')})</span>}
              </td>
              <td data-value={r.value ?? undefined}>{r.value === null ? none : formatUsd(r.value, lang)}</td>
              <td data-value={r.tax ?? undefined}>{r.tax === null ? none : formatUsd(r.tax, lang)}</td>
              <td data-value={r.population ?? undefined}>{r.population === null ? none : formatNumber(r.population, lang)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
