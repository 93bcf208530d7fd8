/**
 * No English left on a Spanish page (issue 15): every edition's Spanish pages, the
 * calculator with a result (opened from a share link), its explanation and every tool
 * panel open, the site's pages and a county page. Text marked as English (lang="en":
 * titles of English source documents) and code are left out; everything else is searched
 * for common English words that Spanish text never contains.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright';
import { launch, open, ready } from './helpers.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** Words of English prose that no Spanish sentence uses. */
const ENGLISH =
  /\b(the|and|your|with|this|that|from|for|of|to|is|are|county|tax|taxes|value|home|property|school|city|calculate|calculator|enter|select|choose|exemption|exemptions|savings|annual|monthly|rate|rates|loading|none|yes|basic|enhanced|details|before|after|payment|page|not|found)\b/i;
/** Proper names that stay as they are in Spanish. */
const NAMES =
  /Property Taxes by State and County|Tax Foundation|Save Our Homes|Mello-Roos|homestead|Enhanced STAR|STAR|ptax|\b[a-z0-9-]+(\.[a-z0-9-]+)+(\/[a-z0-9/-]*)?/gi;

/** The visible and screen-reader text of the page outside English-marked elements and code, line by line. */
async function spanishText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const walk = (n: Node) => {
      if (n.nodeType === Node.TEXT_NODE) {
        const s = (n.textContent ?? '').trim();
        if (s) out.push(s);
        return;
      }
      if (!(n instanceof Element)) return;
      if (['SCRIPT', 'STYLE', 'CODE', 'NOSCRIPT', 'TEMPLATE'].includes(n.tagName)) return;
      if (n.getAttribute('lang') && !n.getAttribute('lang')!.startsWith('es')) return;
      for (const attr of ['aria-label', 'title', 'placeholder', 'alt']) {
        const v = n.getAttribute(attr);
        if (v && v.trim()) out.push(v.trim());
      }
      for (const c of n.childNodes) walk(c);
    };
    walk(document.body);
    return out;
  });
}

/** Like spanishText, but English-marked text too. */
async function spanishTextAll(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const walk = (n: Node) => {
      if (n.nodeType === Node.TEXT_NODE) {
        const s = (n.textContent ?? '').trim();
        if (s) out.push(s);
        return;
      }
      if (!(n instanceof Element)) return;
      if (['SCRIPT', 'STYLE', 'CODE', 'NOSCRIPT', 'TEMPLATE'].includes(n.tagName)) return;
      for (const attr of ['aria-label', 'title', 'placeholder', 'alt']) {
        const v = n.getAttribute(attr);
        if (v && v.trim()) out.push(v.trim());
      }
      for (const c of n.childNodes) walk(c);
    };
    walk(document.body);
    return out;
  });
}

async function expectNoEnglish(page: Page, where: string): Promise<void> {
  const lines = await spanishText(page);
  expect(lines.length, where).toBeGreaterThan(5);
  const english = lines.filter((l) => ENGLISH.test(l.replace(NAMES, '')));
  expect(english, where).toEqual([]);
}

/** Opens every closed <details> (tool panels, the full explanation) and waits for lazy panels. */
async function openAll(page: Page): Promise<void> {
  // Open every panel, outer ones first (a panel inside a closed one is not visible yet).
  const closed = page.locator('details:not([open]) > summary:visible');
  for (let i = 0; i < 30 && (await closed.count()) > 0; i++) await closed.first().click();
  await page.waitForFunction(() => !document.querySelector('[role="status"].help'), undefined, { timeout: 10_000, polling: 100 }).catch(() => undefined);
  await page.waitForTimeout(300);
}

const EDITIONS: Array<{ code: string; share: string; county: string }> = [
  { code: 'NY', share: 'county=kings&value=800000&class=class2&homestead=true&over65=true&seniorIncome=50000', county: 'albany' },
  { code: 'TX', share: 'county=harris&value=400000&homestead=true&over65=true&veteranDisability=50', county: 'fort-bend' },
  { code: 'CA', share: 'county=los-angeles&value=900000&homestead=true&purchasePrice=500000&purchaseYear=2015&melloRoos=2000', county: 'los-angeles' },
  { code: 'FL', share: 'county=miami-dade&value=450000&homestead=true&over65=true&priorAssessed=300000', county: 'miami-dade' },
];

describe('Spanish pages have no English text', () => {
  for (const e of EDITIONS) {
    it(`${e.code}: the calculator with a result, its explanation and every tool open`, async () => {
      const { page, context } = await open(browser, `/es?${e.share}`, { popup: false, edition: e.code, consent: 'ask' });
      await page.getByTestId('annual-tax').waitFor();
      // The consent banner speaks Spanish too; declining it takes it off the panels below.
      await expectNoEnglish(page, `${e.code} /es with the consent banner`);
      await page.getByTestId('consent-decline').click();
      await openAll(page);
      await expectNoEnglish(page, `${e.code} /es`);
      await context.close();
    });

    it(`${e.code}: how it works, counties, a county page, about, contact and the 404 page`, async () => {
      const { page, context } = await open(browser, '/es/como-funciona', { popup: false, edition: e.code, waitFor: 'page-how-it-works' });
      await expectNoEnglish(page, `${e.code} /es/como-funciona`);
      for (const [path, testId] of [
        ['/es/condados', 'page-counties'],
        [`/es/condado/${e.county}`, 'page-county'],
        ['/es/acerca-de', 'page-about'],
        ['/es/politica-privacidad', 'page-privacy'],
        ['/es/terminos-servicio', 'page-terms'],
        ['/es/aviso-legal', 'page-disclaimer'],
        ['/es/divulgacion-afiliados', 'page-affiliate'],
        ['/es/guias-impuestos', 'page-tax-guides'],
        ['/es/preguntas-frecuentes', 'page-faq'],
        ['/es/no-existe', 'page-not-found'],
        // California's timeline page (issue 24): its rule-file notes in Spanish too.
        ...(e.code === 'CA' ? ([['/es/guias/calendario-impuestos-california', 'page-timeline']] as const) : []),
      ] as const) {
        await page.goto(new URL(path, page.url()).href);
        await page.getByTestId(testId).waitFor();
        await ready(page);
        await expectNoEnglish(page, `${e.code} ${path}`);
      }
      await context.close();
    });
  }
});

/** An identifier of the code or the rule language (schoolAfterOver65, seniorIncome) in the page's text. */
const CAMEL = /\b[a-z]+[A-Z][A-Za-z0-9]*\b/;

describe('no code identifier in the visible text (issue 24)', () => {
  for (const e of EDITIONS) {
    for (const lang of ['en', 'es'] as const) {
      it(`${e.code} ${lang}: the calculator with a result, every panel and explanation step open`, async () => {
        const { page, context } = await open(browser, `${lang === 'es' ? '/es' : '/'}?${e.share}`, { popup: false, edition: e.code });
        await page.getByTestId('annual-tax').waitFor();
        await openAll(page);
        // Every line a visitor can read, formulas for reviewers (<code>) aside.
        const lines = (await spanishTextAll(page)).filter((l) => CAMEL.test(l));
        expect(lines, `${e.code} ${lang}`).toEqual([]);
        // Each step reads as a sentence with its figures: "label: … = figure" or "label: figure".
        const steps = await page.getByTestId('step-sentence').allInnerTexts();
        expect(steps.length).toBeGreaterThan(5);
        for (const s of steps) expect(s).toMatch(/^[^:]+: .+/);
        await context.close();
      });
    }
  }
});
