/** Entry: language from the path, i18next, the page, optional monitoring. */
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import {
  App,
  CALCULATOR_PAGES_SET,
  CORE_PAGES,
  DATA_PAGES,
  loadHomeParts,
  loadSitePages,
  type HomePartsModule,
  type SitePagesModule,
} from './components/App.js';
import { ErrorBoundary } from './components/ErrorBoundary.js';
import { AppError } from './components/ErrorScreens.js';
import { ToastProvider } from './components/Toaster.js';
import { createI18n, langFromPath, loadResources } from './i18n/index.js';
import { setTelemetry, taxLog } from './lib/monitoring.js';
import { EDITION, loadStateData, type LoadedState } from './lib/stateData.js';
import { normalPath, resolveRoute } from './lib/routes.js';
import { loadGuides, type GuideData } from './lib/guides.js';
import './styles.css';

const lang = langFromPath(location.pathname);
const i18n = createI18n(lang, await loadResources(lang, EDITION).catch(() => ({})));
document.documentElement.lang = lang;
// The pre-rendered page already has the edition's title and description (with the county count).
(window as unknown as { __ptaxLog: typeof taxLog }).__ptaxLog = taxLog;

// The pages pre-rendered with the state data (DATA_PAGES) get it before they are hydrated,
// so the first render gives the same markup.
const page = resolveRoute(location.pathname, { counties: 'any', guides: [] }).page;
const initial: LoadedState | undefined = DATA_PAGES.has(page) && EDITION !== 'HUB' ? await loadStateData(EDITION).catch(() => undefined) : undefined;
// Guide pages (and any path not known without them) need the guide data to render.
const guides: GuideData | undefined = ['tax-guides', 'faq', 'not-found'].includes(page) ? await loadGuides(EDITION, lang).catch(() => undefined) : undefined;

// The site pages' code (one chunk) for any page but the calculator's and the contact form's.
const pages: SitePagesModule | undefined = CORE_PAGES.has(page) ? undefined : await loadSitePages().catch(() => undefined);
// The calculator's code (its own chunk) for the pages that show it.
const home: HomePartsModule | undefined = CALCULATOR_PAGES_SET.has(page) && EDITION !== 'HUB' ? await loadHomeParts().catch(() => undefined) : undefined;

// The page was pre-rendered (web/scripts/prerender.mjs) with what this first render shows:
// hydrate it, so what a visitor typed or clicked before the script ran is kept (a fresh
// render would replace the form). A page pre-rendered for another address (the not-found
// page) or not at all (development) is rendered afresh.
const root = document.getElementById('root')!;
const tree = (
  <StrictMode>
    <I18nextProvider i18n={i18n}>
      <ToastProvider>
        <ErrorBoundary
          component="app"
          fallback={(_e, _reset, errorId) => <AppError errorId={errorId} home={lang === 'es' ? '/es' : '/'} stateName={i18n.t(`states.${EDITION}`)} />}
        >
          <App lang={lang} pathname={location.pathname} initial={initial} guides={guides} pages={pages} home={home} />
        </ErrorBoundary>
      </ToastProvider>
    </I18nextProvider>
  </StrictMode>
);
if (root.firstElementChild && root.dataset.renderedFor !== undefined && normalPath(root.dataset.renderedFor) === normalPath(location.pathname))
  hydrateRoot(root, tree);
else createRoot(root).render(tree);

// Analytics and error reporting (lib/telemetry) are their own chunk, started a few seconds
// after the page has loaded, so they never compete with the calculator; their calls until
// then wait in lib/monitoring.ts.
const startTelemetry = () =>
  void import('./lib/telemetry/index.js').then(({ initTelemetry }) =>
    setTelemetry(
      initTelemetry({
        state: EDITION,
        host: location.host,
        lang,
        pathname: location.pathname,
        dsn: import.meta.env.VITE_SENTRY_DSN as string | undefined,
        siblings: ((import.meta.env.VITE_SIBLING_HOSTS as string | undefined) ?? '')
          .split(',')
          .map((h) => h.trim())
          .filter(Boolean),
      }),
    ),
  );
const TELEMETRY_DELAY_MS = 3000;
if (document.readyState === 'complete') setTimeout(startTelemetry, TELEMETRY_DELAY_MS);
else addEventListener('load', () => setTimeout(startTelemetry, TELEMETRY_DELAY_MS), { once: true });
