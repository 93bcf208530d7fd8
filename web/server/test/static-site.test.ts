import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../http/messages.js';
import { CONTENT_SECURITY_POLICY, EARLY_SCRIPT_HASH } from '../http/security-headers.js';
import { decodedUrlPath, isPagePath, prerenderedPageFor, spaIndexFor } from '../http/static-site.js';
import { PATHS, VALID, makeTempDir, postJson, queryRows, send, startTestServer, type TestServer } from './helpers.js';

const EDITIONS = ['ny', 'tx', 'ca', 'fl', 'hub'] as const;
type Edition = (typeof EDITIONS)[number];

/** Each edition's files differ, so a test can tell which edition answered. */
const enIndex = (e: Edition) => `<!doctype html><title>ptax ${e}</title><script type="module" src="/assets/app-${e}.js"></script>`;
const esIndex = (e: Edition) => `<!doctype html><html lang="es"><title>ptax ${e} es</title>`;
const contactPage = (e: Edition) => `<!doctype html><title>contact ${e}</title>`;
const contactoPage = (e: Edition) => `<!doctype html><html lang="es"><title>contacto ${e}</title>`;
/** Every edition has a file of this name with its own content (the hashes differ in a real build). */
const appJs = (e: Edition) => `console.log("ptax ${e}");`;

