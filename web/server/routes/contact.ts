import type { FastifyInstance } from 'fastify';
import { editionForHost, type SiteMap } from '../config.js';
import type { Store } from '../db/store.js';
import { requestLanguage, sendAnswer } from '../http/answers.js';
import { normalizeEmail } from '../validation/email.js';
import { contactBodySchema, type ContactBody } from '../validation/schemas.js';
import { toStateCode } from '../validation/states.js';

/**
 * POST /api/contact — the contact form; each message is kept as sent (edges trimmed). A
 * payload without `state` is for the edition of the host it was posted to.
 */
export function registerContactRoute(app: FastifyInstance, store: Store, sites: SiteMap): void {
  app.post<{ Body: ContactBody }>('/api/contact', { schema: { body: contactBodySchema } }, async (request, reply) => {
    const body = request.body;
    const language = requestLanguage(request);
    const { id } = await store.saveContactMessage({
      name: body.name.trim(),
      email: normalizeEmail(body.email),
      subject: body.subject.trim(),
      message: body.message.trim(),
      state: body.state === undefined ? editionForHost(request.headers.host, sites) : toStateCode(body.state),
      language,
    });
    request.log.info({ rowId: id }, 'contact message stored');
    return sendAnswer(reply, 200, 'contact_received', language);
  });
}
