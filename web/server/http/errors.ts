import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaValidationError } from 'fastify';
import { WriterClosedError } from '../db/group-commit.js';
import { apiAnswer, requestLanguage, sendAnswer } from './answers.js';
import type { Language, MessageKey } from './messages.js';
import { SECURITY_HEADERS } from './security-headers.js';

/** A refusal decided by a handler (a rule the schema cannot express). */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly key: MessageKey,
  ) {
    super(key);
    this.name = 'ApiError';
  }
}

/** Message keys for a field that is missing (or empty), and for one that is present but wrong. */
const FIELD_MESSAGES: Readonly<Record<string, { missing: MessageKey; invalid: MessageKey }>> = {
  email: { missing: 'email_required', invalid: 'invalid_email' },
  state: { missing: 'state_required', invalid: 'invalid_state' },
  language: { missing: 'invalid_language', invalid: 'invalid_language' },
  tags: { missing: 'invalid_tags', invalid: 'invalid_tags' },
  firstName: { missing: 'first_name_required', invalid: 'invalid_first_name' },
  county: { missing: 'invalid_county', invalid: 'invalid_county' },
  calculatedTax: { missing: 'invalid_calculated_tax', invalid: 'invalid_calculated_tax' },
  name: { missing: 'name_required', invalid: 'invalid_name' },
  subject: { missing: 'subject_required', invalid: 'invalid_subject' },
  message: { missing: 'message_required', invalid: 'invalid_message' },
};

/** Turns the first schema violation into the message that tells the visitor what to fix. */
export function keyForValidation(errors: readonly FastifySchemaValidationError[]): MessageKey {
  const first = errors[0];
  if (first === undefined) return 'invalid_request';
  if (first.keyword === 'additionalProperties') return 'unknown_field';
  if (first.keyword === 'required') {
    const missing = (first.params as { missingProperty?: unknown }).missingProperty;
    return (typeof missing === 'string' && FIELD_MESSAGES[missing]?.missing) || 'invalid_request';
  }
  const field = first.instancePath.split('/')[1]; // "/tags/3" -> "tags"; "" (the body) -> undefined
  const messages = field === undefined ? undefined : FIELD_MESSAGES[field];
  if (messages === undefined) return 'invalid_request';
  // Every string field has minLength 1, so a minLength failure is an empty field.
  return first.keyword === 'minLength' ? messages.missing : messages.invalid;
}

const BY_FASTIFY_CODE: Readonly<Record<string, { status: number; key: MessageKey }>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, key: 'body_too_large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, key: 'unsupported_media_type' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, key: 'invalid_json' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, key: 'invalid_json' },
};

/** Seconds a 503 asks the client (and a load balancer) to wait. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * SQLite errors that say the database cannot take writes now (disk full, read-only file or
 * folder, I/O error, locked for too long): the service is unavailable, not broken.
 */
const UNAVAILABLE_SQLITE = /^SQLITE_(?:FULL|READONLY|IOERR|BUSY|LOCKED|CANTOPEN|NOMEM|PROTOCOL)/;

export function isUnavailableSqliteError(error: unknown): boolean {
  if (!(error instanceof Error) || error.name !== 'SqliteError') return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && UNAVAILABLE_SQLITE.test(code);
}

/** Maps anything thrown while handling a request to a status and a message key. */
export function classifyError(error: Partial<FastifyError> & Error): { status: number; key: MessageKey } {
  if (error instanceof ApiError) return { status: error.statusCode, key: error.key };
  if (error.validation) return { status: 400, key: keyForValidation(error.validation) };
  if (error instanceof WriterClosedError || isUnavailableSqliteError(error)) return { status: 503, key: 'unavailable' };
  const known = error.code === undefined ? undefined : BY_FASTIFY_CODE[error.code];
  if (known) return known;

  const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (status === 400 && error instanceof SyntaxError) return { status, key: 'invalid_json' }; // JSON.parse, proto poisoning
  if (status === 404) return { status, key: 'not_found' };
  if (status === 405) return { status, key: 'method_not_allowed' };
  if (status === 408) return { status, key: 'request_timeout' };
  if (status === 431) return { status, key: 'headers_too_large' };
  if (status === 413) return { status, key: 'body_too_large' };
  if (status === 415) return { status, key: 'unsupported_media_type' };
  if (status === 429) return { status, key: 'rate_limited' };
  if (status >= 400 && status < 500) return { status, key: 'bad_request' };
  if (status === 503) return { status, key: 'unavailable' };
  return { status: 500, key: 'internal_error' };
}

/** Every error becomes a JSON answer; 5xx are logged in full (scrubbed) and answered in one line. */
export function answerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { status, key } = classifyError(error);
  if (status >= 500) request.log.error({ err: error }, 'request failed');
  else request.log.info({ status, code: key }, 'request refused');
  if (status === 503) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
  // Framework errors (an undecodable URL…) come before the onRequest hook that sets these.
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (!reply.hasHeader(name)) reply.header(name, value);
  return sendAnswer(reply, status, key, requestLanguage(request));
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(answerError);
}

/**
 * An answer written on the raw socket (by this module, not by Fastify), for what never becomes
 * a Fastify request: the JSON shape and the same security headers as every other answer, and
 * `Connection: close` (the connection is closed after it).
 */
export function rawAnswer(status: number, key: MessageKey, language: Language = 'en', extraHeaders: Record<string, string> = {}): string {
  const body = JSON.stringify(apiAnswer(status, key, language));
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    ...extraHeaders,
    'cache-control': 'no-store',
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    date: new Date().toUTCString(),
    connection: 'close',
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join('')}\r\n${body}`;
}

/** Writes a raw answer (when the socket can still take it) and closes the connection. */
export function answerOnSocket(socket: Socket, status: number, key: MessageKey, extraHeaders: Record<string, string> = {}): void {
  if (socket.destroyed) return;
  if (socket.writable) socket.end(rawAnswer(status, key, 'en', extraHeaders));
  // end() lets the answer go out; a peer that never reads it does not hold the socket.
  setTimeout(() => socket.destroy(), 1_000).unref();
}

/**
 * Requests too broken to reach Fastify's routing (malformed HTTP, oversized headers, header
 * and request timeouts) are answered on the raw socket, in the JSON shape with the security
 * headers, then the connection is closed, as Node and Fastify do by default.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (error.code === 'HPE_HEADER_OVERFLOW') return answerOnSocket(socket, 431, 'headers_too_large');
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return answerOnSocket(socket, 408, 'request_timeout');
  return answerOnSocket(socket, 400, 'bad_request');
}
