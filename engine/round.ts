/**
 * Output rounding (rules reference, conventions): money to cents, half away from zero;
 * rates keep 6 decimals (percent) or 8 (fraction). Computation stays in full precision.
 * A relative nudge of 2^-40 lifts binary noise such as 920.535 → 92053.49999999999
 * cents back over the half, far below any real difference of a cent.
 */
const NUDGE = 1 + 2 ** -40;

export function roundTo(x: number, decimals: number): number {
  const f = POW[decimals] ?? 10 ** decimals;
  const r = x < 0 ? -Math.round(-x * f * NUDGE) / f : Math.round(x * f * NUDGE) / f;
  return r === 0 ? 0 : r; // no negative zero
}
const POW = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8];

export const DECIMALS = { usd: 2, percent: 6, fraction: 8 } as const;
