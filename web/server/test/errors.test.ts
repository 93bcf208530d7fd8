import { connect } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WriterClosedError } from '../db/group-commit.js';
import { ApiError, classifyError, keyForValidation, registerErrorHandler } from '../http/errors.js';
import { MESSAGES } from '../http/messages.js';
import { startTestServer, type TestServer } from './helpers.js';

describe('classifyError', () => {
  const withStatus = (statusCode: number, code?: string) => Object.assign(new Error('x'), { statusCode, code });
  it.each([
    [new ApiError(400, 'invalid_tags'), 400, 'invalid_tags'],
    [withStatus(413, 'FST_ERR_CTP_BODY_TOO_LARGE'), 413, 'body_too_large'],
    [withStatus(415, 'FST_ERR_CTP_INVALID_MEDIA_TYPE'), 415, 'unsupported_media_type'],
    [withStatus(400, 'FST_ERR_CTP_EMPTY_JSON_BODY'), 400, 'invalid_json'],
    [Object.assign(new SyntaxError('Unexpected token'), { statusCode: 400 }), 400, 'invalid_json'],
    [withStatus(429), 429, 'rate_limited'],
    [withStatus(404), 404, 'not_found'],
    [withStatus(418), 418, 'bad_request'],
    [new WriterClosedError(), 503, 'unavailable'],
    [new Error('disk I/O error at /var/lib/ptax'), 500, 'internal_error'],
    [withStatus(502), 500, 'internal_error'],
  ])('%s -> %i %s', (error, status, key) => {
    expect(classifyError(error)).toEqual({ status, key });
  });

  it('maps the first schema violation to a field message', () => {
    const v = (keyword: string, instancePath: string, params: Record<string, unknown> = {}) => [{ keyword, instancePath, schemaPath: '', params, message: '' }];
    expect(keyForValidation(v('required', '', { missingProperty: 'firstName' }))).toBe('first_name_required');
    expect(keyForValidation(v('additionalProperties', '', { additionalProperty: 'x' }))).toBe('unknown_field');
    expect(keyForValidation(v('format', '/email'))).toBe('invalid_email');
    expect(keyForValidation(v('minLength', '/email'))).toBe('email_required');
    expect(keyForValidation(v('format', '/tags/3'))).toBe('invalid_tags');
    expect(keyForValidation(v('type', ''))).toBe('invalid_request');
    expect(keyForValidation([])).toBe('invalid_request');
  });
});

describe('a 5xx answer', () => {
  it('says only that something went wrong, in the JSON shape', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandler(app);
    app.get('/boom', async () => {
      throw new Error('SQLITE_IOERR at /srv/ptax/data/ptax.sqlite for ann@example.com');
    });
    const res = await app.inject({ method: 'GET', url: '/boom', headers: { 'accept-language': 'es' } });
    await app.close();
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: 'internal_error', message: MESSAGES.internal_error.es, status: 500 });
    expect(res.body).not.toMatch(/SQLITE|srv|ann@|at /);
  });
});

describe('malformed HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  function rawExchange(bytes: string): Promise<string> {
    const { port } = new URL(server.baseUrl);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.end(bytes));
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.on('error', reject);
    });
  }

  it('is answered 400 with the JSON shape', async () => {
    const answer = await rawExchange('POST /api/notify HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      error: 'bad_request',
      message: MESSAGES.bad_request.en,
      status: 400,
    });
  });

  it('an undecodable URL is answered 400 with the JSON shape', async () => {
    const answer = await rawExchange('GET /es/%ff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      error: 'bad_request',
      message: MESSAGES.bad_request.en,
      status: 400,
    });
  });
});
