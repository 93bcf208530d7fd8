/**
 * The 2026 rates timeline of the home pages (seed 001 §2, §4): counties propose preliminary
 * rates, hold hearings and adopt them, the product updates the calculator, taxes fall due;
 * the 'you are here' marker sits on the stage the product is at (it uses the latest
 * published rates as the estimate until the new ones are adopted and loaded).
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Lang } from '../lib/format.js';

export const TIMELINE_STAGES = ['proposed', 'hearings', 'update', 'due'] as const;
/** The stage the product is at: rates for 2026 are not in the rule files yet. */
export const CURRENT_STAGE = 'proposed';

export function RatesTimeline({ lang: _lang }: { lang: Lang }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <section className="timeline card" aria-labelledby={`${id}-title`} data-testid="rates-timeline">
      <h2 id={`${id}-title`}>{t('timeline.title')}</h2>
      <ol>
        {TIMELINE_STAGES.map((s) => (
          <li key={s} className={s === CURRENT_STAGE ? 'is-current' : undefined} aria-current={s === CURRENT_STAGE ? 'step' : undefined}>
            <strong>{t(`timeline.${s}`)}</strong>
            {s === CURRENT_STAGE && (
              <span className="you-are-here" data-testid="you-are-here">
                {' '}
                {t('timeline.here')}
              </span>
            )}
            <p className="help">{t(`timeline.${s}Text`)}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
