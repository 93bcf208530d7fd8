import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestLanguage, sendAnswer } from './answers.js';

/**
 * Serves the web app's production build and everything that matches no route:
 * - files from webDir (the build's .br / .gz copies when the browser accepts them); under /assets/ (content-hashed names) cached for a year, immutable;
 *   every other file, index.html included, revalidated on each use (no-cache);
 * - page routes of the single-page app fall back to their index: /es and /es/... to
 *   es/index.html when it exists, else index.html; everything else to index.html;
 * - unknown /api/... and missing files answer 404 JSON;
 * - when the build is missing, pages answer 503 JSON saying so, and the API still works.
 */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const PAGE_CACHE_CONTROL = 'no-cache';

export function cacheControlFor(pathInBuild: string): string {
  return pathInBuild.startsWith('assets/') ? ASSET_CACHE_CONTROL : PAGE_CACHE_CONTROL;
}

/** Which index page serves a page route, or undefined when the path is not a page route. */
export function spaIndexFor(urlPath: string, hasSpanishIndex: boolean): string | undefined {
  if (urlPath === '/assets' || urlPath.startsWith('/assets/')) return undefined; // a missing asset must not become HTML
  const lastSegment = urlPath.slice(urlPath.lastIndexOf('/') + 1);
  if (lastSegment.includes('.')) return undefined; // a file name: /favicon.ico, /robots.txt
  const spanish = urlPath === '/es' || urlPath.startsWith('/es/');
  return spanish && hasSpanishIndex ? 'es/index.html' : 'index.html';
}

function isApiPath(urlPath: string): boolean {
  return urlPath === '/api' || urlPath.startsWith('/api/');
}

export async function registerStaticSite(app: FastifyInstance, webDir: string): Promise<void> {
  // Whether the build is there is checked on each page request, not once at start-up:
  // a server started before (or during) a build serves it as soon as it is complete.
  const indexPath = join(webDir, 'index.html');
  const spanishIndexPath = join(webDir, 'es', 'index.html');
  await app.register(fastifyStatic, {
    root: webDir,
    cacheControl: false, // set per file below instead of send's max-age=0
    serveDotFiles: false,
    // The build writes .br and .gz next to each text file: sent when the browser accepts them.
    preCompressed: true,
    setHeaders: (reply, filePath) => {
      reply.header('cache-control', cacheControlFor(relative(webDir, filePath).split(sep).join('/')));
    },
  });

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const urlPath = request.url.split('?', 1)[0] ?? '/';
    const language = requestLanguage(request);
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    if (isApiPath(urlPath) || !isRead) return sendAnswer(reply, 404, 'not_found', language);
    if (!existsSync(indexPath)) return sendAnswer(reply, 503, 'not_built', language);
    const index = spaIndexFor(urlPath, existsSync(spanishIndexPath));
    if (index === undefined) return sendAnswer(reply, 404, 'not_found', language);
    return reply.sendFile(index);
  });
}
