/** The site: every page of seed 001 §2 in the edition's frame (header, navigation, breadcrumbs, footer), the calculator on the home page. */
import { Fragment, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Hub } from './Hub.js';
import type * as HomeParts from './HomeParts.js';
import { editionVars } from '../lib/editionText.js';
import { ErrorBoundary, ThrowProbe } from './ErrorBoundary.js';
import { ErrorPanel, PageError } from './ErrorScreens.js';
import { FormSkeleton, ResultsSkeleton } from './Skeletons.js';
import { ContactForm, NewsletterBanner, NotifyForm } from './Forms.js';
import { useToast } from './Toaster.js';
import { loadStateData, EDITION, type LoadedState, type PackageLoaders } from '../lib/stateData.js';
import { makeEdition, type Edition } from '../lib/model.js';
import { counterpartPath, resolveRoute, type Route, type Site } from '../lib/routes.js';
import { reportError } from '../lib/monitoring.js';
import type { Lang } from '../lib/format.js';
import { Breadcrumbs, SiteFooter, SiteHeader } from './site/Layout.js';
import { ConsentBanner, ConsentSettingsButton } from './ConsentBanner.js';
import { pathOf } from '../lib/routes.js';
import { citationTitle } from '../lib/citations.js';
import type * as SitePages from './site/SitePages.js';
import { faqOf, loadGuides, routedGuides, type GuideData } from '../lib/guides.js';

export { resolveRoute };

type Data = { status: 'loading' } | { status: 'ready'; loaded: LoadedState; edition: Edition } | { status: 'error' };

