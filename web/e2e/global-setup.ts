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
  for (const f of ['web/dist/index.html', 'web/dist/es/index.html', 'dist/web/server/main.js', 'dist/cli/main.js']) {
    if (!existsSync(join(REPO, f))) throw new Error(`e2e: ${f} is missing; run \`npm run build\` first`);
  }
  if (!existsSync(CHROMIUM)) throw new Error(`e2e: ${CHROMIUM} is missing; install Debian's chromium (apt-get install -y chromium)`);
  dir = mkdtempSync(join(tmpdir(), 'ptax-e2e-'));
  const dbPath = join(dir, 'e2e.sqlite');
  const child = spawn(process.execPath, ['dist/web/server/main.js'], {
    cwd: REPO,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', PTAX_DB: dbPath, PTAX_WEB_DIR: join(REPO, 'web/dist'), PTAX_LOG_LEVEL: 'info', PTAX_RATE_LIMIT: '1000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server = child;
  let stderr = '';
  child.stderr!.on('data', (d) => { stderr += String(d); });
  const baseURL = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`e2e: the server did not start in 30 s\n${stderr}`)), 30_000);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`e2e: the server exited with ${code}\n${stderr}`)); });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const url = (JSON.parse(line) as { url?: unknown }).url;
        if (typeof url === 'string' && url.startsWith('http')) { clearTimeout(timer); resolve(url); }
      } catch { /* not a JSON log line */ }
    });
  });
  project.provide('baseURL', baseURL);
  project.provide('dbPath', dbPath);
  return async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server!.once('exit', r));
      server.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((r) => { timer = setTimeout(r, 12_000); })]);
      clearTimeout(timer);
      if (server.exitCode === null) server.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
}
