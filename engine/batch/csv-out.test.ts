/**
 * CsvOut.amount, the printer of a batch row's figures: the text `--json` prints for the
 * figure rounded to its unit (String of roundTo), whatever path it takes (zero, cents, other
 * decimals, the fallback for what cannot be printed from whole units).
 */
import { describe, expect, it } from 'vitest';
import { CsvOut } from './csv-out.js';
import { roundTo } from '../core/round.js';

const printed = (x: number): string => (Number.isFinite(x) ? String(x) : '');

function amount(w: CsvOut, x: number, d: number): string {
  w.ensure(64);
  const at = w.pos;
  w.amount(x, d);
  return w.buf.toString('latin1', at, w.pos);
}

describe('CsvOut.amount', () => {
  it('prints figures as --json prints them rounded: cents, rates and fractions', () => {
    const w = new CsvOut();
    for (const [x, d, want] of [
      [0, 2, '0'],
      [-0, 2, '0'],
      [5, 2, '5'],
      [0.05, 2, '0.05'],
      [0.5, 2, '0.5'],
      [9231.6, 2, '9231.6'],
      [9231.64, 2, '9231.64'],
      [9231.604, 2, '9231.6'],
      [9231.605, 2, '9231.61'],
      [920.535, 2, '920.54'], // 92053.49999… cents: the nudge lifts it over the half
      [-920.535, 2, '-920.54'],
      [-0.004, 2, '0'], // rounds to zero: no minus sign
      [-5.5, 2, '-5.5'],
      [1234567.89, 2, '1234567.89'],
      [98765432109.99, 2, '98765432109.99'],
      [2 ** 31 + 0.25, 2, '2147483648.25'],
      [1e15, 2, '1000000000000000'],
      [1e21, 2, '999999999999999900000'], // roundTo's division lands on the double below 1e21
      [NaN, 2, ''],
      [Infinity, 2, ''],
      [-Infinity, 6, ''],
      [1.6812345678, 6, '1.681235'],
      [0.0000004, 6, '0'],
      [1.2e-6, 8, '0.0000012'],
      [5e-7, 8, '5e-7'],
    ] as const)
      expect([x, d, amount(w, x, d)]).toEqual([x, d, want]);
  });

  it('equals String(roundTo(x, d)) on 100,000 values of every magnitude, for 2, 6 and 8 decimals', () => {
    const w = new CsvOut();
    let seed = 20261124;
    const rand = () => {
      seed = (Math.imul(seed, 1664525) + 1013904223) | 0;
      return (seed >>> 0) / 4294967296;
    };
    const bad: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      const x = (rand() - 0.3) * 10 ** Math.floor(rand() * 18 - 8);
      // Whole cents and half cents too, where rounding decides.
      const y = i % 3 === 0 ? Math.round(x * 100) / 100 : i % 3 === 1 ? (Math.round(x * 200) + 0.5) / 200 : x;
      for (const d of [2, 6, 8]) {
        const got = amount(w, y, d);
        const want = y === 0 ? '0' : printed(roundTo(y, d));
        if (got !== want && bad.length < 5) bad.push(`${y} (${d}): ${got} vs ${want}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
