/**
 * compileProgram on a small hand-written program: the fact layout, parameters in force
 * for the year, steps (formulas, conditions, two and more cases), the explanation of
 * each step, and the result tree's presentation rules (rules reference, conventions):
 * at the top level `exemptions` drops amounts of 0 and `exemptionBreakdown` drops
 * entries whose amount is 0; nested groups keep zeros; usd rounds to cents, percent to
 * 6 decimals, fraction to 8; text and count are left as they are.
 */
import { describe, expect, it } from 'vitest';
import { compileProgram, describeCondition, type CompiledProgram } from './compile.js';
import { evaluate } from './calculate.js';
import { readBundle } from '../build/bundle.js';
import { parseFormula } from '../build/load.js';
import { roundTo } from './round.js';
import { PtaxError } from './errors.js';
import { COUNTY_FACTS, INPUT_FACTS, type Bundle, type Condition, type ConditionValue, type ParameterDef, type ProgramDef, type ResultUnit } from './types.js';

const f = (src: string) => parseFormula(src);
const leaf = (src: string, unit: ResultUnit) => ({ formula: f(src), unit });
const label = (en: string) => ({ en, es: `${en} (es)` });
const ref = (title: string) => [{ title, href: `https://example.org/${title}` }];

function param(id: string, type: ParameterDef['type'], values: ParameterDef['values']): ParameterDef {
  return { id, file: `rules/test/${id}.yaml`, description: id, label: label(id), unit: 'usd', type, values };
}

const PARAMETERS: Record<string, ParameterDef> = {
  'test.rate': param('test.rate', 'scalar', [
    { effective: '2020-01-01', value: 2, reference: ref('old-rate'), last_verified: '2024-01-01' },
    { effective: '2024-01-01', value: 2.5, reference: ref('new-rate'), last_verified: '2024-01-01' },
  ]),
  'test.ratio': param('test.ratio', 'by_key', [
    { effective: '2020-01-01', value: { class1: 0.1, class2: 0.123456789 }, reference: ref('ratio'), last_verified: '2024-01-01' },
  ]),
  'test.mult': param('test.mult', 'bands', [
    { effective: '2020-01-01', bands: [{ below: 50, value: 1 }, { value: 4 }], reference: ref('mult'), last_verified: '2024-01-01' },
  ]),
  'test.limit': param('test.limit', 'scalar', [{ effective: '2021-06-01', value: 50000, reference: ref('limit'), last_verified: '2024-01-01' }]),
};

const eq = (fact: string, value: ConditionValue): Condition => ({ fact, operator: 'equal', value });

