import Fastify, { type FastifyInstance } from 'fastify';
import { BODY_LIMIT_BYTES, resolveServerOptions, type ServerOptions } from './config.js';
import { openDatabase } from './db/database.js';
import { GroupCommitWriter } from './db/group-commit.js';
import { Store } from './db/store.js';
import { answerClientError, answerError, registerErrorHandler } from './http/errors.js';
import { loggerOptions } from './http/logging.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerStaticSite } from './http/static-site.js';
import { formRoutes } from './routes/forms.js';
import { registerHealthRoute } from './routes/health.js';
import { registerSitesRoute } from './routes/sites.js';
import { addPtaxFormats } from './validation/formats.js';

export type { ServerOptions } from './config.js';

/**
 * Builds the site server: opens and migrates the database, wires the form API, /healthz and
 * the static web app. The caller listens; closing the instance finishes in-flight requests,
 * commits queued writes and closes the database.
 */
export async function buildServer(options: Partial<ServerOptions> = {}): Promise<FastifyInstance> {
  const config = resolveServerOptions(options);
  const db = openDatabase(config.dbPath);
  const writer = new GroupCommitWriter(db, config.groupCommit);
  const store = new Store(db, writer);

  const app = Fastify({
    logger: loggerOptions(config.logLevel, config.logStream),
    bodyLimit: BODY_LIMIT_BYTES,
    // Fastify's defaults coerce types ("123" -> 123) and silently drop unknown fields; the
    // forms must be refused instead. allErrors stays off: reporting every error is a DoS lever.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false }, plugins: [addPtaxFormats] },
    // Answer {"__proto__": ...} and {"constructor": {"prototype": ...}} with 400, not a parse.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    return503OnClosing: true,
    // Undecodable URLs and malformed HTTP get the same JSON error shape as everything else.
    frameworkErrors: answerError,
    clientErrorHandler: answerClientError,
  });
  app.addHook('onClose', async () => {
    writer.close();
    db.close();
  });

  try {
    registerSecurityHeaders(app);
    registerErrorHandler(app);
    registerHealthRoute(app, store);
    registerSitesRoute(app, config.sites);
    await app.register(formRoutes, { store, rateLimitPerMinute: config.rateLimitPerMinute, sites: config.sites });
    await registerStaticSite(app, config.webDir, config.sites);
    await app.ready();
  } catch (error) {
    await app.close(); // closes the database too
    throw error;
  }
  return app;
}
