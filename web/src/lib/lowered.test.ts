/**
 * The lowered forms the data packages carry (web/scripts/build-data.mjs loweredOf, issue 27)
 * are the ones the engine makes: for every program of every edition's package, the form of
 * its latest year is there, and, read back (lib/lowered.ts), it equals the engine's lowering
 * of the package as the browser sees it (toBundle) and of the whole rules bundle, for
 * that year. The page made with them is the page made without them (the interpreter
 * lowering at run time), and a year the package has no form of is lowered at run time.
 */
import { describe, expect, it } from 'vitest';
import { Calculator, lowerProgram, PtaxError, unpackProgram, type PackedProgramIR } from '../../../engine/index.js';
import { calculate, defaultForm, makeEdition, type FormValues } from './model.js';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultLoaders, loadStateData, toBundle, type StatePackage } from './stateData.js';
import { loweredOf } from './lowered.js';
import { fullBundle } from '../test/edition.js';

const CODES = Object.keys(defaultLoaders).sort();
const EDITIONS = ['NY', 'TX', 'CA', 'FL'];
const STATES = resolve(dirname(fileURLToPath(import.meta.url)), '../generated/states');

describe('lowered forms in the data packages', () => {
  it('every program of every package has the form of its latest year, equal to the engine’s lowering', async () => {
    expect(CODES).toEqual(expect.arrayContaining(['NY', 'TX', 'CA', 'FL']));
    let compared = 0;
    for (const code of CODES) {
      // Read as files (the app's loaders transform each JSON package: 20 s for all of them).
      const pkg = JSON.parse(readFileSync(join(STATES, `${code}.json`), 'utf8')) as StatePackage;
      const bundle = toBundle(pkg);
      const forms = pkg.lowered ?? {};
      const latest = Object.entries(pkg.programs).map(([id, p]) => `${id}@${p.years.at(-1)}`);
      expect(Object.keys(forms).sort(), code).toEqual(latest.sort());
      const read = loweredOf(bundle)!;
      for (const key of Object.keys(forms)) {
        const [id, y] = key.split('@') as [string, string];
        const year = Number(y);
        const runTime = lowerProgram(bundle, id, year);
        expect(read(id, year), key).toEqual(runTime);
        // The same as the CLI's, from the whole rules bundle (the package keeps every input fact: same slots).
        if (EDITIONS.includes(code)) expect(read(id, year), key).toEqual({ ...lowerProgram(fullBundle, id, year), file: undefined });
        compared++;
      }
      // An earlier year has no form: the engine lowers it.
      for (const [id, p] of Object.entries(pkg.programs)) for (const y of p.years.slice(0, -1)) expect(read(id, y)).toBeUndefined();
    }
    expect(compared).toBeGreaterThanOrEqual(8);
  });

  it('the packed form leaves out the texts the program holds', async () => {
    const { pkg, bundle } = await loadStateData('TX');
    const packed = pkg.lowered!['tx@2025']!;
    const whole = lowerProgram(bundle, 'tx', 2025);
    expect(packed.steps.every((s) => !('label' in s) && !('reference' in s))).toBe(true);
    expect(JSON.stringify(packed).length).toBeLessThan(JSON.stringify(whole).length);
    expect(packed.validations.every((x) => !('message' in x)) && packed.notes.every((n) => !('text' in n))).toBe(true);
    // A form that does not fit the program is refused, not walked.
    const other = pkg.lowered!['tx.payment@2025'] as PackedProgramIR;
    expect(() => unpackProgram(other, bundle.programs.tx!)).toThrow(PtaxError);
    expect(() => unpackProgram({ ...packed, steps: packed.steps.slice(1) }, bundle.programs.tx!)).toThrow(/does not fit/);
  });

  it('the engine uses the package’s form, and the page is the one the run-time lowering makes', async () => {
    for (const [code, county] of [
      ['NY', 'Albany County'],
      ['TX', 'Harris County'],
      ['CA', 'Los Angeles County'],
      ['FL', 'Miami-Dade County'],
    ] as const) {
      const { pkg, bundle } = await loadStateData(code);
      const withForms = makeEdition(bundle);
      // The same package without its forms: every program is lowered at run time.
      const without = makeEdition(toBundle({ ...pkg, lowered: undefined }));
      const c = withForms.county(county)!;
      const year = withForms.years(c).at(-1)!;
      const ir = withForms.calculator.compiled(c.program, year).ir;
      expect(ir).toEqual(loweredOf(bundle)!(c.program, year));
      // The form given is the form run (a changed date shows through).
      const marked = new Calculator(bundle, { generated: false, lowered: (id, y) => ({ ...lowerProgram(bundle, id, y), date: 'marked' }) });
      expect(marked.compiled(c.program, year).date).toBe('marked');
      for (const over of [{}, { homestead: true }, { over65: true, homestead: true }])
        for (const lang of ['en', 'es'] as const) {
          const v = { ...defaultForm(withForms), county, homeValue: 400000, ...over } as FormValues;
          expect(JSON.stringify(calculate(withForms, v, lang)), `${code} ${lang}`).toBe(JSON.stringify(calculate(without, v, lang)));
        }
    }
  });
});
