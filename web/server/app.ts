import type { AddressInfo } from 'node:net';
import type { Database } from 'better-sqlite3';
import Fastify, { type FastifyInstance } from 'fastify';
import { BODY_LIMIT_BYTES, resolveServerOptions, type ServerOptions } from './config.js';
import { openDatabase } from './db/database.js';
import { GroupCommitWriter } from './db/group-commit.js';
import { Store } from './db/store.js';
import { requestLanguage, sendAnswer } from './http/answers.js';
import { answerClientError, answerError, registerErrorHandler, RETRY_AFTER_SECONDS } from './http/errors.js';
import { loggerOptions } from './http/logging.js';
import { openSideConnection, RateLimiter } from './http/rate-limit.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerStaticSite } from './http/static-site.js';
import { LinkBuilder } from './mail/links.js';
import { MailWorker, Outbox } from './mail/outbox.js';
import { createTransport, type MailTransport } from './mail/transport.js';
import { pageRoutes } from './pages/routes.js';
import { formRoutes } from './routes/forms.js';
import { registerHealthRoute } from './routes/health.js';
import { registerSitesRoute } from './routes/sites.js';
import { addPtaxFormats } from './validation/formats.js';

export type { ServerOptions } from './config.js';

/** What the server holds, for main.ts and the tests. */
export interface PtaxInternals {
  config: ServerOptions;
  db: Database;
  store: Store;
  worker: MailWorker;
  transport: MailTransport;
  /** Runs the retention purge now (it also runs at start and every hour). */
  purge(now?: Date): ReturnType<Store['purge']>;
}

declare module 'fastify' {
  interface FastifyInstance {
    ptax: PtaxInternals;
  }
}

const DAY_MS = 86_400_000;
const PURGE_EVERY_MS = 3_600_000;

/**
 * Builds the site server: opens and migrates the database, wires the form API, the mail
 * pages, /healthz and the static web app, and starts the mail outbox worker. The caller
 * listens; closing the instance answers new requests 503, finishes in-flight ones, stops the
 * worker, commits queued writes and closes the database.
 */
