/** The site's pages other than the calculator: one chunk, loaded only by the pages that show them. */
export { CountiesPage, CountyPage, HowItWorks, NotFound, TextPage } from './Pages.js';
export { TimelinePage } from './Timeline.js';
export { FaqPage, GuidesHub, GuideView } from './Guides.js';
export { addSiteText } from './siteText.js';
