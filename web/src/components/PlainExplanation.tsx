/**
 * "How this was calculated" for visitors (issue 15): the few steps that matter, in words,
 * with their amounts, and the public sources of the figures used. Product conventions link
 * to the how-it-works page, which lists them. The engine's full trace (every step with its
 * formula) stays behind a "details" toggle, as `ptax calc --explain` prints it.
 */
import { useTranslation } from 'react-i18next';
import type { ExplainStep } from '../../../engine/index.js';
import type { ResultView } from '../lib/model.js';
import { formatPercent, formatUsd, type Lang } from '../lib/format.js';
import { exemptionLabel } from '../lib/report.js';
import { conventionAnchor, pathOf } from '../lib/routes.js';

export interface Source {
  title: string;
  href: string;
  convention: boolean;
}

/** The sources of the figures the result used: public documents first, then the product's conventions; one entry per address. */
export function sourcesOf(steps: ExplainStep[], howItWorks: string): Source[] {
  const seen = new Map<string, Source>();
  for (const s of steps) {
    // A step whose value is 0, false or absent did not shape this result.
    if (s.value === 0 || s.value === false || s.value === null || s.value === undefined) continue;
    // The statute section the step applies (its own reference), then its parameters' sources.
    for (const p of [{ id: s.rule, reference: s.reference ?? [] }, ...s.params]) {
      for (const ref of p.reference) {
        const r = ref as { title: string; href: string; convention?: unknown };
        const convention = r.convention !== undefined || !/^https?:\/\//.test(r.href);
        const href = convention ? `${howItWorks}#${conventionAnchor(p.id)}` : r.href;
        if (!seen.has(href)) seen.set(href, { title: r.title, href, convention });
      }
    }
  }
  return [...seen.values()].sort((a, b) => Number(a.convention) - Number(b.convention));
}

const LEVIES = ['school', 'county', 'city', 'special'] as const;

export function PlainExplanation({ r, lang, stateAverage, stateName }: { r: ResultView; lang: Lang; stateAverage: number | null; stateName: string }) {
  const { t } = useTranslation();
  const usd = (n: number) => formatUsd(n, lang);
  const tv = r.taxableValues;
  const sameTaxable = LEVIES.every((k) => tv[k] === tv.school);
  const levies = LEVIES.filter((k) => r.breakdown[k] > 0).map((k) => t('explain.levy', { levy: t(`results.${k}`), amount: usd(r.breakdown[k]) }));
  const howItWorks = pathOf({ page: 'how-it-works' }, lang);
  const sources = sourcesOf(r.steps, howItWorks);
  const conventions = sources.filter((s) => s.convention);
  const documents = sources.filter((s) => !s.convention);
  return (
    <section className="plain-explain" data-testid="plain-explanation" aria-labelledby="plain-explain-title">
      <h4 id="plain-explain-title">{t('results.explain')}</h4>
      <ol>
        <li data-testid="plain-value">{t('explain.value', { value: usd(r.marketValue) })}</li>
        {r.baseAssessedValue !== r.marketValue && <li data-testid="plain-assessed">{t('explain.assessed', { value: usd(r.baseAssessedValue) })}</li>}
        {r.countyRate !== null && <li data-testid="plain-county-rate">{t('explain.countyRate', { rate: formatPercent(r.countyRate, lang, 3) })}</li>}
        {r.exemptions.map((e) => (
          <li key={e.key} data-testid="plain-exemption">
            {t('explain.exemption', { name: exemptionLabel(t, e), amount: usd(e.amount) })}
          </li>
        ))}
        <li data-testid="plain-taxable">
          {sameTaxable
            ? t('explain.taxable', { value: usd(tv.school) })
            : t('explain.taxableByLevy', { school: usd(tv.school), county: usd(tv.county), city: usd(tv.city), special: usd(tv.special) })}
        </li>
        {levies.length > 0 && <li data-testid="plain-levies">{t('explain.levies', { list: levies.join('; ') })}</li>}
        <li data-testid="plain-total">
          {t('explain.total', { annual: usd(r.annualTax), monthly: usd(r.monthlyTax), rate: formatPercent(r.effectiveRate, lang) })}
          {stateAverage !== null && ` ${t('explain.average', { state: stateName, rate: formatPercent(stateAverage, lang) })}`}
        </li>
      </ol>
      {documents.length > 0 && (
        <>
          <p className="help">{t('explain.sources')}</p>
          <ul className="step-sources" data-testid="plain-sources">
            {documents.map((s) => (
              <li key={s.href}>
                <a href={s.href} target="_blank" rel="noopener noreferrer" data-testid="citation" lang={lang === 'es' ? 'en' : undefined}>
                  {s.title}
                </a>
              </li>
            ))}
          </ul>
        </>
      )}
      {conventions.length > 0 && (
        <p className="help" data-testid="plain-conventions">
          {t('explain.conventions')}{' '}
          <a href={`${howItWorks}#conventions`} data-testid="convention-link">
            {t('explain.conventionsLink')}
          </a>
        </p>
      )}
    </section>
  );
}
