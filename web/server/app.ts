import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Database } from 'better-sqlite3';
import Fastify, { type FastifyInstance } from 'fastify';
import { BODY_LIMIT_BYTES, resolveServerOptions, type ServerOptions } from './config.js';
import { openDatabase } from './db/database.js';
import { GroupCommitWriter } from './db/group-commit.js';
import { Store } from './db/store.js';
import { requestLanguage, sendAnswer } from './http/answers.js';
import { answerClientError, answerError, answerOnSocket, registerErrorHandler, RETRY_AFTER_SECONDS } from './http/errors.js';
import { loggerOptions } from './http/logging.js';
import { openSideConnection, RateLimiter, rememberPeers } from './http/rate-limit.js';
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
  /** The second connection (rate-limit counters, the outbox's claims and marks). */
  side: Database;
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
    transport = createTransport({ smtpUrl: config.smtpUrl, mailDir: config.mailDir!, timeoutMs: config.mailTimeoutMs, concurrency: MailWorker.CONCURRENCY });
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
    // Idle keep-alive connections are not cut when the server closes: they end at their
    // keep-alive timeout, which the client was told (Keep-Alive: timeout=…), so a client that
    // reuses one in that instant is answered 503, not reset (issue 25). See preClose below.
    forceCloseConnections: false,
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
      // Node answers a request without Host with a bare 400 of its own; the hook below
      // answers it in the JSON shape with the security headers.
      requireHostHeader: false,
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
  app.decorate('ptax', { config, db, side, store, worker, transport, purge });
  answerRawSocketEvents(app.server);

  let closing = false;
  // eslint-disable-next-line prefer-const -- the preClose hook above its assignment reads it
  let purgeTimer: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    closing = true;
    // server.close() (Fastify calls it next) would close the idle keep-alive connections at
    // once (Node 19+), and a client sending its next request in that instant gets a reset.
    // They are left to their keep-alive timeout instead; a request on one is answered 503 with
    // Connection: close (hook below). main.ts closes whatever is still open near the end of
    // the grace period.
    app.server.closeIdleConnections = () => undefined;
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
      // HTTP/1.1 requires Host (RFC 9112 §3.2); Node's own check is off (requireHostHeader).
      if (request.headers.host === undefined && request.raw.httpVersion === '1.1') {
        reply.header('connection', 'close');
        return sendAnswer(reply, 400, 'host_required', requestLanguage(request));
      }
      if (!closing) return undefined;
      reply.header('retry-after', String(RETRY_AFTER_SECONDS)).header('connection', 'close');
      return sendAnswer(reply, 503, 'unavailable', requestLanguage(request));
    });
    registerHealthRoute(app, store);
    registerSitesRoute(app, config.sites, config.publicUrl);
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

const CURRENT = Symbol('ptax.currentRequest');
const READ_WHEN_IDLE = Symbol('ptax.bytesReadWhenIdle');
type TrackedSocket = Socket & {
  [CURRENT]?: { req: IncomingMessage; res: ServerResponse } | undefined;
  [READ_WHEN_IDLE]?: number;
};

/**
 * What the HTTP server would otherwise answer without a word, answered in the JSON shape
 * with the security headers (issue 25):
 * - the peer's address is remembered as the connection opens (the rate limit needs it even
 *   after the client reset the connection);
 * - a socket idle for PTAX_SOCKET_TIMEOUT_MS in the middle of a request (headers or body
 *   stopped arriving) gets 408, as the request timeout gives, instead of a silent close; an
 *   idle keep-alive connection is just closed;
 * - CONNECT (a proxy request) gets 405.
 */
function answerRawSocketEvents(server: import('node:http').Server): void {
  rememberPeers(server);
  server.on('connection', (socket: TrackedSocket) => {
    socket[READ_WHEN_IDLE] = 0;
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket as TrackedSocket;
    socket[CURRENT] = { req, res };
    res.once('finish', () => {
      if (socket[CURRENT]?.res === res) socket[CURRENT] = undefined;
      socket[READ_WHEN_IDLE] = socket.bytesRead;
    });
  });
  // With a listener here, Node leaves the timed-out socket to it.
  server.on('timeout', (socket: TrackedSocket) => {
    const current = socket[CURRENT];
    const midRequest = current === undefined ? socket.bytesRead > (socket[READ_WHEN_IDLE] ?? 0) : !current.req.complete && !current.res.headersSent;
    if (midRequest) answerOnSocket(socket, 408, 'request_timeout');
    else socket.destroy();
  });
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    socket.on('error', () => undefined);
    answerOnSocket(socket, 405, 'method_not_allowed', { allow: 'GET, HEAD, POST' });
  });
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
