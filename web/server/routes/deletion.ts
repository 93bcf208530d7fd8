import type { FastifyInstance } from 'fastify';
import type { Store } from '../db/store.js';
import { requestLanguage, sendAnswer } from '../http/answers.js';
import type { MailWorker } from '../mail/outbox.js';
import { normalizeEmail } from '../validation/email.js';
import { deletionBodySchema, type DeletionBody } from '../validation/schemas.js';

/**
 * POST /api/data-deletion — asks for everything about an address to be deleted: when the
 * address is known, a mail with a deletion link goes to it. The answer is the same 200
 * whether or not it is known (the pages /delete-my-data and /es/borrar-mis-datos do the same
 * without script).
 */
export function registerDeletionRoute(app: FastifyInstance, store: Store, worker: MailWorker): void {
  app.post<{ Body: DeletionBody }>('/api/data-deletion', { schema: { body: deletionBodySchema } }, async (request, reply) => {
    const language = requestLanguage(request);
    await store.requestDeletion(normalizeEmail(request.body.email), language);
    worker.wake(); // known or not: the same work (the worker looks after the answer is sent)
    return sendAnswer(reply, 200, 'deletion_requested', language);
  });
}
