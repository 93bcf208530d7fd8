import { domainToASCII, domainToUnicode } from 'node:url';

/**
 * E-mail address rules. Deliberately stricter than RFC 5321/5322: the local part is an ASCII
 * dot-atom (no quoted strings, no comments, no internationalised local parts); the domain is
 * a DNS host name (no IP literals) with an alphabetic or punycode top-level label. An
 * internationalised domain (`user@münchen.de`) is accepted and turned into its punycode form
 * (`user@xn--mnchen-3ya.de`, IDNA/UTS 46 as in URLs), which is what is checked, stored and
 * used to send; pages and mails show it in Unicode again (displayEmail).
 * What is stored is ASCII only, which rules out homoglyph tricks inside the stored text, bidi
 * overrides, zero-width characters, NUL and CR/LF header injection.
 */
export const EMAIL_MAX_LENGTH = 254; // RFC 5321 path limit minus the angle brackets
const LOCAL_PART_MAX_LENGTH = 64;

const LOCAL_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+$/;
const DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const TOP_LEVEL_LABEL = /^(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;
// In a Unicode domain as typed: no controls, format characters (zero-width, bidi), surrogates,
// private use, unassigned code points or spaces, whatever IDNA would make of them.
const FORBIDDEN_IN_UNICODE_DOMAIN = /[\p{C}\p{Z}\s]/u;
const ASCII = /^[\x21-\x7e]*$/;

// Scripts whose letters look alike: a label mixing them (ex\u0430mple with a Cyrillic a,
// c\u03bfm with a Greek omicron) is a look-alike of another name, and is refused. Han, kana
// and Hangul are one group, which may also be written beside Latin.
const SCRIPT_GROUPS: readonly RegExp[] = [
  /\p{Script=Latin}/u,
  /\p{Script=Cyrillic}/u,
  /\p{Script=Greek}/u,
  /\p{Script=Armenian}/u,
  /\p{Script=Hebrew}/u,
  /\p{Script=Arabic}/u,
  /\p{Script=Georgian}/u,
  /\p{Script=Cherokee}/u,
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u,
];
const LATIN = 0;
const EAST_ASIAN = SCRIPT_GROUPS.length - 1;

function mixesScripts(label: string): boolean {
  const groups = SCRIPT_GROUPS.flatMap((script, i) => (script.test(label) ? [i] : []));
  if (groups.length <= 1) return false;
  return !(groups.length === 2 && groups[0] === LATIN && groups[1] === EAST_ASIAN);
}

/** The ASCII (punycode) form of a domain as typed, or undefined when it is not a host name. */
function asciiDomain(domain: string): string | undefined {
  if (ASCII.test(domain)) return domain;
  if (FORBIDDEN_IN_UNICODE_DOMAIN.test(domain)) return undefined;
  if (domain.split('.').some(mixesScripts)) return undefined;
  const ascii = domainToASCII(domain);
  return ascii === '' || !ASCII.test(ascii) ? undefined : ascii;
}

export function isValidEmail(value: string): boolean {
  if (value.length < 6 || value.length > EMAIL_MAX_LENGTH) return false; // a@b.co is the shortest
  const at = value.indexOf('@');
  if (at <= 0 || at !== value.lastIndexOf('@')) return false;

  const local = value.slice(0, at);
  if (local.length > LOCAL_PART_MAX_LENGTH) return false;
  // Splitting on '.' yields an empty atom for a leading, trailing or doubled dot.
  if (!local.split('.').every((atom) => LOCAL_ATOM.test(atom))) return false;

  const domain = asciiDomain(value.slice(at + 1));
  if (domain === undefined || local.length + 1 + domain.length > EMAIL_MAX_LENGTH) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  const topLevel = labels[labels.length - 1] ?? '';
  return labels.every((label) => DOMAIN_LABEL.test(label)) && TOP_LEVEL_LABEL.test(topLevel);
}

/**
 * The stored form of a valid address: lower case, domain in punycode, so that Ann@Example.com,
 * ann@example.com and ann@EXAMPLE.com are one subscriber, and so are user@münchen.de and
 * user@xn--mnchen-3ya.de. (Local parts are case-sensitive in theory, never in practice.)
 */
export function normalizeEmail(value: string): string {
  const at = value.lastIndexOf('@');
  const domain = asciiDomain(value.slice(at + 1)) ?? value.slice(at + 1);
  return `${value.slice(0, at)}@${domain}`.toLowerCase();
}

/** A stored address as people read it: the domain in Unicode (user@münchen.de). */
export function displayEmail(stored: string): string {
  const at = stored.lastIndexOf('@');
  if (at === -1) return stored;
  const unicode = domainToUnicode(stored.slice(at + 1));
  return `${stored.slice(0, at)}@${unicode === '' ? stored.slice(at + 1) : unicode}`;
}
