/**
 * The packed lowered form (ir.ts packProgram / unpackProgram, carried by the web's data
 * packages): through JSON and back it is the lowered form, for every program and year of
 * the rules; it leaves out only the texts the program holds; a form that does not fit the
 * program it is read with is refused; and a Calculator given the forms (its `lowered`
 * option) calculates what one lowering at run time does, explanation included.
 */
import { describe, expect, it } from 'vitest';
import { readBundle } from '../build/bundle.js';
import { Calculator } from './calculate.js';
import { lowerProgram, packProgram, unpackProgram, type ProgramIR } from './ir.js';
import { PtaxError } from './errors.js';

const bundle = readBundle('dist/rules/bundle.json');
const all = Object.values(bundle.programs).flatMap((p) => p.years.map((year) => ({ id: p.id, year })));

describe('packed lowered forms', () => {
  it('through JSON and back, every program and year is its lowered form', () => {
    expect(all.length).toBeGreaterThan(10);
    for (const { id, year } of all) {
      const ir = lowerProgram(bundle, id, year);
      const json = JSON.stringify(packProgram(ir));
      expect(unpackProgram(JSON.parse(json), bundle.programs[id]!), `${id}@${year}`).toEqual(JSON.parse(JSON.stringify(ir)));
      // Only the texts are left out: no label, reference, message or text key is in the packed form.
      expect(json).not.toMatch(/"(label|message|text)":\{"en"/);
    }
  });

  it('a form that is not its program’s is refused (RULES_INVALID), not walked', () => {
    const [a, b] = Object.keys(bundle.programs) as [string, string];
    const packed = packProgram(lowerProgram(bundle, a, bundle.programs[a]!.years[0]!));
    expect(() => unpackProgram(packed, bundle.programs[b]!)).toThrow(PtaxError);
    expect(() => unpackProgram({ ...packed, steps: packed.steps.slice(1) }, bundle.programs[a]!)).toThrow(/does not fit/);
    const renamed = { ...packed, steps: packed.steps.map((s, i) => (i === 0 ? { ...s, id: `${s.id}X` } : s)) };
    expect(() => unpackProgram(renamed, bundle.programs[a]!)).toThrow(/does not fit/);
  });

  it('a Calculator given the forms calculates what one lowering at run time does, with the explanation', () => {
    const forms = new Map(all.map(({ id, year }) => [`${id}@${year}`, JSON.stringify(packProgram(lowerProgram(bundle, id, year)))]));
    const read: string[] = [];
    const given = new Calculator(bundle, {
      generated: false,
      lowered: (id, year) => {
        read.push(`${id}@${year}`);
        const f = forms.get(`${id}@${year}`);
        return f ? unpackProgram(JSON.parse(f) as ReturnType<typeof packProgram>, bundle.programs[id]!) : undefined;
      },
    });
    const plain = new Calculator(bundle, { generated: false });
    let compared = 0;
    for (const [code, state] of Object.entries(bundle.states)) {
      for (const c of state.counties.slice(0, 3))
        for (const value of [1, 400000])
          for (const extra of [{}, { homestead: true, over65: true }])
            for (const lang of ['en', 'es'] as const) {
              const input = { state: code, county: c.slug, value, ...extra };
              const run = (k: Calculator) => {
                try {
                  return JSON.stringify(k.calculate(input, { explain: true, lang }));
                } catch (e) {
                  return `error ${(e as PtaxError).code}`;
                }
              };
              expect(run(given), `${code} ${c.slug} ${value} ${lang}`).toBe(run(plain));
              compared++;
            }
    }
    expect(compared).toBeGreaterThan(50);
    expect(read.length).toBeGreaterThan(0);
    // The form read is the one run: the compiled program's lowered form is it.
    const { id, year } = all[0]!;
    const ir: ProgramIR = given.compiled(id, year).ir;
    expect(ir).toEqual(lowerProgram(bundle, id, year));
  });
});
