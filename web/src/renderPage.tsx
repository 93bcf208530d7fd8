/**
 * The whole page as one React tree, rendered afresh: where the page was not pre-rendered for
 * this address (development, the not-found page) and with the `?__throw=` test hook of the
 * error screens. A pre-rendered page is not rendered this way: its islands are hydrated
 * (hydrateIslands.tsx, issue 28).
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { App, CALCULATOR_PAGES_SET, CORE_PAGES, DATA_PAGES, loadHomeParts, loadSitePages } from './components/App.js';
import { ErrorBoundary } from './components/ErrorBoundary.js';
import { AppError } from './components/ErrorScreens.js';
import { ToastProvider } from './components/Toaster.js';
import { EDITION, loadStateData } from './lib/stateData.js';
import { resolveRoute } from './lib/routes.js';
import { loadGuides } from './lib/guides.js';
import type { Lang } from './lib/format.js';
import { editionName } from './lib/editionText.js';

export async function renderPage(root: HTMLElement, i18n: I18n, lang: Lang): Promise<void> {
  const page = resolveRoute(location.pathname, { counties: 'any', guides: [] }).page;
  // What the first render needs, loaded together: the state data of the pages that show it,
  // the guides (for guide pages and any path not known without them), the site pages' code
  // (any page but the calculator's and the contact form's), the calculator's code.
  const [initial, guides, pages, home] = await Promise.all([
    DATA_PAGES.has(page) && EDITION !== 'HUB' ? loadStateData(EDITION).catch(() => undefined) : undefined,
    ['tax-guides', 'faq', 'not-found'].includes(page) ? loadGuides(EDITION, lang).catch(() => undefined) : undefined,
    CORE_PAGES.has(page) ? undefined : loadSitePages().catch(() => undefined),
    CALCULATOR_PAGES_SET.has(page) && EDITION !== 'HUB' ? loadHomeParts().catch(() => undefined) : undefined,
  ]);
  createRoot(root).render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <ToastProvider>
          <ErrorBoundary
            component="app"
            fallback={(_e, _reset, errorId) => <AppError errorId={errorId} home={lang === 'es' ? '/es' : '/'} stateName={editionName(EDITION, lang)} />}
          >
            <App lang={lang} pathname={location.pathname} initial={initial} guides={guides} pages={pages} home={home} />
          </ErrorBoundary>
        </ToastProvider>
      </I18nextProvider>
    </StrictMode>,
  );
}
