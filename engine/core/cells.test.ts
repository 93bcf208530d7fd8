/** The one reading of input text (engine/core/cells.ts): dates, amounts, years and the refused negatives; cli/readers.test.ts reads one table of cells through every path that uses it. */
import { describe, expect, it } from 'vitest';
import { parseAmount, parseDate, parseYear } from './cells.js';

const err = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
};

describe('parseDate', () => {
  it('splits an ISO date into year, month and day', () => {
    expect(parseDate('2026-03-15')).toEqual({ year: 2026, month: 3, day: 15 });
    expect(parseDate(' 2024-02-29 ')).toEqual({ year: 2024, month: 2, day: 29 });
  });
  it('refuses dates that do not exist and other shapes', () => {
    for (const bad of ['2025-02-29', '2026-13-01', '2026-04-31', '2026-3-15', '15/03/2026', 'today', '']) {
      expect(err(() => parseDate(bad))).toBe(`Date must be a real date as YYYY-MM-DD, like 2026-03-15 (got "${bad}")`);
    }
  });
});

describe('parseAmount and parseYear', () => {
  it('thousands separators and a dollar sign', () => {
    expect(parseAmount('$1,250,000', 'value')).toBe(1250000);
    expect(err(() => parseAmount('1,2,5', 'taxAmount'))).toBe('Tax amount must be a number, like 350000 or 1,250,000 (got "1,2,5")');
    expect(parseAmount('$450,000.00', 'value')).toBe(450000);
    expect(err(() => parseAmount('123456789012345678901', 'value'))).toBe('Home value is too large to be an amount in dollars (got "123456789012345678901")');
    expect(parseYear('2024')).toBe(2024);
    expect(err(() => parseYear('24'))).toBe('Year must be a four-digit year, like 2026 (got "24")');
  });
});

describe('negative amounts', () => {
  it('refuses a negative prior assessed value, purchase price, Mello-Roos, tax amount or seller tax', () => {
    expect(err(() => parseAmount('-1', 'priorAssessed'))).toBe('Prior assessed value cannot be negative (got "-1")');
    for (const field of ['purchasePrice', 'melloRoos', 'taxAmount', 'sellerTax'] as const) {
      expect(err(() => parseAmount('-1,000', field))).toMatch(/cannot be negative \(got "-1,000"\)$/);
      expect(parseAmount('0', field)).toBe(0);
    }
  });
  it('lets a negative value and senior income reach the engine, which refuses them with its own message', () => {
    expect(parseAmount('-5', 'value')).toBe(-5);
    expect(parseAmount('-5000', 'seniorIncome')).toBe(-5000);
  });
});
