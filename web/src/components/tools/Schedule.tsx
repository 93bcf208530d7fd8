/**
 * A rate that depends on the month of payment (Florida's early-payment discount), as a
 * table read from the rule file's bands: each month with a rate above 0, from the billing
 * month on.
 */
import { useTranslation } from 'react-i18next';
import { valueAt } from '../../../../engine/index.js';
import type { Band, ParameterDef } from '../../../../engine/index.js';
import { formatPercent, type Lang } from '../../lib/format.js';

/** The band value for `x` (the first band whose bound holds, else the last). */
export function bandValue(bands: Band[], x: number): number {
  for (const b of bands) {
    if (b.below !== undefined && x < b.below) return b.value;
    if (b.at_most !== undefined && x <= b.at_most) return b.value;
    if (b.below === undefined && b.at_most === undefined) return b.value;
  }
  return bands[bands.length - 1]?.value ?? 0;
}

/** Months 1–12 with a rate above 0, in the order they come after the bill (the months after the last zero first). */
export function monthRates(bands: Band[]): Array<{ month: number; rate: number }> {
  const all = Array.from({ length: 12 }, (_, i) => ({ month: i + 1, rate: bandValue(bands, i + 1) }));
  const lastZero = Math.max(0, ...all.filter((m) => m.rate === 0).map((m) => m.month));
  return [...all.slice(lastZero), ...all.slice(0, lastZero)].filter((m) => m.rate > 0);
}

export function Schedule({ p, date, lang }: { p: ParameterDef; date: string; lang: Lang }) {
  const { t } = useTranslation();
  const entry = valueAt(p, date);
  if (!entry?.bands) return null;
  const months = monthRates(entry.bands);
  const name = (m: number) =>
    new Intl.DateTimeFormat(lang === 'es' ? 'es-MX' : 'en-US', { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2025, m - 1, 1)));
  return (
    <table className="schedule" data-testid="discount-schedule">
      <caption>{t('tools.scheduleTitle', { label: p.label[lang] ?? p.label.en })}</caption>
      <thead>
        <tr>
          <th scope="col">{t('tools.month')}</th>
          <th scope="col">{t('tools.rate')}</th>
        </tr>
      </thead>
      <tbody>
        {months.map((m) => (
          <tr key={m.month}>
            <th scope="row">{name(m.month)}</th>
            <td data-value={m.rate}>{formatPercent(m.rate, lang, 0)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
