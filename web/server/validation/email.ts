/**
 * E-mail address rules. Deliberately stricter than RFC 5321/5322: ASCII only (no
 * internationalised addresses), dot-atom local part (no quoted strings, no comments), a DNS
 * host name as domain (no IP literals) with an alphabetic or punycode top-level label.
 * Being ASCII-only is what rules out homoglyphs, bidi overrides, zero-width characters, NUL
 * and CR/LF header injection: none of them can pass the character classes below.
 */
export const EMAIL_MAX_LENGTH = 254; // RFC 5321 path limit minus the angle brackets
const LOCAL_PART_MAX_LENGTH = 64;

const LOCAL_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+$/;
const DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const TOP_LEVEL_LABEL = /^(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;

export function isValidEmail(value: string): boolean {
  if (value.length < 6 || value.length > EMAIL_MAX_LENGTH) return false; // a@b.co is the shortest
  const at = value.indexOf('@');
  if (at <= 0 || at !== value.lastIndexOf('@')) return false;

  const local = value.slice(0, at);
  if (local.length > LOCAL_PART_MAX_LENGTH) return false;
  // Splitting on '.' yields an empty atom for a leading, trailing or doubled dot.
  if (!local.split('.').every((atom) => LOCAL_ATOM.test(atom))) return false;

  const labels = value.slice(at + 1).split('.');
  if (labels.length < 2) return false;
  const topLevel = labels[labels.length - 1] ?? '';
  return labels.every((label) => DOMAIN_LABEL.test(label)) && TOP_LEVEL_LABEL.test(topLevel);
}

/**
 * Addresses are compared and stored lower-cased so that Ann@Example.com and ann@example.com
 * are one subscriber. (Local parts are case-sensitive in theory, never in practice.)
 */
export function normalizeEmail(value: string): string {
  return value.toLowerCase();
}
