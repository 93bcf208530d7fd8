import type { FastifyInstance } from 'fastify';
import { buildServer } from './app.js';
import { DEFAULT_SITES, optionsFromEnv, siteLines } from './config.js';

/**
 * Runs the site server: `node dist/web/server/main.js` from the repo root.
 * Environment: see optionsFromEnv in config.ts.
 */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const { server, listen } = optionsFromEnv(process.env);
  const app = await buildServer(server);
  stopOnSignals(app);
  const address = await app.listen({ port: listen.port, host: listen.host });
  // For people: where each edition is, from the host map (PTAX_SITES changes it). Plain text,
  // not a log line, written at once, so it comes before the listening line, which pino
  // writes asynchronously.
  process.stdout.write(`${siteLines(server.sites ?? DEFAULT_SITES, address).join('\n')}\n`);
  // scripts/site-server.ts and dev/spawn-server.ts find the port in this JSON line (its `url`).
  app.log.info({ url: address }, `ptax server listening on ${address}`);
}

/**
 * SIGTERM/SIGINT: stop accepting connections, let in-flight requests finish (their writes
 * commit), close the database, exit 0. A shutdown that hangs is cut short with exit 1.
 */
function stopOnSignals(app: FastifyInstance): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    setTimeout(() => {
      app.log.error('shutdown took too long, exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    app.close().then(
      () => {
        app.log.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  // The logger may not exist yet (bad configuration, unreadable database): plain stderr,
  // message only.
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`ptax server failed to start: ${message}\n`);
  process.exit(1);
});
