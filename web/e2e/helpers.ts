/**
 * Shared pieces of the end-to-end tests: Debian's Chromium, pages on the test server, the
 * form filled the way a visitor does it, the page's figures read back, and the same input
 * given to `ptax calc --json` with the figures formatted the way the page formats them
 * (USD without decimals, percent with 2 decimals; en-US and es-MX).
 */
import { execFileSync } from 'node:child_process';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright';
import { inject } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, REPO } from './env.js';

export type Lang = 'en' | 'es';

/**
 * No network in tests: the browser resolves no host name but the loopback's (the test
 * server's `127.0.0.1` and `<edition>.localhost`), so a request that would leave the machine
 * fails at once. This used to be a Playwright route on every request of every context, which
 * sent each request through this process and turned the browser's HTTP cache off (every
 * page of a test fetched and compiled its scripts again): spanish-text and islands took
 * 68-77 s of CPU with the route, 64-66 s without, alternating at load 7-9 (14:35 UTC, 2026-11-27).
 */
const OFFLINE = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE *.localhost, EXCLUDE 127.0.0.1';

export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, OFFLINE], headless: true });
}

/** The test server's sites: the four editions and the hub. */
export const EDITIONS = ['NY', 'TX', 'CA', 'FL', 'HUB'] as const;
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

export interface Opened {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

/**
 * The address of an edition on the test server: `<code>.localhost` on the server's port
 * (Chromium resolves *.localhost to the loopback), the hub on the server's own address.
 */
export function editionURL(edition: string = 'NY'): string {
  const u = new URL(inject('baseURL'));
  if (edition !== 'HUB') u.hostname = `${edition.toLowerCase()}.localhost`;
  return u.origin;
}

/**
 * Waits until the page's script has taken over (App marks <html data-ready>), so its controls
 * react. Checked every 100 ms: Playwright's default, every animation frame, makes the page
 * draw a frame for each check (about 0.14 s of CPU per second of waiting, against 0.01 s).
 */
export async function ready(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.ready === '1', undefined, { polling: 100 });
}

/**
 * axe-core on the page, reporting violations. The same rules as `new AxeBuilder({ page })`,
 * run by `axe.run` in the page itself (legacy mode) rather than `runPartial` in each frame and
 * `finishRun` in a new blank tab, and with the details of the violations only
 * (`resultTypes`: the passes, incomplete and inapplicable results keep one example node
 * each; no test reads them). The default sent every passing node of a page (5,374 on Texas's
 * page with its tools open) from the page to Node and into a new tab: one scan of that page
 * took about 14 s of CPU (Chromium 9-10 s, this process 4-5 s), and takes about 4.7 s now
 * (issue 23, 2026-11-27). Legacy mode leaves out cross-origin frames only, and the site has
 * no frame at all: the page's frames are checked to be its own, so one added later fails
 * here instead of going unscanned.
 */
export function axe(page: Page): AxeBuilder {
  const origin = new URL(page.url()).origin;
  const foreign = page.frames().filter((f) => f.url() !== 'about:blank' && new URL(f.url()).origin !== origin);
  if (foreign.length) throw new Error(`axe: frames of another origin would go unscanned: ${foreign.map((f) => f.url()).join(', ')}`);
  return new AxeBuilder({ page }).setLegacyMode().options({ resultTypes: ['violations'] });
}

export interface FreshOptions {
  viewport?: { width: number; height: number } | null;
  mobile?: boolean;
  edition?: string;
  /** The context's locale; `null`: none given (Chromium's own). */
  locale?: string | null;
}

/** A browser context of a file, with its one tab, reused by the tests that come after (see `fresh`). */
interface Shared {
  context: BrowserContext;
  page: Page;
  busy: boolean;
  /** The init scripts of the test that has it, removed when the next one takes it. */
  scripts: Array<{ dispose(): Promise<void> }>;
}
const sharedOf = new WeakMap<Browser, Map<string, Shared>>();
/** The events a test may listen to on its page; their listeners go when the next test takes the page. */
const PAGE_EVENTS = [
  'pageerror',
  'console',
  'request',
  'response',
  'requestfailed',
  'requestfinished',
  'download',
  'dialog',
  'popup',
  'framenavigated',
  'load',
  'domcontentloaded',
];

