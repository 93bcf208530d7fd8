/**
 * The JavaScript printer (js.ts) on small hand-made programs: the exact source it prints
 * for one program, and what the printed module computes, checked with a pencil: a result
 * (with its rounding, dropping groups and notes in both languages), a batch row (the
 * numbers, the text cells and their bits, the notes' bits, an error raised by a leaf that
 * is not a batch column), the steps written back or not, the errors it refuses to print,
 * and the hash that ties a module to its rules. engine/ir-random.test.ts checks the printed
 * modules against the interpreter on random programs; engine/codegen/js.test.ts checks the
 * built modules of the real rules.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFormula } from '../build/formulas.js';
import { PtaxError } from '../core/errors.js';
import { run } from '../core/walk.js';
import { lowerProgram } from '../core/ir.js';
import { COUNTY_FACTS, type Bundle, type Condition, type ParameterDef, type ProgramDef, type ResultGroup } from '../core/types.js';
import { BATCH_COLUMNS, generateAll, generateProgram, moduleName, numLit, programHash } from './js.js';
import { runtime, type GeneratedModuleExports, type GeneratedProgram } from './runtime.js';

const tmp = mkdtempSync(join(tmpdir(), 'ptax-js-print-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const require = createRequire(import.meta.url);
let serial = 0;

const label = { en: 'x', es: 'x' };
const f = (src: string) => ({ formula: parseFormula(src) });
const param = (id: string, type: ParameterDef['type'], entry: object, effective = '2000-01-01'): ParameterDef => ({
  id,
  file: `rules/${id.split('.')[0]}.yaml`,
  description: id,
  label,
  unit: 'none',
  type,
  values: [{ effective, reference: [], last_verified: '2026-11-27', ...entry }],
});

/** A bundle of three inputs (value, propertyClass, homestead; then the county facts) and the given programs. */
function bundleOf(programs: ProgramDef[], parameters: ParameterDef[] = PARAMS): Bundle {
  return {
    format: 1,
    parameters: Object.fromEntries(parameters.map((p) => [p.id, p])),
    programs: Object.fromEntries(programs.map((p) => [p.id, p])),
    states: {},
    inputs: [],
    results: [],
    facts: [
      { fact: 'value', input: 'value', key: 'value', type: 'number' },
      { fact: 'propertyClass', input: 'propertyClass', key: 'propertyClass', type: 'text' },
      { fact: 'homestead', input: 'homestead', key: 'homestead', type: 'boolean' },
    ],
  };
}
const program = (over: Partial<ProgramDef>): ProgramDef => ({
  id: 'zz.p',
  file: 'rules/zz/p.yaml',
  description: 'a test program',
  label,
  period: { start: '01-01', fiscal: false },
  years: [2026],
  parameters: {},
  validations: [],
  steps: [],
  notes: [],
  result: {},
  ...over,
});

// k: a rate of 2%; t: a share by class; b: three bands.
const PARAMS = [
  param('zz.k', 'scalar', { value: 0.02 }),
  param('zz.t', 'by_key', { value: { class1: 0.5, class2: 0.25 } }),
  param('zz.b', 'bands', { bands: [{ below: 100000, value: 1 }, { at_most: 200000, value: 2 }, { value: 3 }] }),
];

/** The printed module of a program, loaded as the engine loads one (engine/codegen/node.ts). */
function load(bundle: Bundle, id = 'zz.p', year = 2026): GeneratedProgram {
  const m = generateProgram(bundle, id, year);
  const file = join(tmp, `m${serial++}.cjs`);
  writeFileSync(file, m.source);
  const exports = require(file) as GeneratedModuleExports;
  expect([exports.hash, exports.program, exports.year]).toEqual([m.hash, id, year]);
  return exports.make(runtime);
}

/** A fact array: value, propertyClass, homestead, then the county facts (null) and the template's values. */
function facts(bundle: Bundle, value: unknown, propertyClass: unknown, homestead: unknown): unknown[] {
  const v: unknown[] = lowerProgram(bundle, 'zz.p', 2026).template.slice();
  v[0] = value;
  v[1] = propertyClass;
  v[2] = homestead;
  return v;
}

function thrown(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(PtaxError);
    return `${(e as PtaxError).code}: ${(e as PtaxError).message}`;
  }
  return 'no error';
}

