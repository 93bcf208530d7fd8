/**
 * Build-time render of the page in its loading state (web/scripts/prerender.mjs puts it into
 * the edition's pages), so the header, title, banner, disclaimer and skeletons paint before
 * the JavaScript has loaded. The client then renders the same markup over it. The title and
 * description name the edition's state and its county count, read from its data package.
 */
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { App } from './components/App.js';
import { ToastProvider } from './components/Toaster.js';
import { createI18n } from './i18n/index.js';
import es from './i18n/es.js';
import { editionVars } from './lib/editionText.js';
import { EDITION, type StatePackage } from './lib/stateData.js';
import type { Lang } from './lib/format.js';

const never = () => new Promise<never>(() => {});
const packages = import.meta.glob('./generated/states/*.json', { eager: true, import: 'default' }) as Record<string, StatePackage>;
const pkg = Object.entries(packages).find(([path]) => path.endsWith(`/${EDITION}.json`))?.[1];

export function render(lang: Lang, pathname: string): { html: string; title: string; description: string } {
  const i18n = createI18n(lang, { es });
  const html = renderToString(
    <I18nextProvider i18n={i18n}>
      <ToastProvider>
        <App lang={lang} pathname={pathname} loaders={{ [EDITION]: never, TX: never }} />
      </ToastProvider>
    </I18nextProvider>,
  );
  const vars = { ...editionVars(i18n.t, EDITION, pkg?.state.name[lang], pkg?.state.counties.length), context: EDITION };
  return { html, title: i18n.t('meta.title', vars), description: i18n.t('meta.description', vars) };
}
