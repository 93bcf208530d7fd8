import type { FastifyInstance } from 'fastify';
import { editionForHost, type SiteMap } from '../config.js';
import type { Store } from '../db/store.js';
import { requestLanguage, sendAnswer } from '../http/answers.js';
import { normalizeEmail } from '../validation/email.js';
import { notifyBodySchema, type NotifyBody } from '../validation/schemas.js';
import { toStateCode } from '../validation/states.js';
import type { MailWorker } from '../mail/outbox.js';

/**
 * POST /api/notify — the "rates coming soon, e-mail me" form. Repeats are one request. A
 * payload without `state` is for the edition of the host it was posted to.
 */
export function registerNotifyRoute(app: FastifyInstance, store: Store, worker: MailWorker, sites: SiteMap): void {
  app.post<{ Body: NotifyBody }>('/api/notify', { schema: { body: notifyBodySchema } }, async (request, reply) => {
    const body = request.body;
    const language = requestLanguage(request);
    const result = await store.requestNotification({
      email: normalizeEmail(body.email),
      state: body.state === undefined ? editionForHost(request.headers.host, sites) : toStateCode(body.state),
      language,
    });
    if (result.mailQueued) worker.wake();
    request.log.info({ list: 'notify', rowId: result.id, newRow: result.created, mailQueued: result.mailQueued }, 'sign-up stored');
    return sendAnswer(reply, 200, 'notify_registered', language);
  });
}
