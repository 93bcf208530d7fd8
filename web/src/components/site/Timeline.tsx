/**
 * The state's tax-year timeline (seed 001 §2, California's timeline page; issue 24): every
 * date the rule file's profile holds (`deadlines`, `due_dates` in rules/<st>/state.yaml), in
 * calendar order, with the rule file's note. No date is written here.
 */
import { useTranslation } from 'react-i18next';
import type { Edition } from '../../lib/model.js';
import { LOCALES, type Lang } from '../../lib/format.js';
import { pathOf, type Site } from '../../lib/routes.js';
import { Breadcrumbs } from './Layout.js';

type Label = Record<string, string>;
export interface TimelineEntry {
  kind: 'deadline' | 'due';
  date: string;
  label: Label;
  note?: Label;
}

/** The profile's dates, deadlines and due dates together, in calendar order ("MM-DD"; a tie keeps the file's order). */
export function timelineEntries(
  profile: { deadlines?: Array<Omit<TimelineEntry, 'kind'>>; due_dates?: Array<Omit<TimelineEntry, 'kind'>> } | undefined,
): TimelineEntry[] {
  const all: TimelineEntry[] = [
    ...(profile?.deadlines ?? []).map((e) => ({ ...e, kind: 'deadline' as const })),
    ...(profile?.due_dates ?? []).map((e) => ({ ...e, kind: 'due' as const })),
  ];
  return all.filter((e) => /^\d{2}-\d{2}$/.test(e.date)).sort((a, b) => a.date.localeCompare(b.date));
}

/** "12-10" → "December 10" / "10 de diciembre". */
export function monthDay(date: string, lang: Lang): string {
  const [m, d] = date.split('-').map(Number) as [number, number];
  return new Intl.DateTimeFormat(LOCALES[lang], { month: 'long', day: 'numeric', timeZone: 'UTC' }).format(Date.UTC(2001, m - 1, d));
}

export function TimelinePage({ edition, lang, site }: { edition: Edition; lang: Lang; site: Site }) {
  const { t } = useTranslation();
  const state = edition.stateName[lang];
  const entries = timelineEntries(edition.state.profile as Parameters<typeof timelineEntries>[0]);
  return (
    <article className="page timeline-page" data-testid="page-timeline">
      <Breadcrumbs lang={lang} site={site} trail={['tax-guides']} current={t('site.timeline.title', { state })} />
      <h1>{t('site.timeline.title', { state })}</h1>
      <p>{t('site.timeline.intro', { state })}</p>
      <ol className="timeline-list" data-testid="timeline-list">
        {entries.map((e) => (
          <li key={`${e.kind}-${e.date}-${e.label.en}`} data-testid="timeline-entry" data-date={e.date} data-kind={e.kind}>
            <h2>
              <time dateTime={`--${e.date}`}>{monthDay(e.date, lang)}</time>: {e.label[lang] ?? e.label.en}
            </h2>
            <p className="help">{t(e.kind === 'due' ? 'site.timeline.due' : 'site.timeline.deadline')}</p>
            {e.note && <p>{e.note[lang] ?? e.note.en}</p>}
          </li>
        ))}
      </ol>
      <p className="help">{t('site.timeline.verify', { state })}</p>
      <p>
        <a className="btn btn-primary" href={pathOf({ page: 'home' }, lang, site)}>
          {t('nav.calculator')}
        </a>
      </p>
    </article>
  );
}