const webDirs: string[] = [];
afterAll(() => {
  for (const dir of webDirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * A stand-in for the web app's production build: `<dir>/<edition>/` for each edition given,
 * with index.html, es/index.html (unless withSpanish is false), pre-rendered contact pages,
 * a hashed asset and the build's precompressed copies (brotli and gzip next to each text file).
 */
function writeWebBuild(editions: readonly Edition[] = EDITIONS, withSpanish = true): string {
  const dir = makeTempDir('ptax-web-');
  webDirs.push(dir);
  for (const e of editions) {
    const site = join(dir, e);
    mkdirSync(join(site, 'assets'), { recursive: true });
    writeFileSync(join(site, 'index.html'), enIndex(e));
    writeFileSync(join(site, 'index.html.br'), brotliCompressSync(enIndex(e)));
    writeFileSync(join(site, 'assets', 'app-abc123.js'), appJs(e));
    writeFileSync(join(site, 'assets', 'app-abc123.js.br'), brotliCompressSync(appJs(e)));
    writeFileSync(join(site, 'assets', 'app-abc123.js.gz'), gzipSync(appJs(e)));
    writeFileSync(join(site, 'robots.txt'), `User-agent: * # ${e}`);
    writeFileSync(join(site, '.env'), 'SECRET=1');
    mkdirSync(join(site, 'contact'));
    writeFileSync(join(site, 'contact', 'index.html'), contactPage(e));
    if (withSpanish) {
      mkdirSync(join(site, 'es', 'contacto'), { recursive: true });
      writeFileSync(join(site, 'es', 'index.html'), esIndex(e));
      writeFileSync(join(site, 'es', 'contacto', 'index.html'), contactoPage(e));
    }
  }
  return dir;
}

function expectSecurityHeaders(headers: Record<string, unknown>): void {
  expect(headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['x-frame-options']).toBe('DENY');
}

/** GET on a host name (the Host header; the connection still goes to the test server). */
const get = (server: TestServer, path: string, host: string, headers: Record<string, string> = {}) =>
  send(server.baseUrl, { path, headers: { host, ...headers } });

describe('path helpers', () => {
  it('tells pages from files', () => {
    expect(['/', '/es', '/es/', '/contact', '/county/harris', '/guides/x/'].every(isPagePath)).toBe(true);
    expect(['/assets', '/assets/', '/assets/x', '/favicon.svg', '/es/robots.txt'].some(isPagePath)).toBe(false);
    expect(spaIndexFor('/es/calculadora', true)).toBe('es/index.html');
    expect(spaIndexFor('/es/calculadora', false)).toBe('index.html');
    expect(spaIndexFor('/estimate', true)).toBe('index.html');
    expect(spaIndexFor('/assets/x', true)).toBeUndefined();
  });

  it('names the pre-rendered page of a path', () => {
    expect(prerenderedPageFor('/')).toBe('index.html');
    expect(prerenderedPageFor('/contact')).toBe('contact/index.html');
    expect(prerenderedPageFor('/contact/')).toBe('contact/index.html');
    expect(prerenderedPageFor('/es/contacto')).toBe('es/contacto/index.html');
  });

  it('decodes URL paths and refuses non-canonical ones', () => {
    expect(decodedUrlPath('/a%20b/c?x=%2e%2e')).toBe('/a b/c');
    expect(decodedUrlPath('/file%23name')).toBe('/file#name');
    for (const url of ['/../etc/passwd', '/%2e%2e/hub/index.html', '/a/./b', '//a', '/a\\b', '/%00', '/%E0%A4%A']) {
      expect(decodedUrlPath(url)).toBeUndefined();
    }
  });
});

describe('with the five editions built', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ webDir: writeWebBuild() });
  });
  afterAll(async () => {
    await server.close();
  });

  it('has a CSP that allows only its own scripts and the one inline script by hash, and forbids framing', () => {
    const directives = CONTENT_SECURITY_POLICY.split('; ');
    expect(directives).toContain(`script-src 'self' '${EARLY_SCRIPT_HASH}'`);
    expect(directives).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(directives.find((d) => d.startsWith('script-src'))).not.toContain('unsafe-inline');
  });

  it.each(['web/index.html', 'web/es/index.html'])('the hash in the CSP is the hash of the inline script of %s (its only one)', (file) => {
    const html = readFileSync(file, 'utf8');
    const inline = [...html.matchAll(/<script>([^<]*)<\/script>/g)].map((m) => m[1]!);
    expect(inline).toHaveLength(1);
    expect(`sha256-${createHash('sha256').update(inline[0]!).digest('base64')}`).toBe(EARLY_SCRIPT_HASH);
  });

  it.each<[string, Edition]>([
    ['ny.localhost:8080', 'ny'],
    ['tx.localhost:8080', 'tx'],
    ['ca.localhost', 'ca'],
    ['fl.localhost:80', 'fl'],
    ['TX.LocalHost:8080', 'tx'],
    ['ny.localhost.:8080', 'ny'],
    ['127.0.0.1:8080', 'hub'],
    ['localhost:8080', 'hub'],
    ['[::1]:8080', 'hub'],
    ['www.example.org', 'hub'],
    ['ny.localhost.example.org', 'hub'],
  ])('on host %s serves the %s edition, pages with no-cache and the security headers', async (host, edition) => {
    const page = await get(server, '/', host);
    expect([page.status, page.text]).toEqual([200, enIndex(edition)]);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    expectSecurityHeaders(page.headers);
    const asset = await get(server, '/assets/app-abc123.js', host);
    expect([asset.status, asset.text]).toEqual([200, appJs(edition)]);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const robots = await get(server, '/robots.txt', host);
    expect([robots.text, robots.headers['cache-control']]).toEqual([`User-agent: * # ${edition}`, 'no-cache']);
  });

  it('serves the hub to a request without a Host header (HTTP/1.0)', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/', headers: { host: '' } });
    expect([res.statusCode, res.body]).toEqual([200, enIndex('hub')]);
  });

  it("sends the edition's precompressed copy the browser accepts, with vary: accept-encoding", async () => {
    const gz = await get(server, '/assets/app-abc123.js', 'tx.localhost:8080', { 'accept-encoding': 'gzip' });
    expect(gz.status).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const br = await server.app.inject({
      url: '/assets/app-abc123.js',
      headers: { host: 'fl.localhost:8080', 'accept-encoding': 'br, gzip' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(appJs('fl'));
    // Pages too, the SPA fallback included: the index's .br.
    const page = await server.app.inject({ url: '/county/harris', headers: { host: 'ca.localhost', 'accept-encoding': 'br' } });
    expect([page.headers['content-encoding'], page.headers['cache-control']]).toEqual(['br', 'no-cache']);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(brotliDecompressSync(page.rawPayload).toString('utf8')).toBe(enIndex('ca'));
    // Without a compressed copy (es/index.html here) or without accept-encoding: the file itself.
    const es = await get(server, '/es', 'ca.localhost', { 'accept-encoding': 'br, gzip' });
    expect([es.headers['content-encoding'], es.text]).toEqual([undefined, esIndex('ca')]);
    const plain = await get(server, '/assets/app-abc123.js', 'tx.localhost');
    expect([plain.headers['content-encoding'], plain.text]).toEqual([undefined, appJs('tx')]);
  });

  it.each(['/es', '/es/', '/es/calculadora', '/es/guias/errores-comunes'])("falls back to the edition's es/index.html for %s", async (path) => {
    for (const edition of ['tx', 'hub'] as const) {
      const res = await get(server, path, edition === 'hub' ? '127.0.0.1' : `${edition}.localhost`);
      expect([res.status, res.text]).toEqual([200, esIndex(edition)]);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it.each(['/about', '/guides/new-york-property-taxes-explained', '/county/harris', '/estimate?value=350000', '/contacts', '/contact/form'])(
    "falls back to the edition's index.html for %s",
    async (path) => {
      const res = await get(server, path, 'fl.localhost:8080');
      expect([res.status, res.text]).toEqual([200, enIndex('fl')]);
      expect(res.headers['cache-control']).toBe('no-cache');
    },
  );

  it.each([
    ['/contact', contactPage],
    ['/contact/', contactPage],
    ['/contact?from=footer', contactPage],
    ['/es/contacto', contactoPage],
    ['/es/contacto/', contactoPage],
  ])("serves the edition's pre-rendered page for %s", async (path, page) => {
    const res = await get(server, path, 'ny.localhost:8080');
    expect([res.status, res.text]).toEqual([200, page('ny')]);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('answers HEAD like GET, without a body', async () => {
    const res = await server.app.inject({ method: 'HEAD', url: '/contact', headers: { host: 'tx.localhost' } });
    expect([res.statusCode, res.body, res.headers['cache-control']]).toEqual([200, '', 'no-cache']);
  });

  it.each(['/assets/app-missing.js', '/assets/', '/favicon.ico', '/.env', '/es/.env', '/api/unknown', '/api', '/api/'])(
    'answers 404 JSON for %s',
    async (path) => {
      const res = await get(server, path, 'tx.localhost');
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ error: 'not_found', message: MESSAGES.not_found.en, status: 404 });
      expectSecurityHeaders(res.headers);
    },
  );

  it("never serves files outside the edition's folder", async () => {
    const paths = [
      '/../../../../etc/passwd',
      '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      '/assets/..%2f..%2f..%2fetc%2fpasswd',
      '/../hub/index.html',
      '/%2e%2e/ny/index.html',
      '/%2e%2e/ny/robots.txt',
      '/assets/%2e%2e/%2e%2e/ny/robots.txt',
    ];
    for (const path of paths) {
      const res = await get(server, path, 'tx.localhost');
      expect(res.text).not.toContain('root:');
      expect(res.text).not.toContain('ptax ny');
      expect(res.text).not.toContain('ptax hub');
      expect(res.text).not.toContain('# ny');
    }
  });

  it('puts the security headers on API answers too, on every host', async () => {
    for (const host of ['tx.localhost:8080', '127.0.0.1']) {
      const res = await postJson(server.baseUrl, PATHS.subscribe, VALID.banner, { host });
      expect(res.status).toBe(200);
      expectSecurityHeaders(res.headers);
    }
  });
});

describe('an edition built without a Spanish index', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ webDir: writeWebBuild(['ca'], false) });
  });
  afterAll(async () => {
    await server.close();
  });

  it('falls back to index.html for /es/... routes', async () => {
    const res = await get(server, '/es/calculadora', 'ca.localhost');
    expect([res.status, res.text]).toEqual([200, enIndex('ca')]);
  });
});

