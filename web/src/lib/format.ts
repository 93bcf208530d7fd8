/** Numbers for people: en-US and es-MX, USD without decimals, percent with 2 decimals (seed 001 §9). */
import { decimalText } from '../../../engine/core/number-text.js';

export type Lang = 'en' | 'es';

export const LOCALES: Record<Lang, string> = { en: 'en-US', es: 'es-MX' };

/*
 * Issue 28: the first `Intl.NumberFormat` a page creates costs Chromium 20-40 ms of main-thread
 * CPU (ICU's number data; ×4 under Lighthouse's mobile preset, in one long task), and the
 * calculator's first render formats every county's rate for the county list. The three formats
 * below are therefore written out in plain code (the digits by engine/core/number-text.ts
 * `decimalText`, which the engine's explanations and the CLI use too), giving exactly what `Intl.NumberFormat`
 * gives in both locales (en-US and es-MX share them: "," groups every three digits, "." for
 * decimals, "-" before the "$", "%" right after the digits; format.test.ts compares both with
 * Intl over thousands of values): rounding half away from zero (Intl's halfExpand) on the
 * shortest decimal that reads back as the number (what ICU rounds: 1.005 to 2 digits is 1.01,
 * where `toFixed` gives 1.00), and "-" for every negative number, -0 included. A number these
 * do not cover (not finite, or 1e15 and beyond) goes to Intl.
 */

const cache = new Map<string, Intl.NumberFormat>();
function nf(lang: Lang, key: string, opts: Intl.NumberFormatOptions): Intl.NumberFormat {
  const k = `${lang}:${key}`;
  let f = cache.get(k);
  if (!f) cache.set(k, (f = new Intl.NumberFormat(LOCALES[lang], opts)));
  return f;
}

/** $12,345 (no cents). */
export function formatUsd(amount: number, lang: Lang): string {
  const d = decimalText(amount, 0, 0);
  if (d !== null) return d.startsWith('-') ? `-$${d.slice(1)}` : `$${d}`;
  return nf(lang, 'usd', { style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol', minimumFractionDigits: 0, maximumFractionDigits: 0 }).format(
    amount,
  );
}

/** A rate given in percent (1.799015 → "1.80%"). */
export function formatPercent(percent: number, lang: Lang, digits = 2): string {
  // As Intl's percent style: the fraction (percent / 100) times 100, in decimal.
  const fraction = percent / 100;
  const d = decimalText(fraction, digits, digits, 2);
  if (d !== null) return `${d}%`;
  return nf(lang, `pct${digits}`, { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(fraction);
}

/** A plain number with grouping (the home value field, step values). */
export function formatNumber(n: number, lang: Lang, maxDigits = 0): string {
  const d = decimalText(n, 0, maxDigits);
  if (d !== null) return d;
  return nf(lang, `n${maxDigits}`, { maximumFractionDigits: maxDigits }).format(n);
}

/** A calendar date in the page's language. */
export function formatDate(d: Date, lang: Lang): string {
  return new Intl.DateTimeFormat(LOCALES[lang], { year: 'numeric', month: 'long', day: 'numeric' }).format(d);
}