const PROGRAM: ProgramDef = {
  id: 'test.prog',
  file: 'rules/test/calculation.yaml',
  description: 'a test program',
  label: label('Test'),
  period: { start: '01-01', fiscal: false },
  years: [2023, 2025],
  parameters: { rate: 'test.rate', ratio: 'test.ratio', mult: 'test.mult', incomeLimit: 'test.limit' },
  validations: [{ when: { fact: 'value', operator: 'lessThan', value: 0 }, code: 'NEGATIVE', message: label('Value below zero') }],
  steps: [
    { id: 'assessed', label: label('Assessed value'), formula: f('value * ratio[propertyClass]') },
    { id: 'tax', label: label('Tax'), formula: f('assessed * rate / 100') },
    { id: 'countyTax', label: label('County tax'), formula: f('assessed * countyRate / 100') },
    { id: 'flagged', label: label('Estimated county'), condition: eq('estimated', true) },
    {
      id: 'isSenior',
      label: label('Senior'),
      condition: { all: [eq('over65', true), { fact: 'seniorIncome', operator: 'lessThanInclusive', value: { fact: 'incomeLimit' } }] },
    },
    {
      id: 'seniorSavings',
      label: label('Senior savings'),
      cases: [{ when: eq('isSenior', true), formula: f('min(tax / 4, rate * 100 * 4)') }, { formula: f('0') }],
    },
    {
      id: 'level',
      label: label('Level'),
      cases: [
        { when: eq('starType', 'enhanced'), value: 'high' },
        {
          when: {
            all: [eq('homestead', true), { any: [eq('disabled', true), { fact: 'seniorIncome', operator: 'greaterThan', value: { fact: 'incomeLimit' } }] }],
          },
          value: 'basic',
        },
        { when: eq('coldWarVeteran', true), formula: f('rate') },
        { value: 'none' },
      ],
    },
    { id: 'multiplier', label: label('Multiplier'), formula: f('band(mult, veteranDisability) + rate * 4 - rate * rate') },
  ],
  notes: [{ when: eq('isSenior', true), text: label('Senior exemption applied') }],
  result: {
    annualTax: leaf('tax - seniorSavings', 'usd'),
    rate: leaf('rate / 12', 'percent'),
    ratio: leaf('assessed / value', 'fraction'),
    level: leaf('level', 'text'),
    multiplier: leaf('multiplier', 'count'),
    countyTax: leaf('countyTax', 'usd'),
    estimated: leaf('flagged', 'text'),
    exemptions: {
      senior: leaf('seniorSavings', 'usd'),
      none: leaf('0', 'usd'),
      tiny: leaf('tax / 100 / 100 / 100 / 100', 'usd'), // rounds to 0.00, and the rounded amount is what counts
      group: { zero: leaf('0', 'usd'), senior: leaf('seniorSavings', 'usd') },
    },
    exemptionBreakdown: {
      senior: { amount: leaf('seniorSavings', 'usd'), share: leaf('seniorSavings / tax * 100', 'percent') },
      none: { amount: leaf('0', 'usd'), share: leaf('0', 'percent') },
      total: leaf('seniorSavings', 'usd'), // a leaf, not an entry: kept even when 0
      level: leaf('level', 'text'),
    },
    other: {
      entry: { amount: leaf('0', 'usd') },
      exemptions: { zero: leaf('0', 'usd') },
      exemptionBreakdown: { none: { amount: leaf('0', 'usd') } },
    },
  },
};

const BUNDLE: Bundle = { format: 1, parameters: PARAMETERS, programs: { 'test.prog': PROGRAM }, states: {} };

/** A fact array from the compiled template, with inputs and county facts by name. */
function facts(c: CompiledProgram, given: Record<string, unknown>): unknown[] {
  const v = c.template.slice();
  for (const [k, x] of Object.entries(given)) {
    const i = (INPUT_FACTS as readonly string[]).indexOf(k);
    const j = (COUNTY_FACTS as readonly string[]).indexOf(k);
    if (i < 0 && j < 0) throw new Error(`not a fact: ${k}`);
    v[i >= 0 ? i : INPUT_FACTS.length + j] = x;
  }
  return v;
}
const BASE = {
  value: 400000,
  propertyClass: 'class1',
  homestead: false,
  over65: false,
  seniorIncome: null,
  disabled: false,
  coldWarVeteran: false,
  starType: null,
  veteranDisability: 0,
  countyRate: 1,
  estimated: false,
};
const run = (year: number, given: Record<string, unknown>) => {
  const c = compileProgram(BUNDLE, 'test.prog', year);
  return evaluate(c, facts(c, { ...BASE, ...given }));
};

function error(fn: () => unknown): PtaxError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(PtaxError);
    return e as PtaxError;
  }
  throw new Error('expected a PtaxError');
}

