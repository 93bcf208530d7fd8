/** Parsing of command-line values: numbers with thousands separators, booleans, levels. */
import { inputError, type MessageKey } from '../engine/messages.js';

const NUMBER = /^-?\$?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/;

/** The numbers read from flags and batch cells, by the name messages give them (engine/messages.ts `field.*`). */
export type AmountField = 'value' | 'seniorIncome' | 'veteranDisability' | 'priorAssessed' | 'purchasePrice' | 'melloRoos' | 'taxAmount' | 'sellerTax' | 'countyRate';

/** "1,250,000", "$350000", "-5000" → number; anything else is a clear error. */
export function parseAmount(raw: string, field: AmountField): number {
  const s = String(raw).trim();
  if (!NUMBER.test(s)) throw inputError('INVALID_NUMBER', 'notNumberLike', { field: { key: `field.${field}` as MessageKey }, raw: String(raw) });
  return Number(s.replace(/[$,]/g, ''));
}

/** "2026-03-15" → its year, month and day; a date that does not exist is an error. */
export function parseDate(raw: string): { year: number; month: number; day: number } {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(raw).trim());
  const d = m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!)) : null;
  if (!m || !d || d.getUTCMonth() !== +m[2]! - 1 || d.getUTCDate() !== +m[3]!) throw inputError('INVALID_DATE', 'badDate', { raw: String(raw) });
  return { year: +m[1]!, month: +m[2]!, day: +m[3]! };
}

/** The amount flags and their names in messages, in the order they are checked. */
const AMOUNT_FLAGS = [
  ['value', 'value'], ['seniorIncome', 'seniorIncome'], ['veteranDisability', 'veteranDisability'],
  ['priorAssessed', 'priorAssessed'], ['purchasePrice', 'purchasePrice'], ['melloRoos', 'melloRoos'],
  ['tax', 'taxAmount'], ['sellerTax', 'sellerTax'], ['countyRate', 'countyRate'],
] as const;

/**
 * Commander's option strings → the numbers `inputFromFlags` takes (null when not given),
 * for `ptax calc` and the state calculators alike; the first bad one is the error.
 */
export function numericFlags(o: Record<string, unknown>): Record<(typeof AMOUNT_FLAGS)[number][0] | 'purchaseYear', number | null> {
  const out = {} as Record<(typeof AMOUNT_FLAGS)[number][0] | 'purchaseYear', number | null>;
  for (const [k, what] of AMOUNT_FLAGS) {
    out[k] = o[k] === undefined ? null : parseAmount(o[k] as string, what);
    if (k === 'purchasePrice') out.purchaseYear = o.purchaseYear === undefined ? null : parseYear(o.purchaseYear as string);
  }
  return out;
}

export function parseYear(raw: string): number {
  if (!/^\d{4}$/.test(String(raw).trim())) throw inputError('INVALID_YEAR', 'yearFourDigits', { raw: String(raw) });
  return Number(raw);
}

