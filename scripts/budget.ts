/**
 * npm run budget: the web calculator's budgets (issue 4), measured on the production build
 * (web/dist) served by the real site server (dist/web/server/main.js) on a free loopback
 * port with a temporary database. Not a test: a benchmark, kept out of `npm test`.
 *
 * (a) JavaScript loaded before the first calculation ≤ 170 KB gzip, on / and on /es. Debian's
 *     Chromium (Playwright) loads the page, the form is filled and Calculate clicked; every JS response
 *     until the result is on screen is recorded, and the matching files of web/dist are
 *     gzipped (node:zlib, level 9) and summed. jspdf's chunk must not be among them, and must
 *     be loaded once the PDF report is asked for.
 * (b) Lighthouse 12 (default config = mobile preset) driving Debian's Chromium through
 *     chrome-launcher: performance ≥ 95, accessibility 100, best practices ≥ 95, SEO ≥ 95.
 *     The machine is small and shared, so Lighthouse runs PTAX_LH_RUNS times (default 3) and
 *     the median of each category is compared with its budget.
 *
 * Prints a table, writes reports/budget.json, exits 1 when a budget fails.
 * (c) Each other page type of every edition (how it works, counties, a county, the guides
 *     hub, a guide, FAQ, about, a Spanish page): first-load JS ≤ 170 KB and Lighthouse.
 * Environment: PTAX_CHROMIUM (default /usr/bin/chromium), PTAX_LH_RUNS (default 3),
 * PTAX_LH_PAGE_RUNS (runs per other page type, default 1), PTAX_BUDGET_EDITIONS (e.g. TX,NY).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { launch as launchChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright';
import { startSiteServer } from './site-server.js';

const REPO = fileURLToPath(new URL(import.meta.url.includes('/dist/scripts/') ? '../..' : '..', import.meta.url));
const WEB_DIST = join(REPO, 'web/dist');
const CHROMIUM = process.env.PTAX_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const LH_RUNS = Math.max(1, Number(process.env.PTAX_LH_RUNS ?? 3) || 3);
const LH_PAGE_RUNS = Math.max(1, Number(process.env.PTAX_LH_PAGE_RUNS ?? 1) || 1);

const JS_BUDGET_KB = 170;
const LH_BUDGETS: Record<string, number> = { performance: 95, accessibility: 100, 'best-practices': 95, seo: 100 };

interface Row {
  budget: string;
  measured: string;
  limit: string;
  ok: boolean;
}

/** The site server on a free port with a throw-away database; resolves to its URL. */
async function startServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'ptax-budget-'));
  const server = await startSiteServer(REPO, { PTAX_DB: join(dir, 'budget.sqlite'), PTAX_WEB_DIR: WEB_DIST }, '');
  const stop = async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  // A build being rewritten at this moment (a concurrent npm run build) is not measured.
  const home = await fetch(`${server.url}/`);
  if (home.status !== 200) {
    await stop();
    throw new Error(`GET / answered ${home.status}: is web/dist complete (being rebuilt)? Try again.`);
  }
  return { url: server.url, stop };
}

const gzipKB = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length / 1024;

/** (a) JavaScript before the first calculation, and jspdf on demand. */
/** Each edition, its host on the test server, and a county the budget calculates (none for the hub). */
const EDITIONS: Array<{ code: string; county?: string }> = [
  { code: 'NY', county: 'Albany County' },
  { code: 'TX', county: 'Harris County' },
  { code: 'CA', county: 'Alameda County' },
  { code: 'FL', county: 'Orange County' },
  { code: 'HUB' },
];
const editionUrl = (serverUrl: string, code: string) => {
  const u = new URL(serverUrl);
  if (code !== 'HUB') u.hostname = `${code.toLowerCase()}.localhost`;
  return u.origin;
};

/** JavaScript a page of the site loads before it is idle (pages without the calculator). */
async function measureFirstLoad(url: string, label: string, dist: string): Promise<Row> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const origin = new URL(url).origin;
    await context.route('**/*', (route) => (route.request().url().startsWith(origin) ? route.continue() : route.abort()));
    const page = await context.newPage();
    const js = new Set<string>();
    page.on('response', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.endsWith('.js') || /javascript/.test(r.headers()['content-type'] ?? '')) js.add(path);
    });
    await page.goto(url);
    await page.waitForLoadState('networkidle');
    const totalKB = [...js].reduce((sum, p) => sum + gzipKB(normalize(join(dist, decodeURIComponent(p)))), 0);
    await context.close();
    return {
      budget: `JS on first load of ${label} (gzip -9)`,
      measured: `${totalKB.toFixed(1)} KB (${js.size} files)`,
      limit: `≤ ${JS_BUDGET_KB} KB`,
      ok: totalKB <= JS_BUDGET_KB,
    };
  } finally {
    await browser.close();
  }
}

