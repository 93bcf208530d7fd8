/**
 * Issue 21: the Texas payment tool's tables equal its calculation. The penalty and attorney
 * fee bands are counted in months of delinquency (February = 1, Tax Code §31.02); the table
 * shows them at their calendar month, and every month's rate is the one the payment
 * calculator charges for a payment that month (Tax Code §33.01 penalty: February 6% …
 * June 10%, July 12%; §33.07 attorney fee from July).
 */
import { describe, expect, it } from 'vitest';
import { valueAt } from '../../../../engine/index.js';
import { statePackage } from '../../test/edition.js';
import { toBundle } from '../../lib/stateData.js';
import { makeEdition } from '../../lib/model.js';
import { monthOffset, monthRates } from './Schedule.js';

const tx = makeEdition(toBundle(statePackage('TX')));
const program = tx.bundle.programs['tx.payment']!;
const date = '2026-01-01';
const bandsOf = (id: string) => valueAt(tx.bundle.parameters[id]!, date)!.bands!;
const table = (id: string) => new Map(monthRates(bandsOf(id), monthOffset(tx.bundle, program, id, date)).map((m) => [m.month, m.rate]));

describe('Texas payment schedule: the table is the calculation', () => {
  it('reads the delinquency bands from February (delinquent_month 2 → offset 1); a calendar-month band has none', () => {
    expect(monthOffset(tx.bundle, program, 'tx.payment.penalty', date)).toBe(1);
    expect(monthOffset(tx.bundle, program, 'tx.payment.attorney_fee', date)).toBe(1);
    expect(monthOffset(tx.bundle, program, 'tx.payment.early_discount', date)).toBe(0);
  });

  it('penalty: January is on time (not listed), February 6%, June 10%, July 12%; attorney fee from July, not June', () => {
    const penalty = table('tx.payment.penalty');
    expect(penalty.has(1)).toBe(false);
    expect([penalty.get(2), penalty.get(3), penalty.get(6), penalty.get(7), penalty.get(12)]).toEqual([6, 7, 10, 12, 12]);
    const fee = table('tx.payment.attorney_fee');
    expect([fee.has(6), fee.get(7), fee.get(12)]).toEqual([false, 20, 20]);
  });

  it("every month's table rates are what the calculator charges for a 2025 bill paid that month of 2026", () => {
    const penalty = table('tx.payment.penalty');
    const fee = table('tx.payment.attorney_fee');
    for (let month = 1; month <= 12; month++) {
      const r = tx.calculator.run('payment', {
        state: 'TX',
        county: '',
        value: 1,
        taxAmount: 5000,
        billYear: 2025,
        paymentYear: 2026,
        paymentMonth: month,
        paymentDay: 15,
      } as never) as unknown as Record<string, number>;
      expect([month, r.penaltyOnlyRate, r.attorneyFeeRate]).toEqual([month, penalty.get(month) ?? 0, fee.get(month) ?? 0]);
    }
  });
});
