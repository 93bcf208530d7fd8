/** Report data (seed 000 §3 "Report data") and its text forms: share text, PDF lines. */
import { countyName } from './places.js';
import type { TFunction } from 'i18next';
import type { FormValues, ResultView } from './model.js';
import { editionVars } from './editionText.js';
import { formatDate, formatPercent, formatUsd, type Lang } from './format.js';
import { inputShown, isCommercial, type Edition } from './model.js';

export function exemptionLabel(t: TFunction, e: ResultView['exemptions'][number]): string {
  if (e.key === 'star') {
    const type = e.detail?.type;
    return typeof type === 'string' ? t(`exemption.star_${type}`, { defaultValue: t('exemption.star') }) : t('exemption.star');
  }
  if (e.key === 'veteran') {
    const level = e.detail?.disability;
    return typeof level === 'number' && level > 0 ? t('exemption.veteran', { level }) : t('exemption.veteranNoLevel');
  }
  return t(`exemption.${e.key}`, { defaultValue: e.label ?? e.key });
}

/** The inputs the visitor gave beyond value and county, as labels (for the review step and the report). */
export function chosenExemptions(v: FormValues, edition: Pick<Edition, 'code' | 'formInputs' | 'county'>, lang: Lang): string[] {
  const out: string[] = [];
  const county = edition.county(v.county);
  for (const d of edition.formInputs) {
    const x = v[d.id];
    if (!inputShown(d, v, county, edition.code) || x === null || x === undefined || x === false || x === d.default) continue;
    const label = (d.state_labels?.[edition.code] ?? d.label)[lang];
    if (x === true) out.push(label);
    else if (d.values) out.push(`${label}: ${d.values.find((c) => c.value === x)?.label[lang] ?? String(x)}`);
    else out.push(`${label}: ${d.type === 'year' ? String(x) : formatUsd(Number(x), lang)}`);
  }
  return out;
}

export function shareText(t: TFunction, r: ResultView, v: FormValues, lang: Lang): string {
  return t('share.text', {
    value: formatUsd(v.homeValue, lang),
    county: countyName(r.county, t),
    annual: formatUsd(r.annualTax, lang),
    monthly: formatUsd(r.monthlyTax, lang),
    rate: formatPercent(r.effectiveRate, lang),
  });
}

export interface ReportSection { title: string; rows: Array<[string, string]> }

/** Everything the PDF holds: inputs, results, breakdown, exemptions, notes, disclaimer, date. */
export function reportSections(t: TFunction, r: ResultView, v: FormValues, lang: Lang, rates: Record<string, number>, edition: Pick<Edition, 'code' | 'formInputs' | 'county'>): { title: string; date: string; sections: ReportSection[]; notes: string[]; disclaimer: string } {
  const usd = (n: number) => formatUsd(n, lang);
  const chosen = chosenExemptions(v, edition, lang);
  const inputs: Array<[string, string]> = [
    [t('report.value'), usd(v.homeValue)],
    [t('report.county'), countyName(r.county, t)],
  ];
  if (v.propertyType) inputs.push([t('report.propertyType'), t(`propertyType.${v.propertyType}`, { rate: rates[v.propertyType] !== undefined ? formatPercent(rates[v.propertyType]!, lang, 3) : '' })]);
  inputs.push([t('report.activeExemptions'), chosen.length && !isCommercial(v.propertyType) ? chosen.join('; ') : t('report.none')]);
  const results: Array<[string, string]> = [
    [t('results.annualTax'), usd(r.annualTax)],
    [t('results.monthlyTax'), usd(r.monthlyTax)],
    [t('results.effectiveRate'), formatPercent(r.effectiveRate, lang)],
    [t('results.baseAssessedValue'), usd(r.baseAssessedValue)],
    [t('results.finalAssessedValue'), usd(r.finalAssessedValue)],
    [t('results.taxableValue'), usd(r.taxableValue)],
    [t('results.exemptionSavings'), usd(r.exemptionSavings)],
  ];
  const breakdown: Array<[string, string]> = (['school', 'county', 'city', 'special'] as const).map((k) => [t(`results.${k}`), usd(r.breakdown[k])]);
  const exemptions: Array<[string, string]> = r.exemptions.length
    ? r.exemptions.map((e) => [exemptionLabel(t, e), usd(e.amount)])
    : [[t('results.noExemptions'), '']];
  return {
    title: `${t('report.title')}: ${countyName(r.county, t)}`,
    date: t('report.date', { date: formatDate(new Date(), lang) }),
    sections: [
      { title: t('report.inputs'), rows: inputs },
      { title: t('report.results'), rows: results },
      { title: t('results.breakdown'), rows: breakdown },
      { title: t('results.exemptions'), rows: exemptions },
    ],
    notes: r.notes,
    disclaimer: `${t('disclaimer.title')}. ${t('disclaimer.text', editionVars(t, edition.code))}`,
  };
}
