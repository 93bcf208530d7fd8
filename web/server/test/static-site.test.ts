import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../http/messages.js';
import { CONTENT_SECURITY_POLICY } from '../http/security-headers.js';
import { PATHS, VALID, makeTempDir, postJson, send, startTestServer, type TestServer } from './helpers.js';

const EN_INDEX = '<!doctype html><title>ptax</title><script type="module" src="/assets/app-abc123.js"></script>';
const ES_INDEX = '<!doctype html><html lang="es"><title>ptax es</title>';
const APP_JS = 'console.log("ptax");';

const webDirs: string[] = [];
afterAll(() => {
  for (const dir of webDirs) rmSync(dir, { recursive: true, force: true });
});

/** A stand-in for the web app's production build. */
function writeWebBuild(withSpanish: boolean): string {
  const dir = makeTempDir('ptax-web-');
  webDirs.push(dir);
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), EN_INDEX);
  writeFileSync(join(dir, 'assets', 'app-abc123.js'), APP_JS);
  // The build's precompressed copies (web/scripts): brotli and gzip next to each text file.
  writeFileSync(join(dir, 'assets', 'app-abc123.js.br'), brotliCompressSync(APP_JS));
  writeFileSync(join(dir, 'assets', 'app-abc123.js.gz'), gzipSync(APP_JS));
  if (withSpanish) {
    mkdirSync(join(dir, 'es'));
    writeFileSync(join(dir, 'es', 'index.html'), ES_INDEX);
  }
  return dir;
}

function expectSecurityHeaders(headers: Record<string, unknown>): void {
  expect(headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['x-frame-options']).toBe('DENY');
}

describe('with a web build', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ webDir: writeWebBuild(true) });
  });
  afterAll(async () => {
    await server.close();
  });

  it('has a CSP without inline scripts that forbids framing', () => {
    const directives = CONTENT_SECURITY_POLICY.split('; ');
    expect(directives).toContain("script-src 'self'");
    expect(directives).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(directives.find((d) => d.startsWith('script-src'))).not.toContain('unsafe-inline');
  });

  it('serves index.html at / with no-cache and the security headers', async () => {
    const res = await send(server.baseUrl, { path: '/' });
    expect(res.status).toBe(200);
    expect(res.text).toBe(EN_INDEX);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expectSecurityHeaders(res.headers);
  });

  it('sends the precompressed copy the browser accepts, with vary: accept-encoding', async () => {
    const gz = await send(server.baseUrl, { path: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.status).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const br = await send(server.baseUrl, { path: '/assets/app-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    // Without a compressed copy (index.html here) or without accept-encoding: the file itself.
    const plain = await send(server.baseUrl, { path: '/assets/app-abc123.js' });
    expect([plain.headers['content-encoding'], plain.text]).toEqual([undefined, APP_JS]);
  });

  it('serves hashed assets with a long immutable cache', async () => {
    const res = await send(server.baseUrl, { path: '/assets/app-abc123.js' });
    expect(res.status).toBe(200);
    expect(res.text).toBe(APP_JS);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expectSecurityHeaders(res.headers);
  });

  it.each(['/es', '/es/', '/es/calculadora', '/es/guias/errores-comunes'])('falls back to es/index.html for %s', async (path) => {
    const res = await send(server.baseUrl, { path });
    expect(res.status).toBe(200);
    expect(res.text).toBe(ES_INDEX);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it.each(['/about', '/guides/new-york-property-taxes-explained', '/county/harris', '/estimate?value=350000'])(
    'falls back to index.html for %s',
    async (path) => {
      const res = await send(server.baseUrl, { path });
      expect(res.status).toBe(200);
      expect(res.text).toBe(EN_INDEX);
      expect(res.headers['cache-control']).toBe('no-cache');
    },
  );

  it.each(['/assets/app-missing.js', '/favicon.ico', '/api/unknown', '/api'])('answers 404 JSON for %s', async (path) => {
    const res = await send(server.baseUrl, { path });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: 'not_found', message: MESSAGES.not_found.en, status: 404 });
    expectSecurityHeaders(res.headers);
  });

  it('never serves files outside the build', async () => {
    for (const path of ['/../../../../etc/passwd', '/%2e%2e/%2e%2e/%2e%2e/etc/passwd', '/assets/..%2f..%2f..%2fetc%2fpasswd']) {
      const res = await send(server.baseUrl, { path });
      expect(res.text).not.toContain('root:');
    }
  });

  it('puts the security headers on API answers too', async () => {
    const res = await postJson(server.baseUrl, PATHS.subscribe, VALID.banner);
    expect(res.status).toBe(200);
    expectSecurityHeaders(res.headers);
  });
});

describe('with a web build without a Spanish index', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ webDir: writeWebBuild(false) });
  });
  afterAll(async () => {
    await server.close();
  });

  it('falls back to index.html for /es/... routes', async () => {
    const res = await send(server.baseUrl, { path: '/es/calculadora' });
    expect(res.status).toBe(200);
    expect(res.text).toBe(EN_INDEX);
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
    for (const path of ['/', '/es/calculadora']) {
      const res = await send(server.baseUrl, { path, headers: { 'accept-language': 'es' } });
      expect(res.status).toBe(503);
      expect(res.json).toEqual({ error: 'not_built', message: MESSAGES.not_built.es, status: 503 });
      expectSecurityHeaders(res.headers);
    }
  });

  it('still serves the API', async () => {
    expect((await postJson(server.baseUrl, PATHS.subscribe, VALID.banner)).status).toBe(200);
    expect((await send(server.baseUrl, { path: '/healthz' })).status).toBe(200);
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
    expect((await send(server.baseUrl, { path: '/' })).status).toBe(503);
    const built = writeWebBuild(true);
    cpSync(built, dir, { recursive: true });
    const page = await send(server.baseUrl, { path: '/calculator' });
    expect([page.status, page.text]).toEqual([200, EN_INDEX]);
    expect((await send(server.baseUrl, { path: '/es/calculadora' })).text).toBe(ES_INDEX);
    const asset = await send(server.baseUrl, { path: '/assets/app-abc123.js' });
    expect([asset.status, asset.text]).toEqual([200, APP_JS]);
  });
});
