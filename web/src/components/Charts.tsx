/**
 * Two small pictures of a result, drawn as SVG (no chart library): where the tax goes (the
 * levies) and the tax before and after exemptions. Each has its figures as text for screen
 * readers (the SVG is an image described by that text).
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ResultView } from '../lib/model.js';
import { formatUsd, type Lang } from '../lib/format.js';

export interface Bar {
  key: string;
  label: string;
  value: number;
}

/** Bars of `items` scaled to the largest; widths in percent of the drawing. */
export function barWidths(items: Bar[]): number[] {
  const max = Math.max(0, ...items.map((b) => b.value));
  return items.map((b) => (max > 0 && b.value > 0 ? Math.max(1, (b.value / max) * 100) : 0));
}

function BarChart({ title, items, lang, testId }: { title: string; items: Bar[]; lang: Lang; testId: string }) {
  const id = useId();
  const widths = barWidths(items);
  const row = 28;
  const text = items.map((b) => `${b.label}: ${formatUsd(b.value, lang)}`).join('; ');
  return (
    <figure className="chart" data-testid={testId}>
      <figcaption id={`${id}-t`}>{title}</figcaption>
      <svg role="img" aria-labelledby={`${id}-t ${id}-d`} viewBox={`0 0 320 ${items.length * row}`} width="100%" preserveAspectRatio="xMinYMin meet">
        {items.map((b, i) => (
          <g key={b.key} transform={`translate(0 ${i * row})`}>
            <text x="0" y="12" className="chart-label">
              {b.label}
            </text>
            <rect x="0" y="15" height="9" rx="2" width={`${(widths[i]! * 2.2).toFixed(1)}`} className={`chart-bar chart-${b.key}`} />
            <text x={`${(widths[i]! * 2.2 + 4).toFixed(1)}`} y="23" className="chart-value">
              {formatUsd(b.value, lang)}
            </text>
          </g>
        ))}
      </svg>
      <p id={`${id}-d`} className="sr-only" data-testid={`${testId}-text`}>
        {text}
      </p>
    </figure>
  );
}

export function ResultCharts({ result, lang }: { result: ResultView; lang: Lang }) {
  const { t } = useTranslation();
  const levies: Bar[] = (['school', 'county', 'city', 'special'] as const).map((k) => ({ key: k, label: t(`results.${k}`), value: result.breakdown[k] }));
  const before = Math.round((result.annualTax + result.exemptionSavings) * 100) / 100;
  const compare: Bar[] = [
    { key: 'before', label: t('charts.before'), value: before },
    { key: 'after', label: t('charts.after'), value: result.annualTax },
  ];
  return (
    <div className="charts">
      {levies.some((b) => b.value > 0) && <BarChart title={t('charts.levies')} items={levies} lang={lang} testId="chart-levies" />}
      {result.exemptionSavings > 0 && <BarChart title={t('charts.beforeAfter')} items={compare} lang={lang} testId="chart-exemptions" />}
    </div>
  );
}
