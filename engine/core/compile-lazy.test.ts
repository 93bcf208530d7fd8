/**
 * compileProgramLazily (issue 23, `ptax calc` start-up): with a generated module and the fact
 * template the rule build wrote with the split (engine/build/bundle.ts), a calculation does
 * not lower its program; reading what the lowering gives (--explain, the interpreter) lowers
 * it then, once, and the results are those of the eager compile and of the interpreter.
 * Lowering is counted through a module mock that still calls the real function.
 */
import { describe, expect, it, vi } from 'vitest';

vi.mock('./ir.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('./ir.js')>();
  return { ...real, lowerProgram: vi.fn(real.lowerProgram) };
});

const { lowerProgram } = await import('./ir.js');
const { Calculator } = await import('./calculate.js');
const { compileProgram, compileProgramLazily } = await import('./compile.js');
const { readBundle } = await import('../build/bundle.js');
const { nodeProgramSource } = await import('../codegen/node.js');

const lowered = vi.mocked(lowerProgram);
// Harris County, TX, 2025, no exemption: school 0.8783% + county 0.38096% + city 0.51919% =
// 1.77845% (fixtures/tx/tx-homestead.yaml's rates); 400,000 × 1.77845% = 7,113.80.
const harris = { state: 'TX', county: 'Harris', value: 400000 };

describe('a program run by its generated module is lowered only when something reads the lowering', () => {
  it('ptax calc of one property: no lowering; --explain: one, and the same result as the interpreter', () => {
    const calc = new Calculator(readBundle('dist/rules/bundle.json'), { generated: nodeProgramSource() });
    lowered.mockClear();
    const r = calc.calculate(harris);
    expect(r.annualTax).toBe(7113.8);
    expect(lowered).not.toHaveBeenCalled();
    expect(calc.compiled('tx', 2025).generated).toBeDefined();
    const explained = calc.calculate(harris, { explain: true });
    expect(lowered.mock.calls).toEqual([[expect.anything(), 'tx', 2025]]);
    calc.calculate(harris, { explain: true });
    expect(lowered).toHaveBeenCalledTimes(1);
    const interpreter = new Calculator(readBundle('dist/rules/bundle.json'), { generated: false });
    expect(explained).toEqual(interpreter.calculate(harris, { explain: true }));
    expect(r).toEqual(interpreter.calculate(harris));
  });

  it('every program and year: the same template and, once read, the same fields as compileProgram', () => {
    const bundle = readBundle('dist/rules/bundle.json');
    for (const [id, p] of Object.entries(bundle.programs))
      for (const year of p.years) {
        lowered.mockClear();
        const lazy = compileProgramLazily(bundle, id, year);
        expect(lowered, `${id}@${year}`).not.toHaveBeenCalled();
        const eager = compileProgram(bundle, id, year);
        expect(lazy.template, `${id}@${year}`).toEqual(eager.template);
        expect(lazy.date).toBe(eager.date);
        expect(lazy.ir).toEqual(eager.ir);
        expect(lazy.stepInfo).toEqual(eager.stepInfo);
        expect(lazy.steps.map((s) => s.slot)).toEqual(eager.steps.map((s) => s.slot));
      }
  });

  it('is lowered at once when the template is not known: parameters replaced, or a bundle not read from a split', () => {
    const bundle = readBundle('dist/rules/bundle.json');
    bundle.parameters = { ...bundle.parameters };
    lowered.mockClear();
    compileProgramLazily(bundle, 'tx', 2025);
    expect(lowered).toHaveBeenCalledTimes(1);
    const whole = JSON.parse(JSON.stringify(readBundle('dist/rules/bundle.json')));
    lowered.mockClear();
    compileProgramLazily(whole, 'tx', 2025);
    expect(lowered).toHaveBeenCalledTimes(1);
    expect(() => compileProgramLazily(whole, 'nope', 2025)).toThrow('no program nope');
  });
});
