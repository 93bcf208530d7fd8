/** The Texas vote panel's propositions (rules/tx/state.yaml): what each saves, and together the whole saving. */
import { describe, expect, it } from 'vitest';
import { readBundle } from './build/bundle.js';
import { Calculator } from './core/calculate.js';

const calc = new Calculator(readBundle('dist/rules/bundle.json'));

describe('tx vote: propositions', () => {
  it('Harris, $400,000, homestead and over 65: Proposition 13 saves $40,000 of school value, Proposition 11 $50,000, at the school rate', () => {
    const r = calc.run('vote', { state: 'TX', county: 'harris', value: 400000, homestead: true, over65: true } as never) as Record<string, unknown>;
    const school = (r.after as Record<string, Record<string, Record<string, number>>>).texas!.rates!.school!;
    const props = r.propositions as Array<{ id: string; savings: number }>;
    expect(props.map((p) => p.id)).toEqual(['prop-13', 'prop-11']);
    // tx.exemptions.homestead_school 100,000 → 140,000; over65_disabled_school 10,000 → 60,000.
    expect(props[0]!.savings).toBeCloseTo((40000 * school) / 100, 2);
    expect(props[1]!.savings).toBeCloseTo((50000 * school) / 100, 2);
    expect(Math.round((props[0]!.savings + props[1]!.savings) * 100) / 100).toBe(r.savings);
  });

  it('without over 65, Proposition 11 saves nothing', () => {
    const r = calc.run('vote', { state: 'TX', county: 'harris', value: 400000, homestead: true } as never) as Record<string, unknown>;
    expect((r.propositions as Array<{ savings: number }>)[1]!.savings).toBe(0);
    expect((r.propositions as Array<{ savings: number }>)[0]!.savings).toBe(r.savings);
  });
});
