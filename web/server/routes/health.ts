import type { FastifyInstance } from 'fastify';
import type { Store } from '../db/store.js';
import { requestLanguage, sendAnswer } from '../http/answers.js';
import { RETRY_AFTER_SECONDS } from '../http/errors.js';

/**
 * GET /healthz — readiness: 200 when the database has the expected schema and a write
 * commits (a full disk or a read-only file fails it), else 503 with Retry-After, so that a
 * load balancer takes the server out.
 */
export function registerHealthRoute(app: FastifyInstance, store: Store): void {
  app.get('/healthz', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (await store.isHealthy()) return sendAnswer(reply, 200, 'healthy', requestLanguage(request));
    reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    return sendAnswer(reply, 503, 'unavailable', requestLanguage(request));
  });
}
