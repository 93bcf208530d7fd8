/**
 * The built site server (dist/web/server/main.js) as a child process on a free loopback
 * port, for the e2e tests and `npm run budget`: started with the given environment, its
 * URL read from its JSON start-up log line; stopped with SIGTERM, then SIGKILL after 12 s.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface SiteServer {
  url: string;
  child: ChildProcess;
  stop: () => Promise<void>;
}

/** Starts the server in `repo` with `env` added to this process's environment; `label` prefixes its errors. */
export async function startSiteServer(repo: string, env: Record<string, string>, label: string): Promise<SiteServer> {
  const child = spawn(process.execPath, ['dist/web/server/main.js'], {
    cwd: repo,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', PTAX_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => {
    stderr += String(d);
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label}the server did not start in 30 s\n${stderr}`)), 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${label}the server exited with ${code}\n${stderr}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const u = (JSON.parse(line) as { url?: unknown }).url;
        if (typeof u === 'string' && u.startsWith('http')) {
          clearTimeout(timer);
          resolve(u);
        }
      } catch {
        /* not a JSON log line */
      }
    });
  });
  return { url, child, stop: () => stopChild(child) };
}

/** SIGTERM, then SIGKILL if the child has not exited 12 s later (the server's graceful shutdown takes less). */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.removeAllListeners('exit');
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    exited,
    new Promise((r) => {
      timer = setTimeout(r, 12_000);
    }),
  ]);
  clearTimeout(timer);
  if (child.exitCode === null) child.kill('SIGKILL');
}
