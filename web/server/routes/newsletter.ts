import type { FastifyInstance } from 'fastify';
import type { Store } from '../db/store.js';
import { requestLanguage, sendAnswer } from '../http/answers.js';
import { ApiError } from '../http/errors.js';
import { normalizeEmail } from '../validation/email.js';
import { newsletterBodySchema, type NewsletterBody } from '../validation/schemas.js';
import { toStateCode } from '../validation/states.js';
import { tagsForState } from '../validation/tags.js';
import type { MailWorker } from '../mail/outbox.js';

/**
 * POST /api/newsletter/subscribe — banner and popup sign-ups. Always 200 on success, whether
 * the address is new or known, so the answer does not reveal who is already subscribed. A
 * new row is `pending` until its owner follows the link in the confirmation mail; a known row
 * is not changed: what the new sign-up asks for is applied when its own link is followed.
 * county and calculatedTax are validated but never stored (they describe a property).
 */
export function registerNewsletterRoute(app: FastifyInstance, store: Store, worker: MailWorker): void {
  app.post<{ Body: NewsletterBody }>('/api/newsletter/subscribe', { schema: { body: newsletterBodySchema } }, async (request, reply) => {
    const body = request.body;
    const state = toStateCode(body.state);
    const language = requestLanguage(request);
    const tags = tagsForState(body.tags ?? [], state);
    if (tags === undefined) throw new ApiError(400, 'invalid_tags');
    const isPopup = body.firstName !== undefined || body.county !== undefined || body.calculatedTax !== undefined;
    const result = await store.subscribe({
      email: normalizeEmail(body.email),
      state,
      language,
      tags,
      firstName: body.firstName?.trim(),
      source: isPopup ? 'popup' : 'banner',
    });
    if (result.mailQueued) worker.wake();
    request.log.info({ list: 'newsletter', rowId: result.id, newRow: result.created, mailQueued: result.mailQueued }, 'sign-up stored');
    return sendAnswer(reply, 200, 'subscribed', language);
  });
}
