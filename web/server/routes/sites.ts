import type { FastifyInstance } from 'fastify';
import type { SiteMap } from '../config.js';
import { EDITION_CODES } from '../validation/states.js';

/**
 * GET /api/sites — where each edition is served, for the hub's links: the first host the
 * map (PTAX_SITES, or the *.localhost defaults) gives each edition; an edition with no host of
 * its own is left out (the hub links to what it is given). `{ sites: { NY: "http://ny.localhost:8080/", … } }`.
 *
 * Scheme and port: with PTAX_PUBLIC_URL, its own (as the links in mails), never the request's.
 * Without it (development, behind Vite's proxy too), the request's protocol and the port of
 * its Host header, only when that is a port (1–65535, digits only): `Host: x:99999` gives no
 * port, not 99999 (issue 25).
 */
export function registerSitesRoute(app: FastifyInstance, sites: SiteMap, publicUrl: string | undefined): void {
  const base = publicUrl === undefined ? undefined : new URL(publicUrl);
  app.get('/api/sites', async (request, reply) => {
    let protocol: string;
    let port: string | undefined;
    if (base !== undefined) {
      protocol = base.protocol.slice(0, -1);
      port = base.port === '' ? undefined : base.port;
    } else {
      protocol = request.protocol;
      port = portOf(request.headers.host ?? '');
    }
    const out: Record<string, string> = {};
    for (const code of EDITION_CODES) {
      const name = [...sites].find(([, edition]) => edition === code)?.[0];
      if (name) out[code] = `${protocol}://${name}${port ? `:${port}` : ''}/`;
    }
    reply.header('cache-control', 'no-cache');
    return { sites: out };
  });
}

/** The port of a Host header value when it is one (`x:8080` -> `8080`); else undefined. */
export function portOf(host: string): string | undefined {
  const raw = /:([0-9]{1,5})$/.exec(host.trim())?.[1];
  if (raw === undefined) return undefined;
  const port = Number(raw);
  return port >= 1 && port <= 65_535 ? String(port) : undefined;
}
