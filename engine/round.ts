/**
 * Output rounding (rules reference, conventions): money to cents, half away from zero;
 * rates keep 6 decimals (percent) or 8 (fraction). Computation stays in full precision.
 * toPrecision(12) first removes binary noise such as 920.535 → 920.5349999999.
 */
export function roundTo(x: number, decimals: number): number {
  if (!Number.isFinite(x)) return x;
  const f = 10 ** decimals;
  const scaled = Number((Math.abs(x) * f).toPrecision(12));
  const r = (Math.sign(x) * Math.round(scaled)) / f;
  return r === 0 ? 0 : r; // no negative zero
}

export const DECIMALS = { usd: 2, percent: 6, fraction: 8 } as const;
