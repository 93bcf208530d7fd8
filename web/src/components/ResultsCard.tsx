/** The results card (seed 000 §2): figures, breakdown, exemptions, notes, hint, explanation, report and share. */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { ExplainStep } from '../../../engine/index.js';
import type { Edition, FieldView, FormValues, ResultView } from '../lib/model.js';
import { ResultCharts } from './Charts.js';
import { formatNumber, formatPercent, formatUsd, type Lang } from '../lib/format.js';
import { phrase } from '../lib/editionText.js';
import { exemptionLabel, fieldText, shareText } from '../lib/report.js';
import { useToast } from './Toaster.js';
import { reportError } from '../lib/monitoring.js';
import { countyName } from '../lib/places.js';
import { shareUrl } from '../lib/shareLink.js';
import { PlainExplanation } from './PlainExplanation.js';
import { ResultContext } from './ResultContext.js';
import { Term } from './Term.js';
import { conventionAnchor, pathOf } from '../lib/routes.js';
import { citationTitle } from '../lib/citations.js';
import { FILING_LINK } from '../lib/config.js';

const BREAKDOWN = ['school', 'county', 'city', 'special'] as const;

function Figure({
  label,
  value,
  display,
  testId,
  big,
  note,
}: {
  label: React.ReactNode;
  value: number;
  display: string;
  testId: string;
  big?: boolean;
  note?: string;
}) {
  return (
    <div className={big ? 'figure figure-big' : 'figure'}>
      <dt>{label}</dt>
      <dd data-testid={testId} data-value={value}>
        {display}
      </dd>
      {note && (
        <dd className="figure-note" data-testid={`${testId}-note`}>
          {note}
        </dd>
      )}
    </div>
  );
}

