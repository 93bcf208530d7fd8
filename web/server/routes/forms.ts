import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsync } from 'fastify';
import type { SiteMap } from '../config.js';
import type { Store } from '../db/store.js';
import { registerContactRoute } from './contact.js';
import { registerNewsletterRoute } from './newsletter.js';
import { registerNotifyRoute } from './notify.js';

export interface FormRoutesOptions {
  store: Store;
  rateLimitPerMinute: number;
  /** Host -> edition: the state of a notify or contact payload that names none. */
  sites: SiteMap;
}

/**
 * The three form endpoints, in their own plugin scope so that what is set here applies to
 * them only: JSON is the one accepted body type (anything else is 415), and one per-address
 * budget of POSTs per minute is shared by the three forms (a client cannot get 3x the limit
 * by spreading over routes).
 */
export const formRoutes: FastifyPluginAsync<FormRoutesOptions> = async (app, { store, rateLimitPerMinute, sites }) => {
  // Only application/json (any parameters); a body of another type, or of none, is 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
  await app.register(rateLimit, { global: true, max: rateLimitPerMinute, timeWindow: 60_000 });
  registerNewsletterRoute(app, store);
  registerNotifyRoute(app, store, sites);
  registerContactRoute(app, store, sites);
};
