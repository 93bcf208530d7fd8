/**
 * "Compiling is done once per process": a Calculator compiles each program (and each
 * state's program chooser) on first use only. Lowering a program (ir.ts lowerProgram) and
 * compiling a chooser's condition (compileCondition) are counted through module mocks that
 * still call the real functions.
 */
import { describe, expect, it, vi } from 'vitest';

vi.mock('./conditions.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('./conditions.js')>();
  return { ...real, compileCondition: vi.fn(real.compileCondition) };
});

vi.mock('./ir.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('./ir.js')>();
  return { ...real, lowerProgram: vi.fn(real.lowerProgram) };
});

const { compileCondition } = await import('./conditions.js');
const { lowerProgram } = await import('./ir.js');
const { Calculator } = await import('./calculate.js');
const { readBundle } = await import('../build/bundle.js');

describe('compiling is done once', () => {
  it('a second calculation with the same program and year lowers no program and compiles no condition', () => {
    const calc = new Calculator(readBundle('dist/rules/bundle.json'));
    const chooser = vi.mocked(compileCondition);
    const lowered = vi.mocked(lowerProgram);
    const count = { mockClear: () => (chooser.mockClear(), lowered.mockClear()) };
    const calls = () => chooser.mock.calls.length + lowered.mock.calls.length;
    const kings = { state: 'NY', county: 'Kings', value: 800000, propertyClass: 'class1' };
    count.mockClear();
    expect(calc.calculate(kings).annualTax).toBe(9524.64);
    expect(chooser.mock.calls.length).toBeGreaterThan(0); // the state's chooser
    expect(lowered.mock.calls).toEqual([[expect.anything(), 'ny.nyc', 2026]]); // the NYC program, once
    count.mockClear();
    // Queens class1 700,000: another county, same program and year.
    expect(calc.calculate({ ...kings, county: 'Queens', value: 700000 }).annualTax).toBe(8334.06); // 42,000 × 19.843%
    expect(calc.calculate(kings).annualTax).toBe(9524.64);
    expect(calls()).toBe(0);
    // A new year lowers the program for that year, but compiles not the state's chooser again.
    expect(calc.calculate({ ...kings, year: 2025 }).annualTax).toBe(9640.8);
    expect(lowered).toHaveBeenCalledTimes(1);
    expect(chooser).not.toHaveBeenCalled();
    count.mockClear();
    calc.calculate({ ...kings, year: 2025 });
    expect(calls()).toBe(0);
  });
});
