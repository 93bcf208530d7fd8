/**
 * The PDF report's data (sections, figures, charts, details, notes): built only when the
 * visitor asks for the report, in the PDF's own chunk (lib/pdf.ts).
 */
import { countyName } from './places.js';
import type { TFunction } from 'i18next';
import { citationTitle } from './citations.js';
import type { FormValues, ResultView } from './model.js';
import { editionVars } from './editionText.js';
import { formatDate, formatNumber, formatPercent, formatUsd, type Lang } from './format.js';
import { isCommercial, type Edition } from './model.js';
import { valueAt } from '../../../engine/index.js';
import { pdfT } from './pdfText.js';
import { chosenExemptions, exemptionLabel, fieldText } from './report.js';

export interface ReportSection {
  title: string;
  rows: Array<[string, string]>;
}

/** One bar of a report chart: its label, the figure it stands for and that figure as written. */
export interface ReportBar {
  key: string;
  label: string;
  value: number;
  display: string;
}
/** A chart of the report, with the figures the page's charts show (components/Charts.tsx). */
export interface ReportChart {
  key: 'levies' | 'beforeAfter';
  title: string;
  bars: ReportBar[];
}

/** What the report needs of the edition; the state's name, rules and profile when there (the full Edition has them). */
export type ReportEdition = Pick<Edition, 'code' | 'formInputs' | 'county'> & Partial<Pick<Edition, 'bundle' | 'state' | 'stateName'>>;

/**
 * The report's data. `title`, `date`, `sections`, `notes` and `disclaimer` are the plain
 * list (every row of the results); the rest is what the PDF lays out (lib/pdfLayout.ts).
 */
export interface ReportData {
  title: string;
  date: string;
  sections: ReportSection[];
  notes: string[];
  disclaimer: string;
  lang: Lang;
  /** The header band: the product, the edition (its state), the place and tax year, the date. */
  header: { product: string; edition: string; place: string; date: string };
  /** Annual, monthly, effective rate (and the state average where the rules have one), taxable value, savings. */
  figures: ReportSection;
  inputs: ReportSection;
  /** Assessed and taxable values. */
  values: ReportSection;
  exemptions: ReportSection;
  /** Where the tax goes (the levies) and, with exemptions, the tax before and after them. */
  charts: ReportChart[];
  /** The state's detail object (`nyc`, `texas`, `california`, `florida`), one table each. */
  details: ReportSection[];
  notesTitle: string;
  disclaimerTitle: string;
  /** Where the rates come from (the counties' rate sources of the rules). */
  sources: string;
  /** "Page {{page}} of {{pages}}" and "{{title}} (continued)", placeholders left for the layout. */
  labels: { page: string; continued: string };
}

/** The state's average effective rate (percent) in force in the result's year, from the parameter the state profile names. */
export function stateAverageRate(edition: ReportEdition, year: number): number | null {
  const id = edition.state?.profile?.stats.average_rate;
  const p = id ? edition.bundle?.parameters[id] : undefined;
  if (!p) return null;
  const v = (valueAt(p, `${year}-12-31`) ?? p.values[0])?.value;
  return typeof v === 'number' ? v : null;
}

/** The charts' bars: the four levies, and the tax before and after exemptions (as components/Charts.tsx draws them). */
export function reportCharts(t: TFunction, r: ResultView, lang: Lang): ReportChart[] {
  const bar = (key: string, label: string, value: number): ReportBar => ({ key, label, value, display: formatUsd(value, lang) });
  const levies = (['school', 'county', 'city', 'special'] as const).map((k) => bar(k, t(`results.${k}`), r.breakdown[k]));
  const before = Math.round((r.annualTax + r.exemptionSavings) * 100) / 100;
  const out: ReportChart[] = [];
  if (levies.some((b) => b.value > 0)) out.push({ key: 'levies', title: t('charts.levies'), bars: levies });
  if (r.exemptionSavings > 0)
    out.push({
      key: 'beforeAfter',
      title: t('charts.beforeAfter'),
      bars: [bar('before', t('charts.before'), before), bar('after', t('charts.after'), r.annualTax)],
    });
  return out;
}

