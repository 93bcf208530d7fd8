import { isLanguage, type Language } from './messages.js';

/**
 * Chooses the language of an answer: the payload's `language` when it is a supported one,
 * else the best supported match in Accept-Language, else English.
 */
export function pickLanguage(payloadLanguage: unknown, acceptLanguage: string | undefined): Language {
  if (isLanguage(payloadLanguage)) return payloadLanguage;
  return fromAcceptLanguage(acceptLanguage) ?? 'en';
}

/** Reads the body's `language` without trusting the body's shape (it may be anything, or absent). */
export function payloadLanguage(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  return Object.hasOwn(body, 'language') ? (body as { language?: unknown }).language : undefined;
}

/**
 * Parses an Accept-Language header (RFC 9110 §12.5.4) and returns the supported language with
 * the highest weight; among equal weights the first listed wins. Region subtags are ignored
 * (es-MX counts as es). Returns undefined when nothing supported is acceptable.
 */
export function fromAcceptLanguage(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  let best: Language | undefined;
  let bestWeight = 0;
  // A header is short in practice; cap the work on a hostile one.
  for (const part of header.slice(0, 512).split(',')) {
    const [range = '', ...params] = part.trim().split(';');
    const primary = range.trim().toLowerCase().split('-')[0];
    if (!isLanguage(primary)) continue;
    const weight = parseWeight(params);
    if (weight > bestWeight) {
      best = primary;
      bestWeight = weight;
    }
  }
  return best;
}

function parseWeight(params: string[]): number {
  for (const param of params) {
    const [name, value] = param.trim().split('=');
    if (name?.trim().toLowerCase() === 'q') {
      const q = Number(value);
      return Number.isFinite(q) && q >= 0 && q <= 1 ? q : 0;
    }
  }
  return 1;
}