describe('compiling', () => {
  it('the fact layout: inputs, county facts, scalar parameters in force, then steps', () => {
    const c = compileProgram(BUNDLE, 'test.prog', 2025);
    const nulls = (n: number) => Array<null>(n).fill(null);
    // rate 2.5 (in force since 2024-01-01) and incomeLimit 50,000; tables and bands take no slot.
    expect(c.template).toEqual([...nulls(INPUT_FACTS.length + COUNTY_FACTS.length), 2.5, 50000, ...nulls(PROGRAM.steps.length)]);
    expect(c.steps.map((s) => s.slot)).toEqual(PROGRAM.steps.map((_, i) => INPUT_FACTS.length + COUNTY_FACTS.length + 2 + i));
    expect([c.year, c.date, c.program]).toEqual([2025, '2025-01-01', PROGRAM]);
  });

  it('the parameter value is the one in force on the first day of the year', () => {
    const c = compileProgram(BUNDLE, 'test.prog', 2023);
    expect(c.template[INPUT_FACTS.length + COUNTY_FACTS.length]).toBe(2); // the 2020 rate
    // 400,000 × 10% = 40,000 assessed; × 2% = 800 in 2023, × 2.5% = 1,000 in 2025.
    expect(run(2023, {}).annualTax).toBe(800);
    expect(run(2025, {}).annualTax).toBe(1000);
  });

  it('a fiscal year starts in the calendar year before it', () => {
    const fiscal = { ...PROGRAM, period: { start: '07-01', fiscal: true } };
    const c = compileProgram({ ...BUNDLE, programs: { 'test.prog': fiscal } }, 'test.prog', 2024);
    expect(c.date).toBe('2023-07-01');
    expect(c.template[INPUT_FACTS.length + COUNTY_FACTS.length]).toBe(2); // 2.5 only from 2024-01-01
  });

  it('county facts are read from their own slots', () => {
    expect(run(2025, { countyRate: 0.5 }).countyTax).toBe(200); // 40,000 × 0.5%
    expect(run(2025, { estimated: true }).estimated).toBe(true);
    expect(run(2025, { estimated: false, topCoded: true, nycClass: true }).estimated).toBe(false);
  });

  it('an unknown program', () => {
    const e = error(() => compileProgram(BUNDLE, 'test.nope', 2025));
    expect([e.code, e.message]).toEqual(['RULES_INVALID', 'no program test.nope']);
  });

  it('a parameter with no value in force for the year', () => {
    // test.limit takes effect on 2021-06-01: nothing is in force on 2021-01-01.
    const e = error(() => compileProgram(BUNDLE, 'test.prog', 2021));
    expect([e.code, e.message]).toEqual(['NO_VALUE', 'test.limit has no value in force on 2021-01-01']);
    expect(compileProgram(BUNDLE, 'test.prog', 2022).template).toContain(50000);
  });

  it('an unknown fact, in a formula or in a condition', () => {
    const withStep = (step: ProgramDef['steps'][number]) => ({ ...BUNDLE, programs: { 'test.prog': { ...PROGRAM, steps: [...PROGRAM.steps, step] } } });
    let e = error(() => compileProgram(withStep({ id: 'bad', label: label('Bad'), formula: f('tax * nowhere') }), 'test.prog', 2025));
    expect([e.code, e.message]).toEqual(['RULES_INVALID', 'test.prog: unknown fact nowhere']);
    e = error(() => compileProgram(withStep({ id: 'bad', label: label('Bad'), condition: eq('elsewhere', 1) }), 'test.prog', 2025));
    expect([e.code, e.message]).toEqual(['RULES_INVALID', 'test.prog: unknown fact elsewhere']);
  });

  it('validations and notes are compiled with their codes and texts', () => {
    expect(error(() => run(2025, { value: -1 })).code).toBe('NEGATIVE');
    expect(run(2025, {}).notes).toEqual([]);
    expect(run(2025, { over65: true, seniorIncome: 50000 }).notes).toEqual(['Senior exemption applied']);
  });
});

