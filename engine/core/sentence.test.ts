/**
 * The explanation's sentences (issue 24): each step's label from the rule file and its
 * figures, in English and Spanish. Figures checked by hand from the rule files: Harris
 * County 1.77845 %, of which 0.8783 % school (rules/tx/counties.yaml), Texas school homestead
 * $140,000 and over-65 $60,000 from tax year 2025 (rules/tx/exemptions.yaml).
 */
import { describe, expect, it } from 'vitest';
import { readBundle } from '../build/bundle.js';
import { Calculator, inputFromFlags } from './calculate.js';

const calc = new Calculator(readBundle('dist/rules/bundle.json'));
const tx = (lang: 'en' | 'es') =>
  calc.calculate(inputFromFlags({ state: 'TX', county: 'harris', value: 400000, homestead: true, over65: true }), { explain: true, lang }).explanation!;
const step = (steps: ReturnType<typeof tx>, id: string) => steps.find((s) => s.rule === `tx.${id}`)!.sentence;

describe('step sentences', () => {
  it('a subtraction with its figures, never below zero (400,000 − 140,000 = 260,000; 260,000 − 60,000 = 200,000)', () => {
    expect(step(tx('en'), 'schoolAfterHomestead')).toBe('School value after the homestead exemption: $400,000 − $140,000, not below $0 = $260,000');
    expect(step(tx('en'), 'schoolAfterOver65')).toBe('School value after the over-65 or disabled exemption: $260,000 − $60,000, not below $0 = $200,000');
    expect(step(tx('es'), 'schoolAfterOver65')).toBe(
      'Valor escolar tras la exención para mayores de 65 o discapacitados: $260,000 − $60,000, sin bajar de $0 = $200,000',
    );
  });

  it('a rate in percent: "÷ 100" is left to the percent sign (school part 0.8783 % of 1.77845 %; 200,000 × 0.8783 % = 1,756.60)', () => {
    expect(step(tx('en'), 'schoolRate')).toBe('School rate: 1.77845% × 0.8783% ÷ 1.77845% = 0.8783%');
    expect(step(tx('en'), 'schoolTax')).toBe('School tax: $200,000 × 0.8783% = $1,756.60');
  });

  it('a condition and a value chosen by a condition read as plain values', () => {
    expect(step(tx('en'), 'seniorOrDisabled')).toBe('Over-65 or disabled person exemption applies: yes');
    expect(step(tx('es'), 'seniorOrDisabled')).toBe('Aplica la exención para mayores de 65 o personas con discapacidad: sí');
    expect(step(tx('en'), 'homesteadSchoolValue')).toBe('Homestead exemption off the school value: $140,000');
  });

  it('a sentence is written when first read, from its own result’s facts, and is in the JSON (260,000 − 60,000 = 200,000 at $400,000; 0 at $100,000)', () => {
    const input = (value: number) => inputFromFlags({ state: 'TX', county: 'harris', value, homestead: true, over65: true });
    const first = calc.calculate(input(400000), { explain: true, lang: 'en' }).explanation!;
    // A later calculation of the same program (same compiled program, other facts) does not change the earlier one's sentences.
    const later = calc.calculate(input(100000), { explain: true, lang: 'en' }).explanation!;
    expect(step(later, 'schoolAfterOver65')).toBe('School value after the over-65 or disabled exemption: $0 − $60,000, not below $0 = $0');
    expect(step(first, 'schoolAfterOver65')).toBe('School value after the over-65 or disabled exemption: $260,000 − $60,000, not below $0 = $200,000');
    const json = JSON.parse(JSON.stringify(first)) as typeof first;
    expect(json.map((s) => s.sentence)).toEqual(first.map((s) => s.sentence));
    expect({ ...first[0]! }.sentence).toBe(first[0]!.sentence);
  });

  it('no identifier of the rule language is left in any sentence of any state', () => {
    const inputs = [
      { state: 'NY', county: 'kings', value: 800000, class: 'class2', homestead: true, over65: true, seniorIncome: 50000 },
      { state: 'NY', county: 'albany', value: 300000, homestead: true },
      { state: 'TX', county: 'harris', value: 400000, homestead: true, veteranDisability: 50 },
      { state: 'CA', county: 'los-angeles', value: 900000, homestead: true, purchasePrice: 500000, purchaseYear: 2015, melloRoos: 2000 },
      { state: 'FL', county: 'miami-dade', value: 450000, homestead: true, over65: true, priorAssessed: 300000 },
    ];
    for (const lang of ['en', 'es'] as const)
      for (const i of inputs)
        for (const s of calc.calculate(inputFromFlags(i as never), { explain: true, lang }).explanation!)
          expect(s.sentence).not.toMatch(/\b[a-z]+[A-Z][a-zA-Z]*\b|_/);
  });
});
