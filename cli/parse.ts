/** Parsing of command-line values: numbers with thousands separators, booleans, levels. */
import { PtaxError } from '../engine/errors.js';

const NUMBER = /^-?\$?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/;

/** "1,250,000", "$350000", "-5000" → number; anything else is a clear error. */
export function parseAmount(raw: string, what: string): number {
  const s = String(raw).trim();
  if (!NUMBER.test(s)) throw new PtaxError('INVALID_NUMBER', `${what} must be a number, like 350000 or 1,250,000 (got "${raw}")`);
  return Number(s.replace(/[$,]/g, ''));
}

export function parseYear(raw: string): number {
  if (!/^\d{4}$/.test(String(raw).trim())) throw new PtaxError('INVALID_YEAR', `Year must be a four-digit year, like 2026 (got "${raw}")`);
  return Number(raw);
}