describe('steps', () => {
  it('formulas read inputs, parameters, tables and earlier steps', () => {
    const c = compileProgram(BUNDLE, 'test.prog', 2025);
    const v = facts(c, { ...BASE, propertyClass: 'class2', veteranDisability: 60 });
    evaluate(c, v);
    const at = (id: string) => v[c.steps[PROGRAM.steps.findIndex((s) => s.id === id)]!.slot];
    expect(at('assessed')).toBe(400000 * 0.123456789);
    expect(at('tax')).toBe((400000 * 0.123456789 * 2.5) / 100);
    expect(at('multiplier')).toBe(4 + 10 - 6.25); // band ≥ 50 → 4; 2.5 × 4 − 2.5²
  });

  it('a condition step is true or false', () => {
    expect(run(2025, { over65: true, seniorIncome: 50000 }).exemptions).toHaveProperty('senior');
    expect(run(2025, { over65: true, seniorIncome: 50001 }).exemptions).not.toHaveProperty('senior');
    expect(run(2025, { over65: false, seniorIncome: 1 }).exemptions).not.toHaveProperty('senior');
  });

  it('two cases: the first when its condition holds, else the otherwise', () => {
    // Senior: min(1,000 / 4, 2.5 × 400) = 250 off 1,000; in 2023 min(800 / 4, 2 × 400) = 200 off 800.
    expect(run(2025, { over65: true, seniorIncome: 1000 }).annualTax).toBe(750);
    expect(run(2025, { over65: false, seniorIncome: 1000 }).annualTax).toBe(1000);
    expect(run(2023, { over65: true, seniorIncome: 1000 }).annualTax).toBe(600);
    // The cap: a 2023 tax of 4,000 (value 2,000,000) saves min(1,000, 800) = 800.
    expect(run(2023, { over65: true, seniorIncome: 1000, value: 2000000 }).annualTax).toBe(3200);
  });

  it('more cases: the first that holds wins, in order; the last is the otherwise', () => {
    const level = (given: Record<string, unknown>) => run(2025, given).level;
    expect(level({})).toBe('none');
    expect(level({ starType: 'enhanced' })).toBe('high');
    expect(level({ starType: 'enhanced', homestead: true, disabled: true, coldWarVeteran: true })).toBe('high');
    expect(level({ homestead: true, disabled: true })).toBe('basic');
    expect(level({ homestead: true, seniorIncome: 60000 })).toBe('basic');
    expect(level({ homestead: true, seniorIncome: 40000 })).toBe('none');
    expect(level({ homestead: false, disabled: true })).toBe('none');
    expect(level({ homestead: true, seniorIncome: 40000, coldWarVeteran: true })).toBe(2.5); // a formula case
    expect(level({ homestead: true, disabled: true, coldWarVeteran: true })).toBe('basic');
  });

  it('cases without an otherwise give null when nothing holds (the loader requires one)', () => {
    const step = {
      id: 'maybe',
      label: label('Maybe'),
      cases: [
        { when: eq('homestead', true), value: 'yes' },
        { when: eq('disabled', true), value: 'also' },
      ],
    };
    const three = { ...step, id: 'maybe3', cases: [...step.cases, { when: eq('over65', true), formula: f('rate') }] };
    const program = { ...PROGRAM, steps: [...PROGRAM.steps, step, three], result: { maybe: leaf('maybe', 'text'), maybe3: leaf('maybe3', 'text') } };
    const c = compileProgram({ ...BUNDLE, programs: { 'test.prog': program } }, 'test.prog', 2025);
    const r = (given: Record<string, unknown>) => {
      const x = evaluate(c, facts(c, { ...BASE, ...given }));
      return [x.maybe, x.maybe3];
    };
    expect(r({})).toEqual([null, null]);
    expect(r({ homestead: true, disabled: true })).toEqual(['yes', 'yes']);
    expect(r({ disabled: true })).toEqual(['also', 'also']);
    expect(r({ over65: true })).toEqual([null, 2.5]);
  });

  it('one case with no condition is simply its value', () => {
    const program = {
      ...PROGRAM,
      steps: [{ id: 'only', label: label('Only'), cases: [{ formula: f('rate * 4') }] }],
      notes: [],
      result: { only: leaf('only', 'usd') },
    };
    const c = compileProgram({ ...BUNDLE, programs: { 'test.prog': program } }, 'test.prog', 2025);
    expect(evaluate(c, facts(c, BASE)).only).toBe(10);
  });
});

