/** Numbers for people: en-US and es-MX, USD without decimals, percent with 2 decimals (seed 001 §9). */
export type Lang = 'en' | 'es';

export const LOCALES: Record<Lang, string> = { en: 'en-US', es: 'es-MX' };

/*
 * Issue 28: the first `Intl.NumberFormat` a page creates costs Chromium 20-40 ms of main-thread
 * CPU (ICU's number data; ×4 under Lighthouse's mobile preset, in one long task), and the
 * calculator's first render formats every county's rate for the county list. The three formats
 * below are therefore written out in plain code, giving exactly what `Intl.NumberFormat`
 * gives in both locales (en-US and es-MX share them: "," groups every three digits, "." for
 * decimals, "-" before the "$", "%" right after the digits; format.test.ts compares both with
 * Intl over thousands of values): rounding half away from zero (Intl's halfExpand) on the
 * shortest decimal that reads back as the number (what ICU rounds: 1.005 to 2 digits is 1.01,
 * where `toFixed` gives 1.00), and "-" for every negative number, -0 included. A number these
 * do not cover (not finite, or written with an exponent: below 1e-6 or from 1e21) goes to Intl.
 */

const cache = new Map<string, Intl.NumberFormat>();
function nf(lang: Lang, key: string, opts: Intl.NumberFormatOptions): Intl.NumberFormat {
  const k = `${lang}:${key}`;
  let f = cache.get(k);
  if (!f) cache.set(k, (f = new Intl.NumberFormat(LOCALES[lang], opts)));
  return f;
}

/**
 * The digits of |x| × 10^shift, rounded half away from zero to at most `max` fraction digits
 * and at least `min`, grouped by three: "1,234.5". Null when String(x) has an exponent (or x is not finite).
 */
function digitsOf(x: number, shift: number, min: number, max: number): string | null {
  const s = String(Math.abs(x));
  if (!/^\d+(\.\d+)?$/.test(s)) return null;
  const dot = s.indexOf('.');
  let int = dot < 0 ? s : s.slice(0, dot);
  let frac = dot < 0 ? '' : s.slice(dot + 1);
  // × 10^shift: the decimal point moves right.
  if (shift > 0) {
    const moved = frac.padEnd(shift, '0');
    int += moved.slice(0, shift);
    frac = moved.slice(shift);
  }
  if (frac.length > max) {
    // The first digit dropped is 5 or more: the rest is half a unit or more, rounded away from zero.
    const up = frac.charCodeAt(max) >= 53;
    let kept = int + frac.slice(0, max);
    if (up) {
      // + 1 in the last kept digit, carried.
      const d = kept.split('');
      let i = d.length - 1;
      while (i >= 0 && d[i] === '9') d[i--] = '0';
      if (i >= 0) d[i] = String(Number(d[i]) + 1);
      else d.unshift('1');
      kept = d.join('');
    }
    int = kept.slice(0, kept.length - max);
    frac = kept.slice(kept.length - max);
  }
  // Trailing zeros beyond the minimum go; the minimum is padded.
  frac = frac.replace(/0+$/, '');
  if (frac.length < min) frac = frac.padEnd(min, '0');
  int = int.replace(/^0+(?=\d)/, '');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac ? `${grouped}.${frac}` : grouped;
}

/** "-" for a negative number, -0 included (Intl's signDisplay "auto"). */
const sign = (x: number) => (x < 0 || Object.is(x, -0) ? '-' : '');

/** $12,345 (no cents). */
export function formatUsd(amount: number, lang: Lang): string {
  const d = digitsOf(amount, 0, 0, 0);
  if (d !== null) return `${sign(amount)}$${d}`;
  return nf(lang, 'usd', { style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol', minimumFractionDigits: 0, maximumFractionDigits: 0 }).format(
    amount,
  );
}

/** A rate given in percent (1.799015 → "1.80%"). */
export function formatPercent(percent: number, lang: Lang, digits = 2): string {
  // As Intl's percent style: the fraction (percent / 100) times 100, in decimal.
  const fraction = percent / 100;
  const d = digitsOf(fraction, 2, digits, digits);
  if (d !== null) return `${sign(fraction)}${d}%`;
  return nf(lang, `pct${digits}`, { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(fraction);
}

/** A plain number with grouping (the home value field, step values). */
export function formatNumber(n: number, lang: Lang, maxDigits = 0): string {
  const d = digitsOf(n, 0, 0, maxDigits);
  if (d !== null) return `${sign(n)}${d}`;
  return nf(lang, `n${maxDigits}`, { maximumFractionDigits: maxDigits }).format(n);
}

/** A calendar date in the page's language. */
export function formatDate(d: Date, lang: Lang): string {
  return new Intl.DateTimeFormat(LOCALES[lang], { year: 'numeric', month: 'long', day: 'numeric' }).format(d);
}
