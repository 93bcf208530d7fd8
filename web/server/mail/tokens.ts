import { createHash, randomBytes } from 'node:crypto';

/**
 * Link tokens: 192 random bits, URL-safe (32 characters). Only their SHA-256 is stored, so a
 * copy of the database (a backup, a leaked file) holds no working link.
 */
export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A token as it may appear in a link: anything else is not looked up at all. */
export function isTokenShaped(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{32}$/.test(value);
}
