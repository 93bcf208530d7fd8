import { describe, expect, it } from 'vitest';
import { parseMoney } from './money.js';

/** The one table for the CLI's amounts and the web's money fields (issue 15). */
const TABLE: Array<[string, number | 'empty' | 'notNumber' | 'tooLarge']> = [
  ['450000', 450000],
  ['$450,000.00', 450000],
  ['$450,000.99', 450000.99],
  ['450,000.5', 450000.5],
  ['  $ 450,000  ', 450000],
  ['450 000', 450000],
  ['450\u00a0000.50', 450000.5],
  ['1.250.000', 'notNumber'],
  ['450.000,99', 'notNumber'],
  ['1,25', 'notNumber'],
  ['450,00', 'notNumber'],
  ['1,250,000', 1250000],
  ['450000.00', 450000],
  ['450000 USD', 450000],
  ['-5000', -5000],
  ['-$5,000', -5000],
  ['$-5,000', -5000],
  ['\u22125000', -5000],
  ['0', 0],
  ['-0', 0],
  ['007', 7],
  ['90071992547409', 90071992547409],
  ['', 'empty'],
  ['   ', 'empty'],
  ['1.5e6', 'notNumber'],
  // Thousands and millions (issue 24): 425 × 1,000; 1.2 × 1,000,000; 1.25 × 1,000 = 1,250.
  ['425k', 425000],
  ['425K', 425000],
  ['1.2m', 1200000],
  ['$1.5 M', 1500000],
  ['1.25k', 1250],
  ['1,200k', 1200000],
  ['0.0015k', 1.5],
  ['-$2k', -2000],
  ['$1,200,000.00', 1200000],
  ['1.2mm', 'notNumber'],
  ['k', 'notNumber'],
  ['1.2b', 'notNumber'],
  ['12abc', 'notNumber'],
  ['4,50,000', 'notNumber'],
  ['450,000.999', 450000.999],
  ['111111.11111111111', 111111.11111111111],
  ['1,250.000,00', 'notNumber'],
  ['450.000.5', 'notNumber'],
  ['$', 'notNumber'],
  ['-', 'notNumber'],
  ['.5', 'notNumber'],
  ['45 00', 'notNumber'],
  ['--5', 'notNumber'],
  ['123456789012345678901', 'tooLarge'],
  ['90071992547410', 'tooLarge'],
];

describe('parseMoney: amounts as people write them', () => {
  it.each(TABLE)('%j → %j', (text, want) => {
    const got = parseMoney(text);
    if (typeof want === 'number') expect(got).toEqual({ ok: true, value: want });
    else expect(got).toEqual({ ok: false, reason: want });
  });

  it('takes numbers as they are, refusing the non-finite and the too large', () => {
    expect(parseMoney(350000)).toEqual({ ok: true, value: 350000 });
    expect(parseMoney(Number.NaN)).toEqual({ ok: false, reason: 'notNumber' });
    expect(parseMoney(1e21)).toEqual({ ok: false, reason: 'tooLarge' });
    expect(parseMoney(null)).toEqual({ ok: false, reason: 'empty' });
  });
});
