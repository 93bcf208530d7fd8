/**
 * Entry: language from the path, i18next, then the page. A page the build pre-rendered for
 * this address has only its islands hydrated (hydrateIslands.tsx, issue 28): the static
 * parts stay the build's HTML and their code is never loaded. Any other page (development,
 * the not-found page) and the error screens' test hook (`?__throw=`) are rendered afresh as
 * one React tree (renderPage.tsx, its own chunk). Then, later, optional monitoring.
 */
import { i18nWith, loadResources } from './i18n/client.js';
import { setTelemetry, taxLog } from './lib/monitoring.js';
import { EDITION } from './lib/edition.js';
import { langOf as langFromPath, normalPath } from './lib/routes.js';
import { hydrateIslands, preloadIslands } from './hydrateIslands.js';
import './styles.css';
// The consent banner's style is the page's (it is pre-rendered open, styled before its island's code runs).
import './lib/telemetry/consent.css';

const root = document.getElementById('root')!;
const prerendered =
  !!root.firstElementChild && root.dataset.renderedFor !== undefined && normalPath(root.dataset.renderedFor) === normalPath(location.pathname);
// The state data and the calculator's code download beside the page's text (issue 28).
if (prerendered) preloadIslands(root);
const lang = langFromPath(location.pathname);
const i18n = i18nWith(lang, await loadResources(lang).catch(() => ({})));
// Set only when it differs: writing the same value still makes Chromium restyle the whole page
// (7-13 ms of main-thread CPU on the Texas home page, measured; issue 28), and a pre-rendered page has it already.
if (document.documentElement.lang !== lang) document.documentElement.lang = lang;
// The pre-rendered page already has the edition's title and description (with the county count).
(window as unknown as { __ptaxLog: typeof taxLog }).__ptaxLog = taxLog;
if (prerendered && !new URLSearchParams(location.search).has('__throw')) void hydrateIslands(root, i18n, lang);
else void import('./renderPage.js').then(({ renderPage }) => renderPage(root, i18n, lang));

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
