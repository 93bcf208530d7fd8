/**
 * The home value field (seed 000 §5): digits only, shown with thousands separators; empty
 * or invalid input becomes 0; a negative value is clamped to 0 before any calculation.
 */
export function parseHomeValue(text: string): number {
  const s = String(text ?? '').trim();
  if (!s) return 0;
  // A leading minus (ASCII or Unicode) means a negative amount: clamp it to 0.
  if (/^[-\u2212]\s*[\d]/.test(s)) return 0;
  const digits = s.replace(/\D+/g, '');
  if (!digits) return 0;
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : 0;
}

/** Clamp for any number reaching the calculation (negative, NaN → 0). */
export function clampValue(n: number): number {
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

/** The optional senior income field: empty → null (not given), otherwise a whole number ≥ 0. */
export function parseOptionalAmount(text: string): number | null {
  const s = String(text ?? '').trim();
  if (!s) return null;
  if (/^[-\u2212]\s*\d/.test(s)) return 0;
  const digits = s.replace(/\D+/g, '');
  if (!digits) return null;
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : null;
}
