import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { SiteMap } from '../config.js';
import type { Store } from '../db/store.js';
import { ApiError } from '../http/errors.js';
import type { RateLimiter } from '../http/rate-limit.js';
import type { MailWorker } from '../mail/outbox.js';
import { registerContactRoute } from './contact.js';
import { registerDeletionRoute } from './deletion.js';
import { registerNewsletterRoute } from './newsletter.js';
import { registerNotifyRoute } from './notify.js';

export interface FormRoutesOptions {
  store: Store;
  limiter: RateLimiter;
  /** Woken after a commit that queued a mail. */
  worker: MailWorker;
  /** Host -> edition: the state of a notify or contact payload that names none. */
  sites: SiteMap;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * The JSON body of a form: UTF-8 only. A declared charset other than UTF-8 is 415; bytes
 * that are not valid UTF-8 are 400 (never stored as U+FFFD).
 */
export function decodeJsonBody(request: FastifyRequest, body: Buffer): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') throw new ApiError(415, 'unsupported_charset');
  try {
    return utf8.decode(body);
  } catch {
    throw new ApiError(400, 'invalid_encoding');
  }
}

/**
 * The form endpoints, in their own plugin scope so that what is set here applies to them
 * only: JSON in UTF-8 is the one accepted body (anything else is 415), and one per-address
 * budget of POSTs per minute, counted in the database (RateLimiter), is shared by the forms
 * (a client cannot get 3x the limit by spreading over routes) and by every server process.
 */
export const formRoutes: FastifyPluginAsync<FormRoutesOptions> = async (app, { store, limiter, worker, sites }) => {
  // Only application/json (any parameters); a body of another type, or of none, is 415.
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = decodeJsonBody(request, body as Buffer);
    } catch (error) {
      done(error as Error, undefined);
      return;
    }
    parseJson(request, text, done);
  });
  app.addHook('onRequest', limiter.hook);
  registerNewsletterRoute(app, store, worker);
  registerNotifyRoute(app, store, worker, sites);
  registerContactRoute(app, store, sites);
  registerDeletionRoute(app, store, worker);
};
