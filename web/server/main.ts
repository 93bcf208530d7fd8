import type { FastifyInstance } from 'fastify';
import { buildServer } from './app.js';
import { DEFAULT_SITES, optionsFromEnv, siteLines } from './config.js';

/**
 * Runs the site server: `node dist/web/server/main.js` from the repo root.
 * Environment: see optionsFromEnv in config.ts and web/server/README.md.
 */
async function main(): Promise<void> {
  const { server, listen, shutdownGraceMs } = optionsFromEnv(process.env);
  const app = await buildServer(server);
  stopOnSignals(app, shutdownGraceMs);
  const address = await app.listen({ port: listen.port, host: listen.host });
  // For people: where each edition is, from the host map (PTAX_SITES changes it). Plain text,
  // not a log line, written at once, so it comes before the listening line, which pino
  // writes asynchronously.
  process.stdout.write(`${siteLines(server.sites ?? DEFAULT_SITES, address).join('\n')}\n`);
  // scripts/site-server.ts and dev/spawn-server.ts find the port in this JSON line (its `url`).
  app.log.info({ url: address }, `ptax server listening on ${address}`);
  if (!server.publicUrl) app.log.warn({ links: address }, 'PTAX_PUBLIC_URL is not set: links in mails point to the address this server listens on');
}

/**
 * SIGTERM/SIGINT: stop accepting connections; requests arriving on open connections are
 * answered 503 with Retry-After and Connection: close; in-flight requests finish (their writes
 * commit); idle keep-alive connections are not cut (a client reusing one in that instant
 * would get a reset) but end at their keep-alive timeout, which the client was told; then the
 * database closes and the process exits 0. Connections still open one second before the end
 * of the grace period (a slow client) are closed then, so that one slow client does not hold
 * the shutdown; a shutdown that still hangs at the end of the grace period is cut short with
 * exit 1.
 */
function stopOnSignals(app: FastifyInstance, graceMs: number): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    setTimeout(
      () => {
        app.log.warn('closing the connections still open');
        app.server.closeAllConnections();
      },
      Math.max(Math.floor(graceMs / 2), graceMs - 1_000),
    ).unref();
    setTimeout(() => {
      app.log.error('shutdown took too long, exiting');
      process.exit(1);
    }, graceMs).unref();
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