/** Everything the PDF holds: inputs, results, breakdown, exemptions, notes, disclaimer, date. */
export function reportSections(t: TFunction, r: ResultView, v: FormValues, lang: Lang, rates: Record<string, number>, edition: ReportEdition): ReportData {
  const usd = (n: number) => formatUsd(n, lang);
  const chosen = chosenExemptions(v, edition, lang);
  const inputs: Array<[string, string]> = [
    [t('report.value'), usd(v.homeValue)],
    [t('report.county'), countyName(r.county, t)],
  ];
  if (v.propertyType)
    inputs.push([
      t('report.propertyType'),
      t(`propertyType.${v.propertyType}`, { rate: rates[v.propertyType] !== undefined ? formatPercent(rates[v.propertyType]!, lang, 3) : '' }),
    ]);
  inputs.push([t('report.activeExemptions'), chosen.length && !isCommercial(v.propertyType) ? chosen.join('; ') : t('report.none')]);
  const results: Array<[string, string]> = [
    [t('results.annualTax'), usd(r.annualTax)],
    [t('results.monthlyTax'), usd(r.monthlyTax)],
    [t('results.effectiveRate'), formatPercent(r.effectiveRate, lang)],
    ...(r.countyRate !== null ? [[t('results.countyRate'), formatPercent(r.countyRate, lang, 3)] as [string, string]] : []),
    ...(r.typicalRate !== null ? [[t('results.typicalRate'), formatPercent(r.typicalRate, lang, 3)] as [string, string]] : []),
    [t('results.baseAssessedValue'), usd(r.baseAssessedValue)],
    [t('results.finalAssessedValue'), usd(r.finalAssessedValue)],
    [t('results.taxableValue'), usd(r.taxableValue)],
    [t('results.exemptionSavings'), usd(r.exemptionSavings)],
  ];
  const breakdown: Array<[string, string]> = (['school', 'county', 'city', 'special'] as const).map((k) => [t(`results.${k}`), usd(r.breakdown[k])]);
  const exemptions: Array<[string, string]> = r.exemptions.length
    ? r.exemptions.map((e) => [exemptionLabel(t, e), usd(e.amount)])
    : [[t('results.noExemptions'), '']];
  const vars = editionVars(edition.code, lang, edition.stateName?.[lang]);
  const date = t('report.date', { date: formatDate(new Date(), lang) });
  const figures: Array<[string, string]> = [
    // California with Mello-Roos: the total first, then its parts (issue 24).
    ...(r.withMelloRoos
      ? ([
          [t('results.totalWithMelloRoos'), usd(r.withMelloRoos.total)],
          [t('results.monthlyWithMelloRoos'), usd(r.withMelloRoos.monthly)],
          [t('results.melloRoos'), usd(r.withMelloRoos.melloRoos)],
        ] as Array<[string, string]>)
      : []),
    [t('results.annualTax'), usd(r.annualTax)],
    [t('results.monthlyTax'), usd(r.monthlyTax)],
  ];
  if (r.quarterlyPayment !== undefined) figures.push([t('results.quarterlyPayment'), usd(r.quarterlyPayment)]);
  figures.push([t('results.effectiveRate'), formatPercent(r.effectiveRate, lang)]);
  if (r.countyRate !== null) figures.push([t('results.countyRate'), formatPercent(r.countyRate, lang, 3)]);
  if (r.typicalRate !== null) figures.push([t('results.typicalRate'), formatPercent(r.typicalRate, lang, 3)]);
  const average = stateAverageRate(edition, r.year);
  if (average !== null) {
    figures.push([pdfT(t, lang, 'stateAverage', { state: vars.state }), formatPercent(average, lang)]);
    const points = Math.round((r.effectiveRate - average) * 100) / 100;
    const pts = formatNumber(Math.abs(points), lang, 2);
    figures.push([
      pdfT(t, lang, 'compared'),
      points > 0 ? pdfT(t, lang, 'above', { points: pts }) : points < 0 ? pdfT(t, lang, 'below', { points: pts }) : pdfT(t, lang, 'same'),
    ]);
  }
  figures.push([t('results.taxableValue'), usd(r.taxableValue)], [t('results.exemptionSavings'), usd(r.exemptionSavings)]);
  if (r.potentialSavings > 0 && !v.homestead) figures.push([pdfT(t, lang, 'potentialSavings'), usd(r.potentialSavings)]);
  const sources = (edition.state?.countiesMeta?.reference ?? []).map((ref) => citationTitle(ref.title, lang, t).text);
  return {
    title: `${t('report.title')}: ${countyName(r.county, t)}`,
    date,
    sections: [
      { title: t('report.inputs'), rows: inputs },
      { title: t('report.results'), rows: results },
      { title: t('results.breakdown'), rows: breakdown },
      { title: t('results.exemptions'), rows: exemptions },
    ],
    notes: r.notes,
    disclaimer: `${t('disclaimer.title')}. ${t('disclaimer.text', vars)}`,
    lang,
    header: {
      product: t('header.brand'),
      edition: t('header.title', vars),
      place: t('results.heading', { county: countyName(r.county, t), year: r.year }),
      date,
    },
    figures: { title: pdfT(t, lang, 'keyFigures'), rows: figures },
    inputs: { title: t('report.inputs'), rows: inputs },
    values: {
      title: pdfT(t, lang, 'values'),
      rows: [
        [t('results.baseAssessedValue'), usd(r.baseAssessedValue)],
        [t('results.finalAssessedValue'), usd(r.finalAssessedValue)],
        [t('results.taxableValue'), usd(r.taxableValue)],
      ],
    },
    exemptions: { title: t('results.exemptions'), rows: exemptions },
    charts: reportCharts(t, r, lang),
    details: r.details
      .filter((d) => d.fields.length > 0)
      .map((d) => ({
        title: t(`results.details_${d.key}`, { defaultValue: t('results.details') }),
        rows: d.fields.map((f): [string, string] => [f.label, fieldText(f, lang, t)]),
      })),
    notesTitle: t('results.notes'),
    disclaimerTitle: t('disclaimer.title'),
    sources: sources.length ? t('footer.rates', { source: sources.join('; ') }) : '',
    labels: {
      page: pdfT(t, lang, 'page', { page: '{{page}}', pages: '{{pages}}' }),
      continued: pdfT(t, lang, 'continued', { title: '{{title}}' }),
    },
  };
}
