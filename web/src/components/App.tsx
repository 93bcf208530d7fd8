/** The site: every page of seed 001 §2 in the edition's frame (header, navigation, breadcrumbs, footer), the calculator on the home page. */
import { Fragment, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Hub } from './Hub.js';
import { editionName, editionVars } from '../lib/editionText.js';
import { ErrorBoundary, ThrowProbe } from './ErrorBoundary.js';
import { PageError } from './ErrorScreens.js';
import { ContactForm, NewsletterBanner, NotifyForm } from './Forms.js';
import { EDITION, type LoadedState, type PackageLoaders } from '../lib/stateData.js';
import { counterpartPath, resolveRoute, type Route, type Site } from '../lib/routes.js';
import { CalculatorSection, editionOf, loadHomeParts, useLoaded, useStateData, type Data, type HomePartsModule } from './CalculatorSection.js';
import type { Lang } from '../lib/format.js';
import { Breadcrumbs, SiteFooter, SiteHeader } from './site/Layout.js';
import { ConsentBanner, ConsentSettingsButton } from './ConsentBanner.js';
import { pathOf } from '../lib/routes.js';
import { citationTitle } from '../lib/citations.js';
import { Island } from '../islands.js';
import type * as SitePages from './site/SitePages.js';
import { faqOf, loadGuides, routedGuides, type GuideData } from '../lib/guides.js';

export { resolveRoute, loadHomeParts, useStateData, type HomePartsModule };

/** The pages that show the calculator. */
const CALCULATOR_PAGES = new Set(['home', 'calculator']);

export type SitePagesModule = typeof SitePages;
/** The edition's guides in each language (stable functions, for useLoaded). */
const loadGuidesIn: Record<Lang, () => Promise<GuideData>> = { en: () => loadGuides(EDITION, 'en'), es: () => loadGuides(EDITION, 'es') };
/** The pages that show the calculator (its code is its own chunk). */
export const CALCULATOR_PAGES_SET = new Set(['home', 'calculator']);
/** The pages that show the calculator or the contact form; every other page is in the site pages chunk. */
export const CORE_PAGES = new Set(['home', 'calculator', 'contact']);
export const loadSitePages = (): Promise<SitePagesModule> => import('./site/SitePages.js');
/**
 * The pages whose content needs the state data (pre-rendered with it; the client loads it
 * before hydrating them). Every other page is pre-rendered, and first rendered in the
 * browser, with the data still loading, so both give the same markup.
 */
/** A guide topic → the state calculator shown on that guide (when the state has it). */
export const GUIDE_TOOLS: Readonly<Record<string, string>> = { payment: 'payment' };

export const DATA_PAGES = new Set(['county', 'counties', 'how-it-works', 'timeline']);

