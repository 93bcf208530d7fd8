/** The site pages' text (i18n/site.en.ts, site.es.ts), added to an i18n instance once: by the site pages' chunk and by the FAQ and glossary search island. */
import type { i18n as I18n } from 'i18next';
import siteEn from '../../i18n/site.en.js';
import siteEs from '../../i18n/site.es.js';

const added = new WeakSet<I18n>();
export function addSiteText(i18n: I18n): void {
  if (added.has(i18n)) return;
  added.add(i18n);
  i18n.addResourceBundle('en', 'translation', siteEn, true, false);
  i18n.addResourceBundle('es', 'translation', siteEs, true, false);
}
