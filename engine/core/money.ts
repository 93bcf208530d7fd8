/**
 * Amounts as people write them, for the CLI's flags and batch cells and the web's fields
 * alike (one function, one test table: engine/money.test.ts).
 *
 * Accepted: digits with an optional sign (`-` or `−`) and an optional `$` (before or after
 * the sign, or a trailing ` USD`), thousands separated by commas or spaces in groups of
 * three, and cents (or finer fractions) after a decimal point, as both en-US and es-MX
 * write amounts: `450000`, `$450,000.00`, `450 000`, `-$5,000`; and a `k` (thousand) or `m`
 * (million) after a number: `425k`, `1.2m`, `$1.5 M`.
 * Refused, with the reason: anything else (`1.5e6`, `12abc`, `4,50,000`, a decimal comma
 * such as `1,25`, whose meaning is not certain), and amounts beyond what a double holds to
 * the cent.
 */

export type MoneyParse = { ok: true; value: number } | { ok: false; reason: 'empty' | 'notNumber' | 'tooLarge' };

/** The largest amount kept exact to the cent (2^53 / 100, rounded down to whole dollars). */
const LARGEST = Math.floor(Number.MAX_SAFE_INTEGER / 100);

const SPACES = /[\s\u00a0\u2009\u202f]/g;

export function parseMoney(text: string | number | null | undefined): MoneyParse {
  if (typeof text === 'number') {
    if (!Number.isFinite(text)) return { ok: false, reason: 'notNumber' };
    return Math.abs(text) > LARGEST ? { ok: false, reason: 'tooLarge' } : { ok: true, value: text };
  }
  let s = String(text ?? '').trim();
  if (!s) return { ok: false, reason: 'empty' };
  s = s.replace(/\s*usd$/i, '');
  let negative = false;
  // Sign and dollar sign in either order: "-$5", "$-5", "−5", "$ 5".
  for (let i = 0; i < 2; i++) {
    if (/^[-\u2212]/.test(s) && !negative) {
      negative = true;
      s = s.slice(1).trimStart();
    }
    if (s.startsWith('$')) s = s.slice(1).trimStart();
  }
  if (!s) return { ok: false, reason: 'notNumber' };
  // Thousands and millions as people write them (issue 24): "425k", "1.2m", "$1.5 M".
  const short = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?\s*([kKmM])$/.exec(s);
  if (short) return finish(shift(short[1]!.replace(/,/g, ''), short[2] ?? '', /[kK]/.test(short[3]!) ? 3 : 6), negative);
  // Spaces between groups of three are separators like commas.
  if (/\d[\s\u00a0\u2009\u202f]\d/.test(s)) {
    if (!/^\d{1,3}([\s\u00a0\u2009\u202f]\d{3})*(\.\d+)?$/.test(s)) return { ok: false, reason: 'notNumber' };
    return finish(s.replace(SPACES, ''), negative);
  }
  const m = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/.exec(s);
  if (!m) return { ok: false, reason: 'notNumber' };
  return finish(m[1]!.replace(/,/g, '') + (m[2] !== undefined ? `.${m[2]}` : ''), negative);
}

/** whole.frac × 10^places, as decimal text (no binary rounding: "1.2" × 10^6 is "1200000."). */
function shift(whole: string, frac: string, places: number): string {
  const f = frac.padEnd(places, '0');
  return `${whole}${f.slice(0, places)}${f.length > places ? `.${f.slice(places)}` : ''}`;
}

function finish(digits: string, negative: boolean): MoneyParse {
  const whole = digits.split('.')[0]!.replace(/^0+(?=\d)/, '');
  if (whole.length > 16 || Number(whole) > LARGEST) return { ok: false, reason: 'tooLarge' };
  const n = Number(digits);
  if (!Number.isFinite(n)) return { ok: false, reason: 'notNumber' };
  return { ok: true, value: negative && n !== 0 ? -n : n };
}
