import type { FastifyInstance } from 'fastify';
import type { Store } from '../db/store.js';
import { requestLanguage, sendAnswer } from '../http/answers.js';

/** GET /healthz — readiness: 200 when the database answers with the expected schema, else 503. */
export function registerHealthRoute(app: FastifyInstance, store: Store): void {
  app.get('/healthz', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return store.isHealthy()
      ? sendAnswer(reply, 200, 'healthy', requestLanguage(request))
      : sendAnswer(reply, 503, 'unavailable', requestLanguage(request));
  });
}
