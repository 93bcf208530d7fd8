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
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
    await browser.startTracing(page, {
      categories: ['toplevel', 'v8', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'loading'],
    });
    await cdp.send('Profiler.start');
    await page.goto(url);
    // Not Playwright's waitForFunction: its polling would be main-thread work of its own.
    await page.waitForLoadState('load');
    await page.waitForTimeout(6000);
    if ((await page.evaluate(() => document.documentElement.dataset.ready)) !== '1') console.warn('   (the page was not ready 6 s after load)');
    const { profile } = await cdp.send('Profiler.stop');
    const trace = JSON.parse((await browser.stopTracing()).toString());
    // PTAX_DUMP=<file>: the run's CPU profile (.cpuprofile, for Chromium's DevTools or a script).
    if (process.env.PTAX_DUMP) writeFileSync(process.env.PTAX_DUMP, JSON.stringify(profile));
    return analyse(trace.traceEvents, profile);
  } finally {
    await browser.close();
  }
}

function analyse(events, profile) {
  // The page's renderer is the one that painted (Chromium may start another).
  const fcp = events.find((e) => e.name === 'firstContentfulPaint');
  if (!fcp) throw new Error('no first contentful paint in the trace');
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === fcp.pid);
  const mainKey = `${main.pid}:${main.tid}`;
  // PTAX_FROM=start: every task of the page's renderer (Lighthouse's simulation on slow 4G may move
  // a task that ran before the first paint here after it), else from the first paint on.
  const from = process.env.PTAX_FROM === 'start' ? 0 : fcp.ts;
  const tasks = events
    .filter((e) => e.name === 'RunTask' && e.ph === 'X' && `${e.pid}:${e.tid}` === mainKey && e.ts >= from && e.tdur !== undefined)
    .map((e) => ({ ts: e.ts, dur: e.dur, tdur: e.tdur }));
  // A task's direct children in the trace (script evaluation, a function call, style, layout, parse…), by name.
  const onMain = events.filter(
    (e) =>
      e.ph === 'X' &&
      `${e.pid}:${e.tid}` === mainKey &&
      e.name !== 'RunTask' &&
      !/^(ThreadControllerImpl|BlinkScheduler|SequenceManager|TaskQueue|ThreadPool|RendererScheduler)/.test(e.name) &&
      e.ts >= from,
  );
  const kidsOf = (x, k = 5) => {
    const inside = onMain.filter((e) => e.ts >= x.ts && e.ts + (e.dur ?? 0) <= x.ts + x.dur);
    const top = inside.filter((e) => !inside.some((o) => o !== e && o.ts <= e.ts && o.ts + o.dur >= e.ts + e.dur && o.dur > e.dur));
    const m = new Map();
    for (const e of top) {
      const what = e.name + (e.args?.data?.url ? ` ${e.args.data.url.replace(/^.*\//, '')}` : '');
      m.set(what, (m.get(what) ?? 0) + (e.tdur ?? e.dur) / 1000);
    }
    return [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, k);
  };
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
  // Where the CPU time went, over every task: the trace's kinds of work, and the profile's self time by script file.
  const kinds = new Map();
  for (const x of tasks)
    for (const [k, ms] of kidsOf(x, 99)) {
      const kind = k.replace(/ .*$/, '');
      kinds.set(kind, (kinds.get(kind) ?? 0) + ms);
    }
  const files = new Map();
  for (const smp of samples) {
    if (smp.ts < from) continue;
    const f = smp.node.callFrame;
    if (f.functionName === '(idle)' || f.functionName === '(program)') continue;
    const file = f.url
      ? f.url.replace(/^.*\//, '').replace(/-[\w-]{8}\.js$/, '.js')
      : `(${f.functionName || 'native'})`.replace(/^\((?!garbage).*\)$/, '(native)');
    files.set(file, (files.get(file) ?? 0) + smp.dt / 1000);
  }
  const long = tasks
    .filter((x) => (4 * x.tdur) / 1000 > Number(process.env.PTAX_LONG_MS ?? 50))
    .map((x) => ({
      ...x,
      top: top(
        samples.filter((s) => s.ts >= x.ts && s.ts < x.ts + x.dur),
        6,
      ),
      kids: kidsOf(x),
    }));
  const fns = Object.fromEntries(
    top(
      samples.filter((s) => s.ts >= from),
      60,
    ),
  );
  return {
    tbt,
    cpu,
    long,
    fns,
    kinds: Object.fromEntries(kinds),
    files: Object.fromEntries(files),
    topAll: top(
      samples.filter((s) => s.ts >= from),
      25,
    ),
  };
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
        console.log(
          `  run ${i + 1}: TBT by CPU ${r.tbt.toFixed(0)} ms, main-thread CPU after FCP ${r.cpu.toFixed(0)} ms, ${r.long.length} long tasks · load ${load()}`,
        );
      }
      console.log(
        `${code} ${path}: TBT by CPU median ${median(results.map((r) => r.tbt)).toFixed(0)} ms, CPU after FCP median ${median(results.map((r) => r.cpu)).toFixed(0)} ms (${runs} runs)`,
      );
      const last = results[results.length - 1];
      const med = (key) => {
        const names = new Set(results.flatMap((r) => Object.keys(r[key])));
        return [...names]
          .map((n) => [n, median(results.map((r) => r[key][n] ?? 0))])
          .filter(([, ms]) => ms >= 1)
          .sort((a, b) => b[1] - a[1]);
      };
      console.log(
        `   by kind (median ms): ${med('kinds')
          .map(([k, ms]) => `${k} ${ms.toFixed(0)}`)
          .join(' · ')}`,
      );
      console.log(
        `   by script, self (median ms): ${med('files')
          .map(([k, ms]) => `${k} ${ms.toFixed(0)}`)
          .join(' · ')}`,
      );
      // Self time by function, the median over the runs (a sample taken after the thread was
      // descheduled carries the whole gap: one run's figure for a function can be far off on a busy machine).
      console.log('   self time by function, median of the runs:');
      for (const [k, ms] of med('fns').slice(0, Number(process.env.PTAX_TOP ?? 20))) console.log(`      ${ms.toFixed(1).padStart(6)} ms  ${k}`);
      if (process.env.PTAX_BRIEF) continue;
      for (const x of last.long) {
        console.log(`   long task: CPU ${(x.tdur / 1000).toFixed(1)} ms (×4 = ${((4 * x.tdur) / 1000).toFixed(0)}), wall ${(x.dur / 1000).toFixed(1)} ms`);
        console.log(`      trace: ${x.kids.map(([k, ms]) => `${k} ${ms.toFixed(1)}`).join(' · ')}`);
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
