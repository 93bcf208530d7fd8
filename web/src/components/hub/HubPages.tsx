/**
 * The hub's state and county pages (issue 26), rendered at build time only: a lighter tree
 * than App (the frame, the page's text and figures, and three islands: the calculator, the
 * county table, the consent banner), so some 6,400 county pages pre-render in seconds. The
 * browser hydrates the islands alone (hydrateIslands.tsx); the rest stays the build's HTML.
 */
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Island } from '../../islands.js';
import { ConsentBanner, ConsentSettingsButton } from '../ConsentBanner.js';
import { SiteFooter, SiteHeader } from '../site/Layout.js';
import { citationTitle } from '../../lib/citations.js';
import { formatNumber, formatPercent, formatUsd, type Lang } from '../../lib/format.js';
import { countyName } from '../../lib/places.js';
import { pathOf, type Site } from '../../lib/routes.js';
import { CountyTable } from './CountyTable.js';
import { StateCalculator } from './StateCalculator.js';
import { TierNote } from './StateList.js';
import { hubPath, type CountyRow, type StateCalcProps } from './hubTypes.js';

/** A county-tier state as its pages show it (computed once per state by prerenderHub.ts). */
export interface StatePageData {
  code: string;
  slug: string;
  name: { en: string; es: string };
  rows: CountyRow[];
  /** The rows with their names in each language (`label`), made once per state and language. */
  labelled: Record<Lang, CountyRow[]>;
  /** Counties by rate, highest first (slug → rank), among those with a rate. */
  rank: Map<string, number>;
  ranked: number;
  stateRate: number | null;
  nationalRate: number | null;
  sources: Array<{ title: string; href: string }>;
}

export function HubFrame({ lang, site, switchHref, children }: { lang: Lang; site: Site; switchHref: string; children: React.ReactNode }) {
  const privacyHref = pathOf({ page: 'privacy' }, lang, site);
  return (
    <>
      <SiteHeader lang={lang} page="home" site={site} switchHref={switchHref} hasCalculator hub />
      <Island name="consent" props={{ privacyHref }}>
        <ConsentBanner privacyHref={privacyHref} />
      </Island>
      <main id="main" className="wrap" tabIndex={-1}>
        {children}
      </main>
      <SiteFooter lang={lang} site={site} hub>
        <p>
          <Island name="consent-settings" props={{}} as="span">
            <ConsentSettingsButton />
          </Island>
        </p>
      </SiteFooter>
    </>
  );
}

function Crumbs({ lang, items }: { lang: Lang; items: Array<[string, string | undefined]> }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('nav.breadcrumbs')} className="breadcrumbs" data-testid="breadcrumbs">
      <ol>
        <li>
          <a href={lang === 'es' ? '/es#hub-editions' : '/#hub-editions'}>{t('hubStates.breadcrumbHome')}</a>
        </li>
        {items.map(([text, href]) => (
          <li key={text} aria-current={href ? undefined : 'page'}>
            {href ? <a href={href}>{text}</a> : text}
          </li>
        ))}
      </ol>
    </nav>
  );
}

function Sources({ lang, sources }: { lang: Lang; sources: StatePageData['sources'] }) {
  const { t } = useTranslation();
  if (!sources.length) return null;
  return (
    <p className="help" data-testid="context-source">
      {t('hubStates.sourceLabel')}{' '}
      <cite>
        {sources.map((s, i) => {
          const title = citationTitle(s.title, lang, t);
          return (
            <Fragment key={i}>
              {i > 0 && '; '}
              <a href={s.href} lang={title.lang}>
                {title.text}
              </a>
            </Fragment>
          );
        })}
      </cite>
      .
    </p>
  );
}

function calcProps(lang: Lang, d: StatePageData, county?: CountyRow): StateCalcProps {
  return {
    lang,
    code: d.code,
    state: d.name,
    counties: d.labelled[lang].map((r) => [r.slug, r.label!]),
    county: county?.slug,
    value: county?.value ?? undefined,
    stateRate: d.stateRate,
    nationalRate: d.nationalRate,
  };
}