/**
 * A new visitor's tab on an edition (about:blank, no cookie, no local storage, no permission,
 * no route, no init script) in a context on that edition's address (`baseURL`), for one test.
 * The context and its tab are the file's: the next test with the same edition, device and
 * locale gets them again once this one has called `context.close()` (which here hands them
 * back instead of closing them), wiped as above. Only the browser's HTTP cache and V8's code
 * cache stay, as for a visitor who comes back: each test used to make a context and a tab of
 * its own, and a new context, its tab and a first page load without those caches cost about
 * 1.6 s of CPU where a page load in a reused tab costs about 0.75 s (issue 23, 2026-11-27).
 * A test that needs a cold cache or routes of its own makes its own context.
 */
export async function fresh(browser: Browser, opts: FreshOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const edition = opts.edition ?? 'NY';
  const locale = opts.locale === undefined ? 'en-US' : opts.locale;
  const key = `${edition}|${opts.mobile ? 'mobile' : 'desktop'}|${locale ?? ''}`;
  let all = sharedOf.get(browser);
  if (!all) sharedOf.set(browser, (all = new Map()));
  let s = all.get(key);
  if (s?.busy)
    s = undefined; // two pages of one edition at a time: the second gets a context of its own
  else if (s) await wipe(s);
  // No viewport asked for: the desktop one; null: Playwright's default window (1280 × 720), set explicitly so that a reused tab gets it back.
  const viewport = opts.viewport === undefined ? DESKTOP : (opts.viewport ?? { width: 1280, height: 720 });
  if (!s) {
    const context = await browser.newContext({
      baseURL: editionURL(edition),
      viewport,
      acceptDownloads: true,
      ...(locale ? { locale } : {}),
      ...(opts.mobile ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
    });
    s = { context, page: await context.newPage(), busy: true, scripts: [] };
    if (!all.has(key)) all.set(key, s);
  } else {
    await s.page.setViewportSize(viewport);
  }
  s.busy = true;
  const shared = s;
  const release = async () => {
    shared.busy = false;
  };
  // The test closes its context when done; a shared one is handed back instead (a context of its own is closed).
  const context =
    all.get(key) === shared
      ? new Proxy(shared.context, {
          get(target, prop) {
            if (prop === 'close') return release;
            if (prop === 'addInitScript')
              return async (...args: Parameters<BrowserContext['addInitScript']>) => {
                const d = await target.addInitScript(...args);
                shared.scripts.push(d);
                return d;
              };
            const v = Reflect.get(target, prop, target) as unknown;
            return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
          },
        })
      : shared.context;
  return { context, page: shared.page };
}

/** Back to a new visitor's blank tab: see `fresh`. */
async function wipe(s: Shared): Promise<void> {
  for (const e of PAGE_EVENTS) s.page.removeAllListeners(e);
  await s.page.unrouteAll({ behavior: 'ignoreErrors' });
  await s.context.unrouteAll({ behavior: 'ignoreErrors' });
  for (const d of s.scripts.splice(0)) await d.dispose();
  // Leave the last page first, so that none of its timers writes to the storage wiped below.
  await s.page.goto('about:blank');
  await s.context.clearCookies();
  await s.context.clearPermissions();
  const cdp = await s.context.newCDPSession(s.page);
  try {
    for (const edition of EDITIONS)
      await cdp.send('Storage.clearDataForOrigin', { origin: editionURL(edition), storageTypes: 'local_storage,indexeddb,cache_storage,service_workers' });
  } finally {
    await cdp.detach();
  }
}

/**
 * `consent: 'ask'` leaves the analytics choice unmade, so the consent banner shows; by
 * default the visitor has declined, and the banner does not cover the page. `popup: false`
 * marks the newsletter popup as already shown, so that it does not cover the page 3 s after
 * a calculation. Requests that leave the test server fail (no network in tests: OFFLINE).
 * The tab is `fresh`'s: a new visitor's, reused by the file's next test once this one has
 * called `context.close()`.
 */
export async function open(
  browser: Browser,
  path = '/',
  opts: { viewport?: { width: number; height: number }; popup?: boolean; mobile?: boolean; waitFor?: string; edition?: string; consent?: 'ask' } = {},
): Promise<Opened> {
  const { context, page } = await fresh(browser, { viewport: opts.viewport, mobile: opts.mobile, edition: opts.edition });
  // The test server answers every edition's host name on its port; no other host resolves (OFFLINE).
  if (opts.popup === false) await context.addInitScript(() => localStorage.setItem('ptax.newsletterPopupShown', '1'));
  if (opts.consent !== 'ask')
    await context.addInitScript(() => {
      if (!localStorage.getItem('analytics_consent')) localStorage.setItem('analytics_consent', '{"analytics":false,"marketing":false}');
    });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  const failed: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${new URL(r.url()).pathname}`);
  });
  page.on('requestfailed', (r) => failed.push(`failed ${r.url()} (${r.failure()?.errorText ?? '?'})`));
  await page.goto(path);
  try {
    await page.getByTestId(opts.waitFor ?? 'property-form').waitFor();
  } catch (e) {
    // Say why the page did not come up: failed requests, script errors, what it shows.
    const body = (
      await page
        .locator('body')
        .innerText()
        .catch(() => '')
    )
      .replace(/\s+/g, ' ')
      .slice(0, 300);
    throw new Error(
      `${path}: ${opts.waitFor ?? 'property-form'} did not appear (${e instanceof Error ? e.message.split('\n')[0] : e}); requests: ${failed.join(', ') || 'none failed'}; errors: ${errors.join(' | ') || 'none'}; page: ${body}`,
      { cause: e },
    );
  }
  await ready(page);
  return { context, page, errors };
}

/** An input as the form takes it and as the CLI takes it. */
export interface Input {
  state?: string; // default NY
  county: string; // the county's full name, as in the select ("Albany County")
  value: number;
  cls?: 'class1' | 'class2' | 'class4';
  homestead?: boolean;
  over65?: boolean;
  seniorIncome?: number;
  disabled?: boolean;
  veteran?: number;
  /** New York's alternative veterans' exemption needs wartime service (RPTL §458-a); combat zone on top. */
  wartime?: boolean;
  combat?: boolean;
  seniorCitizen?: boolean;
  coldWar?: boolean;
}

export function cliArgs(i: Input): string[] {
  const a = ['calc', '--state', i.state ?? 'NY', '--county', i.county, '--value', String(i.value), '--json'];
  if (i.cls) a.push('--class', i.cls);
  if (i.homestead) a.push('--homestead');
  if (i.over65) a.push('--over65');
  if (i.seniorIncome !== undefined) a.push('--senior-income', String(i.seniorIncome));
  if (i.disabled) a.push('--disabled');
  if (i.veteran) a.push('--veteran-disability', String(i.veteran));
  if (i.wartime) a.push('--wartime-veteran');
  if (i.combat) a.push('--combat-veteran');
  if (i.seniorCitizen) a.push('--senior-citizen');
  if (i.coldWar) a.push('--cold-war-veteran');
  return a;
}

export interface CliResult {
  county: string;
  year: number;
  annualTax: number;
  monthlyTax: number;
  effectiveRate: number;
  baseAssessedValue: number;
  finalAssessedValue: number;
  taxableValue: number;
  exemptionSavings: number;
  exemptions: Record<string, number>;
  countyBreakdown: Record<'school' | 'county' | 'city' | 'special', number>;
  potentialSavings: number;
  notes: string[];
  nyc?: { quarterlyPayment: number };
}

/** `node dist/cli/main.js calc … --json` for the same input. */
export function cli(i: Input): CliResult {
  return JSON.parse(execFileSync(process.execPath, ['dist/cli/main.js', ...cliArgs(i)], { cwd: REPO, encoding: 'utf8' })) as CliResult;
}

const LOCALE: Record<Lang, string> = { en: 'en-US', es: 'es-MX' };
export const usd = (n: number, lang: Lang = 'en') =>
  new Intl.NumberFormat(LOCALE[lang], {
    style: 'currency',
    currency: 'USD',
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: 0,
    maximumFractionDigits: 0,
  }).format(n);
export const pct = (percent: number, lang: Lang = 'en') =>
  new Intl.NumberFormat(LOCALE[lang], { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(percent / 100);

/** Test id → text the page should show for the CLI's result, formatted by `fmt`. */
export function expectedFigures(r: CliResult, fmt: { usd: (n: number) => string; pct: (n: number) => string }): Record<string, string> {
  const e: Record<string, string> = {
    'annual-tax': fmt.usd(r.annualTax),
    'monthly-tax': fmt.usd(r.monthlyTax),
    'effective-rate': fmt.pct(r.effectiveRate),
    'base-assessed-value': fmt.usd(r.baseAssessedValue),
    'final-assessed-value': fmt.usd(r.finalAssessedValue),
    'taxable-value': fmt.usd(r.taxableValue),
    'exemption-savings': fmt.usd(r.exemptionSavings),
  };
  for (const k of ['school', 'county', 'city', 'special'] as const) e[`breakdown-${k}`] = fmt.usd(r.countyBreakdown[k]);
  for (const [k, v] of Object.entries(r.exemptions)) if (v > 0) e[`exemption-${k}`] = fmt.usd(v);
  if (r.nyc) e['quarterly-payment'] = fmt.usd(r.nyc.quarterlyPayment);
  return e;
}

/** The formatting of the page's own browser (Chromium's ICU), for es-MX where ICU versions differ. */
export async function browserFormat(page: Page, lang: Lang) {
  const locale = LOCALE[lang];
  const fmtAll = (values: number[], kind: 'usd' | 'pct') =>
    page.evaluate(
      ({ values, kind, locale }) =>
        values.map((n) =>
          kind === 'usd'
            ? new Intl.NumberFormat(locale, {
                style: 'currency',
                currency: 'USD',
                currencyDisplay: 'narrowSymbol',
                minimumFractionDigits: 0,
                maximumFractionDigits: 0,
              }).format(n)
            : new Intl.NumberFormat(locale, { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n / 100),
        ),
      { values, kind, locale },
    );
  return { fmtAll };
}

/** Every figure shown in the results card, by test id (only those present). */
export async function shownFigures(page: Page, ids: string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const id of ids) {
    const loc = page.getByTestId(id);
    if (await loc.count()) out[id] = (await loc.first().innerText()).trim();
  }
  return out;
}

/** The test ids of the exemption rows the page shows. */
export async function shownExemptionIds(page: Page): Promise<string[]> {
  return page
    .locator('[data-testid^="exemption-"]:not([data-testid="exemption-savings"])')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!));
}

/** Fills the desktop form (or the fields on screen) the way a visitor does. */
export async function fillForm(page: Page, i: Input): Promise<void> {
  await page.getByTestId('home-value').fill(String(i.value));
  await page.getByTestId('county-select').selectOption(i.county);
  if (i.cls) await page.getByTestId('property-type').selectOption(i.cls);
  await fillExemptions(page, i);
}

export async function fillExemptions(page: Page, i: Input): Promise<void> {
  if (i.homestead) await page.getByTestId('homestead').check();
  if (i.over65) await page.getByTestId('over65').check();
  if (i.seniorIncome !== undefined) await page.getByTestId('senior-income').fill(String(i.seniorIncome));
  if (i.disabled) await page.getByTestId('disabled-person').check();
  if (i.wartime) await page.getByTestId('wartime-veteran').check();
  if (i.combat) await page.getByTestId('combat-veteran').check();
  if (i.veteran) await page.getByTestId('veteran-level').selectOption(String(i.veteran));
  if (i.seniorCitizen) await page.getByTestId('senior-citizen').check();
  if (i.coldWar) await page.getByTestId('cold-war-veteran').check();
}

/** Clicks Calculate and waits for the results card (the page waits 500 ms on purpose). */
export async function calculate(page: Page): Promise<void> {
  await page.getByTestId('calculate').click();
  await page.getByTestId('results').waitFor({ state: 'visible' });
}

export async function isDisabled(page: Page, testId: string): Promise<boolean> {
  return page.getByTestId(testId).isDisabled();
}
