/**
 * A rate that depends on the month of payment (Florida's early-payment discount; Texas's
 * delinquency penalty and attorney fee), as a table read from the rule file's bands: each
 * month with a rate above 0, from the billing month on. A band counted in months of
 * delinquency (Texas: February = 1, as the payment program's `monthsDelinquent` step counts
 * them) is shown at its calendar month, so the table and the calculation read one schedule.
 */
import { useTranslation } from 'react-i18next';
import { valueAt } from '../../../../engine/index.js';
import type { Band, Bundle, ParameterDef, ProgramDef } from '../../../../engine/index.js';
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

/**
 * Months 1–12 with a rate above 0, in the order they come after the bill (the months after
 * the last zero first). With an offset, the bands count months of delinquency: calendar
 * month m is month m − offset of delinquency, and a month before the first is not late (0).
 */
export function monthRates(bands: Band[], offset = 0): Array<{ month: number; rate: number }> {
  const rateOf = (m: number) => (offset > 0 && m - offset < 1 ? 0 : bandValue(bands, m - offset));
  const all = Array.from({ length: 12 }, (_, i) => ({ month: i + 1, rate: rateOf(i + 1) }));
  const lastZero = Math.max(0, ...all.filter((m) => m.rate === 0).map((m) => m.month));
  return [...all.slice(lastZero), ...all.slice(0, lastZero)].filter((m) => m.rate > 0);
}

/**
 * The months a program's band parameter (by its alias) is shifted by: 0 for a band read
 * with a calendar month; for one read with `monthsDelinquent`, the delinquency month − 1
 * (the program's `delinquentMonth` parameter), since that step counts February as 1.
 */
export function monthOffset(bundle: Bundle, program: ProgramDef, parameterId: string, date: string): number {
  const alias = Object.entries(program.parameters).find(([, id]) => id === parameterId)?.[0];
  if (!alias) return 0;
  const reads = program.steps.some((st) =>
    [st.formula, ...(st.cases ?? []).map((c) => c.formula)].some((f) => f?.src.replace(/\s/g, '').includes(`band(${alias},monthsDelinquent)`)),
  );
  const month = program.parameters['delinquentMonth'];
  const v = reads && month && bundle.parameters[month] ? valueAt(bundle.parameters[month]!, date)?.value : undefined;
  return typeof v === 'number' ? v - 1 : 0;
}

export function Schedule({ p, date, lang, offset = 0 }: { p: ParameterDef; date: string; lang: Lang; offset?: number }) {
  const { t } = useTranslation();
  const entry = valueAt(p, date);
  if (!entry?.bands) return null;
  const months = monthRates(entry.bands, offset);
  const name = (m: number) =>
    new Intl.DateTimeFormat(lang === 'es' ? 'es-MX' : 'en-US', { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2025, m - 1, 1)));
  return (
    <table className="schedule" data-testid="discount-schedule" data-parameter={p.id}>
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
