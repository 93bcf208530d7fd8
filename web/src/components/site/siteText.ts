/** The site pages' text (i18n/site.en.ts, site.es.ts), added to an i18n instance once: by the site pages' chunk and by the FAQ and glossary search island. */
import type { i18n as I18n } from 'i18next';
import siteEn from '../../i18n/site.en.js';
import siteEs from '../../i18n/site.es.js';

/**
 * By the instance's resource store: react-i18next 18 hands each component its own proxy of the
 * instance (useTranslation's `i18n`), so a set of instances saw a new one on every render and
 * merged the text again each time (in the pre-render, on every page, issue 23).
 */
const added = new WeakSet<object>();
export function addSiteText(i18n: I18n): void {
  if (added.has(i18n.store)) return;
  added.add(i18n.store);
  i18n.addResourceBundle('en', 'translation', siteEn, true, false);
  i18n.addResourceBundle('es', 'translation', siteEs, true, false);
}
