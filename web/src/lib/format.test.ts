/**
 * format.ts writes the site's three number formats without Intl (issue 28: the first
 * Intl.NumberFormat costs the page 20-40 ms of main-thread CPU). Each must give, for every
 * number, exactly what Intl.NumberFormat gives in en-US and es-MX: compared here over
 * thousands of values, with the cases where a rounding by hand goes wrong written out.
 */
import { describe, expect, it } from 'vitest';
import { formatNumber, formatPercent, formatUsd, LOCALES, type Lang } from './format.js';

const made = new Map<string, Intl.NumberFormat>();
const f = (lang: Lang, opts: Intl.NumberFormatOptions) => {
  const key = lang + JSON.stringify(opts);
  if (!made.has(key)) made.set(key, new Intl.NumberFormat(LOCALES[lang], opts));
  return made.get(key)!;
};
const intl = {
  usd: (x: number, lang: Lang) =>
    f(lang, { style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol', minimumFractionDigits: 0, maximumFractionDigits: 0 }).format(x),
  pct: (p: number, lang: Lang, digits: number) => f(lang, { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(p / 100),
  num: (x: number, lang: Lang, max: number) => f(lang, { maximumFractionDigits: max }).format(x),
};

/** The numbers where ours and Intl's differ, with both strings (expected: none). */
const differences = (ours: (x: number) => string, theirs: (x: number) => string) =>
  [...numbers()].map((x) => [x, ours(x), theirs(x)]).filter(([, a, b]) => a !== b);

/** A fixed pseudo-random sequence (the test is the same every run). */
function* numbers(): Generator<number> {
  let seed = 28;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 3000; i++) {
    const scale = 10 ** Math.floor(next() * 14 - 6); // 1e-6 … 1e7
    yield (next() - 0.3) * scale;
  }
  for (let i = -2000; i <= 2000; i += 7) yield i / 1000; // -2.000 … 2.000 by thousandths
  for (let i = 0; i < 200; i++) yield Math.round(next() * 1e6) / 100 + 0.005; // half a cent
  for (const x of [0, -0, 0.5, -0.5, 1.5, 2.5, -2.5, 0.4999, 999.5, 9999.5, 99999.5, 999999.5, 1.005, 1.015, 1.025, 1.045, 1.055, 2.675, 8.345]) yield x;
  for (const x of [1234.005, 0.125, 0.135, 12.3456, 99.995, 1e6, 123456789, 9007199254740991, 1e20, 1.5e20, 1e-6, 5e-7, 1e21, -1e21]) yield x;
  for (const x of [NaN, Infinity, -Infinity]) yield x;
}

describe('format.ts gives what Intl.NumberFormat gives', () => {
  for (const lang of ['en', 'es'] as const) {
    it(`formatUsd, ${lang}`, () => {
      // By hand: $1,234.5 rounds half away from zero to $1,235; -0.4 rounds to -0 and keeps its sign.
      expect(formatUsd(1234.5, lang)).toBe('$1,235');
      expect(formatUsd(-0.4, lang)).toBe('-$0');
      expect(
        differences(
          (x) => formatUsd(x, lang),
          (x) => intl.usd(x, lang),
        ),
      ).toEqual([]);
    });
    it(`formatPercent, ${lang}`, () => {
      // By hand: 1.799015 % to 2 digits is 1.80 %; 1.005 % is 1.01 % (Intl rounds the decimal 1.005, not the double below it).
      expect(formatPercent(1.799015, lang)).toBe('1.80%');
      expect(formatPercent(1.005, lang)).toBe(intl.pct(1.005, lang, 2));
      for (const digits of [0, 1, 2, 3])
        expect([
          digits,
          differences(
            (x) => formatPercent(x, lang, digits),
            (x) => intl.pct(x, lang, digits),
          ),
        ]).toEqual([digits, []]);
    });
    it(`formatNumber, ${lang}`, () => {
      // By hand: 300000 → "300,000"; 1234.005 to 2 digits → "1,234.01"; trailing zeros go: 1.10 → "1.1".
      expect(formatNumber(300000, lang)).toBe('300,000');
      expect(formatNumber(1234.005, lang, 2)).toBe('1,234.01');
      expect(formatNumber(1.1, lang, 2)).toBe('1.1');
      for (const max of [0, 1, 2, 3])
        expect([
          max,
          differences(
            (x) => formatNumber(x, lang, max),
            (x) => intl.num(x, lang, max),
          ),
        ]).toEqual([max, []]);
    });
  }
});
