/** Numbers for people: en-US and es-MX, USD without decimals, percent with 2 decimals (seed 001 §9). */
export type Lang = 'en' | 'es';

export const LOCALES: Record<Lang, string> = { en: 'en-US', es: 'es-MX' };

const cache = new Map<string, Intl.NumberFormat>();
function nf(lang: Lang, key: string, opts: Intl.NumberFormatOptions): Intl.NumberFormat {
  const k = `${lang}:${key}`;
  let f = cache.get(k);
  if (!f) cache.set(k, (f = new Intl.NumberFormat(LOCALES[lang], opts)));
  return f;
}

/** $12,345 (no cents). */
export function formatUsd(amount: number, lang: Lang): string {
  return nf(lang, 'usd', { style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol', minimumFractionDigits: 0, maximumFractionDigits: 0 }).format(
    amount,
  );
}

/** A rate given in percent (1.799015 → "1.80%"). */
export function formatPercent(percent: number, lang: Lang, digits = 2): string {
  return nf(lang, `pct${digits}`, { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(percent / 100);
}

/** A plain number with grouping (the home value field, step values). */
export function formatNumber(n: number, lang: Lang, maxDigits = 0): string {
  return nf(lang, `n${maxDigits}`, { maximumFractionDigits: maxDigits }).format(n);
}

/** A calendar date in the page's language. */
export function formatDate(d: Date, lang: Lang): string {
  return new Intl.DateTimeFormat(LOCALES[lang], { year: 'numeric', month: 'long', day: 'numeric' }).format(d);
}