/** One page of each type of an edition's site, from its sitemap (the home page is measured on its own). */
function pageTypes(dist: string): string[] {
  const sitemap = readFileSync(join(dist, 'sitemap.xml'), 'utf8');
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  const first = (re: RegExp) => paths.find((p) => re.test(p));
  return [
    first(/^\/how-it-works$/),
    first(/^\/counties$/),
    first(/^\/county\//),
    first(/^\/tax-guides$/),
    first(/^\/guides\/[a-z-]+-explained$/) ?? first(/^\/guides\//),
    first(/^\/faq$/),
    first(/^\/about$/),
    first(/^\/es\/como-funciona$/),
  ].filter((p): p is string => !!p);
}

async function measureJs(
  url: string,
  label: string,
  dist: string,
  county?: string,
): Promise<{ rows: Row[]; files: Array<{ path: string; gzipKB: number }>; totalKB: number; jspdfBefore: string[]; jspdfAfter: string[] }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const origin = new URL(url).origin;
    await context.route('**/*', (route) => (route.request().url().startsWith(origin) ? route.continue() : route.abort()));
    const WEB_DIST = dist;
    // The newsletter popup (3 s after the first calculation) would cover the report button.
    await context.addInitScript({ content: "localStorage.setItem('ptax.newsletterPopupShown', '1')" });
    const page = await context.newPage();
    const js = new Set<string>();
    let recording = true;
    const after = new Set<string>();
    page.on('response', (r) => {
      const path = new URL(r.url()).pathname;
      if (!path.endsWith('.js') && !/javascript/.test(r.headers()['content-type'] ?? '')) return;
      (recording ? js : after).add(path);
    });
    await page.goto(url);
    if (!county) {
      // The hub has no calculator: what loads with the page.
      await page.getByTestId('hub').waitFor();
      await page.waitForLoadState('networkidle');
    } else {
      await page.getByTestId('property-form').waitFor();
      await page.getByTestId('home-value').fill('300000');
      await page.getByTestId('county-select').selectOption(county);
      await page.getByTestId('calculate').click();
      await page.getByTestId('annual-tax').waitFor();
    }
    recording = false;
    const files = [...js].sort().map((p) => {
      const file = normalize(join(WEB_DIST, decodeURIComponent(p)));
      if (!file.startsWith(WEB_DIST) || !existsSync(file)) throw new Error(`loaded ${p}, which is not a file of web/dist`);
      return { path: p, gzipKB: gzipKB(file) };
    });
    const totalKB = files.reduce((s, f) => s + f.gzipKB, 0);
    const jspdfBefore = [...js].filter((p) => /jspdf/i.test(p));
    if (county) await Promise.all([page.waitForEvent('download'), page.getByTestId('download-pdf').click()]);
    const jspdfAfter = [...after].filter((p) => /jspdf/i.test(p));
    await context.close();
    const rows: Row[] = [
      {
        budget: `JS before the first calculation on ${label} (gzip -9)`,
        measured: `${totalKB.toFixed(1)} KB (${files.length} files)`,
        limit: `≤ ${JS_BUDGET_KB} KB`,
        ok: totalKB <= JS_BUDGET_KB,
      },
      {
        budget: `jspdf not loaded before the report (${label})`,
        measured: jspdfBefore.length ? jspdfBefore.join(', ') : 'not loaded',
        limit: 'not loaded',
        ok: jspdfBefore.length === 0,
      },
    ];
    if (county)
      rows.push({
        budget: `jspdf loaded when the PDF is asked for (${label})`,
        measured: jspdfAfter.length ? jspdfAfter.join(', ') : 'not loaded',
        limit: 'loaded',
        ok: jspdfAfter.length > 0,
      });
    return { rows, files, totalKB, jspdfBefore, jspdfAfter };
  } finally {
    await browser.close();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** (b) Lighthouse, mobile preset (the default config), LH_RUNS runs, median per category. */
async function measureLighthouse(url: string, times = LH_RUNS): Promise<{ rows: Row[]; runs: Array<Record<string, number>> }> {
  const runs: Array<Record<string, number>> = [];
  for (let i = 0; i < times; i++) {
    const chrome = await launchChrome({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS, logLevel: 'silent' });
    try {
      let result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: Object.keys(LH_BUDGETS) });
      // A trace Lighthouse could not record (NO_NAVSTART on a busy machine) is run again, once.
      if (result?.lhr.runtimeError)
        result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: Object.keys(LH_BUDGETS) });
      if (!result) throw new Error('Lighthouse returned no result');
      if (result.lhr.runtimeError) throw new Error(`Lighthouse: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`);
      const scores: Record<string, number> = {};
      for (const id of Object.keys(LH_BUDGETS)) scores[id] = Math.round((result.lhr.categories[id]?.score ?? 0) * 100);
      runs.push(scores);
      const failing = Object.values(result.lhr.audits).filter(
        (a) =>
          a.score !== null &&
          a.score < 0.9 &&
          a.scoreDisplayMode !== 'informative' &&
          a.scoreDisplayMode !== 'notApplicable' &&
          a.scoreDisplayMode !== 'manual',
      );
      console.log(
        `lighthouse ${new URL(url).pathname} run ${i + 1}/${times}: ${Object.entries(scores)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}` +
          ` · FCP ${result.lhr.audits['first-contentful-paint']?.displayValue ?? '?'}, LCP ${result.lhr.audits['largest-contentful-paint']?.displayValue ?? '?'}, TBT ${result.lhr.audits['total-blocking-time']?.displayValue ?? '?'}, CLS ${result.lhr.audits['cumulative-layout-shift']?.displayValue ?? '?'}` +
          (failing.length ? ` · audits below 0.9: ${failing.map((a) => a.id).join(', ')}` : ''),
      );
    } finally {
      await chrome.kill();
    }
  }
  const rows = Object.entries(LH_BUDGETS).map(([id, min]) => {
    const m = median(runs.map((r) => r[id]!));
    return {
      budget: `Lighthouse ${id} (median of ${runs.length}: ${runs.map((r) => r[id]).join(', ')})`,
      measured: String(m),
      limit: min === 100 ? '100' : `≥ ${min}`,
      ok: m >= min,
    };
  });
  return { rows, runs };
}