export function App({
  lang,
  pathname,
  loaders,
  initial,
  guides: givenGuides,
  pages: givenPages,
  home: givenHome,
  extras,
}: {
  lang: Lang;
  pathname: string;
  loaders?: PackageLoaders;
  initial?: LoadedState;
  /** The state data for the sections below the calculator when pre-rendering the calculator pages (the calculator itself is pre-rendered loading). */
  extras?: LoadedState;
  guides?: GuideData;
  pages?: SitePagesModule;
  home?: HomePartsModule;
}) {
  const { t } = useTranslation();
  const { data, retry } = useStateData(loaders, initial);
  const edition = data.status === 'ready' ? data.edition : undefined;
  const firstRoute = resolveRoute(pathname, { counties: 'any', guides: [] }).page;
  const guides = useLoaded(givenGuides, ['tax-guides', 'faq', 'not-found'].includes(firstRoute), loadGuidesIn[lang], 'guides');
  const P = useLoaded(givenPages, !CORE_PAGES.has(firstRoute), loadSitePages, 'site pages');
  const H = useLoaded(givenHome, CALCULATOR_PAGES_SET.has(firstRoute) && EDITION !== 'HUB', loadHomeParts, 'calculator');
  const { i18n } = useTranslation();
  if (P) P.addSiteText(i18n);
  const site: Site = useMemo(
    () => ({ counties: edition ? [...edition.counties, ...edition.places].map((c) => c.slug) : 'any', guides: routedGuides(guides), edition: EDITION }),
    [edition, guides],
  );
  const route: Route = resolveRoute(pathname, site);
  const stateName = edition ? edition.stateName[lang] : editionName(EDITION, lang);
  const stateCode = edition ? edition.code : EDITION;
  const vars = editionVars(stateCode, lang, stateName);
  const hub = EDITION === 'HUB';
  const other: Lang = lang === 'es' ? 'en' : 'es';
  const switchHref = useMemo(() => counterpartPath(pathname, other, site), [pathname, other, site]);
  const onCalculatorPage = CALCULATOR_PAGES.has(route.page);
  // The page's controls work from here on (tests and tools wait for this mark).
  useEffect(() => {
    document.documentElement.dataset.ready = '1';
  }, []);
  const extrasEdition = useMemo(() => edition ?? (extras ? editionOf(extras) : undefined), [edition, extras]);
  const references = (data.status === 'ready' ? data.loaded : extras)?.pkg.state.countiesMeta?.reference;

  // Pre-rendered (issue 28), the calculator pages show the real form with the build's state
  // data (`extras`), not a skeleton: the browser hydrates it once the data and its code are
  // there (hydrateIslands.tsx), and the form is on screen from the first paint.
  const calculatorData: Data = data.status === 'loading' && extras && extrasEdition ? { status: 'ready', loaded: extras, edition: extrasEdition } : data;
  const calculator = (
    <Island name="calculator" props={{ lang }}>
      <CalculatorSection lang={lang} data={calculatorData} retry={retry} H={H} />
    </Island>
  );

  let content: React.ReactNode;
  switch (route.page) {
    case 'home':
    case 'calculator':
      content = (
        <>
          <div className="hero">
            <h1 data-testid="page-title">{hub ? t('hub.title') : t('header.title', vars)}</h1>
            {/* The hub's own introduction follows (Hub): the edition's subtitle would say it twice (issue 24). */}
            {!hub && <p className="subtitle">{t('header.subtitle')}</p>}
          </div>
          {hub && (
            <Island name="hub" props={{ lang }}>
              <Hub lang={lang} />
            </Island>
          )}
          {/* The calculator comes first, so a phone's first screen is the calculator (issue 15). */}
          {!hub && calculator}
          <aside className="disclaimer" role="note" aria-labelledby="disclaimer-title" data-testid="disclaimer">
            <h2 id="disclaimer-title">{t('disclaimer.title')}</h2>
            <p>{t('disclaimer.text', vars)}</p>
          </aside>
          {extrasEdition && !hub && H && (
            <>
              <Island name="tools" props={{ lang }}>
                <H.StateExtras edition={extrasEdition} lang={lang} timeline={false} />
              </Island>
              <H.RatesTimeline lang={lang} />
            </>
          )}
          <Island name="banner" props={{ stateCode, stateName: hub ? '' : stateName, lang }}>
            <NewsletterBanner stateCode={stateCode} stateName={hub ? '' : stateName} lang={lang} />
          </Island>
          <Island name="notify" props={{ stateCode, lang, year: edition && edition.latestYear ? edition.latestYear + 1 : undefined }}>
            <NotifyForm stateCode={stateCode} lang={lang} year={edition && edition.latestYear ? edition.latestYear + 1 : undefined} />
          </Island>
        </>
      );
      break;
    case 'contact':
      content = (
        <section className="contact page" aria-labelledby="contact-title">
          <Breadcrumbs lang={lang} site={site} trail={[]} current={t('contact.title')} />
          <h1 id="contact-title">{t('contact.title')}</h1>
          <p>{t('contact.intro')}</p>
          <Island name="contact" props={{ stateCode, lang }}>
            <ContactForm stateCode={stateCode} lang={lang} />
          </Island>
        </section>
      );
      break;
    case 'about':
    case 'privacy':
    case 'terms':
    case 'disclaimer':
    case 'affiliate':
      content = P ? <P.TextPage id={route.page} lang={lang} site={site} vars={vars} /> : null;
      break;
    case 'how-it-works':
      content = P ? <P.HowItWorks edition={edition} lang={lang} site={site} /> : null;
      break;
    case 'counties':
      content = !P ? null : edition ? <P.CountiesPage edition={edition} lang={lang} site={site} /> : hub ? <P.NotFound lang={lang} site={site} /> : calculator;
      break;
    case 'county':
      content = !P ? null : edition ? <P.CountyPage edition={edition} slug={route.param!} lang={lang} site={site} /> : calculator;
      break;
    case 'timeline':
      content = !P ? null : edition ? <P.TimelinePage edition={edition} lang={lang} site={site} /> : null;
      break;
    case 'tax-guides':
      content = guides && P ? <P.GuidesHub guides={guides.pages} lang={lang} site={site} /> : null;
      break;
    case 'faq':
      content = guides && P ? <P.FaqPage page={faqOf(guides)} lang={lang} site={site} /> : null;
      break;
    case 'guide': {
      const page = guides?.pages.find((g) => g.id === route.param);
      // The payment guide carries the state's payment calculator (seed 001 §2, issue 24), an island like the calculator page's tools.
      const toolName = page?.topic ? GUIDE_TOOLS[page.topic] : undefined;
      const tool =
        toolName && extrasEdition && H && !hub && extrasEdition.state.calculators.some((k) => k.name === toolName) ? (
          <Island name="tools" props={{ lang, tool: toolName }}>
            <H.GuideTool edition={extrasEdition} lang={lang} name={toolName} />
          </Island>
        ) : undefined;
      content = !P ? null : page ? <P.GuideView page={page} lang={lang} site={site} tool={tool} /> : <P.NotFound lang={lang} site={site} />;
      break;
    }
    default:
      // An unknown path waits for the guide list before saying so (a guide may live there);
      // an unknown county (/county/<slug>) is known not to be a guide.
      content = P && (guides || firstRoute === 'county') ? <P.NotFound lang={lang} site={site} /> : null;
  }

  return (
    <>
      <ThrowProbe level="app" />
      <SiteHeader lang={lang} page={route.page} site={site} switchHref={switchHref} hasCalculator={onCalculatorPage && !hub} hub={hub} />
      {/* Issue 24: a bar in the page's flow under the header, never over the calculator or the state choice. */}
      <Island name="consent" props={{ privacyHref: pathOf({ page: 'privacy' }, lang, site) }}>
        <ConsentBanner privacyHref={pathOf({ page: 'privacy' }, lang, site)} />
      </Island>
      <main id="main" className="wrap" tabIndex={-1}>
        <ErrorBoundary component={`page:${route.page}`} fallback={(_e, reset) => <PageError reset={reset} home={pathOf({ page: 'home' }, lang, site)} />}>
          <ThrowProbe level="page" />
          {content}
        </ErrorBoundary>
      </main>
      <SiteFooter lang={lang} site={site} hub={hub}>
        {extrasEdition && !hub && references && (
          <p className="help">
            {t('footer.ratesLabel')}{' '}
            <cite>
              {(references ?? []).map((r, i) => {
                const title = citationTitle(r.title, lang, t);
                return (
                  <Fragment key={i}>
                    {i > 0 && '; '}
                    <span lang={title.lang}>{title.text}</span>
                  </Fragment>
                );
              })}
            </cite>
          </p>
        )}
        <p>
          <Island name="consent-settings" props={{}} as="span">
            <ConsentSettingsButton />
          </Island>
        </p>
      </SiteFooter>
    </>
  );
}
