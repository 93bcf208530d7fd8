/**
 * engine/core/number-text.ts formats as Intl.NumberFormat does in en-US and es-MX, without
 * loading ICU (issue 23: the CLI's start-up; issue 27: the web's first calculation). Compared
 * with Intl itself over random doubles and the cases where a naive formatter differs: halves
 * in the shortest decimal form, carries, -0, tiny and large values.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numberText, usdText, type NumberLang } from './number-text.js';

const formatUsd = (x: number) => usdText(x, 2);
const formatNumber = (x: number) => numberText(x);

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const num = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });
/** The explanation's formats (engine/core/sentence.ts) in both languages: dollars with cents where there are some, dollars and cents, numbers. */
const LOCALES: Record<NumberLang, string> = { en: 'en-US', es: 'es-MX' };
const explained = (lang: NumberLang) => {
  const currency = (min: number) =>
    new Intl.NumberFormat(LOCALES[lang], {
      style: 'currency',
      currency: 'USD',
      currencyDisplay: 'narrowSymbol',
      minimumFractionDigits: min,
      maximumFractionDigits: 2,
    });
  return { money: currency(0), cents: currency(2), number: new Intl.NumberFormat(LOCALES[lang], { maximumFractionDigits: 6 }) };
};

describe('usdText and numberText', () => {
  it('by hand: grouping, cents, the half rounded away from zero, minus signs', () => {
    expect(formatUsd(7113.8)).toBe('$7,113.80');
    expect(formatUsd(1000000)).toBe('$1,000,000.00');
    // 1.005 is stored as 1.00499999999999989…, but its shortest form "1.005" is what is rounded: 1.01 (toFixed(2) says 1.00).
    expect(formatUsd(1.005)).toBe('$1.01');
    expect(formatUsd(999.995)).toBe('$1,000.00'); // carry through every digit
    expect(formatUsd(-2.5)).toBe('-$2.50');
    expect(formatUsd(-0)).toBe('-$0.00');
    expect(formatUsd(-0.001)).toBe('-$0.00');
    expect(formatNumber(1234.5)).toBe('1,234.5');
    expect(formatNumber(0.0000005)).toBe('0.000001'); // 5e-7: exponent form, rounded up
    expect(formatNumber(0.0000004)).toBe('0');
    expect(formatNumber(12)).toBe('12');
  });

  it('the same characters as Intl for the cases above and its edges', () => {
    const cases = [0, -0, 1, 0.5, 0.05, 0.005, 1.005, 2.675, 999.995, 999999.9999995, 1e-7, 5e-7, 1.5e-10, 123456789.125, 1e15 - 1, 1e15, 1e21, 2 ** 70];
    for (const x of [...cases, ...cases.map((c) => -c), NaN, Infinity, -Infinity]) {
      expect(formatUsd(x), String(x)).toBe(usd.format(x));
      expect(formatNumber(x), String(x)).toBe(num.format(x));
    }
  });

  it('the same characters as Intl over random doubles (any magnitude, and amounts in cents and mills)', () => {
    const amounts = fc.oneof(
      fc.double({ noNaN: true }),
      fc.double({ min: -1e9, max: 1e9, noNaN: true }),
      fc.integer({ min: -1e11, max: 1e11 }).map((n) => n / 1000),
      fc.integer({ min: -1e13, max: 1e13 }).map((n) => n / 1e7),
    );
    fc.assert(
      fc.property(amounts, (x) => {
        expect(formatUsd(x)).toBe(usd.format(x));
        expect(formatNumber(x)).toBe(num.format(x));
      }),
      { numRuns: 5000 },
    );
  });

  it("in en-US and es-MX, the explanation's three formats: the same characters as Intl over random doubles", () => {
    // By hand: $1,234.5 with cents only where there are some, -$0 for -0, 1,234,567.891 with up to six decimals.
    expect(usdText(1234.5, 0, 'es')).toBe('$1,234.5');
    expect(usdText(-0, 0, 'es')).toBe('-$0');
    expect(numberText(1234567.891, 'es')).toBe('1,234,567.891');
    const amounts = fc.oneof(
      fc.double({ noNaN: true }),
      fc.double({ min: -1e9, max: 1e9, noNaN: true }),
      fc.integer({ min: -1e11, max: 1e11 }).map((n) => n / 1000),
      fc.constantFrom(0, -0, 0.005, 1.005, 999.995, 1e15, 1e21, NaN, Infinity),
    );
    for (const lang of ['en', 'es'] as const) {
      const f = explained(lang);
      fc.assert(
        fc.property(amounts, (x) => {
          expect(usdText(x, 0, lang)).toBe(f.money.format(x));
          expect(usdText(x, 2, lang)).toBe(f.cents.format(x));
          expect(numberText(x, lang)).toBe(f.number.format(x));
        }),
        { numRuns: 3000 },
      );
    }
  });
});