function table(rows: Row[]): string {
  const head = ['budget', 'measured', 'limit', 'result'];
  const body = rows.map((r) => [r.budget, r.measured, r.limit, r.ok ? 'ok' : 'FAIL']);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

async function main(): Promise<number> {
  for (const f of ['web/dist/ny/index.html', 'web/dist/hub/index.html', 'dist/web/server/main.js']) {
    if (!existsSync(join(REPO, f))) throw new Error(`${f} is missing: run \`npm run build\` first`);
  }
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const server = await startServer();
  try {
    const rows: Row[] = [];
    const report: Record<string, unknown> = {};
    const only = (process.env.PTAX_BUDGET_EDITIONS ?? '')
      .split(',')
      .map((x) => x.trim().toUpperCase())
      .filter(Boolean);
    for (const e of EDITIONS.filter((x) => !only.length || only.includes(x.code))) {
      const url = `${editionUrl(server.url, e.code)}/`;
      const dist = join(WEB_DIST, e.code.toLowerCase());
      console.log(`\n${e.code}: budgets on ${url} (production build, real server)`);
      const js = await measureJs(url, `${e.code} /`, dist, e.county);
      const jsEs = await measureJs(`${url}es`, `${e.code} /es`, dist, e.county);
      for (const [label, m] of [
        ['/', js],
        ['/es', jsEs],
      ] as const) {
        console.log(`JS loaded before the first calculation on ${e.code} ${label}:`);
        for (const f of m.files) console.log(`  ${f.path.padEnd(40)} ${f.gzipKB.toFixed(1).padStart(7)} KB gzip`);
      }
      const lh = await measureLighthouse(url);
      rows.push(...js.rows, ...jsEs.rows, ...lh.rows.map((r) => ({ ...r, budget: `${e.code}: ${r.budget}` })));
      // Every other page type of the site: first-load JS and Lighthouse (PTAX_LH_PAGE_RUNS runs, default 1).
      const pages: Record<string, unknown> = {};
      for (const path of pageTypes(dist)) {
        const pageUrl = `${editionUrl(server.url, e.code)}${path}`;
        rows.push(await measureFirstLoad(pageUrl, `${e.code} ${path}`, dist));
        const plh = await measureLighthouse(pageUrl, LH_PAGE_RUNS);
        rows.push(...plh.rows.map((r) => ({ ...r, budget: `${e.code} ${path}: ${r.budget}` })));
        pages[path] = plh.runs;
      }
      report[e.code] = {
        url,
        js: { en: { files: js.files, totalKB: js.totalKB }, es: { files: jsEs.files, totalKB: jsEs.totalKB } },
        lighthouse: lh.runs,
        pages,
      };
    }
    console.log(`\n${table(rows)}`);
    mkdirSync(join(REPO, 'reports'), { recursive: true });
    writeFileSync(
      join(REPO, 'reports/budget.json'),
      `${JSON.stringify({ date: new Date().toISOString(), budgets: { jsKB: JS_BUDGET_KB, lighthouse: LH_BUDGETS }, editions: report, rows }, null, 2)}\n`,
    );
    const failed = rows.filter((r) => !r.ok);
    console.log(failed.length ? `\n${failed.length} budget(s) failed` : '\nall budgets met');
    return failed.length ? 1 : 0;
  } finally {
    await server.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`budget: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