export async function buildServer(options: Partial<ServerOptions> = {}): Promise<FastifyInstance> {
  const config = resolveServerOptions(options);
  const db = openDatabase(config.dbPath);
  const writer = new GroupCommitWriter(db, config.groupCommit);
  let transport: MailTransport;
  let side: Database;
  try {
    transport = createTransport({ smtpUrl: config.smtpUrl, mailDir: config.mailDir!, timeoutMs: config.mailTimeoutMs });
    side = openSideConnection(config.dbPath);
  } catch (error) {
    writer.close();
    db.close();
    throw error;
  }
  const limiter = new RateLimiter(side, config.rateLimitPerMinute);

  const headersTimeout = Math.min(config.headersTimeoutMs, config.requestTimeoutMs);
  const app = Fastify({
    logger: loggerOptions(config.logLevel, config.logStream),
    bodyLimit: BODY_LIMIT_BYTES,
    // Fastify's defaults coerce types ("123" -> 123) and silently drop unknown fields; the
    // forms must be refused instead. allErrors stays off: reporting every error is a DoS lever.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false }, plugins: [addPtaxFormats] },
    // Answer {"__proto__": ...} and {"constructor": {"prototype": ...}} with 400, not a parse.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // During shutdown new requests get the API's own 503 (hook below), not Fastify's body.
    return503OnClosing: false,
    // Undecodable URLs and malformed HTTP get the same JSON error shape as everything else.
    frameworkErrors: answerError,
    clientErrorHandler: answerClientError,
    // A hop count n trusts the n nearest addresses (the peer, then X-Forwarded-For from the
    // right). Fastify 5 refuses a plain number (it cannot check the peer), so it is given as
    // proxy-addr's trust function: the operator who sets a count says every peer is a proxy.
    trustProxy: typeof config.trustProxy === 'number' ? hopTrust(config.trustProxy) : config.trustProxy,
    // Slow clients: a whole request (headers and body) within requestTimeout, headers within
    // headersTimeout (both checked every connectionsCheckingInterval), an idle socket closed
    // after socketTimeout, an idle keep-alive connection after keepAliveTimeout.
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.socketTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout,
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(headersTimeout / 4))),
    },
  });

  // Links in mails: PTAX_PUBLIC_URL, else the address this server listens on.
  const publicUrl = (): string => {
    if (config.publicUrl) return config.publicUrl;
    const address = app.server.address() as AddressInfo | null;
    if (address === null || typeof address !== 'object') return 'http://127.0.0.1';
    const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}`;
  };
  const outbox = new Outbox(db, envelopeDomain(config.mailFrom));
  const store = new Store(db, writer, {
    links: new LinkBuilder(publicUrl, config.sites),
    outbox,
    tokenTtlMs: config.tokenDays * DAY_MS,
    pendingDays: config.pendingDays,
    mailsPerAddressPerHour: config.mailsPerAddressPerHour,
  });
  // The worker's claims and marks go through the side connection: no fsync per mail (a mark
  // lost in a power cut means that mail goes out again; a killed process loses none).
  const worker = new MailWorker(
    side,
    transport,
    {
      retryBaseMs: config.mailRetryBaseMs,
      retryMaxMs: config.mailRetryMaxMs,
      leaseMs: config.mailTimeoutMs * 3 + 5_000, // connection, greeting and socket timeouts, and a margin
      pollMs: config.mailPollMs,
      giveUpAfterMs: config.tokenDays * DAY_MS,
      from: config.mailFrom,
    },
    app.log.child({ component: 'mail' }),
  );
  const purge = async (now = new Date()) => {
    const counts = await store.purge(now, config.retentionDays);
    if (Object.values(counts).some((n) => n > 0)) app.log.info({ purged: counts }, 'retention purge');
    return counts;
  };
  app.decorate('ptax', { config, db, store, worker, transport, purge });

  let closing = false;
  // eslint-disable-next-line prefer-const -- the preClose hook above its assignment reads it
  let purgeTimer: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onClose', async () => {
    if (purgeTimer) clearInterval(purgeTimer);
    // A send in progress is not waited for long: its lease brings it back if it did not finish.
    await Promise.race([worker.stop(), new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
    transport.close();
    side.close();
    writer.close();
    db.close();
  });

  try {
    registerSecurityHeaders(app);
    registerErrorHandler(app);
    app.addHook('onRequest', async (request, reply) => {
      if (!closing) return undefined;
      reply.header('retry-after', String(RETRY_AFTER_SECONDS)).header('connection', 'close');
      return sendAnswer(reply, 503, 'unavailable', requestLanguage(request));
    });
    registerHealthRoute(app, store);
    registerSitesRoute(app, config.sites);
    await app.register(formRoutes, { store, limiter, worker, sites: config.sites });
    await app.register(pageRoutes, { store, worker, limiter, tokenDays: config.tokenDays });
    await registerStaticSite(app, config.webDir, config.sites);
    await app.ready();
  } catch (error) {
    await app.close(); // closes the database too
    throw error;
  }
  app.log.info({ mail: transport.description }, 'mail outbox ready');
  worker.start();
  void purge().catch((error: unknown) => app.log.error({ err: error }, 'retention purge failed'));
  purgeTimer = setInterval(() => {
    void purge().catch((error: unknown) => app.log.error({ err: error }, 'retention purge failed'));
  }, PURGE_EVERY_MS);
  purgeTimer.unref();
  return app;
}

/** `Name <a@example.org>` -> `example.org` (for Message-IDs). */
function envelopeDomain(from: string): string {
  const address = /<([^>]+)>\s*$/.exec(from)?.[1] ?? from.trim();
  const domain = address.slice(address.lastIndexOf('@') + 1);
  return /^[A-Za-z0-9.-]+$/.test(domain) ? domain : 'localhost';
}

/** proxy-addr trust function of a hop count: address i (0 = the peer) is a proxy when i < hops. */
function hopTrust(hops: number): ((address: string, index: number) => boolean) | false {
  return hops === 0 ? false : (_address, index) => index < hops;
}
