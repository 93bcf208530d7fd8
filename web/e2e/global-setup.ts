/**
 * Starts the real site server (the production build must exist: `npm run build`) on a free
 * loopback port (PORT=0) with a database in a temporary folder, and hands its address to the
 * tests (`inject('baseURL')`, `inject('dbPath')`). Stops it and removes the folder afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, REPO } from './env.js';

declare module 'vitest' {
  export interface ProvidedContext { baseURL: string; dbPath: string }
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
  // The server checks once at start-up whether web/dist holds a build. On a shared working
  // tree a concurrent `npm run build` empties web/dist for a moment; a server started then
  // answers 503 for good. So: start, check that /, /es and the page's script load, else
  // stop, wait and start again (up to 2 minutes).
  let baseURL = '';
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
  const child = spawn(process.execPath, ['dist/web/server/main.js'], {
    cwd: REPO,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', PTAX_DB: dbPath, PTAX_WEB_DIR: process.env.PTAX_E2E_WEB_DIR ?? join(REPO, 'web/dist'), PTAX_LOG_LEVEL: 'info', PTAX_RATE_LIMIT: '1000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server = child;
  let stderr = '';
  child.stderr!.on('data', (d) => { stderr += String(d); });
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`e2e: the server did not start in 30 s\n${stderr}`)), 30_000);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`e2e: the server exited with ${code}\n${stderr}`)); });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const url = (JSON.parse(line) as { url?: unknown }).url;
        if (typeof url === 'string' && url.startsWith('http')) { clearTimeout(timer); resolve(url); }
      } catch { /* not a JSON log line */ }
    });
  });
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
  if (!child || child.exitCode !== null) return;
  child.removeAllListeners('exit');
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([exited, new Promise((r) => { timer = setTimeout(r, 12_000); })]);
  clearTimeout(timer);
  if (child.exitCode === null) child.kill('SIGKILL');
}