describe('numLit: a number as an exact JavaScript literal', () => {
  it.each<[number, string]>([
    [0, '0'],
    [-0, '(-0)'],
    [1.5, '1.5'],
    [-2, '(-2)'],
    [1e21, '1e+21'],
    [-1e-7, '(-1e-7)'],
    [Infinity, 'Infinity'],
    [-Infinity, '(-Infinity)'],
    [NaN, 'NaN'],
  ])('%s → %s', (n, want) => {
    expect(numLit(n)).toBe(want);
  });
});

describe('names', () => {
  it('a module is <program>@<year>.cjs', () => {
    expect(moduleName('ny.nyc', 2026)).toBe('ny.nyc@2026.cjs');
  });
  it("the batch columns: rules/results.yaml's fields with a column, without countyName, program, rulesYear and notes", () => {
    expect(BATCH_COLUMNS.map((p) => p.join('.'))).toEqual([
      'annualTax',
      'monthlyTax',
      'effectiveRate',
      'baseAssessedValue',
      'finalAssessedValue',
      'taxableValue',
      'exemptionSavings',
      'countyBreakdown.school',
      'countyBreakdown.county',
      'countyBreakdown.city',
      'countyBreakdown.special',
      'potentialSavings',
    ]);
  });
});

describe('programHash: what a module is made from', () => {
  const p = program({
    parameters: { k: 'zz.k', t: 'zz.t', b: 'zz.b' },
    steps: [{ id: 'a', label, ...f('value * k') }],
    result: { annualTax: { ...f('a'), unit: 'usd' } },
  });
  const h = (params: ParameterDef[], year = 2026, prog = p) => programHash(bundleOf([prog], params), 'zz.p', year);
  const base = h(PARAMS);
  it('a sha-256 in hex, the same for the same rules', () => {
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(h(PARAMS)).toBe(base);
  });
  it('changes with the year, the program, and each parameter’s value, table, bands, effective date and type', () => {
    const changed = [
      h(PARAMS, 2027),
      h(PARAMS, 2026, { ...p, steps: [{ id: 'a', label, ...f('value * k * 4') }] }),
      h([param('zz.k', 'scalar', { value: 0.03 }), PARAMS[1]!, PARAMS[2]!]),
      h([PARAMS[0]!, param('zz.t', 'by_key', { value: { class1: 0.5, class2: 0.3 } }), PARAMS[2]!]),
      h([PARAMS[0]!, PARAMS[1]!, param('zz.b', 'bands', { bands: [{ value: 3 }] })]),
      h([param('zz.k', 'scalar', { value: 0.02 }, '2001-01-01'), PARAMS[1]!, PARAMS[2]!]),
      h([{ ...PARAMS[0]!, type: 'by_key' }, PARAMS[1]!, PARAMS[2]!]),
    ];
    expect(new Set([base, ...changed]).size).toBe(8);
  });
  it('a parameter missing, or with no value in force, still hashes (the lowering then refuses the program)', () => {
    expect(h([PARAMS[1]!, PARAMS[2]!])).toMatch(/^[0-9a-f]{64}$/);
    expect(h([PARAMS[1]!, PARAMS[2]!])).not.toBe(base);
    const late = [param('zz.k', 'scalar', { value: 0.02 }, '2030-01-01'), PARAMS[1]!, PARAMS[2]!];
    expect(h(late)).toMatch(/^[0-9a-f]{64}$/);
    expect(h(late)).not.toBe(h([PARAMS[1]!, PARAMS[2]!]));
  });
  it('an unknown program is RULES_INVALID', () => {
    expect(thrown(() => programHash(bundleOf([p]), 'zz.q', 2026))).toBe('RULES_INVALID: no program zz.q');
  });
});

