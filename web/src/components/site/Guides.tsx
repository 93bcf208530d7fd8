/**
 * The guide pages (seed 001 §2): the tax guides hub, a guide, the glossary with its
 * category jump and search, and the FAQ with its search and five categories. The text is
 * the build's HTML from web/content, whose figures come from the rule files.
 */
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Island } from '../../islands.js';
import { StaticSearch } from './StaticSearch.js';
import type { Lang } from '../../lib/format.js';
import type { FaqEntry, GlossaryEntry, GuidePage } from '../../lib/guides.js';
import { pathOf, type Site } from '../../lib/routes.js';
import { Breadcrumbs } from './Layout.js';

/** Build-time HTML of our own content (web/content, rendered by web/scripts/build-guides.mjs), never visitor input. */
function Html({ html, className, testId }: { html: string; className?: string; testId?: string }) {
  return <div className={className} data-testid={testId} dangerouslySetInnerHTML={{ __html: html }} />;
}

export function GuidesHub({ guides, lang, site }: { guides: GuidePage[]; lang: Lang; site: Site }) {
  const { t } = useTranslation();
  const list = guides.filter((g) => g.kind !== 'faq').sort((a, b) => (a.order ?? 99) - (b.order ?? 99));
  return (
    <article className="page" data-testid="page-tax-guides">
      <Breadcrumbs lang={lang} site={site} trail={[]} current={t('site.taxGuides.title')} />
      <h1>{t('site.taxGuides.title')}</h1>
      <p>{t('site.taxGuides.intro')}</p>
      {list.length === 0 ? (
        <p>{t('site.taxGuides.none')}</p>
      ) : (
        <ul className="guide-list">
          {list.map((g) => (
            <li key={g.id}>
              <a href={g.paths[lang]} data-testid="guide-link">
                {g.title[lang]}
              </a>
              <p className="help">{g.description[lang]}</p>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

export function GuideView({ page, lang, site, tool }: { page: GuidePage; lang: Lang; site: Site; tool?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <article className="page guide" data-testid="page-guide" data-guide={page.id}>
      <Breadcrumbs lang={lang} site={site} trail={['tax-guides']} current={page.title[lang]} />
      <h1>{page.title[lang]}</h1>
      <Html html={page.html[lang]} className="guide-body" testId="guide-body" />
      {page.kind === 'glossary' && <Glossary page={page} lang={lang} />}
      {tool}
      <p>
        <a className="btn btn-primary" href={pathOf({ page: 'home' }, lang, site)}>
          {t('nav.calculator')}
        </a>
      </p>
    </article>
  );
}

function Glossary({ page, lang }: { page: GuidePage; lang: Lang }) {
  const { t } = useTranslation();
  const id = useId();
  // Every term is the build's HTML; the search (an island) filters them in the browser (StaticSearch).
  const found = (page.entries as Record<Lang, GlossaryEntry[]> | undefined)?.[lang] ?? [];
  const categories = (page.categories ?? []).filter((c) => found.some((e) => e.category === c.id));
  return (
    <section className="glossary" data-testid="glossary">
      <nav aria-label={t('site.glossary.jump')} className="category-jump">
        <ul>
          {(page.categories ?? []).map((c) => (
            <li key={c.id}>
              <a href={`#${id}-${c.id}`}>{c.label[lang]}</a>
            </li>
          ))}
        </ul>
      </nav>
      <Island name="search" props={{ kind: 'glossary', total: found.length }}>
        <StaticSearch kind="glossary" total={found.length} />
      </Island>
      {categories.map((c) => (
        <section key={c.id} aria-labelledby={`${id}-${c.id}`}>
          <h2 id={`${id}-${c.id}`} tabIndex={-1}>
            {c.label[lang]}
          </h2>
          <dl className="glossary-list">
            {found
              .filter((e) => e.category === c.id)
              .map((e) => (
                <div key={e.id} data-testid="glossary-entry">
                  <dt>{e.term}</dt>
                  <dd>{e.definition}</dd>
                </div>
              ))}
          </dl>
        </section>
      ))}
    </section>
  );
}

export function FaqPage({ page, lang, site }: { page: GuidePage | undefined; lang: Lang; site: Site }) {
  const { t } = useTranslation();
  const id = useId();
  // Every question is the build's HTML; the search (an island) filters them in the browser (StaticSearch).
  const found = (page?.entries as FaqEntry[] | undefined) ?? [];
  const categories = (page?.categories ?? []).filter((c) => found.some((e) => e.category === c.id));
  return (
    <article className="page" data-testid="page-faq">
      <Breadcrumbs lang={lang} site={site} trail={[]} current={t('site.faq.title')} />
      <h1>{t('site.faq.title')}</h1>
      {page?.html[lang] && <Html html={page.html[lang]} className="guide-body" />}
      <Island name="search" props={{ kind: 'faq', total: found.length }}>
        <StaticSearch kind="faq" total={found.length} />
      </Island>
      {categories.map((c) => (
        <section key={c.id} aria-labelledby={`${id}-${c.id}`} data-testid={`faq-category-${c.id}`}>
          <h2 id={`${id}-${c.id}`}>{c.label[lang]}</h2>
          {found
            .filter((e) => e.category === c.id)
            .map((e) => (
              <details key={e.id} className="faq-item" data-testid="faq-entry">
                <summary>{e.q[lang]}</summary>
                <Html html={e.a[lang] ?? ''} />
              </details>
            ))}
        </section>
      ))}
    </article>
  );
}