/** The state data: given at once when pre-rendering (`initial`), else loaded. */
export function useStateData(loaders?: PackageLoaders, initial?: LoadedState) {
  const { t } = useTranslation();
  const toast = useToast();
  const [data, setData] = useState<Data>(() => (initial ? { status: 'ready', loaded: initial, edition: makeEdition(initial.bundle) } : { status: 'loading' }));
  const [attempt, setAttempt] = useState(0);
  const toastRef = useRef({ toast, t });
  toastRef.current = { toast, t };
  useEffect(() => {
    if (initial && attempt === 0) return;
    let live = true;
    setData({ status: 'loading' });
    loadStateData(EDITION, loaders)
      .then((loaded) => {
        if (!live) return;
        const edition = makeEdition(loaded.bundle);
        setData({ status: 'ready', loaded, edition });
        const { toast: push, t: tr } = toastRef.current;
        if (loaded.fellBack) push({ type: 'warning', title: tr('toast.fallback', { state: loaded.requested, fallback: loaded.pkg.state.code }) });
      })
      .catch((e) => {
        if (!live) return;
        reportError(e, { where: 'state data' });
        setData({ status: 'error' });
        toastRef.current.toast({ type: 'error', title: toastRef.current.t('toast.loadFailed') });
      });
    return () => {
      live = false;
    };
  }, [attempt, loaders, initial]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { data, retry };
}

/** The pages that show the calculator. */
const CALCULATOR_PAGES = new Set(['home', 'calculator']);

/** Data or code a page needs: given when pre-rendering or pre-loaded by main.tsx, else loaded once when needed. */
function useLoaded<T>(given: T | undefined, needed: boolean, load: () => Promise<T>, what: string): T | undefined {
  const [value, setValue] = useState(given);
  useEffect(() => {
    if (value || !needed) return;
    let live = true;
    load()
      .then((x) => {
        if (live) setValue(x);
      })
      .catch((e) => reportError(e, { where: what }));
    return () => {
      live = false;
    };
  }, [value, needed, load, what]);
  return value;
}

export type SitePagesModule = typeof SitePages;
export type HomePartsModule = typeof HomeParts;
/** The edition's guides in each language (stable functions, for useLoaded). */
const loadGuidesIn: Record<Lang, () => Promise<GuideData>> = { en: () => loadGuides(EDITION, 'en'), es: () => loadGuides(EDITION, 'es') };
/** The pages that show the calculator (its code is its own chunk). */
export const CALCULATOR_PAGES_SET = new Set(['home', 'calculator']);
export const loadHomeParts = (): Promise<HomePartsModule> => import('./HomeParts.js');
/** The pages that show the calculator or the contact form; every other page is in the site pages chunk. */
export const CORE_PAGES = new Set(['home', 'calculator', 'contact']);
export const loadSitePages = (): Promise<SitePagesModule> => import('./site/SitePages.js');
/**
 * The pages whose content needs the state data (pre-rendered with it; the client loads it
 * before hydrating them). Every other page is pre-rendered, and first rendered in the
 * browser, with the data still loading, so both give the same markup.
 */
export const DATA_PAGES = new Set(['county', 'counties', 'how-it-works']);

export function App({
  lang,
  pathname,
  loaders,
  initial,
  guides: givenGuides,
  pages: givenPages,
  home: givenHome,
}: {
  lang: Lang;
  pathname: string;
  loaders?: PackageLoaders;
  initial?: LoadedState;
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
    () => ({ counties: edition ? [...edition.counties, ...edition.places].map((c) => c.slug) : 'any', guides: routedGuides(guides) }),
    [edition, guides],
  );
  const route: Route = resolveRoute(pathname, site);
  const stateName = edition ? edition.stateName[lang] : t(`states.${EDITION}`, { defaultValue: EDITION });
  const stateCode = edition ? edition.code : EDITION;
  const vars = editionVars(t, stateCode, stateName);
  const hub = EDITION === 'HUB';
  const other: Lang = lang === 'es' ? 'en' : 'es';
  const switchHref = useMemo(() => counterpartPath(pathname, other, site), [pathname, other, site]);
  const [boundaryKey, setBoundaryKey] = useState(0);
  const onCalculatorPage = CALCULATOR_PAGES.has(route.page);
  // The page's controls work from here on (tests and tools wait for this mark).
  useEffect(() => {
    document.documentElement.dataset.ready = '1';
  }, []);

  const calculator = (
    <>
      {(data.status === 'loading' || (edition && !H)) && (
        <div className="calc-grid" id="calculator">
          <FormSkeleton />
          <section className="card">
            <ResultsSkeleton />
          </section>
        </div>
      )}
      {data.status === 'error' && (
        <ErrorPanel
          testId="load-error"
          id="calculator"
          heading={<h2>{t('error.loadTitle')}</h2>}
          text={t('toast.loadFailed')}
          retry={t('error.tryAgain')}
          onRetry={retry}
        />
      )}
      {edition && H && (
        <ErrorBoundary
          key={boundaryKey}
          fallback={(error, reset) => (
            <ErrorPanel
              testId="error-boundary"
              id="calculator"
              heading={<h2>{t('error.calculatorTitle')}</h2>}
              text={error.message || t('error.generic')}
              textTestId="error-message"
              retry={t('error.tryAgain')}
              onRetry={() => {
                reset();
                setBoundaryKey((k) => k + 1);
              }}
            />
          )}
        >
          <div id="calculator">
            <H.Calculator edition={edition} lang={lang} />
          </div>
        </ErrorBoundary>
      )}
    </>
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
          {hub && <Hub lang={lang} />}
          {/* The calculator comes first, so a phone's first screen is the calculator (issue 15). */}
          {!hub && calculator}
          <aside className="disclaimer" role="note" aria-labelledby="disclaimer-title" data-testid="disclaimer">
            <h2 id="disclaimer-title">{t('disclaimer.title')}</h2>
            <p>{t('disclaimer.text', vars)}</p>
          </aside>
          {edition && !hub && H && <H.StateExtras edition={edition} lang={lang} />}
          <NewsletterBanner stateCode={stateCode} stateName={hub ? '' : stateName} lang={lang} />
          <NotifyForm stateCode={stateCode} lang={lang} year={edition && edition.latestYear ? edition.latestYear + 1 : undefined} />
        </>
      );
      break;
    case 'contact':
      content = (
        <section className="contact page" aria-labelledby="contact-title">
          <Breadcrumbs lang={lang} site={site} trail={[]} current={t('contact.title')} />
          <h1 id="contact-title">{t('contact.title')}</h1>
          <p>{t('contact.intro')}</p>
          <ContactForm stateCode={stateCode} lang={lang} />
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
    case 'tax-guides':
      content = guides && P ? <P.GuidesHub guides={guides.pages} lang={lang} site={site} /> : null;
      break;
    case 'faq':
      content = guides && P ? <P.FaqPage page={faqOf(guides)} lang={lang} site={site} /> : null;
      break;
    case 'guide': {
      const page = guides?.pages.find((g) => g.id === route.param);
      content = !P ? null : page ? <P.GuideView page={page} lang={lang} site={site} /> : <P.NotFound lang={lang} site={site} />;
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
      <ConsentBanner privacyHref={pathOf({ page: 'privacy' }, lang, site)} />
      <main id="main" className="wrap" tabIndex={-1}>
        <ErrorBoundary component={`page:${route.page}`} fallback={(_e, reset) => <PageError reset={reset} home={pathOf({ page: 'home' }, lang, site)} />}>
          <ThrowProbe level="page" />
          {content}
        </ErrorBoundary>
      </main>
      <SiteFooter lang={lang} site={site} hub={hub}>
        {edition && !hub && data.status === 'ready' && (
          <p className="help">
            {t('footer.ratesLabel')}{' '}
            <cite>
              {(data.loaded.pkg.state.countiesMeta?.reference ?? []).map((r, i) => {
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
          <ConsentSettingsButton />
        </p>
      </SiteFooter>
    </>
  );
}
