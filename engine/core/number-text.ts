/**
 * Dollars and numbers as Intl.NumberFormat writes them in en-US and es-MX, without Intl.
 *
 * Why: the first Intl.NumberFormat of a process loads ICU's locale data: about 20–25 ms of
 * CPU in Node, which alone is more than the CLI's whole start-up budget (issue 23: `ptax
 * calc` at most 1.3× `node -e 0`, scripts/bench-startup.ts), and 20–40 ms of a phone's main
 * thread in Chromium (×4 under Lighthouse's mobile preset) at the web's first calculation,
 * whose explanation (engine/core/sentence.ts) writes every step's figure (issue 27: the first
 * calculation under 50 ms). The output is the same as
 *   new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol', minimumFractionDigits: 0 or 2, maximumFractionDigits: 2 })
 *   new Intl.NumberFormat(locale, { maximumFractionDigits: 6 })
 * character for character, for locale en-US and es-MX, which write these alike ("," groups
 * every three digits, "." before decimals, "-" before the "$"; engine/core/number-text.test.ts
 * compares them over random doubles): V8 rounds the shortest decimal form of the double
 * (String(x): 1.005 → "1.01", where (1.005).toFixed(2) gives "1.00"), half away from zero; a
 * negative value (or -0) keeps its minus sign even when it rounds to zero ("-$0.00").
 * Values outside the range done here (not finite, or 1e15 and beyond) go to Intl itself.
 */

export type NumberLang = 'en' | 'es';
const LOCALE: Record<NumberLang, string> = { en: 'en-US', es: 'es-MX' };
const intl = new Map<string, Intl.NumberFormat>();
function viaIntl(lang: NumberLang, key: string, options: Intl.NumberFormatOptions, x: number): string {
  let f = intl.get(`${lang}:${key}`);
  if (!f) intl.set(`${lang}:${key}`, (f = new Intl.NumberFormat(LOCALE[lang], options)));
  return f.format(x);
}

const LIMIT = 1e15;

/** The digits of |x| rounded half away from zero to `max` fraction digits, trailing zeros kept down to `min`: [integer part, fraction part]. */
function decimal(x: number, min: number, max: number): [string, string] {
  const s = String(Math.abs(x));
  // Shortest round-trip form: "123.45", "1e-7", "1.5e-10" (|x| < 1e15 never has a positive exponent).
  const e = s.indexOf('e');
  let digits: string;
  let point: number; // how many of `digits` are before the decimal point (may be <= 0)
  if (e >= 0) {
    const mantissa = s.slice(0, e);
    const dot = mantissa.indexOf('.');
    digits = mantissa.replace('.', '');
    point = (dot < 0 ? mantissa.length : dot) + Number(s.slice(e + 1));
  } else {
    const dot = s.indexOf('.');
    digits = s.replace('.', '');
    point = dot < 0 ? s.length : dot;
  }
  if (point <= 0) {
    digits = '0'.repeat(1 - point) + digits;
    point = 1;
  }
  const keep = point + max;
  if (digits.length > keep) {
    const up = digits.charCodeAt(keep) >= 53; // '5'..'9': the first dropped digit is at least half
    let kept = digits.slice(0, keep);
    if (up) {
      // Add one at the last kept digit, carrying leftwards.
      const a = kept.split('');
      let i = a.length - 1;
      while (i >= 0 && a[i] === '9') a[i--] = '0';
      if (i >= 0) a[i] = String(Number(a[i]) + 1);
      else {
        a.unshift('1');
        point++;
      }
      kept = a.join('');
    }
    digits = kept;
  }
  let int = digits.slice(0, point).replace(/^0+(?=\d)/, '');
  let frac = digits.slice(point).padEnd(min, '0');
  let end = frac.length;
  while (end > min && frac[end - 1] === '0') end--;
  frac = frac.slice(0, end);
  int = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return [int, frac];
}

const negative = (x: number) => x < 0 || Object.is(x, -0);

/** Dollars, cents shown to at least `minCents` digits (0 or 2, at most 2): $1,234.5 and $1,234.50, -$3.00. */
export function usdText(x: number, minCents: 0 | 2 = 2, lang: NumberLang = 'en'): string {
  if (!(Math.abs(x) < LIMIT))
    return viaIntl(
      lang,
      `usd${minCents}`,
      { style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol', minimumFractionDigits: minCents, maximumFractionDigits: 2 },
      x,
    );
  const [int, frac] = decimal(x, minCents, 2);
  return `${negative(x) ? '-' : ''}$${int}${frac ? `.${frac}` : ''}`;
}

/** A number, at most six decimals: 1,234.5, 0.000001. */
export function numberText(x: number, lang: NumberLang = 'en'): string {
  if (!(Math.abs(x) < LIMIT)) return viaIntl(lang, 'number', { maximumFractionDigits: 6 }, x);
  const [int, frac] = decimal(x, 0, 6);
  return `${negative(x) ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}