export function StatePage({ lang, d }: { lang: Lang; d: StatePageData }) {
  const { t } = useTranslation();
  const state = d.name[lang];
  const props = calcProps(lang, d);
  return (
    <>
      <Crumbs lang={lang} items={[[state, undefined]]} />
      <div className="hero">
        <h1 data-testid="page-title">{t('hubStates.stateTitle', { state })}</h1>
        <p className="subtitle">{t('hubStates.stateIntro', { state, count: d.rows.length })}</p>
      </div>
      <Island name="state-calc" props={props as unknown as Record<string, unknown>}>
        <StateCalculator {...props} />
      </Island>
      <TierNote />
      <section aria-labelledby="county-table-title" className="hub-table-section">
        <h2 id="county-table-title">{t('hubStates.tableTitle', { state })}</h2>
        <Island name="county-table" props={{ lang, stateSlug: d.slug, state, rows: d.labelled[lang] }}>
          <CountyTable lang={lang} stateSlug={d.slug} state={state} rows={d.labelled[lang]} />
        </Island>
        <Sources lang={lang} sources={d.sources} />
      </section>
    </>
  );
}

export function CountyPage({ lang, d, c }: { lang: Lang; d: StatePageData; c: CountyRow }) {
  const { t } = useTranslation();
  const state = d.name[lang];
  const county = d.labelled[lang].find((r) => r.slug === c.slug)?.label ?? countyName(c.name, t);
  const props = calcProps(lang, d, c);
  const rank = d.rank.get(c.slug);
  const none = t('hubStates.noData');
  return (
    <>
      <Crumbs
        lang={lang}
        items={[
          [state, hubPath(lang, d.slug)],
          [county, undefined],
        ]}
      />
      <div className="hero">
        <h1 data-testid="page-title">{t('hubStates.countyTitle', { county, state })}</h1>
      </div>
      <section className="card" aria-labelledby="county-facts-title" data-testid="county-facts">
        <h2 id="county-facts-title">{t('hubStates.facts', { county })}</h2>
        <dl className="hub-facts">
          <div>
            <dt>{t('hubStates.factRate')}</dt>
            <dd data-testid="fact-rate" data-value={c.rate ?? undefined}>
              {c.rate === null ? none : formatPercent(c.rate, lang)}
            </dd>
          </div>
          <div>
            <dt>{t('hubStates.factValue')}</dt>
            <dd data-testid="fact-value" data-value={c.value ?? undefined}>
              {c.value === null ? none : formatUsd(c.value, lang)}
            </dd>
          </div>
          <div>
            <dt>{t('hubStates.factTax')}</dt>
            <dd data-testid="fact-tax" data-value={c.tax ?? undefined}>
              {c.tax === null ? none : formatUsd(c.tax, lang)}
            </dd>
          </div>
          <div>
            <dt>{t('hubStates.factPopulation')}</dt>
            <dd data-testid="fact-population" data-value={c.population ?? undefined}>
              {c.population === null ? none : formatNumber(c.population, lang)}
            </dd>
          </div>
          {rank !== undefined && (
            <div>
              <dt>{t('hubStates.factRank', { state })}</dt>
              <dd data-testid="fact-rank" data-value={rank}>
                {t('hubStates.rankOf', { rank, count: d.ranked })}
              </dd>
            </div>
          )}
        </dl>
        {c.rate === null && <p data-testid="fact-no-rate">{t('hubStates.noRate', { county })}</p>}
        {c.topCoded && <p data-testid="fact-top-coded">{t('hubStates.topCoded')}</p>}
      </section>
      <Island name="state-calc" props={props as unknown as Record<string, unknown>}>
        <StateCalculator {...props} />
      </Island>
      <TierNote />
      <p>
        <a href={hubPath(lang, d.slug)} data-testid="back-to-state">
          {t('hubStates.backToState', { state })}
        </a>
      </p>
      <Sources lang={lang} sources={d.sources} />
    </>
  );
}