describe('the printed source of one program', () => {
  it('is exactly this', () => {
    const p = program({
      parameters: { k: 'zz.k', t: 'zz.t' },
      // The first fact read is homestead (f2): the reads are printed in slot order all the same.
      validations: [
        { when: { all: [{ fact: 'homestead', operator: 'notIn', value: [true, false] }] }, code: 'NOT_YES_NO', message: { en: 'yes or no', es: 'sí o no' } },
        { when: { fact: 'value', operator: 'lessThan', value: 0 }, code: 'NEGATIVE', message: { en: 'negative', es: 'negativo' } },
      ],
      steps: [
        { id: 'share', label, ...f('t[propertyClass]') },
        {
          id: 'kind',
          label,
          cases: [
            {
              when: {
                any: [
                  { fact: 'homestead', operator: 'equal', value: true },
                  { fact: 'value', operator: 'greaterThan', value: 'k' as never },
                ],
              },
              value: 'home',
            },
            { when: { any: [{ fact: 'propertyClass', operator: 'contains', value: 'x' }] }, value: 'odd' },
            { value: 'other' },
          ],
        },
      ],
      notes: [
        { when: { fact: 'kind', operator: 'in', value: ['home', 'farm'] }, text: { en: 'a home', es: 'una casa' } },
        { when: { fact: 'value', operator: 'greaterThan', value: 100 }, text: { en: 'over 100', es: 'más de 100' } },
      ],
      result: {
        annualTax: { ...f('max(value * share * k, 0, -1)'), unit: 'usd' },
        monthlyTax: { ...f('t[propertyClass] / 12'), unit: 'usd' },
        exemptions: { a: { ...f('-t[propertyClass]'), unit: 'usd' }, sub: { b: { ...f('value * 0'), unit: 'usd' } } },
        exemptionBreakdown: { x: { share: { ...f('share'), unit: 'fraction' }, amount: { ...f('value * k'), unit: 'usd' } } },
      } as ResultGroup,
    });
    const b = bundleOf([p]);
    const m = generateProgram(b, 'zz.p', 2026);
    expect(m.file).toBe('zz.p@2026.cjs');
    expect(m.hash).toBe(programHash(b, 'zz.p', 2026));
    // The value compared with the literal 'k' is the text "k", not the parameter (a literal, not a fact).
    expect(m.source.replaceAll(m.hash, '<hash>')).toBe(`'use strict';
// Generated by ptax (engine/codegen/js.ts) from the checked rules: do not edit.
// program: zz.p, year: 2026 (parameters in force on 2026-01-01)
// rules: rules/zz.yaml, rules/zz/p.yaml
// hash: <hash>
const hash = "<hash>";
module.exports = {
  hash,
  program: "zz.p",
  year: 2026,
  /** rt: the engine's runtime (engine/codegen/runtime.ts). */
  make(rt) {
    const roundTo = rt.roundTo;
    const M0 = {"en":"yes or no","es":"sí o no"};
    const M1 = {"en":"negative","es":"negativo"};
    const T0 = JSON.parse("{\\"class1\\":0.5,\\"class2\\":0.25}");
    const N0 = {"en":"a home","es":"una casa"};
    const N1 = {"en":"over 100","es":"más de 100"};
    /**
     * The program on a filled fact array: validations, then steps. For a batch row (nums
     * given): the leaves that can throw (so a row fails as the result would), the batch
     * columns, unrounded, into nums (numbers) or other, and the notes that apply as bits
     * (bit i for notes[i]). Else: the steps written back to their slots when keepSteps,
     * and the result object with its notes.
     */
    function evaluate(v, lang, keepSteps, nums, other) {
      const f0 = v[0], f1 = v[1], f2 = v[2];
      if ((f2 !== true && f2 !== false)) throw rt.error("NOT_YES_NO", M0[lang]);
      if ((typeof f0 === 'number' ? f0 < 0 : rt.isNumeric(f0) && f0 < 0)) throw rt.error("NEGATIVE", M1[lang]);
      const s0 = rt.entry(T0, "zz.t", f1);
      const s1 = (((f2 === true) || (typeof f0 === 'number' ? f0 > "k" : rt.isNumeric(f0) && f0 > "k")) ? "home" : (rt.op.contains(f1, "x") ? "odd" : "other"));
      if (nums !== undefined) {
        (rt.entry(T0, "zz.t", f1) / 12);
        (-rt.entry(T0, "zz.t", f1));
        let x, odd = 0;
        x = Math.max(Math.max(((f0 * s0) * 0.02), 0), (-1)); if (typeof x === 'number') nums[0] = x; else { nums[0] = NaN; other[0] = x; odd |= 1; }
        x = (rt.entry(T0, "zz.t", f1) / 12); if (typeof x === 'number') nums[1] = x; else { nums[1] = NaN; other[1] = x; odd |= 2; }
        nums[12] = odd;
        let bits = 0;
        if ((s1 === "home" || s1 === "farm")) bits |= 1;
        if ((typeof f0 === 'number' ? f0 > 100 : rt.isNumeric(f0) && f0 > 100)) bits |= 2;
        return bits;
      }
      if (keepSteps) { v[${3 + COUNTY_FACTS.length + 1}] = s0; v[${3 + COUNTY_FACTS.length + 2}] = s1; }
      const r0 = roundTo(Math.max(Math.max(((f0 * s0) * 0.02), 0), (-1)), 2);
      const r1 = roundTo((rt.entry(T0, "zz.t", f1) / 12), 2);
      const r2 = roundTo((-rt.entry(T0, "zz.t", f1)), 2);
      const r3 = roundTo((f0 * 0), 2);
      const g0 = {};
      if (r2 !== 0) g0["a"] = r2;
      g0["sub"] = { "b": r3 };
      const r4 = roundTo(s0, 8);
      const r5 = roundTo((f0 * 0.02), 2);
      const g1 = {};
      if (r5 !== 0) g1["x"] = { "share": r4, "amount": r5 };
      const result = { "annualTax": r0, "monthlyTax": r1, "exemptions": g0, "exemptionBreakdown": g1 };
      const notes = [];
      if ((s1 === "home" || s1 === "farm")) notes.push(N0[lang]);
      if ((typeof f0 === 'number' ? f0 > 100 : rt.isNumeric(f0) && f0 > 100)) notes.push(N1[lang]);
      result.notes = notes;
      return result;
    }
    return { hash, evaluate, notes: [N0, N1], reads: [0, 1, 2] };
  },
};
`);
  });
  it('a program that reads no fact and has no step, note or validation', () => {
    const p = program({ result: { annualTax: { ...f('4 * 12'), unit: 'usd' } } });
    const b = bundleOf([p]);
    const m = generateProgram(b, 'zz.p', 2026);
    const body = m.source.slice(m.source.indexOf('    function evaluate'), m.source.indexOf('  },\n};'));
    // 4 × 12 folded: 48. Empty lines where the reads, validations, steps, throwing leaves, notes and write-back would be.
    expect(body).toBe(`    function evaluate(v, lang, keepSteps, nums, other) {
      
      
      if (nums !== undefined) {
        
        let x, odd = 0;
        x = 48; if (typeof x === 'number') nums[0] = x; else { nums[0] = NaN; other[0] = x; odd |= 1; }
        nums[12] = odd;
        let bits = 0;
        
        return bits;
      }
      
      const r0 = roundTo(48, 2);
      const result = { "annualTax": r0 };
      const notes = [];
      
      result.notes = notes;
      return result;
    }
    return { hash, evaluate, notes: [], reads: [] };
`);
  });
});

