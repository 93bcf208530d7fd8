/**
 * A note or hint is shown only where it is true of the result beside it (issue 15): no
 * potential saving above the tax itself, no "rate is understated" note on a result that
 * does not use the county's rate (New York City is taxed by class).
 */
import { describe, expect, it } from 'vitest';
import { readBundle } from './build/bundle.js';
import { Calculator } from './core/calculate.js';

const bundle = readBundle('dist/rules/bundle.json');
const calc = new Calculator(bundle);
const TOP_CODED = "This county's rate is understated: the source data caps median taxes at $10,000";
const ny = bundle.states.NY!;

describe('notes true of their result', () => {
  it('every New York county, with and without exemptions: the savings hint is never more than the tax', () => {
    let checked = 0;
    for (const c of ny.counties) {
      for (const extra of [{}, { veteranDisability: 100 }, { homestead: true, seniorCitizen: true, veteranDisability: 80 }]) {
        const cls = c.flags.includes('nycClass') ? { propertyClass: 'class1' } : {};
        const r = calc.calculate({ state: 'NY', county: c.slug, value: 400000, ...cls, ...extra } as never);
        expect([c.slug, (r.potentialSavings as number) <= (r.annualTax as number)]).toEqual([c.slug, true]);
        checked++;
      }
    }
    expect(checked).toBe(ny.counties.length * 3);
  });

  it('New York City results carry no top-coded note; a top-coded county outside the city does', () => {
    for (const slug of ['new-york', 'kings', 'queens', 'bronx', 'richmond']) {
      const r = calc.calculate({ state: 'NY', county: slug, value: 1000000, propertyClass: 'class2' } as never);
      expect([slug, r.notes.includes(TOP_CODED)]).toEqual([slug, false]);
    }
    expect(calc.calculate({ state: 'NY', county: 'nassau', value: 1000000 } as never).notes).toContain(TOP_CODED);
  });
});
