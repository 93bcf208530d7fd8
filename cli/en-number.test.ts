/**
 * cli/en-number.ts formats as Intl.NumberFormat('en-US') does, without loading ICU (issue 23:
 * start-up). Compared with Intl itself over random doubles and the cases where a naive
 * formatter differs: halves in the shortest decimal form, carries, -0, tiny and large values.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatNumber, formatUsd } from './en-number.js';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const num = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });

describe('formatUsd and formatNumber', () => {
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
});