describe('what a printed module computes', () => {
  // Steps: base = value × t[class]; tier = band(b, value); tax = max(base × k − 100, 0);
  // kind = 'home' when homestead, else 'other'; big = value ≥ 200,000.
  const p = program({
    parameters: { k: 'zz.k', t: 'zz.t', b: 'zz.b' },
    validations: [
      { when: { fact: 'value', operator: 'lessThan', value: 0 }, code: 'NEGATIVE', message: { en: 'negative value', es: 'valor negativo' } },
      { when: { fact: 'value', operator: 'equal', value: null }, code: 'MISSING', message: { en: 'no value', es: 'sin valor' } },
    ],
    steps: [
      { id: 'base', label, ...f('value * t[propertyClass]') },
      { id: 'tier', label, ...f('band(b, value)') },
      { id: 'tax', label, ...f('max(base * k - 100, 0)') },
      { id: 'kind', label, cases: [{ when: { fact: 'homestead', operator: 'equal', value: true }, value: 'home' }, { value: 'other' }] },
      { id: 'big', label, condition: { fact: 'value', operator: 'greaterThanInclusive', value: 200000 } },
    ],
    notes: [
      { when: { fact: 'big', operator: 'equal', value: true }, text: { en: 'a large value', es: 'un valor grande' } },
      { when: { fact: 'kind', operator: 'in', value: ['home'] }, text: { en: 'a home', es: 'una casa' } },
      { when: { not: { fact: 'kind', operator: 'notIn', value: ['other'] } }, text: { en: 'not a home', es: 'no es una casa' } },
    ],
    result: {
      annualTax: { ...f('tax'), unit: 'usd' },
      effectiveRate: { ...f('tax / value * 100'), unit: 'percent' },
      taxableValue: { ...f('base / value'), unit: 'fraction' },
      baseAssessedValue: { ...f('kind'), unit: 'text' },
      tier: { ...f('tier'), unit: 'count' },
      exemptions: { none: { ...f('value * 0'), unit: 'usd' }, part: { ...f('value - base'), unit: 'usd' } },
      exemptionBreakdown: {
        none: { amount: { ...f('0 * base'), unit: 'usd' } },
        part: { amount: { ...f('value - base'), unit: 'usd' }, share: { ...f('base / value'), unit: 'fraction' } },
      },
      // Not a batch column, and it can raise: a batch row must raise it too.
      shareOf: { ...f('t[propertyClass]'), unit: 'fraction' },
    } as ResultGroup,
  });
  const b = bundleOf([p]);
  const g = load(b);
  const ir = lowerProgram(b, 'zz.p', 2026);
  const stepSlot = (id: string) => ir.steps.find((s) => s.id === id)!.slot;

  it('a result: 300,000 of class1 with a homestead', () => {
    // base = 300,000 × 0.5 = 150,000; tier: not below 100,000, above 200,000: 3;
    // tax = max(150,000 × 0.02 − 100, 0) = 2,900; rate = 2,900 / 300,000 × 100 = 0.96666… → 0.966667.
    const want = {
      annualTax: 2900,
      effectiveRate: 0.966667,
      taxableValue: 0.5,
      baseAssessedValue: 'home',
      tier: 3,
      exemptions: { part: 150000 },
      exemptionBreakdown: { part: { amount: 150000, share: 0.5 } },
      shareOf: 0.5,
      notes: ['a large value', 'a home'],
    };
    expect(g.evaluate(facts(b, 300000, 'class1', true), 'en', false)).toEqual(want);
    expect(run(ir, facts(b, 300000, 'class1', true))).toEqual(want);
    expect(Object.keys(g.evaluate(facts(b, 300000, 'class1', true), 'en', false))).toEqual(Object.keys(want));
  });
  it('in Spanish; 150,000 of class2, no homestead', () => {
    // base = 37,500; tier 2 (at most 200,000); tax = max(750 − 100, 0) = 650; rate 650 / 150,000 × 100 = 0.433333…
    expect(g.evaluate(facts(b, 150000, 'class2', false), 'es', false)).toEqual({
      annualTax: 650,
      effectiveRate: 0.433333,
      taxableValue: 0.25,
      baseAssessedValue: 'other',
      tier: 2,
      exemptions: { part: 112500 },
      exemptionBreakdown: { part: { amount: 112500, share: 0.25 } },
      shareOf: 0.25,
      notes: ['no es una casa'],
    });
  });
  it('zeros dropped: 1,000 of class1 (tax 0) keeps the member whose amount is not 0', () => {
    // base = 500, tier 1, tax = max(10 − 100, 0) = 0; exemptions: part = 500.
    const r = g.evaluate(facts(b, 1000, 'class1', false), 'en', false);
    expect(r.annualTax).toBe(0);
    expect(r.exemptions).toEqual({ part: 500 });
    expect(r.exemptionBreakdown).toEqual({ part: { amount: 500, share: 0.5 } });
  });
  it('errors: the first validation that holds, in the language asked; a table without the key', () => {
    expect(thrown(() => g.evaluate(facts(b, -1, 'class1', false), 'es', false))).toBe('NEGATIVE: valor negativo');
    expect(thrown(() => g.evaluate(facts(b, null, 'class1', false), 'en', false))).toBe('MISSING: no value');
    expect(thrown(() => g.evaluate(facts(b, 5, 'class9', false), 'en', false))).toBe('NO_VALUE: zz.t has no value for class9');
  });
  it('the steps written back to their slots only when asked', () => {
    const v = facts(b, 300000, 'class1', true);
    const before = v.slice();
    g.evaluate(v, 'en', false);
    expect(v).toEqual(before);
    g.evaluate(v, 'en', true);
    expect(['base', 'tier', 'tax', 'kind', 'big'].map((id) => v[stepSlot(id)])).toEqual([150000, 3, 2900, 'home', true]);
  });
  it('a batch row: the columns unrounded, a text in other with its bit, the notes as bits', () => {
    const nums = new Float64Array(BATCH_COLUMNS.length + 1).fill(-7);
    const other: unknown[] = [];
    const bits = g.evaluate(facts(b, 300000, 'class1', true), 'en', false, nums, other);
    expect(bits).toBe(0b011); // notes 0 and 1
    expect(nums[0]).toBe(2900); // annualTax
    expect(nums[2]).toBe((2900 / 300000) * 100); // effectiveRate, unrounded
    expect(nums[3]).toBeNaN(); // baseAssessedValue: 'home', a text
    expect(other[3]).toBe('home');
    expect(nums[5]).toBe(0.5); // taxableValue
    expect(nums[1]).toBe(-7); // monthlyTax: not in the program, left as it was
    expect(nums[BATCH_COLUMNS.length]).toBe(2 ** 3); // bit 3: column 3 is in other
    expect(other.filter((x) => x !== undefined)).toEqual(['home']);
    const n2 = new Float64Array(BATCH_COLUMNS.length + 1);
    expect(g.evaluate(facts(b, 150000, 'class2', false), 'en', false, n2, [])).toBe(0b100); // note 2 only
    expect(n2[BATCH_COLUMNS.length]).toBe(2 ** 3);
  });
  it('a batch row raises as the result does: a validation, and a leaf that is not a column', () => {
    const nums = new Float64Array(BATCH_COLUMNS.length + 1);
    expect(thrown(() => g.evaluate(facts(b, -5, 'class1', false), 'en', false, nums, []))).toBe('NEGATIVE: negative value');
    // A program whose only raising node is in a result leaf that no batch column has.
    const q = program({
      parameters: { t: 'zz.t' },
      result: { annualTax: { ...f('value'), unit: 'usd' }, shareOf: { ...f('t[propertyClass]'), unit: 'fraction' } } as ResultGroup,
    });
    const bq = bundleOf([q]);
    const gq = load(bq);
    expect(thrown(() => gq.evaluate(facts(bq, 5, 'class9', false), 'en', false, nums, []))).toBe('NO_VALUE: zz.t has no value for class9');
    expect(gq.evaluate(facts(bq, 5, 'class1', false), 'en', false, nums, [])).toBe(0);
    expect(nums[0]).toBe(5);
  });
});

