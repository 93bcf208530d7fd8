/**
 * The short forms of the rule language (engine/build/sugar.ts) and what they compile to: the
 * long form json-rules-engine reads, which the differential test then checks against the
 * library itself. Each expectation is the long form a reviewer would write by hand.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { desugarProgram, parseCondition } from './sugar.js';
import { readYaml } from './yaml-source.js';
import { loadRules } from './load.js';

const params = {
  'ny.nyc.tax_rate': { type: 'by_key', keys: ['class1', 'class2', 'class3', 'class4'] },
  'ny.star.exemption': { type: 'by_key', keys: ['basic', 'enhanced'] },
  'x.scalar': { type: 'scalar' },
};
const aliases = { rate: 'ny.nyc.tax_rate', starExemption: 'ny.star.exemption', share: 'x.scalar' };
const cond = (text: string) => parseCondition(text, aliases, { parameters: params });

describe('a condition written as text', () => {
  it('a fact alone is "the fact is true"; not is "the fact is false"', () => {
    expect(cond('homestead')).toEqual({ all: [{ fact: 'homestead', operator: 'equal', value: true }] });
    expect(cond('not homestead')).toEqual({ all: [{ fact: 'homestead', operator: 'equal', value: false }] });
    expect(cond('!homestead')).toEqual(cond('not homestead'));
  });

  it('comparisons: a name on the right is another fact, quoted text a value, null and numbers as written', () => {
    expect(cond('veteranDisability >= veteranFullLevel')).toEqual({
      all: [{ fact: 'veteranDisability', operator: 'greaterThanInclusive', value: { fact: 'veteranFullLevel' } }],
    });
    expect(cond("status == 'delinquent'")).toEqual({ all: [{ fact: 'status', operator: 'equal', value: 'delinquent' }] });
    expect(cond('seniorIncome != null')).toEqual({ all: [{ fact: 'seniorIncome', operator: 'notEqual', value: null }] });
    expect(cond('value <= 0')).toEqual({ all: [{ fact: 'value', operator: 'lessThanInclusive', value: 0 }] });
    expect(cond('value < 0')).toEqual({ all: [{ fact: 'value', operator: 'lessThan', value: 0 }] });
    expect(cond('value > 100')).toEqual({ all: [{ fact: 'value', operator: 'greaterThan', value: 100 }] });
  });

  it('and / or (also && / ||) become all / any, flattened; parentheses group', () => {
    expect(cond('homestead and over65 and disabled')).toEqual({
      all: [
        { fact: 'homestead', operator: 'equal', value: true },
        { fact: 'over65', operator: 'equal', value: true },
        { fact: 'disabled', operator: 'equal', value: true },
      ],
    });
    expect(cond('residential and (seniorCitizen or disabled)')).toEqual({
      all: [
        { fact: 'residential', operator: 'equal', value: true },
        {
          any: [
            { fact: 'seniorCitizen', operator: 'equal', value: true },
            { fact: 'disabled', operator: 'equal', value: true },
          ],
        },
      ],
    });
    // and binds tighter than or.
    expect(cond('a || b && c')).toEqual({
      any: [
        { fact: 'a', operator: 'equal', value: true },
        {
          all: [
            { fact: 'b', operator: 'equal', value: true },
            { fact: 'c', operator: 'equal', value: true },
          ],
        },
      ],
    });
  });

  it('in: a written list or the keys of a by_key parameter; not (… in …) is notIn, not (a == b) notEqual', () => {
    expect(cond("propertyClass in ['class1', 'class2']")).toEqual({ all: [{ fact: 'propertyClass', operator: 'in', value: ['class1', 'class2'] }] });
    expect(cond('not (propertyClass in keys(rate))')).toEqual({
      all: [{ fact: 'propertyClass', operator: 'notIn', value: ['class1', 'class2', 'class3', 'class4'] }],
    });
    expect(cond("not (a == 'x')")).toEqual({ all: [{ fact: 'a', operator: 'notEqual', value: 'x' }] });
    // Other negations keep json-rules-engine's `not` (a missing fact is neither < nor >=).
    expect(cond('not (a < b)')).toEqual({ not: { fact: 'a', operator: 'lessThan', value: { fact: 'b' } } });
  });

  it('refuses what is not a condition, with the text in the message', () => {
    expect(() => cond('value * 2 > 1')).toThrow('condition "value * 2 > 1": the left of > must be a fact\'s name');
    expect(() => cond('value > 250000')).toThrow('the figure 250000 belongs in a parameter');
    expect(() => cond('a in share')).toThrow('`in` takes a list');
    expect(() => cond('a in keys(share)')).toThrow('keys(share): x.scalar is not a by_key parameter');
    expect(() => cond('a in keys(nothing)')).toThrow('keys(nothing): nothing is not a parameter alias of this program');
    expect(() => cond('a +')).toThrow('cannot parse condition "a +"');
    expect(() => cond('value - 1')).toThrow('operator - is not a comparison');
  });

  it('leaves the formula parser as it was: and, or, in, not are operators only while a condition is read', async () => {
    cond('a and b or not (c in [1])');
    const { parseFormula } = await import('./load.js');
    expect(parseFormula('notes + android').src).toBe('notes + android'); // two names, no operator inside them
    expect(() => parseFormula('a in b')).toThrow('Compound is not part of the rule language'); // three names, not an operator
  });
});

const PIECES = `kind: pieces
description: test pieces
pieces:
  check:
    description: a value check
    validations:
      - when: value <= 0
        code: INVALID_VALUE
        message: {en: e, es: e}
  hint:
    description: a hint
    parameters: {hintShare: ny.savings_hint_share}
    steps:
      - id: potentialSavings
        label: {en: p, es: p}
        formula: value * hintShare
  summary:
    description: a summary
    result:
      annualTax: annualTax
      monthlyTax: annualTax / 12
`;
const PROGRAM = `kind: program
parameters: {rate: ny.nyc.tax_rate}
validations:
  - use: check
  - when: not (propertyClass in keys(rate))
    code: INVALID_CLASS
    message: {en: e, es: e}
steps:
  - id: annualTax
    label: {en: t, es: t}
    reference: [{title: "RPTL §1805", href: "https://example.org/1805"}]
    when: homestead
    formula: value / 100
    otherwise: 0
  - use: hint
  - id: rateUsed
    label: {en: r, es: r}
    cases:
      - when: countyRate != null
        formula: countyRate
    otherwise: value
result:
  use: summary
  exemptionSavings: "0"
`;

describe('a program with short forms, desugared', () => {
  const pieces = readYaml('rules/shared/test.yaml', PIECES);
  const src = readYaml('rules/test/calculation.yaml', PROGRAM);
  const map = new Map(Object.entries((pieces.data as any).pieces).map(([k, v]) => [k, { src: pieces, data: v }]));
  const d = desugarProgram(src, src.data, { parameters: params, pieces: map });

  it('has no problem and keeps the long form the compiler reads', () => {
    expect(d.problems).toEqual([]);
    expect(d.data.validations.map((v: any) => v.code)).toEqual(['INVALID_VALUE', 'INVALID_CLASS']);
    expect(d.data.validations[0].when).toEqual({ all: [{ fact: 'value', operator: 'lessThanInclusive', value: 0 }] });
    // when + formula + otherwise: two cases; otherwise: 0 is the formula "0".
    expect(d.data.steps[0]).toEqual({
      id: 'annualTax',
      label: { en: 't', es: 't' },
      reference: [{ title: 'RPTL §1805', href: 'https://example.org/1805' }],
      cases: [{ when: { all: [{ fact: 'homestead', operator: 'equal', value: true }] }, formula: 'value / 100' }, { formula: '0' }],
    });
    expect(d.data.steps.map((s: any) => s.id)).toEqual(['annualTax', 'potentialSavings', 'rateUsed']);
    // cases + otherwise: the otherwise is the last case.
    expect(d.data.steps[2].cases).toEqual([
      { when: { all: [{ fact: 'countyRate', operator: 'notEqual', value: null }] }, formula: 'countyRate' },
      { formula: 'value' },
    ]);
    // A piece's parameter aliases join the program's; its result fields stand where `use` is.
    expect(d.data.parameters).toEqual({ rate: 'ny.nyc.tax_rate', hintShare: 'ny.savings_hint_share' });
    expect(Object.keys(d.data.result)).toEqual(['annualTax', 'monthlyTax', 'exemptionSavings']);
  });

  it('maps a desugared path back to where it was written: the piece, the when, the otherwise', () => {
    const where = (path: Array<string | number>) => {
      const o = d.origin(path);
      return `${o.src.file}:${o.path.join('.')}`;
    };
    expect(where(['validations', 0, 'when'])).toBe('rules/shared/test.yaml:pieces.check.validations.0.when');
    expect(where(['validations', 1, 'when'])).toBe('rules/test/calculation.yaml:validations.1.when');
    expect(where(['steps', 0, 'cases', 0, 'when'])).toBe('rules/test/calculation.yaml:steps.0.when');
    expect(where(['steps', 0, 'cases', 0, 'formula'])).toBe('rules/test/calculation.yaml:steps.0.formula');
    expect(where(['steps', 0, 'cases', 1, 'formula'])).toBe('rules/test/calculation.yaml:steps.0.otherwise');
    expect(where(['steps', 1, 'formula'])).toBe('rules/shared/test.yaml:pieces.hint.steps.0.formula');
    expect(where(['steps', 2, 'cases', 1, 'formula'])).toBe('rules/test/calculation.yaml:steps.2.otherwise');
    expect(where(['result', 'monthlyTax'])).toBe('rules/shared/test.yaml:pieces.summary.result.monthlyTax');
  });

  it('an unknown piece and a bad condition are problems at file:line:col', () => {
    const bad = readYaml('rules/test/bad.yaml', PROGRAM.replace('- use: hint', '- use: hnt').replace('when: homestead', 'when: homestead +'));
    const r = desugarProgram(bad, bad.data, { parameters: params, pieces: map });
    expect(r.problems.map((p) => `${p.line}:${p.col}: ${p.message}`)).toEqual([
      '15:10: no piece hnt (pieces: check, hint, summary)',
      '12:11: cannot parse condition "homestead +": Expected expression after + at character 11',
    ]);
  });
});

describe('the real rule files', () => {
  it("New York's veteran levels (piece veteranLevelCheck) are the values rules/inputs.yaml offers for the input", () => {
    const pieces = parse(readFileSync('rules/shared/pieces.yaml', 'utf8'));
    const inputs = parse(readFileSync('rules/inputs.yaml', 'utf8'));
    const levels = pieces.pieces.veteranLevelCheck.validations[0].when.all[0].value;
    const offered = inputs.inputs.find((x: any) => x.id === 'veteranDisability').values.map((v: any) => v.value);
    expect(levels).toEqual(offered);
    expect(levels).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
  });

  it('no description of the real rules repeats one of its figures (ptax validate reports one as a problem)', () => {
    expect(loadRules('rules').lint).toEqual([]);
  });

  it("a parameter's convention cites its own section of the site's how-it-works page (docs/conventions.md)", () => {
    const b = loadRules('rules').bundle!;
    const conventions = Object.values(b.parameters).flatMap((p) => p.values.flatMap((v) => v.reference.filter((r) => r.convention).map((r) => [p.id, r.href])));
    expect(conventions.length).toBeGreaterThan(0);
    for (const [id, href] of conventions) expect([id, href]).toEqual([id, `/how-it-works#convention-${id!.replace(/[^a-z0-9]+/gi, '-')}`]);
  });

  it('a step reference reaches the bundle', () => {
    const b = loadRules('rules').bundle!;
    const withRef = Object.values(b.programs).flatMap((p) => p.steps.filter((s) => s.reference).map((s) => `${p.id}.${s.id}`));
    expect(withRef.length).toBeGreaterThan(0);
  });
});

describe('a description says what a figure is, not how much', () => {
  it('a number in the description equal to a value (or a band bound, or a fraction as a percent) is a problem', async () => {
    const { descriptionFigures } = await import('./load.js');
    const p = (description: string, unit: string, values: any[]) => descriptionFigures({ description, unit, values });
    expect(p('Basic STAR 30,000; Enhanced 86,100.', 'usd', [{ value: { basic: 30000, enhanced: 86100 } }])).toEqual(['30,000', '86,100']);
    expect(p('School 50% of the rate.', 'fraction', [{ value: { school: 0.5, county: 0.5 } }])).toEqual(['50%']);
    expect(p('Below 20 → 1, below 40 → 2.', 'count', [{ bands: [{ below: 20, value: 1 }, { below: 40, value: 2 }, { value: 3 }] }])).toEqual(['20', '40']);
    // A figure that is not a value, a section number, and small words are not flagged.
    expect(p('RPTL §1805, one or the other, up to 2 years; 99,999.', 'usd', [{ value: 1805 }, { value: 2 }])).toEqual([]);
  });
});