// Programs are compiled inside each test, not when the file is collected, so that the
// mutation run (which switches code per test) sees every compilation.
describe('explanations: stepInfo', () => {
  const compiled = () => compileProgram(BUNDLE, 'test.prog', 2025);
  const info = (id: string) => compiled().stepInfo[PROGRAM.steps.findIndex((s) => s.id === id)]!;
  const use = (alias: 'rate' | 'ratio' | 'mult' | 'incomeLimit') => {
    const pid = PROGRAM.parameters[alias]!;
    const p = PARAMETERS[pid]!;
    const e = pid === 'test.rate' ? p.values[1]! : p.values[0]!;
    return { id: pid, effective: e.effective, reference: e.reference, file: p.file };
  };

  it('one entry per step, in order, naming the rule', () => {
    const c = compiled();
    expect(c.stepInfo.map((s) => s.rule)).toEqual(PROGRAM.steps.map((s) => `test.prog.${s.id}`));
    expect(c.stepInfo.map((s) => s.label)).toEqual(PROGRAM.steps.map((s) => s.label));
  });

  it('a formula step: its source and the parameters it reads, once each, in order', () => {
    expect(info('assessed')).toEqual({
      rule: 'test.prog.assessed',
      label: label('Assessed value'),
      expression: 'value * ratio[propertyClass]',
      params: [use('ratio')],
    });
    expect(info('tax').params).toEqual([use('rate')]);
    expect(info('tax').params[0]).toEqual({ id: 'test.rate', effective: '2024-01-01', reference: ref('new-rate'), file: 'rules/test/test.rate.yaml' });
    expect(info('countyTax').params).toEqual([]);
    expect(info('multiplier')).toMatchObject({ expression: 'band(mult, veteranDisability) + rate * 4 - rate * rate', params: [use('mult'), use('rate')] });
  });

  it('the parameter in force for that year', () => {
    const old = compileProgram(BUNDLE, 'test.prog', 2023).stepInfo[1]!;
    expect(old.params).toEqual([{ id: 'test.rate', effective: '2020-01-01', reference: ref('old-rate'), file: 'rules/test/test.rate.yaml' }]);
  });

  it('a condition step: the condition as text, and parameters it compares with', () => {
    expect(info('flagged')).toMatchObject({ expression: 'estimated = true', params: [] });
    expect(info('isSenior')).toMatchObject({ expression: 'over65 = true and seniorIncome ≤ incomeLimit', params: [use('incomeLimit')] });
  });

  it('a cases step: each case as `if …: …`, the last as `otherwise: …`; parameters of conditions and formulas', () => {
    expect(info('seniorSavings')).toMatchObject({ expression: 'if isSenior = true: min(tax / 4, rate * 100 * 4); otherwise: 0', params: [use('rate')] });
    expect(info('level')).toMatchObject({
      expression:
        'if starType = enhanced: high; if homestead = true and (disabled = true or seniorIncome > incomeLimit): basic; if coldWarVeteran = true: rate; otherwise: none',
      params: [use('incomeLimit'), use('rate')],
    });
  });
});

describe('describeCondition', () => {
  it('every operator, as a symbol or words', () => {
    const ops: Array<[string, string]> = [
      ['equal', '='],
      ['notEqual', '≠'],
      ['lessThan', '<'],
      ['lessThanInclusive', '≤'],
      ['greaterThan', '>'],
      ['greaterThanInclusive', '≥'],
      ['in', 'in'],
      ['notIn', 'not in'],
      ['contains', 'contains'],
      ['doesNotContain', 'does not contain'],
    ];
    for (const [operator, text] of ops) expect(describeCondition({ fact: 'x', operator, value: 1 })).toBe(`x ${text} 1`);
    expect(describeCondition({ fact: 'x', operator: 'startsWith', value: 'a' })).toBe('x startsWith a'); // unknown: as written
  });

  it('values: lists, another fact, strings, numbers, booleans and null', () => {
    expect(describeCondition({ fact: 'propertyClass', operator: 'in', value: ['class1', 'class2'] })).toBe('propertyClass in [class1, class2]');
    expect(describeCondition({ fact: 'seniorIncome', operator: 'lessThan', value: { fact: 'limit' } })).toBe('seniorIncome < limit');
    expect(describeCondition({ fact: 'starType', operator: 'notEqual', value: null })).toBe('starType ≠ null');
    expect(describeCondition({ fact: 'homestead', operator: 'equal', value: false })).toBe('homestead = false');
    expect(describeCondition({ fact: 'value', operator: 'greaterThanInclusive', value: 12.5 })).toBe('value ≥ 12.5');
    expect(describeCondition({ fact: 'starType', operator: 'equal', value: 'basic' })).toBe('starType = basic');
    expect(describeCondition({ fact: 'x', operator: 'in', value: [1, 12.5, true] })).toBe('x in [1, 12.5, true]');
  });

  it('all, any and not; groups inside are parenthesised, single tests are not', () => {
    const a = eq('a', 1),
      b = eq('b', 2),
      c = eq('c', 3);
    expect(describeCondition({ all: [a, b, c] })).toBe('a = 1 and b = 2 and c = 3');
    expect(describeCondition({ any: [a, b] })).toBe('a = 1 or b = 2');
    expect(describeCondition({ all: [a] })).toBe('a = 1');
    expect(describeCondition({ not: a })).toBe('not a = 1');
    expect(describeCondition({ not: { any: [a, b] } })).toBe('not (a = 1 or b = 2)');
    expect(describeCondition({ not: { not: a } })).toBe('not not a = 1');
    expect(describeCondition({ all: [a, { any: [b, c] }] })).toBe('a = 1 and (b = 2 or c = 3)');
    expect(describeCondition({ any: [{ all: [a, b] }, { not: c }] })).toBe('(a = 1 and b = 2) or not c = 3');
  });
});

