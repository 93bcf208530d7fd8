/**
 * Issue 28: a pre-rendered page hydrates only its islands (web/src/islands.tsx): the
 * calculator, the state's tools, the forms, the consent banner, the toasts, the hub's links.
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
import { editionURL, launch, ready } from './helpers.js';

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
      // Each island is a root whose content React has hydrated (an empty island has nothing to mark).
      unhydrated: islands.filter((el) => el.firstElementChild && !marked(el.firstElementChild)).map((el) => el.dataset.island),
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
/** Per edition: page, the islands it must have, the static sections it must show unhydrated. */
const PAGES: Array<{ edition: string; path: string; islands: string[]; statics: string[] }> = [
  {
    edition: 'TX',
    path: '/',
    islands: ['calculator', 'tools', 'banner', 'notify', 'consent', 'consent-settings', 'toasts'],
    statics: [...FRAME, '.hero', '[data-testid="disclaimer"]', '[data-testid="rates-timeline"]'],
  },
  {
    edition: 'TX',
    path: '/es/calculadora',
    islands: ['calculator', 'tools', 'banner', 'notify', 'consent'],
    statics: [...FRAME, '[data-testid="disclaimer"]', '[data-testid="rates-timeline"]'],
  },
  { edition: 'TX', path: '/county/harris', islands: ['consent', 'toasts'], statics: [...FRAME, '[data-testid="page-county"]'] },
  { edition: 'TX', path: '/counties', islands: ['consent'], statics: [...FRAME, '[data-testid="page-counties"]'] },
  { edition: 'TX', path: '/faq', islands: ['search', 'consent'], statics: [...FRAME, 'main article'] },
  { edition: 'NY', path: '/guides/new-york-property-tax-exemptions', islands: ['consent'], statics: [...FRAME, 'main article'] },
  { edition: 'NY', path: '/contact', islands: ['contact', 'consent'], statics: [...FRAME, '[data-testid="breadcrumbs"]'] },
  { edition: 'HUB', path: '/', islands: ['hub', 'banner', 'notify', 'consent'], statics: [...FRAME, '.hero', '[data-testid="disclaimer"]'] },
  // Issue 26: a county-level state's page and a county's page on the hub.
  { edition: 'HUB', path: '/ohio', islands: ['state-calc', 'county-table', 'consent'], statics: [...FRAME, '.hero', '[data-testid="tier-note"]'] },
  { edition: 'HUB', path: '/es/ohio/franklin', islands: ['state-calc', 'consent'], statics: [...FRAME, '.hero', '[data-testid="county-facts"]'] },
];

describe('pre-rendered pages hydrate their islands only', () => {
  for (const p of PAGES) {
    it(`${p.edition} ${p.path}: islands ${p.islands.join(', ')} hydrated; ${p.statics.join(', ')} left as the build's HTML`, async () => {
      const context = await browser.newContext({ baseURL: editionURL(p.edition) });
      // A new visitor: the consent banner shows (it is an island).
      const page = await context.newPage();
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
      for (const s of marks.statics) {
        expect(s.found, `${s.selector} is on the page`).toBe(true);
        expect(s.marked, `${s.selector} was hydrated`).toBe(false);
      }
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('the islands work: the calculator calculates, a tool opens, the consent banner closes', async () => {
    const context = await browser.newContext({ baseURL: editionURL('TX') });
    const page = await context.newPage();
    await page.goto('/');
    await ready(page);
    await page.getByTestId('consent-decline').click();
    await page.getByTestId('property-form').waitFor();
    await page.getByTestId('county-select').selectOption('Harris County');
    await page.getByTestId('calculate').click();
    await page.getByTestId('annual-tax').waitFor();
    await page.getByTestId('county-directory').locator('summary').click();
    await page.getByTestId('directory-search').waitFor();
    // The static timeline is still the build's element (never replaced by React).
    expect(await page.evaluate(() => Object.keys(document.querySelector('[data-testid="rates-timeline"]')!).some((k) => k.startsWith('__react')))).toBe(false);
    await context.close();
  });
});
