/**
 * Issue 28: a pre-rendered page hydrates only its islands (web/src/islands.tsx): the
 * calculator, the forms, the consent banner, the toasts, the hub's links; the state's tools
 * when the visitor opens one of their panels. Every page type of every edition is checked.
 * Its static sections (header, hero, disclaimer, rates timeline, guide and FAQ text, county
 * figures, footer) stay the HTML the build wrote: React neither hydrates nor re-renders them.
 *
 * React marks every DOM node it hydrates or renders with a `__reactFiber$…` property (and its
 * props with `__reactProps$…`); a root container gets `__reactContainer$…`. So, once the page
 * says it is ready: no element outside an island carries such a mark, `#root` is no React
 * root, each island's content is hydrated, and the static sections the issue names are there
 * and unmarked. A static section made part of an island, or the page hydrated as one tree
 * again, fails here.
 */
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fresh, launch, ready } from './helpers.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** What React has touched on the page (evaluated in the browser). */
async function reactMarks(page: Page, statics: string[]) {
  return page.evaluate((selectors) => {
    const marked = (el: Element) => Object.keys(el).some((k) => k.startsWith('__reactFiber$') || k.startsWith('__reactProps$'));
    const root = document.getElementById('root')!;
    const outside = [...root.querySelectorAll('*')].filter((el) => !el.closest('[data-island]') && marked(el));
    const islands = [...root.querySelectorAll<HTMLElement>('[data-island]')];
    return {
      rootIsContainer: Object.keys(root).some((k) => k.startsWith('__reactContainer$')),
      markedOutside: outside.slice(0, 5).map((el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${el.className}`),
      islands: islands.map((el) => el.dataset.island!),
      // Each island is a root whose content React has hydrated (an empty island has nothing to mark),
      // but those hydrated when the visitor opens them (`data-hydrate="on-open"`), which React has not touched.
      unhydrated: islands
        .filter((el) => el.dataset.hydrate !== 'on-open' && el.firstElementChild && !marked(el.firstElementChild))
        .map((el) => el.dataset.island),
      onOpen: islands
        .filter(
          (el) =>
            el.dataset.hydrate === 'on-open' &&
            ![el, ...el.querySelectorAll('*')].some(marked) &&
            !Object.keys(el).some((k) => k.startsWith('__reactContainer$')),
        )
        .map((el) => el.dataset.island),
      statics: selectors.map((s) => {
        const el = document.querySelector(s);
        return {
          selector: s,
          found: !!el,
          marked: el ? marked(el) || [...el.querySelectorAll('*')].some((c) => !c.closest('[data-island]') && marked(c)) : false,
        };
      }),
    };
  }, statics);
}

const FRAME = ['header.site-header', 'footer#footer'];
type PageCase = { edition: string; path: string; islands: string[]; onOpen?: string[]; statics: string[] };
/** The calculator pages' islands: the state's tools are there too but hydrate when opened (`onOpen`). */
const HOME = ['calculator', 'banner', 'notify', 'consent', 'consent-settings', 'toasts'];
const CALCULATOR_STATICS = [...FRAME, '[data-testid="disclaimer"]', '[data-testid="rates-timeline"]'];
/** Every page type of every state edition (issue 28): home, calculator, a county, a guide, the FAQ. */
const EDITION_PAGES: Record<string, { calculator: string; county: string; guide: string; faq: string }> = {
  NY: { calculator: '/calculator', county: '/county/albany', guide: '/guides/new-york-property-tax-exemptions', faq: '/faq' },
  TX: { calculator: '/es/calculadora', county: '/county/harris', guide: '/guides/texas-property-taxes-explained', faq: '/faq' },
  CA: { calculator: '/calculator', county: '/county/los-angeles', guide: '/guides/california-property-taxes-explained', faq: '/es/preguntas-frecuentes' },
  FL: { calculator: '/es/calculadora', county: '/county/miami-dade', guide: '/guides/florida-property-tax-exemptions', faq: '/faq' },
};
/** Per edition: page, the islands it must have hydrated, those hydrated only when opened, the static sections it must show unhydrated. */
const PAGES: PageCase[] = [
  ...Object.entries(EDITION_PAGES).flatMap(([edition, p]): PageCase[] => [
    { edition, path: '/', islands: HOME, onOpen: ['tools'], statics: [...CALCULATOR_STATICS, '.hero'] },
    { edition, path: p.calculator, islands: HOME, onOpen: ['tools'], statics: CALCULATOR_STATICS },
    { edition, path: p.county, islands: ['consent', 'toasts'], statics: [...FRAME, '[data-testid="page-county"]'] },
    { edition, path: p.guide, islands: ['consent'], statics: [...FRAME, 'main article'] },
    { edition, path: p.faq, islands: ['search', 'consent'], statics: [...FRAME, 'main article'] },
  ]),
  // A guide with one of the state's calculators: the tool's island hydrates when opened.
  { edition: 'TX', path: '/guides/texas-property-tax-payment', islands: ['consent'], onOpen: ['tools'], statics: [...FRAME, 'main article'] },
  { edition: 'TX', path: '/counties', islands: ['consent'], statics: [...FRAME, '[data-testid="page-counties"]'] },
  { edition: 'NY', path: '/contact', islands: ['contact', 'consent'], statics: [...FRAME, '[data-testid="breadcrumbs"]'] },
  { edition: 'HUB', path: '/', islands: ['hub', 'banner', 'notify', 'consent'], statics: [...FRAME, '.hero', '[data-testid="disclaimer"]'] },
  { edition: 'HUB', path: '/faq', islands: ['search', 'consent'], statics: [...FRAME, 'main article'] },
  // Issue 26: a county-level state's page and a county's page on the hub.
  { edition: 'HUB', path: '/ohio', islands: ['state-calc', 'county-table', 'consent'], statics: [...FRAME, '.hero', '[data-testid="tier-note"]'] },
  { edition: 'HUB', path: '/es/ohio/franklin', islands: ['state-calc', 'consent'], statics: [...FRAME, '.hero', '[data-testid="county-facts"]'] },
];

describe('pre-rendered pages hydrate their islands only', () => {
  for (const p of PAGES) {
    it(`${p.edition} ${p.path}: islands ${p.islands.join(', ')} hydrated; ${p.statics.join(', ')} left as the build's HTML`, async () => {
      // A new visitor: the consent banner shows (it is an island).
      const { context, page } = await fresh(browser, { edition: p.edition, viewport: null, locale: null });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message.slice(0, 200)));
      const response = await page.goto(p.path);
      expect(response?.status()).toBe(200);
      await ready(page);
      const marks = await reactMarks(page, p.statics);
      expect(marks.rootIsContainer, 'the page is hydrated as one React root').toBe(false);
      expect(marks.markedOutside, 'elements outside the islands that React rendered').toEqual([]);
      for (const name of p.islands) expect(marks.islands, `island ${name}`).toContain(name);
      expect(marks.unhydrated, 'islands React did not hydrate').toEqual([]);
      // The tools: on the page, untouched by React until the visitor opens one of their panels.
      expect(marks.onOpen, 'islands left for the visitor to open').toEqual(p.onOpen ?? []);
      for (const s of marks.statics) {
        expect(s.found, `${s.selector} is on the page`).toBe(true);
        expect(s.marked, `${s.selector} was hydrated`).toBe(false);
      }
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('the islands work: the calculator calculates, a tool opens, the consent banner closes', async () => {
    const { context, page } = await fresh(browser, { edition: 'TX', viewport: null, locale: null });
    await page.goto('/');
    await ready(page);
    await page.getByTestId('consent-decline').click();
    await page.getByTestId('property-form').waitFor();
    await page.getByTestId('county-select').selectOption('Harris County');
    await page.getByTestId('calculate').click();
    await page.getByTestId('annual-tax').waitFor();
    // The tools' island is the build's HTML until a panel is opened; then React hydrates it and the panel's content loads.
    const tools = page.locator('[data-island="tools"]');
    expect(await tools.getAttribute('data-hydrate')).toBe('on-open');
    await page.getByTestId('county-directory').locator('summary').click();
    await page.getByTestId('directory-search').waitFor();
    expect(await tools.getAttribute('data-hydrate')).toBeNull();
    expect(await tools.evaluate((el) => Object.keys(el.firstElementChild!).some((k) => k.startsWith('__reactFiber$')))).toBe(true);
    // The static timeline is still the build's element (never replaced by React).
    expect(await page.evaluate(() => Object.keys(document.querySelector('[data-testid="rates-timeline"]')!).some((k) => k.startsWith('__react')))).toBe(false);
    await context.close();
  });
});
