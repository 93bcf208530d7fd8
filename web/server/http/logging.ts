import type { FastifyLoggerOptions, FastifyServerOptions } from 'fastify';

/**
 * Logging configuration: structured JSON (pino) that never carries an e-mail address, a
 * password or an SSN. Two layers, because neither alone is enough:
 * - redaction removes known-sensitive keys (email, password, ssn, bodies, auth headers);
 * - scrubbing rewrites any e-mail-, SSN- or password-looking text inside log strings, which
 *   is where addresses leak in practice: error messages quoting a broken JSON body, URLs with
 *   a query string, validation messages.
 */

const CENSORED = '[redacted]';

// Anything with an @ between two runs of non-delimiters. The @ in any of its disguises: URL
// encoded once or more (%40, %2540, %252540…), as a JSON or HTML escape, or as a full-width
// or small look-alike (＠ U+FF20, ﹫ U+FE6B), raw or URL-encoded (%EF%BC%A0, %EF%B9%AB, also
// encoded twice). Deliberately broad: a false positive costs a log detail, a miss a leak.
// The local part stops at URL query delimiters (? & =), so that `?email=a@b.c` keeps its key.
const PCT = '%(?:25)*';
const AT_SIGN = [
  '@',
  `${PCT}40`,
  '\\\\u0040',
  '%u0040',
  '&#0*64;',
  '&#x0*40;',
  '&commat;',
  '＠',
  '﹫',
  `${PCT}EF${PCT}BC${PCT}A0`,
  `${PCT}EF${PCT}B9${PCT}AB`,
].join('|');
const EMAIL_LIKE = new RegExp(`[^\\s"'\`<>()[\\]{},;:\\\\/@?&=]+(?:${AT_SIGN})[^\\s"'\`<>()[\\]{},;:\\\\/@?&#]+`, 'giu');
// US SSN with or without separators.
const SSN_LIKE = /(?<!\d)\d{3}[-\s.]?\d{2}[-\s.]?\d{4}(?!\d)/gu;
// password=..., "password":"...", pwd: ...
const PASSWORD_LIKE = /((?:password|passwd|pwd|secret)["']?\s*[:=]\s*["']?)[^\s&"',}]+/giu;

// The link tokens of the mail pages (?token=…): whoever reads them can confirm, unsubscribe
// or delete, so they never reach a log.
const TOKEN_LIKE = /([?&;]token=)[^&#\s"']+/giu;

export function scrubText(text: string): string {
  return text.replace(EMAIL_LIKE, '[email]').replace(SSN_LIKE, '[ssn]').replace(PASSWORD_LIKE, `$1${CENSORED}`).replace(TOKEN_LIKE, `$1${CENSORED}`);
}

const MAX_DEPTH = 8;

/**
 * Returns a copy of a log argument with every string scrubbed. Only plain objects and arrays
 * are walked: requests, replies and errors are left to their serializers below.
 */
export function scrubValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, depth + 1));
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = scrubValue(item, depth + 1);
  return copy;
}

interface LoggableRequest {
  method: string;
  url: string;
  id?: string;
}

interface LoggableError {
  name?: string;
  message?: string;
  stack?: string;
  code?: unknown;
  statusCode?: unknown;
}

export const logSerializers = {
  /** No client address or port: the site is anonymous; the URL may carry a query string. */
  req: (req: LoggableRequest) => ({ method: req.method, url: scrubText(req.url) }),
  err: (err: LoggableError) => ({
    type: err.name ?? 'Error',
    message: scrubText(String(err.message ?? '')),
    stack: scrubText(String(err.stack ?? '')),
    code: err.code,
    statusCode: err.statusCode,
  }),
};

const REDACTED_PATHS = ['email', 'password', 'ssn', 'body', '*.email', '*.password', '*.ssn', '*.body', 'req.headers.authorization', 'req.headers.cookie'];

/** The pino options Fastify accepts as its `logger` option. */
type LoggerConfig = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

/** A destination for log lines (stdout when absent). */
export interface LogStream {
  write(line: string): void;
}

export function loggerOptions(level: string, stream?: LogStream): LoggerConfig {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: { paths: REDACTED_PATHS, censor: CENSORED },
    serializers: logSerializers as FastifyLoggerOptions['serializers'],
    hooks: {
      // Scrubs the message and any plain merge object before pino formats them.
      logMethod(args, method) {
        method.apply(this, args.map((arg) => scrubValue(arg)) as Parameters<typeof method>);
      },
    },
  };
}
