/**
 * engine/build/bundle.ts, the rule reader of the CLI (issue 23: start-up that does not grow with
 * the number of states): the split it writes reads back as the same bundle, key order
 * included, a state or program parsed only when it is read; a split that was not made from
 * the bundle.json beside it (rebuilt since, or edited) is not used.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { asciiJson, readBundle, readSplit, splitFile, writeSplit } from './bundle.js';
import { countyCount, findCounty } from '../core/counties.js';

const tmp = mkdtempSync(join(tmpdir(), 'ptax-split-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const file = join(tmp, 'bundle.json');
copyFileSync('dist/rules/bundle.json', file);
const whole = JSON.parse(readFileSync(file, 'utf8'));

describe('the split rule bundle', () => {
  it('reads back as the bundle: the same objects, the same JSON text (key order), every state and program', () => {
    const counts = writeSplit(file);
    expect(counts).toEqual({ states: Object.keys(whole.states).length, programs: Object.keys(whole.programs).length });
    const split = readSplit(file)!;
    expect(split).toBeDefined();
    expect(Object.keys(split)).toEqual(Object.keys(whole));
    expect(Object.keys(split.states)).toEqual(Object.keys(whole.states));
    expect(JSON.stringify(split)).toBe(JSON.stringify(whole));
    expect(split).toEqual(whole);
  });

  it('parses a state only when it is read, and once', () => {
    writeSplit(file);
    const split = readSplit(file)!;
    // A state file replaced after the split was read: what is read first is what counts.
    const tx = splitFile(join(tmp, 'split'), 'states', 'TX');
    const text = readFileSync(tx, 'utf8');
    writeFileSync(tx, JSON.stringify({ ...whole.states.TX, name: 'Read late' }));
    expect(split.states.TX!.name).toBe('Read late');
    writeFileSync(tx, text);
    expect(split.states.TX!.name).toBe('Read late');
    expect(split.states.CA).toEqual(whole.states.CA);
  });

  it('parses the parameters and the input declarations only when they are read (not in the index), and once', () => {
    writeSplit(file);
    const index = JSON.parse(readFileSync(join(tmp, 'split', 'index.json'), 'utf8'));
    expect(index.parameters).toBe(true);
    expect(index.inputs).toBe(true);
    const split = readSplit(file)!;
    const params = join(tmp, 'split', 'parameters.json');
    const text = readFileSync(params, 'utf8');
    writeFileSync(params, JSON.stringify({ late: 1 }));
    expect(split.parameters).toEqual({ late: 1 });
    writeFileSync(params, text);
    expect(split.parameters).toEqual({ late: 1 });
    expect(split.inputs).toEqual(whole.inputs);
    // Assigned: the new value, as a plain property.
    split.parameters = whole.parameters;
    expect(split.parameters).toBe(whole.parameters);
  });

  it('is not used once the bundle beside it changed (a rebuild without the split, an edit)', () => {
    writeSplit(file);
    expect(readSplit(file)).toBeDefined();
    const later = new Date(Date.now() + 5000);
    utimesSync(file, later, later);
    expect(readSplit(file)).toBeUndefined();
    writeSplit(file);
    writeFileSync(file, JSON.stringify(whole) + ' ');
    expect(readSplit(file)).toBeUndefined();
    rmSync(join(tmp, 'split', 'index.json'));
    expect(readSplit(file)).toBeUndefined();
  });
});

describe('readBundle', () => {
  it('reads any bundle.json through the split beside it while that is current, else the whole JSON: the same bundle either way', () => {
    writeSplit(file);
    const split = readBundle(file);
    expect(readSplit(file)).toBeDefined();
    // Through the split: TX's file is read only now; a change to it shows (the whole JSON would not).
    const tx = splitFile(join(tmp, 'split'), 'states', 'TX');
    const text = readFileSync(tx, 'utf8');
    writeFileSync(tx, JSON.stringify({ ...whole.states.TX, name: 'From the split' }));
    expect(split.states.TX!.name).toBe('From the split');
    writeFileSync(tx, text);
    expect(readBundle(file)).toEqual(whole);
    // The bundle rewritten after its split: the split is not used.
    const later = new Date(Date.now() + 5000);
    utimesSync(file, later, later);
    writeFileSync(tx, JSON.stringify({ ...whole.states.TX, name: 'Stale split' }));
    expect(readBundle(file).states.TX!.name).toEqual(whole.states.TX.name);
  });
});

describe('a state read through its light file (issue 23: one county parsed, not 254)', () => {
  it('writes the split in ASCII (a \\u escape for each character above U+007E), the same values', () => {
    writeSplit(file);
    const tx = readFileSync(splitFile(join(tmp, 'split'), 'states', 'TX'), 'utf8');
    expect(/[^\x00-\x7e]/.test(tx)).toBe(false);
    expect(JSON.parse(tx)).toEqual(whole.states.TX);
    // "Doña Ana – NM": ñ is U+00F1, the en dash U+2013.
    expect(asciiJson({ n: 'Doña Ana – NM' })).toBe('{"n":"Do\\u00f1a Ana \\u2013 NM"}');
    expect(JSON.parse(asciiJson({ n: 'Doña Ana – NM' }))).toEqual({ n: 'Doña Ana – NM' });
  });

  it('finds a county by slug without parsing the others; `counties` then holds that very object; the same JSON as the whole bundle', () => {
    writeSplit(file);
    const split = readSplit(file)!;
    const tx = split.states.TX!;
    // Still the light reader's getter: no county array parsed yet.
    expect(Object.getOwnPropertyDescriptor(tx, 'counties')?.get).toBeTypeOf('function');
    expect(countyCount(tx)).toBe(whole.states.TX.counties.length);
    const harris = findCounty(tx, 'Harris').county!;
    expect(harris).toEqual(whole.states.TX.counties.find((c: { slug: string }) => c.slug === 'harris'));
    expect(Object.getOwnPropertyDescriptor(tx, 'counties')?.get).toBeTypeOf('function');
    // Read whole: every county, Harris the object handed out before.
    expect(tx.counties.find((c) => c.slug === 'harris')).toBe(harris);
    expect(tx.counties).toEqual(whole.states.TX.counties);
    expect(JSON.stringify(tx)).toBe(JSON.stringify(whole.states.TX));
    // Another spelling goes through every county, as before.
    expect(findCounty(tx, 'HARRIS COUNTY').county).toBe(harris);
  });

  it('finds every county of every state by its slug (an index by slug), before and after the counties are read whole', () => {
    writeSplit(file);
    const split = readSplit(file)!;
    for (const [code, st] of Object.entries(
      whole.states as Record<string, { counties: Array<{ slug: string; name: string }>; aliases: Array<{ name: string }> }>,
    )) {
      const light = split.states[code]!;
      const aliases = new Set(st.aliases.map((a) => a.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')));
      // The last county first: a look-up that scanned from the start and stopped early would still pass the first.
      for (const c of [...st.counties].reverse()) if (!aliases.has(c.slug)) expect(findCounty(light, c.slug).county, `${code} ${c.slug}`).toEqual(c);
      expect(() => findCounty(light, 'no-such-county-here')).toThrow();
      // Read whole: the same objects, and a county added to the array is found too.
      const first = st.counties.find((c) => !aliases.has(c.slug));
      if (!first) continue;
      const before = findCounty(light, first.slug).county;
      expect(light.counties.length).toBe(st.counties.length);
      expect(findCounty(light, first.slug).county).toBe(before);
      const added = { ...light.counties[0]!, slug: 'added-late' };
      light.counties.push(added);
      expect(findCounty(light, 'added-late').county).toBe(added);
    }
  });

  it('answers from the new array once `counties` is replaced', () => {
    writeSplit(file);
    const tx = readSplit(file)!.states.TX!;
    const one = { ...whole.states.TX.counties[0], slug: 'only-one' };
    tx.counties = [one];
    expect(countyCount(tx)).toBe(1);
    expect(findCounty(tx, 'only-one').county).toBe(one);
    expect(() => findCounty(tx, 'harris')).toThrow();
  });

  it('is not used once the state file changed (its size recorded): the state file is read whole', () => {
    writeSplit(file);
    const path = splitFile(join(tmp, 'split'), 'states', 'TX');
    writeFileSync(path, JSON.stringify({ ...whole.states.TX, name: 'Edited' }));
    const tx = readSplit(file)!.states.TX!;
    expect(tx.name).toBe('Edited');
    expect(Object.getOwnPropertyDescriptor(tx, 'counties')?.get).toBeUndefined();
    expect(findCounty(tx, 'Harris').county?.slug).toBe('harris');
  });
});

describe('a program read through its light file (issue 23)', () => {
  it('leaves its steps, notes and validations in the program file until they are read; the same JSON as the whole bundle', () => {
    writeSplit(file);
    const tx = readSplit(file)!.programs.tx!;
    for (const k of ['steps', 'notes', 'validations']) expect(Object.getOwnPropertyDescriptor(tx, k)?.get).toBeTypeOf('function');
    expect(tx.years).toEqual(whole.programs.tx.years);
    expect(tx.steps).toEqual(whole.programs.tx.steps);
    expect(tx.steps).toBe(tx.steps);
    expect(JSON.stringify(tx)).toBe(JSON.stringify(whole.programs.tx));
    // Assigned: the new value.
    tx.notes = [];
    expect(tx.notes).toEqual([]);
  });

  it('a `ptax calc` with the generated program reads none of them (TX/Harris)', async () => {
    writeSplit(file);
    const b = readSplit(file)!;
    const { Calculator } = await import('../core/calculate.js');
    const { nodeProgramSource } = await import('../codegen/node.js');
    const calc = new Calculator(b, { generated: nodeProgramSource() });
    const r = calc.calculate({ state: 'TX', county: 'Harris', value: 400000 });
    // 400,000 × 1.77845% (school 0.8783 + county 0.38096 + city 0.51919) = 7,113.80.
    expect(r.annualTax).toBeCloseTo(7113.8, 2);
    for (const k of ['steps', 'notes', 'validations']) expect(Object.getOwnPropertyDescriptor(b.programs.tx!, k)?.get).toBeTypeOf('function');
    expect(Object.getOwnPropertyDescriptor(b.states.TX!, 'counties')?.get).toBeTypeOf('function');
  });
});
