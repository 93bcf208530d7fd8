#!/usr/bin/env node
/**
 * The JavaScript (gzip -9) a first visit to the hub's state and county pages loads before any
 * interaction (issue 26: the engine must not be among it), file by file, and the main thread's
 * script time (Performance.getMetrics' ScriptDuration) until the network is idle. Needs the
 * hub's build (web/dist/hub) and the compiled server (dist/). No Lighthouse.
 * Usage: node web/scripts/measure-hub-first-js.mjs [/ohio,/ohio/franklin]
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright';

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const { startSiteServer } = await import(join(repo, 'dist/scripts/site-server.js'));
const paths = (process.argv[2] ?? '/ohio,/ohio/franklin').split(',').map((s) => s.trim());
const dir = mkdtempSync(join(tmpdir(), 'ptax-measure-'));
const server = await startSiteServer(repo, { PTAX_DB: join(dir, 'm.sqlite'), PTAX_WEB_DIR: join(repo, 'web/dist') }, '');
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const origin = new URL(server.url).origin;
  const dist = join(repo, 'web/dist/hub');
  for (const path of paths) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.route('**/*', (route) => (route.request().url().startsWith(origin) ? route.continue() : route.abort()));
    const page = await context.newPage();
    const js = new Set();
    page.on('response', (r) => {
      const p = new URL(r.url()).pathname;
      if (p.endsWith('.js')) js.add(p);
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto(origin + path, { waitUntil: 'networkidle' });
    await page.waitForTimeout(1000);
    const { metrics } = await cdp.send('Performance.getMetrics');
    const script = metrics.find((m) => m.name === 'ScriptDuration')?.value ?? NaN;
    const task = metrics.find((m) => m.name === 'TaskDuration')?.value ?? NaN;
    const files = [...js].sort().map((p) => {
      const f = normalize(join(dist, decodeURIComponent(p)));
      if (!existsSync(f)) throw new Error(`not in web/dist/hub: ${p}`);
      return [p, gzipSync(readFileSync(f), { level: 9 }).length / 1024];
    });
    const total = files.reduce((s, [, k]) => s + k, 0);
    console.log(
      `HUB ${path}: ${total.toFixed(1)} KB gzip in ${files.length} files; script ${(script * 1000).toFixed(0)} ms, tasks ${(task * 1000).toFixed(0)} ms`,
    );
    for (const [p, k] of files) console.log(`   ${k.toFixed(1).padStart(6)}  ${p}`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
