#!/usr/bin/env node
/**
 * A lighter `npm run budget` (a) for development: the JavaScript (gzip -9) loaded before
 * the first calculation on an edition's home page, in English and Spanish, file by file.
 * Needs the production build (web/dist) and the compiled server (dist/). No Lighthouse.
 * Usage: node web/scripts/measure-first-js.mjs [TX,NY]
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright';

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const { startSiteServer } = await import(join(repo, 'dist/scripts/site-server.js'));
const COUNTY = { NY: 'Albany County', TX: 'Harris County', CA: 'Alameda County', FL: 'Orange County' };
const editions = (process.argv[2] ?? 'TX').split(',').map((s) => s.trim().toUpperCase());
const dir = mkdtempSync(join(tmpdir(), 'ptax-measure-'));
const server = await startSiteServer(repo, { PTAX_DB: join(dir, 'm.sqlite'), PTAX_WEB_DIR: join(repo, 'web/dist') }, '');
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  for (const code of editions) {
    const u = new URL(server.url);
    u.hostname = `${code.toLowerCase()}.localhost`;
    const dist = join(repo, 'web/dist', code.toLowerCase());
    for (const path of ['/', '/es']) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.route('**/*', (route) => (route.request().url().startsWith(u.origin) ? route.continue() : route.abort()));
      await context.addInitScript({ content: "localStorage.setItem('ptax.newsletterPopupShown', '1')" });
      const page = await context.newPage();
      const js = new Set();
      page.on('response', (r) => {
        const p = new URL(r.url()).pathname;
        if (p.endsWith('.js')) js.add(p);
      });
      await page.goto(u.origin + path);
      await page.getByTestId('property-form').waitFor();
      await page.getByTestId('home-value').fill('300000');
      await page.getByTestId('county-select').selectOption(COUNTY[code]);
      await page.getByTestId('calculate').click();
      await page.getByTestId('annual-tax').waitFor();
      const tax = await page.getByTestId('annual-tax').textContent();
      const files = [...js].sort().map((p) => {
        const f = normalize(join(dist, decodeURIComponent(p)));
        if (!existsSync(f)) throw new Error(`not in web/dist: ${p}`);
        return [p, gzipSync(readFileSync(f), { level: 9 }).length / 1024];
      });
      const total = files.reduce((s, [, k]) => s + k, 0);
      console.log(`${code} ${path}: ${total.toFixed(1)} KB gzip in ${files.length} files (annual tax shown: ${tax})`);
      for (const [p, k] of files) console.log(`   ${k.toFixed(1).padStart(6)}  ${p}`);
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
