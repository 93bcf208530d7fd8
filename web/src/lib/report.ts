/** Report data (seed 000 §3 "Report data") and its text forms: share text, PDF lines. */
import { countyName } from './places.js';
import type { TFunction } from 'i18next';
import type { FormValues, ResultView } from './model.js';
import { formatNumber, formatPercent, formatUsd, type Lang } from './format.js';
import { inputShown, type Edition, type FieldView } from './model.js';

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
  // California with Mello-Roos: the total a buyer budgets for, then its parts (issue 24).
  if (r.withMelloRoos)
    return t('share.textMelloRoos', {
      year: r.year,
      value: formatUsd(v.homeValue, lang),
      county: countyName(r.county, t),
      total: formatUsd(r.withMelloRoos.total, lang),
      monthly: formatUsd(r.withMelloRoos.monthly, lang),
      annual: formatUsd(r.annualTax, lang),
      melloRoos: formatUsd(r.withMelloRoos.melloRoos, lang),
    });
  return t('share.text', {
    year: r.year,
    value: formatUsd(v.homeValue, lang),
    county: countyName(r.county, t),
    annual: formatUsd(r.annualTax, lang),
    monthly: formatUsd(r.monthlyTax, lang),
    rate: formatPercent(r.effectiveRate, lang),
  });
}

/** A declared result field's value as text, by its unit (as the results card writes it). */
export function fieldText(f: Pick<FieldView, 'unit' | 'value'>, lang: Lang, t: TFunction): string {
  const x = f.value;
  if (typeof x === 'boolean') return x ? t('results.yes') : t('results.no');
  if (typeof x !== 'number') return t(`value.${String(x)}`, { defaultValue: String(x) });
  if (f.unit === 'usd') return formatUsd(x, lang);
  if (f.unit === 'percent') return formatPercent(x, lang);
  if (f.unit === 'fraction') return formatPercent(x * 100, lang);
  if (f.unit === 'count') return String(x);
  return formatNumber(x, lang, 6);
}