describe('the result tree', () => {
  const none = () => run(2025, {});
  const senior = () => run(2025, { over65: true, seniorIncome: 1000, propertyClass: 'class2' });

  it('top-level keys in the rule file order, each once, plus notes', () => {
    expect(Object.keys(none())).toEqual([
      'annualTax',
      'rate',
      'ratio',
      'level',
      'multiplier',
      'countyTax',
      'estimated',
      'exemptions',
      'exemptionBreakdown',
      'other',
      'notes',
    ]);
    expect(Object.keys(none().other as object)).toEqual(['entry', 'exemptions', 'exemptionBreakdown']);
  });

  it('units: usd to cents, percent to 6 decimals, fraction to 8; text and count as they are', () => {
    expect(senior().annualTax).toBe(roundTo(((400000 * 0.123456789 * 2.5) / 100) * 0.75, 2)); // 925.925925… → 925.93
    expect(senior().annualTax).toBe(925.93);
    expect(none().rate).toBe(0.208333); // 2.5 / 12
    expect(senior().ratio).toBe(0.12345679); // 0.123456789 → 8 decimals
    expect(none().ratio).toBe(0.1);
    expect(senior().multiplier).toBe(4.75); // count: 1 + 10 − 6.25, not rounded to a whole number
    expect(run(2025, { countyRate: 1.23456 }).countyTax).toBe(493.82); // 40,000 × 1.23456% = 493.824
    expect(none().level).toBe('none');
    expect(none().estimated).toBe(false);
  });

  it('exemptions: amounts of 0 (as rounded) are left out, other amounts kept; groups kept with their zeros', () => {
    expect(none().exemptions).toStrictEqual({ group: { zero: 0, senior: 0 } });
    expect(senior().exemptions).toStrictEqual({ senior: 308.64, group: { zero: 0, senior: 308.64 } });
    expect(Object.keys(senior().exemptions as object)).toEqual(['senior', 'group']);
  });

  it('exemptionBreakdown: entries whose amount is 0 are left out; leaves are kept, even 0', () => {
    expect(none().exemptionBreakdown).toEqual({ total: 0, level: 'none' });
    expect(senior().exemptionBreakdown).toEqual({ senior: { amount: 308.64, share: 25 }, total: 308.64, level: 'none' });
    expect(Object.keys(senior().exemptionBreakdown as object)).toEqual(['senior', 'total', 'level']);
  });

  it('a null leaf under exemptionBreakdown is kept', () => {
    const step = { id: 'maybe', label: label('Maybe'), cases: [{ when: eq('homestead', true), value: 'yes' }] };
    const program = {
      ...PROGRAM,
      steps: [...PROGRAM.steps, step],
      result: { exemptionBreakdown: { maybe: leaf('maybe', 'text'), none: { amount: leaf('0', 'usd') } } },
    };
    const c = compileProgram({ ...BUNDLE, programs: { 'test.prog': program } }, 'test.prog', 2025);
    expect(evaluate(c, facts(c, BASE)).exemptionBreakdown).toEqual({ maybe: null });
    expect(evaluate(c, facts(c, { ...BASE, homestead: true })).exemptionBreakdown).toEqual({ maybe: 'yes' });
  });

  it('other groups, and groups named exemptions or exemptionBreakdown below the top, keep zeros', () => {
    expect(none().other).toStrictEqual({ entry: { amount: 0 }, exemptions: { zero: 0 }, exemptionBreakdown: { none: { amount: 0 } } });
    expect((none().exemptionBreakdown as Record<string, unknown>).none).toBeUndefined();
    expect(senior().other).toStrictEqual(none().other);
  });

  it('a group may have members named formula and unit', () => {
    const program = { ...PROGRAM, result: { odd: { formula: leaf('rate', 'usd'), unit: leaf('rate * 4', 'count') } } };
    const c = compileProgram({ ...BUNDLE, programs: { 'test.prog': program } }, 'test.prog', 2025);
    expect(evaluate(c, facts(c, BASE))).toStrictEqual({ odd: { formula: 2.5, unit: 10 }, notes: [] });
  });

  it('every result is a new object: results of two evaluations do not share groups', () => {
    const c = compileProgram(BUNDLE, 'test.prog', 2025);
    const r1 = c.result(facts(c, BASE));
    const r2 = c.result(facts(c, BASE));
    expect(r1).not.toBe(r2);
    expect(r1.other).not.toBe(r2.other);
  });
});

