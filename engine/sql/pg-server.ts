/**
 * A throw-away PostgreSQL server for the tests: Debian's binaries
 * (/usr/lib/postgresql/<version>/bin), a data directory in a temporary folder, a free port
 * on 127.0.0.1, trust authentication; run as the `postgres` user when we are root (the
 * server refuses root). `stop` stops it and removes the folder. PTAX_PG_URL: use that
 * server instead.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Postgres {
  url: string;
  stop(): Promise<void>;
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions.length) throw new Error('no PostgreSQL in /usr/lib/postgresql (apt-get install postgresql)');
  return join(root, versions[0]!, 'bin');
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => done(port));
    });
  });
}

export async function startPostgres(): Promise<Postgres> {
  if (process.env.PTAX_PG_URL) return { url: process.env.PTAX_PG_URL, stop: async () => {} };
  const bin = binDir();
  const root = process.getuid?.() === 0;
  if (root && spawnSync('id', ['postgres']).status !== 0) throw new Error('running as root and there is no postgres user to run the server');
  const dir = mkdtempSync(join(tmpdir(), 'ptax-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const run = (cmd: string, args: string[]) =>
    root
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args], { stdio: 'pipe', cwd: dir })
      : execFileSync(join(bin, cmd), args, { stdio: 'pipe', cwd: dir });
  const port = await freePort();
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'ptax', '--no-sync', '-E', 'UTF8']);
  run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  return {
    url: `postgres://ptax@127.0.0.1:${port}/postgres`,
    stop: async () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