describe('what a printed module computes: the edges', () => {
  it("a group's amount is found by its name, not its place", () => {
    // value 5: x has share 5 and amount 0 (left out), y share 0 and amount 5 (kept), plain is 0 (kept).
    const p = program({
      result: {
        exemptionBreakdown: {
          x: { share: { ...f('value'), unit: 'fraction' }, amount: { ...f('value * 0'), unit: 'usd' } },
          y: { share: { ...f('value * 0'), unit: 'fraction' }, amount: { ...f('value'), unit: 'usd' } },
          // A leaf has no amount: kept, 0 or not.
          plain: { ...f('value * 0'), unit: 'usd' },
        },
      } as ResultGroup,
    });
    const b = bundleOf([p]);
    const want = { exemptionBreakdown: { y: { share: 0, amount: 5 }, plain: 0 }, notes: [] };
    expect(load(b).evaluate(facts(b, 5, null, false), 'en', false)).toEqual(want);
    expect(run(lowerProgram(b, 'zz.p', 2026), facts(b, 5, null, false))).toEqual(want);
  });
  it('a batch column is the leaf at its whole path, not a leaf at a part of it', () => {
    // countyBreakdown.county (column 8) is value × 4 = 20; countyBreakdown.school (column 7) is not in the program.
    const p1 = program({ result: { countyBreakdown: { county: { ...f('value * 4'), unit: 'usd' } } } as ResultGroup });
    // A leaf named countyBreakdown is none of the countyBreakdown.* columns.
    const p2 = program({ result: { countyBreakdown: { ...f('value * 4'), unit: 'usd' } } as ResultGroup });
    const cells = (p: ProgramDef) => {
      const b = bundleOf([p]);
      const nums = new Float64Array(BATCH_COLUMNS.length + 1).fill(-7);
      load(b).evaluate(facts(b, 5, null, false), 'en', false, nums, []);
      return [...nums.slice(7, 11)];
    };
    expect(cells(p1)).toEqual([-7, 20, -7, -7]);
    expect(cells(p2)).toEqual([-7, -7, -7, -7]);
  });
  it('a condition literal that is not JSON (YAML .inf): Infinity, not null', () => {
    const p = program({
      notes: [
        { when: { fact: 'value', operator: 'equal', value: Infinity }, text: { en: 'infinite', es: 'infinito' } },
        { when: { fact: 'value', operator: 'in', value: [-Infinity, 5] }, text: { en: 'minus infinite or 5', es: 'menos infinito o 5' } },
      ],
      result: { annualTax: { ...f('value * 0'), unit: 'usd' } },
    });
    const b = bundleOf([p]);
    const g = load(b);
    const notes = (x: unknown) => [g.evaluate(facts(b, x, null, false), 'en', false).notes, run(lowerProgram(b, 'zz.p', 2026), facts(b, x, null, false)).notes];
    expect(notes(Infinity)).toEqual([['infinite'], ['infinite']]);
    expect(notes(-Infinity)).toEqual([['minus infinite or 5'], ['minus infinite or 5']]);
    expect(notes(5)).toEqual([['minus infinite or 5'], ['minus infinite or 5']]);
    expect(notes(null)).toEqual([[], []]);
  });
  it('a program without scalar parameters: its first step is a step, not a fact', () => {
    // a = 5 × 4 = 20; b = a + 1 = 21.
    const p = program({
      steps: [
        { id: 'a', label, ...f('value * 4') },
        { id: 'b', label, ...f('a + 1') },
      ],
      result: { annualTax: { ...f('b'), unit: 'usd' } },
    });
    const b = bundleOf([p]);
    expect(load(b).evaluate(facts(b, 5, null, false), 'en', false)).toEqual({ annualTax: 21, notes: [] });
  });
});

