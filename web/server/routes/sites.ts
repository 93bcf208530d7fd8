import type { FastifyInstance } from 'fastify';
import type { SiteMap } from '../config.js';
import { STATE_CODES } from '../validation/states.js';

/**
 * GET /api/sites — where each edition is served, for the hub's links: the first host the
 * map (PTAX_SITES, or the *.localhost defaults) gives each edition, with the protocol and
 * port of the request; an edition with no host of its own is left out (the hub links to
 * what it is given). `{ sites: { NY: "http://ny.localhost:8080/", … } }`.
 */
export function registerSitesRoute(app: FastifyInstance, sites: SiteMap): void {
  app.get('/api/sites', async (request, reply) => {
    const host = request.headers.host ?? '';
    const port = /:(\d+)$/.exec(host)?.[1];
    const out: Record<string, string> = {};
    for (const code of STATE_CODES) {
      const name = [...sites].find(([, edition]) => edition === code)?.[0];
      if (name) out[code] = `${request.protocol}://${name}${port ? `:${port}` : ''}/`;
    }
    reply.header('cache-control', 'no-cache');
    return { sites: out };
  });
}
