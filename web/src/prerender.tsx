/**
 * Build-time render of the page in its loading state (web/scripts/prerender.mjs puts it into
 * index.html and es/index.html), so the header, title, banner, disclaimer and skeletons paint
 * before the JavaScript has loaded. The client then renders the same markup over it.
 */
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { App } from './components/App.js';
import { ToastProvider } from './components/Toaster.js';
import { createI18n } from './i18n/index.js';
import es from './i18n/es.js';
import type { Lang } from './lib/format.js';

const never = () => new Promise<never>(() => {});

export function render(lang: Lang, pathname: string): { html: string; title: string; description: string } {
  const i18n = createI18n(lang, { es });
  const html = renderToString(
    <I18nextProvider i18n={i18n}>
      <ToastProvider>
        <App lang={lang} pathname={pathname} loaders={{ NY: never, TX: never, CA: never, FL: never }} />
      </ToastProvider>
    </I18nextProvider>,
  );
  return { html, title: i18n.t('meta.title'), description: i18n.t('meta.description') };
}
