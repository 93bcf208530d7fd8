/**
 * Output rounding (rules reference, conventions): money to cents, half away from zero;
 * rates keep 6 decimals (percent) or 8 (fraction). Computation stays in full precision.
 * A nudge of 2^-40 of the amount (at most 2^-12 of a unit) lifts binary noise such as
 * 920.535 → 92053.49999999999 cents back over the half; it stays far below a real
 * difference of a cent, and is capped so that huge amounts gain nothing.
 */
const NUDGE = 2 ** -40;
const MAX_NUDGE = 2 ** -12;

export function roundTo(x: number, decimals: number): number {
  // A figure the data does not have (a county without a typical owner's rate) stays null.
  if (x === null) return x;
  const f = POW[decimals] ?? 10 ** decimals;
  const r = roundedUnits(x, f) / f;
  return x < 0 && r !== 0 ? -r : r; // no negative zero
}

/** |x| rounded as `roundTo` rounds it, in whole units of 1/f (f = 10^decimals): 920.535, 100 → 92054. */
export function roundedUnits(x: number, f: number): number {
  const s = Math.abs(x) * f;
  return Math.round(s + Math.min(s * NUDGE, MAX_NUDGE));
}
const POW = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8];

export const DECIMALS = { usd: 2, percent: 6, fraction: 8 } as const;
