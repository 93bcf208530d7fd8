/**
 * en-US number and dollar formatting without Intl, for the CLI's tables.
 *
 * Why: the first Intl.NumberFormat of a process loads ICU's locale data, about 20–25 ms of
 * CPU, which alone is more than the CLI's whole start-up budget (issue 23: `ptax calc` at
 * most 1.3× `node -e 0`, measured by scripts/bench-startup.ts), and ICU state cannot be kept
 * in a V8 startup snapshot either. The output is the same as
 *   new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 })
 *   new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 })
 * character for character (cli/en-number.test.ts compares them over random doubles): V8
 * rounds the shortest decimal form of the double (String(x): 1.005 → "1.01", where
 * (1.005).toFixed(2) gives "1.00"), half away from zero; a negative value (or -0) keeps its
 * minus sign even when it rounds to zero ("-$0.00"); thousands are grouped by commas.
 * Values outside the range done here (not finite, or 1e15 and beyond) go to Intl itself.
 */

let usdIntl: Intl.NumberFormat | undefined;
let numIntl: Intl.NumberFormat | undefined;

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

/** Dollars and cents, en-US: $1,234.50, -$3.00. */
export function formatUsd(x: number): string {
  if (!(Math.abs(x) < LIMIT))
    return (usdIntl ??= new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 })).format(x);
  const [int, frac] = decimal(x, 2, 2);
  return `${negative(x) ? '-' : ''}$${int}.${frac}`;
}

/** A number, en-US, at most six decimals: 1,234.5, 0.000001. */
export function formatNumber(x: number): string {
  if (!(Math.abs(x) < LIMIT)) return (numIntl ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 })).format(x);
  const [int, frac] = decimal(x, 0, 6);
  return `${negative(x) ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}
