/**
 * Values reaching the calculation. Money typed or pasted by the visitor is read by the
 * engine's parseMoney (engine/core/money.ts, shared with the CLI) in MoneyInput; this file keeps
 * the clamp of seed 000 §5 and the year fields' reading.
 */

/** Clamp for any amount reaching the calculation (negative, NaN → 0); cents are kept. */
export function clampValue(n: number): number {
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** A year field: empty → null (not given), otherwise the digits typed as a whole number. */
export function parseOptionalAmount(text: string): number | null {
  const s = String(text ?? '').trim();
  if (!s) return null;
  if (/^[-\u2212]\s*\d/.test(s)) return 0;
  const digits = s.replace(/\D+/g, '');
  if (!digits) return null;
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : null;
}
