/**
 * A state's county table on its hub page (issue 26): median rate, median home value, the
 * engine's tax on that home and population, sortable by each column with a button in its
 * header (keyboard: Tab to it, Enter or Space; `aria-sort` says the order). Each county
 * links to its own page. Rows without a figure go last whatever the order.
 *
 * In the browser (`keepRows`, set by hydrateIslands) the rows are the build's HTML, left out
 * of React's hydrated tree (88 rows in Ohio were most of the page's main-thread work): the
 * `<tbody>` has an empty `dangerouslySetInnerHTML`, whose content React neither hydrates nor
 * re-renders, and a sort moves its `<tr data-slug>` elements into the new order. Only the
 * header's buttons (and `aria-sort`) are React's.
 */
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber, formatPercent, formatUsd, type Lang } from '../../lib/format.js';
import { compareNames, countyName } from '../../lib/places.js';
import { hubPath, type CountyRow } from './hubTypes.js';

export type SortKey = 'name' | 'rate' | 'value' | 'tax' | 'population';
type Dir = 'ascending' | 'descending';

/** The rows in the order of `key` and `dir`; a row without the figure goes last; ties by name. */
export function sortRows(rows: readonly CountyRow[], key: SortKey, dir: Dir): CountyRow[] {
  const sign = dir === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    if (key === 'name') return sign * compareNames(a.name, b.name, 'en');
    const x = a[key];
    const y = b[key];
    if (x === null || y === null) return x === y ? compareNames(a.name, b.name, 'en') : x === null ? 1 : -1;
    return x === y ? compareNames(a.name, b.name, 'en') : sign * (x - y);
  });
}

/** The `<tbody>` content React leaves as it is (the same object each render: never re-set). */
const KEEP = { __html: '' };

/** Moves the pre-rendered rows of `body` into the order of `order` (by their `data-slug`). */
export function reorderRows(body: HTMLTableSectionElement, order: readonly CountyRow[]): void {
  const bySlug = new Map<string, HTMLTableRowElement>();
  for (const tr of Array.from(body.querySelectorAll<HTMLTableRowElement>(':scope > tr[data-slug]'))) bySlug.set(tr.dataset.slug!, tr);
  const frag = document.createDocumentFragment();
  for (const r of order) {
    const tr = bySlug.get(r.slug);
    if (tr) frag.appendChild(tr);
  }
  body.appendChild(frag);
}

export function CountyTable({
  lang,
  stateSlug,
  state,
  rows,
  keepRows = false,
}: {
  lang: Lang;
  stateSlug: string;
  state: string;
  rows: CountyRow[];
  /** In the browser over the build's HTML: the rows stay the build's, reordered, not rendered. */
  keepRows?: boolean;
}) {
  const { t } = useTranslation();
  const [sort, setSort] = useState<{ key: SortKey; dir: Dir }>({ key: 'name', dir: 'ascending' });
  const body = useRef<HTMLTableSectionElement>(null);
  const sortBy = (key: SortKey) => {
    const next: { key: SortKey; dir: Dir } = {
      key,
      dir: sort.key === key ? (sort.dir === 'ascending' ? 'descending' : 'ascending') : key === 'name' ? 'ascending' : 'descending',
    };
    setSort(next);
    if (keepRows && body.current) reorderRows(body.current, sortRows(rows, next.key, next.dir));
  };
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
                  onClick={() => sortBy(key)}
                >
                  {label}
                  <span aria-hidden="true">{sort.key === key ? (sort.dir === 'ascending' ? ' ▲' : ' ▼') : ' ↕'}</span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        {keepRows ? (
          <tbody ref={body} dangerouslySetInnerHTML={KEEP} suppressHydrationWarning />
        ) : (
          <tbody>
            {sortRows(rows, sort.key, sort.dir).map((r) => (
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
        )}
      </table>
    </div>
  );
}
