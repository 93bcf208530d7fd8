/**
 * Values reaching the calculation from what the visitor types. Money is read by the
 * engine's one reading of input text (engine/core/cells.ts, as the CLI's flags, batch
 * cells and share links read it: engine/core/money.ts parseMoney's amounts, "425k" and
 * "1.2m" included), then clamped as seed 000 §5 asks; a year field is read as it is typed.
 */
// From cells.ts, not the engine's index: a money field (the hub's state calculator) then brings
// the reader and its few modules only, not the whole engine (vite.config.ts's 'fields' chunk).
import { MONEY_CELL, tryCell } from '../../../engine/core/cells.js';

/** Clamp for any amount reaching the calculation (negative, NaN → 0); cents are kept. */
export function clampValue(n: number): number {
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** The i18n key of a money field's problem ('' when there is none). */
export type MoneyProblem = '' | 'form.amountInvalid' | 'form.amountTooLarge';

/**
 * A money field's text: the amount (negative amounts become 0), or null when empty or not
 * an amount, and the field's problem. Read by the engine's reader (`tryCell` on the value
 * column's spec), so a pasted price is read as `ptax calc --value` and a batch cell read it.
 */
export function readMoneyText(text: string): { value: number | null; problem: MoneyProblem } {
  const r = tryCell(MONEY_CELL, String(text ?? ''));
  if (r.ok) return { value: r.value === undefined ? null : clampValue(r.value as number), problem: '' };
  return { value: null, problem: r.key === 'amountTooLarge' ? 'form.amountTooLarge' : 'form.amountInvalid' };
}

/**
 * A year field, read on every key stroke: empty → null (not given), otherwise the digits
 * typed as a whole number. Not the engine's parseYear (four digits or an error): "20" is a
 * year being typed, and the field must keep it; the caller checks the bounds before the
 * value is used (a year the engine's reader refuses never reaches the calculation).
 */
export function parseOptionalAmount(text: string): number | null {
  const s = String(text ?? '').trim();
  if (!s) return null;
  if (/^[-\u2212]\s*\d/.test(s)) return 0;
  const digits = s.replace(/\D+/g, '');
  if (!digits) return null;
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : null;
}