describe('some editions built, others not', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ webDir: writeWebBuild(['ny', 'hub']) });
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers the missing editions with 503, the built ones as usual', async () => {
    for (const [host, path] of [
      ['tx.localhost', '/'],
      ['ca.localhost:8080', '/es/calculadora'],
      ['fl.localhost', '/assets/app-abc123.js'],
    ] as const) {
      const res = await get(server, path, host, { 'accept-language': 'es' });
      expect(res.status).toBe(503);
      expect(res.json).toEqual({ error: 'not_built', message: MESSAGES.not_built.es, status: 503 });
      expectSecurityHeaders(res.headers);
    }
    expect((await get(server, '/', 'ny.localhost')).text).toBe(enIndex('ny'));
    expect((await get(server, '/', '127.0.0.1')).text).toBe(enIndex('hub'));
  });

  it('still serves the API on a missing edition', async () => {
    expect((await postJson(server.baseUrl, PATHS.subscribe, { ...VALID.banner, state: 'TX', tags: [] }, { host: 'tx.localhost' })).status).toBe(200);
    expect((await get(server, '/api/nope', 'tx.localhost')).status).toBe(404);
    expect((await get(server, '/healthz', 'tx.localhost')).status).toBe(200);
  });
});

describe('without a web build', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(); // webDir points at a folder that does not exist
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers pages with 503 saying the calculator is not built', async () => {
    for (const host of ['127.0.0.1', 'ny.localhost']) {
      for (const path of ['/', '/es/calculadora']) {
        const res = await get(server, path, host, { 'accept-language': 'es' });
        expect(res.status).toBe(503);
        expect(res.json).toEqual({ error: 'not_built', message: MESSAGES.not_built.es, status: 503 });
        expectSecurityHeaders(res.headers);
      }
    }
  });

  it('still serves the API', async () => {
    expect((await postJson(server.baseUrl, PATHS.subscribe, VALID.banner)).status).toBe(200);
    expect((await send(server.baseUrl, { path: '/healthz' })).status).toBe(200);
    expect((await send(server.baseUrl, { path: '/api/nope' })).status).toBe(404);
  });
});

