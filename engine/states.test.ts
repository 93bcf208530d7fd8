/**
 * States without counties (the hub), specialised calculators (a program of their own, or
 * the state's calculation compared under two years), the `year` fact, pow() and the state
 * profile — on a small rule set written here, so each figure can be checked by hand.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRules } from './build/load.js';
import { Calculator, inputFromFlags } from './core/calculate.js';
import { formatProblem } from './build/yaml-source.js';
import { PtaxError } from './core/errors.js';

const REPO = resolve('.');
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const REF = `        reference: [{title: Test source, convention: /methodology}]
        last_verified: 2024-01-01
`;
const FILES: Record<string, string> = {
  'rules/s/params.yaml': `# yaml-language-server: $schema=../../schemas/parameters.schema.json
kind: parameters
module: s
parameters:
  growth:
    description: Yearly growth cap for the tests.
    label: {en: Growth, es: Crecimiento}
    unit: fraction
    type: scalar
    values:
      - effective: 2020-01-01
        value: 0.5
${REF}  credit:
    description: A credit in dollars that changes in 2025.
    label: {en: Credit, es: Crédito}
    unit: usd
    type: scalar
    values:
      - effective: 2024-01-01
        value: 100
${REF}      - effective: 2025-01-01
        value: 300
${REF}  average:
    description: The state's average rate.
    label: {en: Average, es: Promedio}
    unit: percent
    type: scalar
    values:
      - effective: 2020-01-01
        value: 1.5
${REF}`,
  'rules/s/main.yaml': `# yaml-language-server: $schema=../../schemas/program.schema.json
kind: program
id: s.main
description: The state's calculation for the tests.
label: {en: Main, es: Principal}
period: {start: 01-01, fiscal: false}
years: [2024, 2025]
parameters: {credit: s.credit}
validations: []
steps:
  - id: tax
    label: {en: Tax, es: Impuesto}
    formula: max(value * countyRate / 100 - credit, 0)
notes: []
result:
  annualTax: tax
`,
  'rules/s/grow.yaml': `# yaml-language-server: $schema=../../schemas/program.schema.json
kind: program
id: s.grow
description: A calculator that compounds a price by the years held.
label: {en: Grow, es: Crecer}
period: {start: 01-01, fiscal: false}
years: [2025]
parameters: {growth: s.growth}
validations:
  - when: {fact: purchasePrice, operator: equal, value: null}
    code: NO_PRICE
    message: {en: A purchase price is required, es: Se requiere el precio de compra}
steps:
  - id: held
    label: {en: Years held, es: Años}
    formula: year - purchaseYear
  - id: capped
    label: {en: Capped, es: Limitado}
    formula: purchasePrice * pow(1 + growth, held)
notes: []
result:
  held: {formula: held, unit: count}
  capped: capped
  paid: taxAmount
  month: {formula: paymentMonth, unit: count}
`,
  'rules/s/counties.yaml': `# yaml-language-server: $schema=../../schemas/counties.schema.json
kind: counties
id: s.counties
state: TX
description: Counties for the tests.
label: {en: County rate, es: Tasa del condado}
unit: percent
reference: [{title: Test source, convention: /methodology}]
last_verified: 2024-01-01
counties:
  - name: "One County"
    slug: one
    fips: "48001"
    rates: [{effective: 2020-01-01, value: 2}]
`,
  'rules/s/state.yaml': `# yaml-language-server: $schema=../../schemas/state.schema.json
kind: state
code: TX
name: {en: Texas, es: Texas}
description: The state for the tests.
counties: s.counties
programs:
  - program: s.main
calculators:
  - name: grow
    label: {en: Growth, es: Crecimiento}
    description: Compounds the purchase price.
    program: s.grow
    county: false
  - name: vote
    label: {en: Vote, es: Voto}
    description: The 2024 rules against the 2025 rules.
    compare: {years: [2024, 2025]}
    county: true
profile:
  tax_system: {en: County appraisal, es: Tasación del condado}
  exemptions: [{id: homestead, label: {en: Homestead, es: Vivienda}}]
  stats: {county_count: 1, average_rate: s.average}
  due_dates: [{label: {en: Due, es: Vence}, date: "01-31"}]
  deadlines: []
`,
  'rules/h/hub.yaml': `# yaml-language-server: $schema=../../schemas/program.schema.json
kind: program
id: h.hub
description: The hub for the tests.
label: {en: Hub, es: Portal}
period: {start: 01-01, fiscal: false}
years: [2025]
parameters: {}
validations: []
steps: []
notes:
  - when: {any: [{fact: value, operator: greaterThanInclusive, value: 0}, {fact: value, operator: lessThan, value: 0}]}
    text: {en: Choose a state, es: Elija un estado}
result:
  annualTax: "0"
`,
  'rules/h/state.yaml': `# yaml-language-server: $schema=../../schemas/state.schema.json
kind: state
code: HUB
name: {en: Hub, es: Portal}
description: The hub for the tests.
programs:
  - program: h.hub
`,
};

function load(edits: Record<string, Array<[string, string]>> = {}) {
  const root = mkdtempSync(join(tmpdir(), 'ptax-states-'));
  made.push(root);
  cpSync(join(REPO, 'schemas'), join(root, 'schemas'), { recursive: true });
  for (const [file, text] of Object.entries(FILES)) {
    let t = text;
    for (const [from, to] of edits[file] ?? []) {
      expect(t.includes(from), from).toBe(true);
      t = t.replace(from, to);
    }
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), t);
  }
  const r = loadRules('rules', { root });
  return { ...r, lines: r.problems.map((p) => formatProblem(p).replace(/^.*?rules\//, 'rules/')) };
}

const calc = () => new Calculator(load().bundle!);
const fail = (f: () => unknown): [string, string] => {
  try {
    f();
  } catch (e) {
    return [(e as PtaxError).code, (e as Error).message];
  }
  throw new Error('no error');
};

describe('the hub: a state with no counties', () => {
  it('needs no county, reads none, and gives its zero result with its note', () => {
    const c = calc();
    const r = c.calculate(inputFromFlags({ state: 'hub', county: '', value: 300000 }));
    expect(r).toMatchObject({ state: 'HUB', county: '', program: 'h.hub', year: 2025, annualTax: 0, notes: ['Choose a state'] });
    // A county given to the hub is not looked up: no error for a name no state has.
    expect(c.calculate(inputFromFlags({ state: 'HUB', county: 'Nowhere' })).annualTax).toBe(0);
    expect(c.state('HUB').counties).toEqual([]);
    expect(c.state('HUB').countiesId).toBeUndefined();
  });

  it('a state with counties still needs one', () => {
    expect(fail(() => calc().calculate(inputFromFlags({ state: 'TX', county: ' ' })))).toEqual(['MISSING_COUNTY', 'A county is required']);
  });
});

describe('specialised calculators', () => {
  it('a program calculator: 1,000 × 1.5^(2025 − 2022) = 3,375, no county needed; the year fact is the rules year', () => {
    const r = calc().run('grow', inputFromFlags({ state: 'TX', county: '', purchasePrice: 1000, purchaseYear: 2022, tax: 5000, paymentMonth: 3 }));
    expect(r).toMatchObject({ state: 'TX', program: 's.grow', year: 2025, held: 3, capped: 3375, paid: 5000, month: 3 });
  });

  it('--year 2027 carries 2025 forward but the year fact is 2027: 1,000 × 1.5^5 = 7,593.75', () => {
    const r = calc().run('grow', inputFromFlags({ state: 'TX', county: '', purchasePrice: 1000, purchaseYear: 2022 }, 2027));
    expect(r).toMatchObject({ year: 2025, held: 5, capped: 7593.75 });
    expect(r.notes).toEqual(['Rules for 2027 are not published yet; 2025 values are carried forward as the estimate']);
  });

  it("a program calculator's validations apply", () => {
    expect(fail(() => calc().run('grow', inputFromFlags({ state: 'TX', county: '' })))).toEqual(['NO_PRICE', 'A purchase price is required']);
  });

  it('a comparison: 100,000 × 2% = 2,000; minus 100 (2024) = 1,900, minus 300 (2025) = 1,700; savings 200', () => {
    const r = calc().run('vote', inputFromFlags({ state: 'TX', county: 'One', value: 100000 }));
    expect(r).toMatchObject({ calculator: 'vote', years: [2024, 2025], taxBefore: 1900, taxAfter: 1700, savings: 200, county: 'One County', year: 2025 });
    expect((r.before as { year: number }).year).toBe(2024);
    expect((r.after as { annualTax: number }).annualTax).toBe(1700);
  });

  it('a comparison needs the county', () => {
    expect(fail(() => calc().run('vote', inputFromFlags({ state: 'TX', county: '' })))).toEqual(['MISSING_COUNTY', 'A county is required']);
  });

  it('an unknown calculator lists those the state has; a state with none says so', () => {
    const c = calc();
    expect(fail(() => c.run('nope', inputFromFlags({ state: 'TX', county: '' })))).toEqual([
      'UNKNOWN_CALCULATOR',
      'TX has no calculator "nope": choose one of grow, vote',
    ]);
    expect(fail(() => c.calculatorOf('HUB', 'grow'))).toEqual(['UNKNOWN_CALCULATOR', 'HUB has no specialised calculators']);
  });
});

describe('loader checks of calculators and profiles', () => {
  it('the rule set loads, with its calculators and profile', () => {
    const { bundle, lines } = load();
    expect(lines).toEqual([]);
    expect(bundle!.states.TX!.calculators).toEqual([
      { name: 'grow', label: { en: 'Growth', es: 'Crecimiento' }, description: 'Compounds the purchase price.', program: 's.grow', county: false },
      {
        name: 'vote',
        label: { en: 'Vote', es: 'Voto' },
        description: 'The 2024 rules against the 2025 rules.',
        compare: { years: [2024, 2025] },
        county: true,
      },
    ]);
    expect(bundle!.states.TX!.profile!.stats).toEqual({ county_count: 1, average_rate: 's.average' });
  });

  it('a calculator naming no program, a duplicate name, a compared year the state has no rules for', () => {
    const { lines, bundle } = load({
      'rules/s/state.yaml': [
        ['program: s.grow', 'program: s.nope'],
        ['name: vote', 'name: grow'],
        ['years: [2024, 2025]', 'years: [2023, 2025]'],
      ],
    });
    expect(bundle).toBeUndefined();
    expect(lines).toEqual([
      'rules/s/state.yaml:13:14: no program s.nope',
      'rules/s/state.yaml:15:11: duplicate calculator grow',
      'rules/s/state.yaml:18:22: s.main has no rules for 2023 (years: 2024, 2025)',
    ]);
  });

  it("a profile's county count must match the counties file, and its average rate must be a parameter", () => {
    const { lines } = load({
      'rules/s/state.yaml': [
        ['county_count: 1', 'county_count: 254'],
        ['average_rate: s.average', 'average_rate: s.avg'],
      ],
    });
    expect(lines).toEqual(['rules/s/state.yaml:23:25: county_count is 254 but the counties file lists 1', 'rules/s/state.yaml:23:44: no parameter s.avg']);
  });

  it('pow() takes exactly two values', () => {
    const { lines } = load({ 'rules/s/grow.yaml': [['pow(1 + growth, held)', 'pow(held)']] });
    expect(lines).toEqual(['rules/s/grow.yaml:19:14: formula "purchasePrice * pow(held)": pow() takes a base and an exponent']);
  });
});
