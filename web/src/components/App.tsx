/** The page: header, banner, disclaimer, calculator (or the contact page), notify form, footer. */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Calculator } from './Calculator.js';
import { Hub } from './Hub.js';
import { StateExtras } from './StateExtras.js';
import { editionVars } from '../lib/editionText.js';
import { ErrorBoundary, disarmThrowProbe } from './ErrorBoundary.js';
import { FormSkeleton, ResultsSkeleton } from './Skeletons.js';
import { ContactForm, NewsletterBanner, NotifyForm } from './Forms.js';
import { useToast } from './Toaster.js';
import { loadStateData, EDITION, type LoadedState, type PackageLoaders } from '../lib/stateData.js';
import { makeEdition, type Edition } from '../lib/model.js';
import { counterpartPath } from '../i18n/index.js';
import { KEYS, setItem } from '../lib/storage.js';
import { reportError } from '../lib/monitoring.js';
import type { Lang } from '../lib/format.js';

export type Route = 'calculator' | 'contact';
export function routeOf(pathname: string): Route {
  const p = pathname.replace(/\/+$/, '');
  return p === '/contact' || p === '/es/contacto' ? 'contact' : 'calculator';
}

type Data = { status: 'loading' } | { status: 'ready'; loaded: LoadedState; edition: Edition } | { status: 'error' };

export function useStateData(loaders?: PackageLoaders) {
  const { t } = useTranslation();
  const toast = useToast();
  const [data, setData] = useState<Data>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const toastRef = useRef({ toast, t });
  toastRef.current = { toast, t };
  useEffect(() => {
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
    return () => { live = false; };
  }, [attempt, loaders]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { data, retry };
}

export function App({ lang, pathname, loaders }: { lang: Lang; pathname: string; loaders?: PackageLoaders }) {
  const { t } = useTranslation();
  const { data, retry } = useStateData(loaders);
  const route = routeOf(pathname);
  const stateName = data.status === 'ready' ? data.edition.stateName[lang] : t(`states.${EDITION}`, { defaultValue: EDITION });
  const stateCode = data.status === 'ready' ? data.edition.code : EDITION;
  const vars = editionVars(t, stateCode, stateName);
  const hub = EDITION === 'HUB';
  const home = lang === 'es' ? '/es' : '/';
  const contactPath = lang === 'es' ? '/es/contacto' : '/contact';
  const other: Lang = lang === 'es' ? 'en' : 'es';
  const switchHref = useMemo(() => counterpartPath(pathname, other), [pathname, other]);
  const [boundaryKey, setBoundaryKey] = useState(0);

  return (
    <>
      <a className="skip-link" href="#main">{t('skip.main')}</a>
      {route === 'calculator' && !hub && <a className="skip-link" href="#calculator">{t('skip.calculator')}</a>}
      <a className="skip-link" href="#footer">{t('skip.footer')}</a>
      <header className="site-header">
        <div className="wrap header-row">
          <a className="brand" href={home}>{t('header.brand')}</a>
          <nav aria-label={t('header.nav')}>
            <ul>
              <li><a href={home} aria-current={route === 'calculator' ? 'page' : undefined}>{t('header.calculator')}</a></li>
              <li><a href={contactPath} aria-current={route === 'contact' ? 'page' : undefined}>{t('header.contact')}</a></li>
              <li>
                <a href={switchHref} hrefLang={other} lang={other} aria-label={t('header.switchToLabel')} data-testid="language-switch"
                  onClick={() => setItem(KEYS.preferredLanguage, other)}>{t('header.switchTo')}</a>
              </li>
            </ul>
          </nav>
        </div>
      </header>
      <main id="main" className="wrap" tabIndex={-1}>
        <div className="hero">
          <h1 data-testid="page-title">{hub ? t('hub.title') : t('header.title', vars)}</h1>
          <p className="subtitle">{t('header.subtitle')}</p>
        </div>
        {route === 'contact' ? (
          <section className="contact" aria-labelledby="contact-title">
            <h2 id="contact-title">{t('contact.title')}</h2>
            <p>{t('contact.intro')}</p>
            <ContactForm stateCode={stateCode} lang={lang} />
            <p><a href={home}>{t('contact.back')}</a></p>
          </section>
        ) : (
          <>
            {hub && <Hub lang={lang} />}
            <NewsletterBanner stateCode={stateCode} stateName={hub ? '' : stateName} lang={lang} />
            <aside className="disclaimer" role="note" aria-labelledby="disclaimer-title" data-testid="disclaimer">
              <h2 id="disclaimer-title">{t('disclaimer.title')}</h2>
              <p>{t('disclaimer.text', vars)}</p>
            </aside>
            {hub ? null : data.status === 'loading' && (
              <div className="calc-grid" id="calculator">
                <FormSkeleton />
                <section className="card"><ResultsSkeleton /></section>
              </div>
            )}
            {!hub && data.status === 'error' && (
              <section className="card error-panel" role="alert" data-testid="load-error" id="calculator">
                <h2>{t('error.loadTitle')}</h2>
                <p>{t('toast.loadFailed')}</p>
                <button type="button" className="btn btn-primary" onClick={retry}>{t('error.tryAgain')}</button>
              </section>
            )}
            {!hub && data.status === 'ready' && (
              <ErrorBoundary key={boundaryKey} fallback={(error, reset) => (
                <section className="card error-panel" role="alert" data-testid="error-boundary" id="calculator">
                  <h2>{t('error.calculatorTitle')}</h2>
                  <p data-testid="error-message">{error.message || t('error.generic')}</p>
                  <button type="button" className="btn btn-primary" onClick={() => { disarmThrowProbe(); reset(); setBoundaryKey((k) => k + 1); }}>{t('error.tryAgain')}</button>
                </section>
              )}>
                <Calculator edition={data.edition} lang={lang} />
              </ErrorBoundary>
            )}
            {!hub && data.status === 'ready' && <StateExtras edition={data.edition} lang={lang} />}
            <NotifyForm stateCode={stateCode} lang={lang} year={data.status === 'ready' && data.edition.latestYear ? data.edition.latestYear + 1 : undefined} />
          </>
        )}
      </main>
      <footer id="footer" className="site-footer" tabIndex={-1}>
        <div className="wrap">
          <p>{t('footer.text')}</p>
          {!hub && data.status === 'ready' && <p className="help">{t('footer.rates', { source: (data.loaded.pkg.state.countiesMeta?.reference ?? []).map((r) => r.title).join('; ') })}</p>}
          <p><a href={home}>{t('footer.calculator')}</a> · <a href={contactPath}>{t('footer.contact')}</a></p>
        </div>
      </footer>
    </>
  );
}
