/**
 * "Compiling is done once per process": a Calculator compiles each program (and each
 * state's program chooser) on first use only. compileCondition is counted through a
 * module mock that still calls the real function.
 */
import { describe, expect, it, vi } from 'vitest';

vi.mock('./conditions.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('./conditions.js')>();
  return { ...real, compileCondition: vi.fn(real.compileCondition) };
});

const { compileCondition } = await import('./conditions.js');
const { Calculator } = await import('./calculate.js');
const { readBundle } = await import('../build/bundle.js');

describe('compiling is done once', () => {
  it('a second calculation with the same program and year compiles no condition', () => {
    const calc = new Calculator(readBundle('dist/rules/bundle.json'));
    const count = vi.mocked(compileCondition);
    const kings = { state: 'NY', county: 'Kings', value: 800000, propertyClass: 'class1' };
    count.mockClear();
    expect(calc.calculate(kings).annualTax).toBe(9524.64);
    expect(count.mock.calls.length).toBeGreaterThan(1); // the chooser and the NYC program
    count.mockClear();
    // Queens class1 700,000: another county, same program and year.
    expect(calc.calculate({ ...kings, county: 'Queens', value: 700000 }).annualTax).toBe(8334.06); // 42,000 × 19.843%
    expect(calc.calculate(kings).annualTax).toBe(9524.64);
    expect(count).not.toHaveBeenCalled();
    // A new year compiles the program for that year, but not the state's chooser again.
    expect(calc.calculate({ ...kings, year: 2025 }).annualTax).toBe(9640.8);
    expect(count).toHaveBeenCalled();
    count.mockClear();
    calc.calculate({ ...kings, year: 2025 });
    expect(count).not.toHaveBeenCalled();
  });
});