export function ResultsCard({
  result,
  values,
  lang,
  rates,
  heading,
  edition,
}: {
  result: ResultView;
  values: FormValues;
  lang: Lang;
  rates: Record<string, number>;
  heading?: React.Ref<HTMLHeadingElement>;
  edition: Edition;
}) {
  const { t } = useTranslation();
  const usd = (n: number) => formatUsd(n, lang);
  const r = result;
  // The levies' taxable values when they differ (one row per distinct value, the levies in order).
  const distinct = new Set(BREAKDOWN.filter((k) => r.breakdown[k] > 0).map((k) => r.taxableValues[k]));
  const levyValues: Array<[string, number]> = distinct.size > 1 ? BREAKDOWN.filter((k) => r.breakdown[k] > 0).map((k) => [k, r.taxableValues[k]]) : [];
  return (
    <div data-testid="results">
      <h3 className="results-heading" tabIndex={-1} ref={heading} data-testid="results-heading">
        {t('results.heading', { county: countyName(r.county, t), year: r.year })}
      </h3>
      {r.withMelloRoos && (
        <dl className="figures-main" data-testid="mello-roos-total">
          <Figure
            big
            label={t('results.totalWithMelloRoos')}
            value={r.withMelloRoos.total}
            display={usd(r.withMelloRoos.total)}
            testId="total-with-mello-roos"
          />
          <Figure
            label={t('results.monthlyWithMelloRoos')}
            value={r.withMelloRoos.monthly}
            display={usd(r.withMelloRoos.monthly)}
            testId="monthly-with-mello-roos"
          />
          <Figure label={t('results.melloRoos')} value={r.withMelloRoos.melloRoos} display={usd(r.withMelloRoos.melloRoos)} testId="mello-roos" />
        </dl>
      )}
      <dl className="figures-main">
        <Figure big={!r.withMelloRoos} label={t('results.annualTax')} value={r.annualTax} display={usd(r.annualTax)} testId="annual-tax" />
        <Figure label={t('results.monthlyTax')} value={r.monthlyTax} display={usd(r.monthlyTax)} testId="monthly-tax" note={t('results.escrowNote')} />
        <Figure
          label={
            <Term tip={t('terms.effectiveRate')} testId="term-effective-rate">
              {t('results.effectiveRate')}
            </Term>
          }
          value={r.effectiveRate}
          display={formatPercent(r.effectiveRate, lang)}
          testId="effective-rate"
        />
        {r.countyRate !== null && (
          <Figure label={t('results.countyRate')} value={r.countyRate} display={formatPercent(r.countyRate, lang, 3)} testId="county-rate-used" />
        )}
        {r.typicalRate !== null && (
          <Figure label={t('results.typicalRate')} value={r.typicalRate} display={formatPercent(r.typicalRate, lang, 3)} testId="typical-rate" />
        )}
      </dl>
      {r.typicalRate !== null && <p className="help">{t('results.typicalRateHelp')}</p>}
      {edition.stateAverageRate !== null && (
        <p className="compare" data-testid="average-compare" data-value={edition.stateAverageRate}>
          {t(
            r.effectiveRate > edition.stateAverageRate
              ? 'results.aboveAverage'
              : r.effectiveRate < edition.stateAverageRate
                ? 'results.belowAverage'
                : 'results.atAverage',
            {
              state: edition.stateName[lang],
              average: formatPercent(edition.stateAverageRate, lang),
              points: formatNumber(Math.abs(r.effectiveRate - edition.stateAverageRate), lang, 2),
            },
          )}
        </p>
      )}
      <ResultContext edition={edition} county={r.county} lang={lang} countyShown={r.typicalRate !== null} />
      <dl className="figures">
        <Figure
          label={
            <Term tip={t('terms.assessedValue')} testId="term-assessed-value">
              {t('results.baseAssessedValue')}
            </Term>
          }
          value={r.baseAssessedValue}
          display={usd(r.baseAssessedValue)}
          testId="base-assessed-value"
        />
        <Figure label={t('results.finalAssessedValue')} value={r.finalAssessedValue} display={usd(r.finalAssessedValue)} testId="final-assessed-value" />
        <Figure
          label={
            <Term tip={t('terms.taxableValue')} testId="term-taxable-value">
              {t('results.taxableValue')}
            </Term>
          }
          value={r.taxableValue}
          display={usd(r.taxableValue)}
          testId="taxable-value"
          note={levyValues.length > 1 ? t('results.taxableByLevyNote') : undefined}
        />
        {/* Issue 24: where levies have different taxable values (Texas, Florida), each one, never a single figure that contradicts the explanation. */}
        {levyValues.length > 1 &&
          levyValues.map(([k, x]) => <Figure key={k} label={t(`results.taxable_${k}`)} value={x} display={usd(x)} testId={`taxable-value-${k}`} />)}
        <Figure label={t('results.exemptionSavings')} value={r.exemptionSavings} display={usd(r.exemptionSavings)} testId="exemption-savings" />
        {r.quarterlyPayment !== undefined && (
          <Figure label={t('results.quarterlyPayment')} value={r.quarterlyPayment} display={usd(r.quarterlyPayment)} testId="quarterly-payment" />
        )}
      </dl>

      <h4>{t('results.breakdown')}</h4>
      <dl className="rows" data-testid="breakdown">
        {BREAKDOWN.map((k) => (
          <div className="row" key={k}>
            <dt>{t(`results.${k}`)}</dt>
            <dd data-testid={`breakdown-${k}`} data-value={r.breakdown[k]}>
              {usd(r.breakdown[k])}
            </dd>
          </div>
        ))}
      </dl>

      <ResultCharts result={r} lang={lang} />

      {values.showSchoolTaxBreakdown && (
        <section data-testid="school-detail">
          <h4>{t('results.schoolDetail')}</h4>
          <dl className="rows">
            <div className="row">
              <dt>{t('results.schoolTaxable')}</dt>
              <dd data-testid="school-taxable-value" data-value={r.taxableValues.school}>
                {usd(r.taxableValues.school)}
              </dd>
            </div>
            {r.schoolTaxBeforeExemptions !== undefined && (
              <div className="row">
                <dt>{t('results.schoolBefore')}</dt>
                <dd data-testid="school-tax-before" data-value={r.schoolTaxBeforeExemptions}>
                  {usd(r.schoolTaxBeforeExemptions)}
                </dd>
              </div>
            )}
            <div className="row">
              <dt>{t('results.schoolAfter')}</dt>
              <dd data-value={r.breakdown.school}>{usd(r.breakdown.school)}</dd>
            </div>
          </dl>
        </section>
      )}

      <h4>
        {t('results.exemptions')}{' '}
        <Term tip={t('terms.homestead')} testId="term-homestead">
          {t('terms.homesteadWord')}
        </Term>
      </h4>
      {r.exemptions.length ? (
        <dl className="rows" data-testid="exemptions-applied">
          {r.exemptions.map((e) => (
            <div className="row" key={e.key}>
              <dt>{exemptionLabel(t, e)}</dt>
              <dd data-testid={`exemption-${e.key}`} data-value={e.amount}>
                {usd(e.amount)}
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <p data-testid="no-exemptions">{t('results.noExemptions')}</p>
      )}

      {r.details
        .filter((d) => d.fields.length > 0)
        .map((d) => (
          <section key={d.key} data-testid={`detail-${d.key}`}>
            <h4>{t(`results.details_${d.key}`, { defaultValue: t('results.details') })}</h4>
            <dl className="rows">
              {d.fields.map((f) => (
                <div className="row" key={f.id}>
                  <dt>{f.label}</dt>
                  <dd data-testid={`detail-${f.id.replace(/\./g, '-')}`} data-value={typeof f.value === 'number' ? f.value : undefined}>
                    {formatField(f, lang, t)}
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        ))}

      {/* The hint is about the homestead exemption (STAR in New York): nothing once the visitor has claimed it (issue 24). */}
      {r.potentialSavings > 0 && !values.homestead && (
        <p className="hint" data-testid="potential-savings" data-value={r.potentialSavings}>
          {phrase(edition.code, 'potentialSavings', lang, { amount: usd(r.potentialSavings) }) ??
            t('results.potentialSavings', { amount: usd(r.potentialSavings) })}
        </p>
      )}

      {r.notes.length > 0 && (
        <>
          <h4>{t('results.notes')}</h4>
          <ul className="notes" data-testid="notes">
            {r.notes.map((n, i) => (
              <li key={i} data-testid="note">
                {n}
              </li>
            ))}
          </ul>
        </>
      )}

      <PlainExplanation r={r} lang={lang} stateAverage={edition.stateAverageRate} stateName={edition.stateName[lang]} />
      <Explanation steps={r.steps} lang={lang} edition={edition} />
      <ReportActions result={r} values={values} lang={lang} rates={rates} edition={edition} />
      <FilingLink lang={lang} />
    </div>
  );
}

/** The free tax-filing link (seed 001 §1): a partner's, marked sponsored and disclosed, or the IRS's Free File page, marked as no affiliation. */
function FilingLink({ lang }: { lang: Lang }) {
  const { t } = useTranslation();
  const { href, affiliate } = FILING_LINK;
  return (
    <p className="help filing-link" data-testid="filing-link">
      {t('filing.text')}{' '}
      <a href={href} target="_blank" rel={affiliate ? 'sponsored noopener' : 'noopener noreferrer'} data-testid="filing-link-a">
        {t(affiliate ? 'filing.partner' : 'filing.irs')}
        <span className="sr-only"> {t('share.newTab')}</span>
      </a>{' '}
      {affiliate ? (
        <a href={pathOf({ page: 'affiliate' }, lang)} data-testid="filing-disclosure">
          {t('filing.disclosed')}
        </a>
      ) : (
        <span data-testid="filing-no-affiliation">{t('filing.noAffiliation')}</span>
      )}
    </p>
  );
}

/** A declared field's value as the page shows it, by its unit (money without cents, percent with 2 decimals): lib/report.ts fieldText, shared with the PDF. */
export const formatField = (f: Pick<FieldView, 'unit' | 'value'>, lang: Lang, t: TFunction): string => fieldText(f, lang, t);

function stepValue(v: ExplainStep['value'], lang: Lang, t: TFunction): string {
  if (typeof v === 'number') return formatNumber(v, lang, 6);
  if (typeof v === 'boolean') return v ? t('results.yes') : t('results.no');
  if (v === null || v === undefined) return '—';
  return t(`value.${String(v)}`, { defaultValue: String(v) });
}

/**
 * The engine's full trace, behind a toggle: each step as a sentence with its figures
 * (engine/core/sentence.ts) and its sources; the formula for reviewers behind its own toggle.
 * The steps (30–50 items with their sources and formulas, the most elements of the results)
 * are put in the page when the panel is first opened, not with every result (issue 27: the
 * click to the figure); then they stay, and follow the result.
 */
export function Explanation({ steps, lang, edition }: { steps: ExplainStep[]; lang: Lang; edition?: Edition }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  if (!steps.length) return null;
  const howItWorks = pathOf({ page: 'how-it-works' }, lang);
  const params = edition?.bundle.parameters ?? {};
  return (
    // The summary's click (mouse or keyboard) shows the steps in the same event; toggle covers any other opening.
    <details className="explain" data-testid="explanation" onToggle={(e) => e.currentTarget.open && setOpened(true)}>
      <summary onClick={() => setOpened(true)}>{t('results.explainAll', { count: steps.length })}</summary>
      <p className="help">{t('results.explainIntro')}</p>
      {opened && (
        <ol>
          {steps.map((s) => {
            const refs = [
              ...(s.reference ?? []).map((ref) => ({ ...ref, file: '', param: s.rule, label: s.label })),
              ...s.params.flatMap((p) => p.reference.map((ref) => ({ ...ref, file: p.file, param: p.id, label: params[p.id]?.label }))),
            ];
            return (
              <li key={s.rule} data-testid="explain-step" data-rule={s.rule}>
                <p className="step-head" data-testid="step-sentence">
                  {s.sentence ?? `${s.label[lang] ?? s.label.en} = ${stepValue(s.value, lang, t)}`}
                </p>
                {refs.length > 0 && (
                  <ul className="step-sources" aria-label={t('results.stepSource')}>
                    {refs.map((ref, i) => {
                      const title = citationTitle(ref.title, lang, t, ref.label);
                      const external = /^https?:\/\//.test(ref.href);
                      return (
                        <li key={i}>
                          <a
                            href={external ? ref.href : `${howItWorks}#${conventionAnchor(ref.param)}`}
                            {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
                            data-testid="citation"
                            lang={title.lang}
                          >
                            {title.text}
                          </a>
                        </li>
                      );
                    })}
                  </ul>
                )}
                <details className="step-formula" data-testid="step-formula">
                  <summary>{t('results.stepFormula')}</summary>
                  <code translate="no">
                    {s.expression} [{s.rule}]
                  </code>
                </details>
              </li>
            );
          })}
        </ol>
      )}
    </details>
  );
}

function ReportActions({
  result,
  values,
  lang,
  rates,
  edition,
}: {
  result: ResultView;
  values: FormValues;
  lang: Lang;
  rates: Record<string, number>;
  edition: Edition;
}) {
  const { t } = useTranslation();
  const toast = useToast();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const text = shareText(t, result, values, lang);
  const url = typeof location !== 'undefined' ? shareUrl(location.origin, location.pathname, values, edition) : '';
  const download = async () => {
    setBusy(true);
    try {
      const [{ downloadPdf }, { reportSections }] = await Promise.all([import('../lib/pdf.js'), import('../lib/reportData.js')]);
      const data = reportSections(t, result, values, lang, rates, edition);
      await downloadPdf({ ...data, notesTitle: t('results.notes'), fileName: t('report.fileName', { county: result.countySlug }) });
      toast({ type: 'success', title: t('report.success') });
    } catch (e) {
      reportError(e, { where: 'pdf' });
      toast({ type: 'error', title: t('report.failure') });
    } finally {
      setBusy(false);
    }
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(`${text}\n${url}`);
      toast({ type: 'success', title: t('share.copied') });
    } catch {
      toast({ type: 'error', title: t('share.copyFailed') });
    }
  };
  // Seed 001 §2/§8: copy the link, 'Link copied' / 'Enlace copiado', or say to copy it by hand.
  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(url);
      toast({ type: 'success', title: t('share.linkCopied') });
    } catch {
      toast({ type: 'error', title: t('share.linkCopyFailed'), description: t('share.linkCopyManual') });
    }
  };
  const mail = `mailto:?subject=${encodeURIComponent(t('share.subject', { county: countyName(result.county, t) }))}&body=${encodeURIComponent(`${text}\n${url}`)}`;
  const twitter = `https://twitter.com/intent/tweet?text=${encodeURIComponent(text)}&url=${encodeURIComponent(url)}`;
  const facebook = `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}`;
  return (
    <div className="report-actions">
      <button type="button" className="btn btn-primary" onClick={download} disabled={busy} data-testid="download-pdf" aria-busy={busy}>
        {busy ? t('report.generating') : t('report.download')}
      </button>
      <section className="share" aria-labelledby={`${id}-share`} data-testid="share-panel">
        <h4 id={`${id}-share`}>{t('share.title')}</h4>
        <ul className="share-list">
          <li>
            <a className="btn btn-ghost" href={mail} data-testid="share-email">
              {t('share.email')}
            </a>
          </li>
          <li>
            <a className="btn btn-ghost" href={twitter} target="_blank" rel="noopener noreferrer" data-testid="share-twitter">
              {t('share.twitter')}
              <span className="sr-only"> {t('share.newTab')}</span>
            </a>
          </li>
          <li>
            <a className="btn btn-ghost" href={facebook} target="_blank" rel="noopener noreferrer" data-testid="share-facebook">
              {t('share.facebook')}
              <span className="sr-only"> {t('share.newTab')}</span>
            </a>
          </li>
          <li>
            <button type="button" className="btn btn-ghost" onClick={copy} data-testid="share-copy">
              {t('share.copy')}
            </button>
          </li>
          <li>
            <button type="button" className="btn btn-ghost" onClick={copyLink} data-testid="share-copy-link">
              {t('share.copyLink')}
            </button>
          </li>
        </ul>
        <label className="share-link">
          <span>{t('share.linkLabel')}</span>
          <input type="text" readOnly value={url} data-testid="share-url" onFocus={(e) => e.currentTarget.select()} />
        </label>
      </section>
    </div>
  );
}
