/**
 * The frame of every page (seed 001 §2): skip links (main content, navigation, calculator,
 * footer), the header with its navigation (calculator, how it works, guides, FAQ, about,
 * contact) and the language switch, breadcrumbs, and the footer with the legal pages.
 */
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { hasPage, pathOf, type PageId, type Site } from '../../lib/routes.js';
import { KEYS, setItem } from '../../lib/storage.js';
import type { Lang } from '../../lib/format.js';

const NAV: Array<[PageId, string]> = [
  ['home', 'nav.calculator'],
  ['how-it-works', 'nav.howItWorks'],
  ['tax-guides', 'nav.guides'],
  ['timeline', 'nav.timeline'],
  ['faq', 'nav.faq'],
  ['about', 'nav.about'],
  ['contact', 'nav.contact'],
];

/** The brand: the logo image, or the text logo when the image fails (seed 001 §2). */
function Brand({ href }: { href: string }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  return (
    <a className="brand" href={href} data-testid="brand">
      {failed ? (
        <span data-testid="brand-text">{t('header.brand')}</span>
      ) : (
        <>
          <img src="/logo.svg" alt="" width="28" height="28" onError={() => setFailed(true)} />
          <span>{t('header.brand')}</span>
        </>
      )}
    </a>
  );
}

export function SiteHeader({
  lang,
  page,
  site,
  switchHref,
  hasCalculator,
  hub = false,
}: {
  lang: Lang;
  page: PageId;
  site: Site;
  switchHref: string;
  hasCalculator: boolean;
  /** The hub has no calculator of its own: its "Calculators" link goes to the state choice (issue 24). */
  hub?: boolean;
}) {
  const { t } = useTranslation();
  const other: Lang = lang === 'es' ? 'en' : 'es';
  const home = pathOf({ page: 'home' }, lang, site);
  return (
    <>
      <a className="skip-link" href="#main">
        {t('skip.main')}
      </a>
      <a className="skip-link" href="#site-nav">
        {t('nav.skipNav')}
      </a>
      {hasCalculator && (
        <a className="skip-link" href="#calculator">
          {t('skip.calculator')}
        </a>
      )}
      <a className="skip-link" href="#footer">
        {t('skip.footer')}
      </a>
      <header className="site-header">
        <div className="wrap header-row">
          <Brand href={home} />
          <nav aria-label={t('header.nav')} id="site-nav" tabIndex={-1}>
            <ul>
              {NAV.filter(([id]) => hasPage(id, site)).map(([id, key]) => (
                <li key={id}>
                  <a
                    href={hub && id === 'home' ? `${pathOf({ page: id }, lang, site)}#hub-editions` : pathOf({ page: id }, lang, site)}
                    aria-current={page === id || (id === 'home' && page === 'calculator') ? 'page' : undefined}
                    data-testid={`nav-${id}`}
                  >
                    {t(hub && id === 'home' ? 'nav.calculators' : key)}
                  </a>
                </li>
              ))}
              <li>
                <a
                  href={switchHref}
                  hrefLang={other}
                  lang={other}
                  aria-label={t('header.switchToLabel')}
                  data-testid="language-switch"
                  onClick={() => setItem(KEYS.preferredLanguage, other)}
                >
                  {t('header.switchTo')}
                </a>
              </li>
            </ul>
          </nav>
        </div>
      </header>
    </>
  );
}

/** Home › (Tax guides ›) current page. */
export function Breadcrumbs({ lang, site, trail, current }: { lang: Lang; site: Site; trail: PageId[]; current: string }) {
  const { t } = useTranslation();
  const names: Partial<Record<PageId, string>> = { home: t('nav.home'), 'tax-guides': t('nav.taxGuides'), counties: t('nav.counties') };
  return (
    <nav aria-label={t('nav.breadcrumbs')} className="breadcrumbs" data-testid="breadcrumbs">
      <ol>
        {['home' as PageId, ...trail].map((id) => (
          <li key={id}>
            <a href={pathOf({ page: id }, lang, site)}>{names[id]}</a>
          </li>
        ))}
        <li aria-current="page">{current}</li>
      </ol>
    </nav>
  );
}

export function SiteFooter({ lang, site, hub = false, children }: { lang: Lang; site: Site; hub?: boolean; children?: ReactNode }) {
  const { t } = useTranslation();
  const link = (id: PageId, key: string) => (
    <li>
      <a href={pathOf({ page: id }, lang, site)}>{t(key)}</a>
    </li>
  );
  return (
    <footer id="footer" className="site-footer" tabIndex={-1}>
      <div className="wrap">
        <p>{t('footer.text')}</p>
        {children}
        <nav aria-label={t('site.footerLinks')}>
          <ul className="footer-links">
            {hub ? (
              <li>
                <a href={`${pathOf({ page: 'home' }, lang, site)}#hub-editions`}>{t('nav.calculators')}</a>
              </li>
            ) : (
              link('home', 'footer.calculator')
            )}
            {!hub && link('counties', 'nav.counties')}
            {link('tax-guides', 'nav.guides')}
            {link('how-it-works', 'nav.howItWorks')}
            {link('contact', 'footer.contact')}
            {link('disclaimer', 'site.disclaimer.title')}
            {link('privacy', 'site.privacy.title')}
            {link('terms', 'site.terms.title')}
            {link('affiliate', 'site.affiliate.title')}
            {/* Served by the site server (web/server): ask for everything about an address to be deleted. */}
            <li>
              <a href={lang === 'es' ? '/es/borrar-mis-datos' : '/delete-my-data'} data-testid="delete-my-data">
                {t('site.deleteData')}
              </a>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}
