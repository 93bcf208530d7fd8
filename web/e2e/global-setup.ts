/**
 * Starts the real site server (the production build must exist: `npm run build`) on a free
 * loopback port (PORT=0) with a database in a temporary folder, and hands its address to the
 * tests (`inject('baseURL')`, `inject('dbPath')`). Stops it and removes the folder afterwards.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, REPO } from './env.js';
import { startSiteServer, stopChild } from '../../scripts/site-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    dbPath: string;
  }
}

let server: ChildProcess | undefined;
let dir = '';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // web/dist is checked through the server below (it may be in the middle of a rebuild).
  for (const f of ['dist/web/server/main.js', 'dist/cli/main.js']) {
    if (!existsSync(join(REPO, f))) throw new Error(`e2e: ${f} is missing; run \`npm run build\` first`);
  }
  if (!existsSync(CHROMIUM)) throw new Error(`e2e: ${CHROMIUM} is missing; install Debian's chromium (apt-get install -y chromium)`);
  dir = mkdtempSync(join(tmpdir(), 'ptax-e2e-'));
  const dbPath = join(dir, 'e2e.sqlite');
  // On a shared working tree a concurrent `npm run build` empties and rewrites web/dist
  // for a while. So: start, check that /, /es and the page's scripts load, else stop,
  // wait and start again (up to 2 minutes).
  let baseURL: string;
  const deadline = Date.now() + 120_000;
  for (let attempt = 1; ; attempt++) {
    baseURL = await startServer(dbPath);
    const problem = await checkBuildServed(baseURL);
    if (!problem) break;
    await stopServer();
    if (Date.now() > deadline) throw new Error(`e2e: the server does not serve a complete build of web/dist (run \`npm run build\`): ${problem}`);
    console.warn(`e2e: attempt ${attempt}: ${problem}; web/dist is probably being rebuilt, retrying in 3 s`);
    await new Promise((r) => setTimeout(r, 3000));
  }
  project.provide('baseURL', baseURL);
  project.provide('dbPath', dbPath);
  return async () => {
    await stopServer();
    rmSync(dir, { recursive: true, force: true });
  };
}

async function startServer(dbPath: string): Promise<string> {
  const started = await startSiteServer(
    REPO,
    { PTAX_DB: dbPath, PTAX_WEB_DIR: process.env.PTAX_E2E_WEB_DIR ?? join(REPO, 'web/dist'), PTAX_RATE_LIMIT: '1000' },
    'e2e: ',
  );
  server = started.child;
  return started.url;
}

/** undefined when /, /es and every script of / answer 200; else what is wrong. */
async function checkBuildServed(baseURL: string): Promise<string | undefined> {
  for (const path of ['/', '/es']) {
    const res = await fetch(baseURL + path);
    if (res.status !== 200) return `GET ${path} answered ${res.status}`;
    const html = await res.text();
    for (const [, src] of html.matchAll(/<script[^>]+src="([^"]+)"/g)) {
      const r = await fetch(new URL(src!, baseURL + path));
      if (r.status !== 200) return `GET ${src} answered ${r.status}`;
      await r.arrayBuffer();
    }
  }
  return undefined;
}

async function stopServer(): Promise<void> {
  const child = server;
  server = undefined;
  if (child) await stopChild(child);
}
