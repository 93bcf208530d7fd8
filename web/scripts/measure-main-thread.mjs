#!/usr/bin/env node
/**
 * Where a page's main-thread time goes after its first paint (issue 28), for development:
 * Chromium (Playwright) loads the page from the production build (web/dist) served by the
 * real site server, with a trace (the renderer's tasks, with the CPU time their thread had:
 * `tdur`) and V8's sampling CPU profile. Printed per page, median of the runs:
 * - "TBT by CPU": each main-thread task from the first contentful paint on, counted as
 *   Lighthouse's mobile preset counts it (its CPU time × 4, the part above 50 ms), the figure
 *   the load average barely moves;
 * - the long tasks (CPU time × 4 > 50 ms) of the last run, each with the functions that took
 *   most of it (self time, by the profile's samples inside the task);
 * - the functions with the most self time after the first paint, over the whole run.
 * Not a test and not the budget (scripts/budget.ts, Lighthouse): a tool to find what to cut.
 * Usage: node web/scripts/measure-main-thread.mjs [TX,CA] [/,/calculator] [runs=3]
 * Environment: PTAX_WEB_DIST (default web/dist).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright';

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const { startSiteServer } = await import(join(repo, 'dist/scripts/site-server.js'));
const editions = (process.argv[2] ?? 'TX').split(',').map((s) => s.trim().toUpperCase());
const paths = (process.argv[3] ?? '/,/calculator').split(',').map((s) => s.trim());
const runs = Math.max(1, Number(process.argv[4] ?? 3) || 3);
const webDist = process.env.PTAX_WEB_DIST ? resolve(process.env.PTAX_WEB_DIST) : join(repo, 'web/dist');
const dir = mkdtempSync(join(tmpdir(), 'ptax-mainthread-'));
const server = await startSiteServer(repo, { PTAX_DB: join(dir, 'm.sqlite'), PTAX_WEB_DIR: webDist }, '');
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One load of the page: its tasks after FCP and the CPU profile's samples. */
async function once(url) {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
    const origin = new URL(url).origin;
    await context.route('**/*', (route) => (route.request().url().startsWith(origin) ? route.continue() : route.abort()));
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await browser.startTracing(page, { categories: ['toplevel', 'v8', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'loading'] });
    await cdp.send('Profiler.start');
    await page.goto(url);
    await page.waitForFunction(() => document.documentElement.dataset.ready === '1', null, { timeout: 60_000 });
    await page.waitForTimeout(1500);
    const { profile } = await cdp.send('Profiler.stop');
    const trace = JSON.parse((await browser.stopTracing()).toString());
    return analyse(trace.traceEvents, profile);
  } finally {
    await browser.close();
  }
}

function analyse(events, profile) {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const mainKey = `${main.pid}:${main.tid}`;
  const fcp = events.find((e) => e.name === 'firstContentfulPaint' && `${e.pid}` === `${main.pid}`);
  const from = fcp?.ts ?? 0;
  const tasks = events
    .filter((e) => e.name === 'RunTask' && e.ph === 'X' && `${e.pid}:${e.tid}` === mainKey && e.ts >= from && e.tdur !== undefined)
    .map((e) => ({ ts: e.ts, dur: e.dur, tdur: e.tdur }));
  const tbt = tasks.reduce((s, t) => s + Math.max(0, (4 * t.tdur) / 1000 - 50), 0);
  const cpu = tasks.reduce((s, t) => s + t.tdur / 1000, 0);
  // The profile's samples on the trace's clock (both are microseconds of the same monotonic clock).
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const samples = [];
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    const next = i + 1 < profile.timeDeltas.length ? profile.timeDeltas[i + 1] : 0;
    samples.push({ ts: t, dt: next, node: byId.get(profile.samples[i]) });
  }
  const label = (n) => {
    const f = n.callFrame;
    const file = f.url ? f.url.replace(/^.*\//, '') : '';
    return `${f.functionName || '(anonymous)'} ${file}${file ? `:${f.lineNumber + 1}:${f.columnNumber + 1}` : ''}`;
  };
  const top = (within, k) => {
    const m = new Map();
    for (const s of within) {
      if (s.node.callFrame.functionName === '(idle)' || s.node.callFrame.functionName === '(program)') continue;
      const key = label(s.node);
      m.set(key, (m.get(key) ?? 0) + s.dt / 1000);
    }
    return [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, k);
  };
  const long = tasks
    .filter((x) => (4 * x.tdur) / 1000 > 50)
    .map((x) => ({ ...x, top: top(samples.filter((s) => s.ts >= x.ts && s.ts < x.ts + x.dur), 6) }));
  return { tbt, cpu, long, topAll: top(samples.filter((s) => s.ts >= from), 25), fcpMs: fcp ? (fcp.ts - (events.find((e) => e.name === 'navigationStart')?.ts ?? fcp.ts)) / 1000 : NaN };
}

try {
  for (const code of editions) {
    const u = new URL(server.url);
    if (code !== 'HUB') u.hostname = `${code.toLowerCase()}.localhost`;
    for (const path of paths) {
      const results = [];
      for (let i = 0; i < runs; i++) {
        const r = await once(u.origin + path);
        results.push(r);
        console.log(`  run ${i + 1}: TBT by CPU ${r.tbt.toFixed(0)} ms, main-thread CPU after FCP ${r.cpu.toFixed(0)} ms, ${r.long.length} long tasks · load ${load()}`);
      }
      console.log(
        `${code} ${path}: TBT by CPU median ${median(results.map((r) => r.tbt)).toFixed(0)} ms, CPU after FCP median ${median(results.map((r) => r.cpu)).toFixed(0)} ms (${runs} runs)`,
      );
      const last = results[results.length - 1];
      for (const x of last.long) {
        console.log(`   long task: CPU ${(x.tdur / 1000).toFixed(1)} ms (×4 = ${((4 * x.tdur) / 1000).toFixed(0)}), wall ${(x.dur / 1000).toFixed(1)} ms`);
        for (const [k, ms] of x.top) console.log(`      ${ms.toFixed(1).padStart(6)} ms  ${k}`);
      }
      console.log('   self time after FCP (last run):');
      for (const [k, ms] of last.topAll) console.log(`      ${ms.toFixed(1).padStart(6)} ms  ${k}`);
    }
  }
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
