/**
 * The context other calculators give beside a result (issue 24): the county's typical rate,
 * the state's and the national one (the median of the U.S. counties, from the counties data
 * with its source), the county's rank in the state by rate, and the median tax its owners
 * pay. Figures from the data package (county facts, scripts/gen-county-facts.ts); none here.
 */
import { useTranslation } from 'react-i18next';
import type { CountyInfo, Edition } from '../lib/model.js';
import { formatNumber, formatPercent, formatUsd, type Lang } from '../lib/format.js';
import { countyName } from '../lib/places.js';
import { citationTitle } from '../lib/citations.js';
import { Term } from './Term.js';

/** The county's place among the state's counties that have a rate, highest rate first (ties share a rank). */
export function rankOf(edition: Edition, countyName: string): { rank: number; count: number } | null {
  const c = edition.county(countyName);
  const own = c ? typicalOf(c) : null;
  if (own === null) return null;
  const rated = edition.counties.filter((x) => typicalOf(x) !== null);
  return { rank: 1 + rated.filter((x) => typicalOf(x)! > own).length, count: rated.length };
}

/** The county's typical rate (what its owners pay: the Census effective rate), else the rate the calculation uses. */
export const typicalOf = (c: CountyInfo): number | null => c.typicalRate ?? c.rate;

export function ResultContext({ edition, county, lang, countyShown = false }: { edition: Edition; county: string; lang: Lang; countyShown?: boolean }) {
  const { t } = useTranslation();
  const c = edition.county(county);
  const name = countyName(county, t);
  const state = edition.stateName[lang];
  const rank = rankOf(edition, county);
  const rows: Array<{ id: string; label: React.ReactNode; text: string; value?: number }> = [];
  // The county's typical rate, unless the figures above already show it.
  const typical = c ? typicalOf(c) : null;
  if (typical !== null && !countyShown)
    rows.push({
      id: 'county',
      label: (
        <Term tip={t('terms.millage')} testId="term-millage">
          {t('context.countyRate', { county: name })}
        </Term>
      ),
      text: formatPercent(typical, lang, 3),
      value: typical,
    });
  if (edition.stateAverageRate !== null)
    rows.push({
      id: 'state',
      label: t('context.stateRate', { state }),
      text: formatPercent(edition.stateAverageRate, lang, 3),
      value: edition.stateAverageRate,
    });
  if (edition.facts)
    rows.push({
      id: 'national',
      label: t('context.nationalRate', { count: formatNumber(edition.facts.national.counties, lang, 0) }),
      text: formatPercent(edition.facts.national.medianRate, lang, 3),
      value: edition.facts.national.medianRate,
    });
  if (rank)
    rows.push({ id: 'rank', label: t('context.rank', { state }), text: t('context.rankValue', { rank: rank.rank, count: rank.count }), value: rank.rank });
  if (c?.medianTax)
    rows.push({
      id: 'median-tax',
      label: t('context.medianTax', { county: name }),
      text: c.taxesTopCoded ? t('context.topCoded', { amount: formatUsd(c.medianTax, lang) }) : formatUsd(c.medianTax, lang),
      value: c.medianTax,
    });
  if (!rows.length) return null;
  const source = edition.facts ? citationTitle(edition.facts.sources.taxes.title, lang, t) : null;
  return (
    <section className="result-context" data-testid="result-context" aria-labelledby="result-context-title">
      <h4 id="result-context-title">{t('context.title')}</h4>
      <dl className="rows">
        {rows.map((r) => (
          <div className="row" key={r.id}>
            <dt>{r.label}</dt>
            <dd data-testid={`context-${r.id}`} data-value={r.value}>
              {r.text}
            </dd>
          </div>
        ))}
      </dl>
      {source && edition.facts && (
        <p className="help" data-testid="context-source">
          {t('context.source')}{' '}
          <a href={edition.facts.sources.taxes.href} target="_blank" rel="noopener noreferrer" lang={source.lang}>
            {source.text}
          </a>
        </p>
      )}
    </section>
  );
}
