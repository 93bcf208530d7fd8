/** The site's pages other than the calculator: one chunk, loaded only by the pages that show them. */
export { CountiesPage, CountyPage, HowItWorks, NotFound, TextPage } from './Pages.js';
export { FaqPage, GuidesHub, GuideView } from './Guides.js';
import type { i18n as I18n } from 'i18next';
import siteEn from '../../i18n/site.en.js';
import siteEs from '../../i18n/site.es.js';

const added = new WeakSet<I18n>();
/** Adds these pages' text (i18n/site.en.ts, site.es.ts) to an i18n instance, once. */
export function addSiteText(i18n: I18n): void {
  if (added.has(i18n)) return;
  added.add(i18n);
  i18n.addResourceBundle('en', 'translation', siteEn, true, false);
  i18n.addResourceBundle('es', 'translation', siteEs, true, false);
}