describe('the real rules', () => {
  const bundle = readBundle('dist/rules/bundle.json');

  it('every program and year compiles, with one explanation per step', () => {
    for (const [id, p] of Object.entries(bundle.programs)) {
      for (const year of p.years) {
        const c = compileProgram(bundle, id, year);
        expect(c.stepInfo.map((s) => s.rule)).toEqual(p.steps.map((s) => `${id}.${s.id}`));
        expect(c.template.length).toBe(
          INPUT_FACTS.length +
            COUNTY_FACTS.length +
            Object.values(p.parameters).filter((pid) => bundle.parameters[pid]!.type === 'scalar').length +
            p.steps.length,
        );
        for (const info of c.stepInfo) for (const u of info.params) expect(u.effective <= c.date, `${info.rule} ${u.id}`).toBe(true);
      }
    }
  });

  it("NYC FY2026: the wartime veterans' step (RPTL §458-a(2)(a)) names its share and the City's maximum", () => {
    const c = compileProgram(bundle, 'ny.nyc', 2026);
    const cases = c.stepInfo.filter((s) => s.expression.includes('assessedValue * veteranWartimeShare'));
    expect(cases.length).toBe(1);
    expect(cases[0]!.expression).toBe('if wartimeVeteranApplies = true: min(assessedValue * veteranWartimeShare, veteranWartimeCap * veteranCapRatio); otherwise: 0');
    expect(cases[0]!.params.map((p) => p.id).sort()).toEqual(['ny.nyc.veteran_wartime_cap', 'ny.veteran_wartime_share']);
  });
});

describe('roundTo', () => {
  it('half away from zero, without negative zero', () => {
    expect(roundTo(2.345, 2)).toBe(2.35);
    expect(roundTo(-2.345, 2)).toBe(-2.35);
    expect(roundTo(920.535, 2)).toBe(920.54); // 92053.49999999999 cents in binary
    expect(Object.is(roundTo(-0.004, 2), 0)).toBe(true);
    expect(Object.is(roundTo(-0, 2), 0)).toBe(true);
    expect(roundTo(-0.005, 2)).toBe(-0.01);
  });

  it('any number of decimals, beyond the 8 the units use', () => {
    expect(roundTo(1234.5, 0)).toBe(1235);
    expect(roundTo(0.123456789012, 10)).toBe(0.123456789);
    expect(roundTo(1 / 3, 12)).toBe(0.333333333333);
  });

  it('the nudge is capped: a huge amount just under a half is not lifted over it', () => {
    expect(roundTo(1e12 + 0.25, 0)).toBe(1e12);
    expect(roundTo(1e12 + 0.5, 0)).toBe(1e12 + 1);
  });
});
