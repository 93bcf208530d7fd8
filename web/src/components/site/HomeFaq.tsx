/** The FAQ block of the home page (seed 001 §2): a few questions of the edition's FAQ, loaded when opened, and a link to all of them. */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { faqOf, loadGuides, type FaqEntry } from '../../lib/guides.js';
import { pathOf } from '../../lib/routes.js';
import type { Lang } from '../../lib/format.js';
import { reportError } from '../../lib/monitoring.js';

/** One question of each category, in the FAQ's order. */
export function firstOfEachCategory(entries: FaqEntry[]): FaqEntry[] {
  const seen = new Set<string>();
  return entries.filter((e) => !seen.has(e.category) && seen.add(e.category));
}

export default function HomeFaq({ edition, lang }: { edition: string; lang: Lang }) {
  const { t } = useTranslation();
  const [entries, setEntries] = useState<FaqEntry[] | null>(null);
  useEffect(() => {
    let live = true;
    loadGuides(edition, lang)
      .then((g) => {
        if (live) setEntries(firstOfEachCategory((faqOf(g)?.entries as FaqEntry[] | undefined) ?? []));
      })
      .catch((e) => reportError(e, { where: 'home faq' }));
    return () => {
      live = false;
    };
  }, [edition, lang]);
  if (!entries)
    return (
      <p className="help" role="status">
        {t('tools.loading')}
      </p>
    );
  return (
    <div data-testid="home-faq">
      {entries.map((e) => (
        <details key={e.id} className="faq-item" data-testid="home-faq-entry">
          <summary>{e.q[lang]}</summary>
          {/* Build-time HTML of our own content (web/content), never visitor input. */}
          <div dangerouslySetInnerHTML={{ __html: e.a[lang] ?? '' }} />
        </details>
      ))}
      <p>
        <a href={pathOf({ page: 'faq' }, lang)} data-testid="home-faq-all">
          {t('nav.faq')}
        </a>
      </p>
    </div>
  );
}