describe('the old single-site layout (web/dist/index.html)', () => {
  let server: TestServer;
  beforeAll(async () => {
    const dir = makeTempDir('ptax-web-old-');
    webDirs.push(dir);
    writeFileSync(join(dir, 'index.html'), enIndex('ny'));
    server = await startTestServer({ webDir: dir });
  });
  afterAll(async () => {
    await server.close();
  });

  it('is not served: every edition answers 503', async () => {
    for (const host of ['127.0.0.1', 'ny.localhost']) {
      expect((await get(server, '/', host)).status).toBe(503);
      expect((await get(server, '/index.html', host)).status).toBe(503);
    }
  });
});

describe('a host map of its own (PTAX_SITES)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      webDir: writeWebBuild(),
      sites: new Map([
        ['ny.example.org', 'NY'],
        ['texas.example.org', 'TX'],
        ['www.example.org', 'HUB'],
      ]),
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('replaces the default map: the hosts it lists get their edition, every other host the hub', async () => {
    const answers = async (host: string) => (await get(server, '/', host)).text;
    expect(await answers('ny.example.org')).toBe(enIndex('ny'));
    expect(await answers('Texas.Example.org:443')).toBe(enIndex('tx'));
    expect(await answers('www.example.org')).toBe(enIndex('hub'));
    expect(await answers('tx.localhost:8080')).toBe(enIndex('hub'));
    expect(await answers('ca.localhost')).toBe(enIndex('hub'));
  });

  it("gives a notify request without a state the host's edition", async () => {
    expect((await postJson(server.baseUrl, PATHS.notify, { email: 'bob@example.com' }, { host: 'texas.example.org' })).status).toBe(200);
    expect((await postJson(server.baseUrl, PATHS.notify, { email: 'bob@example.com' }, { host: 'tx.localhost' })).status).toBe(200);
    expect(queryRows(server.dbPath, 'SELECT state FROM notify_requests ORDER BY id')).toEqual([{ state: 'TX' }, { state: 'HUB' }]);
  });
});

describe('a build that appears after the server started', () => {
  let server: TestServer;
  const dir = join(tmpdir(), `ptax-late-build-${process.pid}`);
  beforeAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    webDirs.push(dir);
    server = await startTestServer({ webDir: dir });
  });
  afterAll(async () => {
    await server.close();
  });

  it('is served as soon as it is there, without a restart', async () => {
    expect((await get(server, '/', 'tx.localhost')).status).toBe(503);
    cpSync(writeWebBuild(['tx']), dir, { recursive: true });
    const page = await get(server, '/calculator', 'tx.localhost');
    expect([page.status, page.text]).toEqual([200, enIndex('tx')]);
    expect((await get(server, '/es/calculadora', 'tx.localhost')).text).toBe(esIndex('tx'));
    const asset = await get(server, '/assets/app-abc123.js', 'tx.localhost');
    expect([asset.status, asset.text]).toEqual([200, appJs('tx')]);
    expect((await get(server, '/', 'ny.localhost')).status).toBe(503);
  });
});
