import { statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { editionForHost, type SiteMap } from '../config.js';
import type { StateCode } from '../validation/states.js';
import { requestLanguage, sendAnswer } from './answers.js';
import { pageWithMeta, shareMeta } from './share-meta.js';

/**
 * Serves the web app's production build, one complete site per edition, and answers
 * everything that matches no route:
 * - the edition is chosen by the request's host (editionForHost in config.ts) and its files
 *   come from `<webDir>/<code in lower case>/` (ny, tx, ca, fl, hub); every edition is built
 *   with base `/`, so `/assets/x.js` on tx.localhost is `<webDir>/tx/assets/x.js`;
 * - files are sent as the build's .br / .gz copies when the browser accepts them; under
 *   /assets/ (content-hashed names) cached for a year, immutable; every other file,
 *   index.html included, revalidated on each use (no-cache);
 * - a page path is served by its pre-rendered page when the edition has one
 *   (`/contact` and `/contact/` by `contact/index.html`), else by the single-page app's
 *   index: /es and /es/... by es/index.html when it exists, else index.html; everything
 *   else by index.html;
 * - unknown /api/... and missing files answer 404 JSON;
 * - when an edition's build is missing (no index.html), its pages answer 503 JSON saying so,
 *   and the API still works.
 * Caches: the host is part of an HTTP cache's key (the URL's authority), so the editions
 * need no `vary: host`.
 */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const PAGE_CACHE_CONTROL = 'no-cache';

/** The folder of an edition's build inside webDir: `ny`, `tx`, `ca`, `fl`, `hub`. */
export function editionFolder(edition: StateCode): string {
  return edition.toLowerCase();
}

/** `pathInSite` is relative to an edition's folder: `assets/app-1a2b.js`, `es/index.html`. */
export function cacheControlFor(pathInSite: string): string {
  return pathInSite.startsWith('assets/') ? ASSET_CACHE_CONTROL : PAGE_CACHE_CONTROL;
}

/** Whether a URL path names a page (answered with HTML) rather than a file. */
export function isPagePath(urlPath: string): boolean {
  if (urlPath === '/assets' || urlPath.startsWith('/assets/')) return false; // a missing asset must not become HTML
  const lastSegment = urlPath.slice(urlPath.lastIndexOf('/') + 1);
  return !lastSegment.includes('.'); // a file name: /favicon.ico, /robots.txt
}

/** Which index page serves a page route, or undefined when the path is not a page route. */
export function spaIndexFor(urlPath: string, hasSpanishIndex: boolean): string | undefined {
  if (!isPagePath(urlPath)) return undefined;
  const spanish = urlPath === '/es' || urlPath.startsWith('/es/');
  return spanish && hasSpanishIndex ? 'es/index.html' : 'index.html';
}

/** `/contact` and `/contact/` -> `contact/index.html`; `/` -> `index.html`. */
export function prerenderedPageFor(pagePath: string): string {
  const folder = pagePath.replace(/^\/+|\/+$/g, '');
  return folder === '' ? 'index.html' : `${folder}/index.html`;
}

function isApiPath(urlPath: string): boolean {
  return urlPath === '/api' || urlPath.startsWith('/api/');
}

/**
 * The decoded path of a request URL, or undefined when it cannot be served: undecodable,
 * not canonical (`..`, `.`, `//`), or with a backslash or NUL. `%23` and `%3F` are decoded
 * too, as @fastify/static does, since reply.sendFile encodes its path again.
 */
export function decodedUrlPath(url: string): string | undefined {
  const raw = url.split('?', 1)[0] ?? '/';
  let path: string;
  try {
    path = decodeURI(raw.replace(/%(?:23|3f)/gi, decodeURIComponent));
  } catch {
    return undefined;
  }
  if (!path.startsWith('/') || path.includes('\\') || path.includes('\0')) return undefined;
  return posix.normalize(path) === path ? path : undefined;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export async function registerStaticSite(app: FastifyInstance, webDir: string, sites: SiteMap): Promise<void> {
  // Only reply.sendFile is used (serve: false): the root is the edition's folder, given per
  // request. preCompressed, dotfiles and setHeaders apply to sendFile as to the plugin's route.
  await app.register(fastifyStatic, {
    serve: false,
    cacheControl: false, // set per file below instead of send's max-age=0
    dotfiles: 'ignore', // .env, .git… are answered 404
    // The build writes .br and .gz next to each text file: sent when the browser accepts them.
    preCompressed: true,
    setHeaders: (reply, filePath) => {
      // filePath is <webDir>/<edition>/<path in the site>
      const [, ...inSite] = relative(webDir, filePath).split(sep);
      reply.header('cache-control', cacheControlFor(inSite.join('/')));
    },
  });

  const notFound = (request: FastifyRequest, reply: FastifyReply) => sendAnswer(reply, 404, 'not_found', requestLanguage(request));

  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    handler: async (request, reply) => {
      const path = decodedUrlPath(request.url);
      if (path === undefined || isApiPath(path)) return notFound(request, reply);
      const root = join(webDir, editionFolder(editionForHost(request.headers.host, sites)));
      // Whether the build is there is checked on each request, not once at start-up: a
      // server started before (or during) a build serves it as soon as it is complete.
      if (!isFile(join(root, 'index.html'))) return sendAnswer(reply, 503, 'not_built', requestLanguage(request));
      if (!isPagePath(path)) return reply.sendFile(path, root); // a missing file: callNotFound, 404
      const prerendered = prerenderedPageFor(path);
      // A share link of a calculation: the home page with the figure in its link preview.
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
      if (query && (prerendered === 'index.html' || prerendered === 'es/index.html') && isFile(join(root, prerendered))) {
        const meta = shareMeta(query, editionForHost(request.headers.host, sites), prerendered === 'index.html' ? 'en' : 'es');
        if (meta)
          return reply
            .header('cache-control', PAGE_CACHE_CONTROL)
            .type('text/html; charset=utf-8')
            .send(pageWithMeta(join(root, prerendered), meta, request.url));
      }
      if (isFile(join(root, prerendered))) return reply.sendFile(prerendered, root);
      // A page path the build did not write: the edition's page-not-found screen, status 404.
      const spanish = path === '/es' || path.startsWith('/es/');
      const notFoundPage = spanish && isFile(join(root, 'es', '404.html')) ? 'es/404.html' : '404.html';
      if (isFile(join(root, notFoundPage))) return reply.code(404).sendFile(notFoundPage, root);
      const index = spaIndexFor(path, isFile(join(root, 'es', 'index.html')));
      return index === undefined ? notFound(request, reply) : reply.sendFile(index, root);
    },
  });

  // Other methods on unknown paths, unknown /api/... routes, files sendFile did not find.
  app.setNotFoundHandler(async (request, reply) => notFound(request, reply));
}
