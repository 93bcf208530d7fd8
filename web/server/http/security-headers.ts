import type { FastifyInstance } from 'fastify';

/**
 * Content Security Policy of the site. No inline or remote scripts (script-src 'self'); inline
 * styles are tolerated because UI libraries set element styles, which is far less dangerous.
 * frame-ancestors 'none' forbids framing (clickjacking); X-Frame-Options says the same to old browsers.
 * The one inline script, in web/index.html and web/es/index.html, is allowed by its hash
 * (EARLY_SCRIPT_HASH; a test checks it against the files).
 */
/**
 * The pages' one inline script: before the first paint it marks <html data-consent="ask">
 * when the visitor has not made the analytics choice, so the pre-rendered consent banner
 * shows at once instead of arriving late (and becoming the page's largest paint).
 */
export const EARLY_SCRIPT_HASH = 'sha256-6mR8as9aeHHfWr1loZTtoMpor6r/qhHxcL3XNF0V3rY=';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  `script-src 'self' '${EARLY_SCRIPT_HASH}'`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/** Sent on answers to HTTPS requests only (a browser ignores it over HTTP anyway): one year. */
export const HSTS = 'max-age=31536000';

/**
 * Set on every answer (pages, assets, API, errors) before any handler runs. HSTS when the
 * request came over HTTPS: as this server speaks plain HTTP, that is when a trusted proxy
 * (PTAX_TRUST_PROXY) says so in X-Forwarded-Proto; from anyone else the header is ignored.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(SECURITY_HEADERS);
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
}