describe('what the printer refuses', () => {
  it('a step read before it is computed', () => {
    const p = program({
      steps: [
        { id: 'a', label, ...f('b + 1') },
        { id: 'b', label, ...f('value') },
      ],
      result: { annualTax: { ...f('a'), unit: 'usd' } },
    });
    expect(thrown(() => generateProgram(bundleOf([p]), 'zz.p', 2026))).toBe('RULES_INVALID: zz.p: b is read before it is computed');
  });
  it('a result field named __proto__', () => {
    const result = JSON.parse(
      '{"annualTax": {"formula": {"src": "value", "ast": {"type": "Identifier", "name": "value"}}, "unit": "usd"}, "x": {"__proto__": {"formula": {"src": "value", "ast": {"type": "Identifier", "name": "value"}}, "unit": "usd"}}}',
    );
    expect(thrown(() => generateProgram(bundleOf([program({ result })]), 'zz.p', 2026))).toBe('RULES_INVALID: a result field cannot be named __proto__');
  });
  it('more than 30 notes (a batch row’s bits); 30 are printed', () => {
    const note = (i: number) => ({ when: { fact: 'value', operator: 'equal', value: i } as Condition, text: { en: `n${i}`, es: `n${i}` } });
    const p = (n: number) => program({ notes: Array.from({ length: n }, (_, i) => note(i)), result: { annualTax: { ...f('value'), unit: 'usd' } } });
    expect(thrown(() => generateProgram(bundleOf([p(31)]), 'zz.p', 2026))).toBe('RULES_INVALID: zz.p: more than 30 notes');
    const b30 = bundleOf([p(30)]);
    const g = load(b30);
    // value 29 meets note 29 only: bit 29.
    expect(g.evaluate(facts(b30, 29, null, false), 'en', false, new Float64Array(BATCH_COLUMNS.length + 1), [])).toBe(2 ** 29);
    expect(g.evaluate(facts(b30, 29, null, false), 'es', false).notes).toEqual(['n29']);
  });
  it('generateAll: every program and year, the ones it cannot print left out with the reason', () => {
    const good = program({ id: 'zz.p', years: [2025, 2026], result: { annualTax: { ...f('value'), unit: 'usd' } } });
    const bad = program({
      id: 'zz.q',
      steps: [
        { id: 'a', label, ...f('b') },
        { id: 'b', label, ...f('value') },
      ],
      result: {},
    });
    const { modules, skipped } = generateAll(bundleOf([good, bad]));
    expect(modules.map((m) => m.file)).toEqual(['zz.p@2025.cjs', 'zz.p@2026.cjs']);
    expect(skipped).toEqual(['zz.q@2026: zz.q: b is read before it is computed']);
  });
});
