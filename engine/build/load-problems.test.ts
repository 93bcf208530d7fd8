/**
 * The loader's problems one by one, on a small rule set written here (rules/t/…) rather than on the
 * real NY rules: every kind of file, every form of step, case and result, so each check
 * can be broken on its own and its message and file:line:col asserted exactly.
 *
 * `mini({ file: edits })` writes the rule set into a fresh temporary folder (with a copy
 * of schemas/), applies the edits and loads it with `loadRules('rules', { root })`.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listYaml, loadRules, loadRulesOrThrow, parseFormula, RulesInvalid, schemaProblems, schemaValidators } from './load.js';
import { formatProblem, readYaml } from './yaml-source.js';
import { OPERATORS } from '../core/conditions.js';
import type { ProgramDef } from '../core/types.js';

const REPO = resolve('.');
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const REF = `        reference: [{title: Test source, convention: /methodology}]
        last_verified: 2024-01-01
`;
const PARAMS = 'rules/t/params.yaml';
const PROG = 'rules/t/prog.yaml';
const COUNTIES = 'rules/t/counties.yaml';
const STATE = 'rules/t/state.yaml';

const BASE: Record<string, string> = {
  [PARAMS]: `# yaml-language-server: $schema=../../schemas/parameters.schema.json
kind: parameters
module: t
parameters:
  rate:
    description: A scalar rate for the tests.
    label: {en: Rate, es: Tasa}
    unit: fraction
    type: scalar
    values:
      - effective: 2020-01-01
        value: 0.5
${REF}  share:
    description: Shares of the tax for the tests.
    label: {en: Share, es: Parte}
    unit: fraction
    type: by_key
    keys: [school, county]
    sums_to_one: true
    values:
      - effective: 2020-01-01
        value: {school: 0.25, county: 0.75}
${REF}  steps:
    description: A band table for the tests.
    label: {en: Steps, es: Tramos}
    unit: usd
    type: bands
    values:
      - effective: 2020-01-01
        bands:
          - {below: 10, value: 1}
          - {at_most: 20, value: 2}
          - {value: 3}
${REF}  cap:
    description: A cap in dollars for the tests.
    label: {en: Cap, es: Tope}
    unit: usd
    type: scalar
    values:
      - effective: 2020-01-01
        value: 1000
${REF}`,
  [PROG]: `# yaml-language-server: $schema=../../schemas/program.schema.json
kind: program
id: t.main
description: A program for the tests.
label: {en: Main, es: Principal}
period: {start: 01-01, fiscal: false}
years: [2021, 2022]
parameters:
  rate: t.rate
  share: t.share
  steps: t.steps
  cap: t.cap
validations:
  - when: {fact: value, operator: lessThan, value: 0}
    code: NEGATIVE
    message: {en: Negative, es: Negativo}
steps:
  - id: base
    label: {en: Base, es: Base}
    formula: min(value * rate, cap)
  - id: big
    label: {en: Big, es: Grande}
    condition: {any: [{fact: value, operator: greaterThan, value: 100}, {not: {fact: propertyClass, operator: in, value: [class1]}}]}
  - id: pick
    label: {en: Pick, es: Elegir}
    cases:
      - when: {fact: big, operator: equal, value: true}
        formula: band(steps, base)
      - formula: -base
  - id: word
    label: {en: Word, es: Palabra}
    cases:
      - when: {fact: homestead, operator: equal, value: true}
        value: home
      - value: other
notes:
  - when: {fact: homestead, operator: equal, value: true}
    text: {en: A note, es: Una nota}
result:
  tax: pick
  monthly: {formula: pick / 12, unit: usd}
  parts:
    school: base * share[propertyClass]
    county: floor(base * share.county)
`,
  [COUNTIES]: `# yaml-language-server: $schema=../../schemas/counties.schema.json
kind: counties
id: t.counties
state: NY
description: Counties for the tests.
label: {en: County rate, es: Tasa del condado}
unit: percent
reference: [{title: Test source, convention: /methodology}]
last_verified: 2024-01-01
counties:
  - name: "One County"
    slug: one
    fips: "36001"
    rates: [{effective: 2020-01-01, value: 1.5}, {effective: 2021-01-01, value: 1.6}]
    flags: [nycClass]
  - name: "Two County"
    slug: two
    fips: "36003"
    rates: [{effective: 2020-01-01, value: 2}]
`,
  [STATE]: `# yaml-language-server: $schema=../../schemas/state.schema.json
kind: state
code: NY
name: {en: New York, es: Nueva York}
description: The state for the tests.
counties: t.counties
programs:
  - when: {all: [{fact: nycClass, operator: equal, value: true}]}
    program: t.main
  - program: t.main
aliases:
  - name: Test City
    program: t.main
    description: An alias for the tests.
`,
};

type Edits = Record<string, Array<[from: string, to: string]> | string | null>;

/** Writes the rule set (after the edits: replacements, a whole new text, or null to drop a file) and loads it. */
function mini(edits: Edits = {}, only?: string[]) {
  const root = mkdtempSync(join(tmpdir(), 'ptax-load-problems-'));
  made.push(root);
  cpSync(join(REPO, 'schemas'), join(root, 'schemas'), { recursive: true });
  const texts: Record<string, string> = { ...BASE };
  for (const [file, e] of Object.entries(edits)) {
    if (e === null) {
      delete texts[file];
      continue;
    }
    if (typeof e === 'string') {
      texts[file] = e;
      continue;
    }
    let text = texts[file]!;
    for (const [from, to] of e) {
      expect(text.includes(from), `${file} should contain ${JSON.stringify(from)}`).toBe(true);
      text = text.replace(from, to);
    }
    texts[file] = text;
  }
  for (const [file, text] of Object.entries(texts)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  const result = loadRules('rules', { root, only: only?.map((f) => join(root, f)) });
  return { root, texts, result, lines: result.problems.map(formatProblem) };
}

/** `file:line:col` (1-based) of the first occurrence of `needle` in the file, searching after `after`. */
function at(texts: Record<string, string>, file: string, needle: string, after = ''): string {
  const text = texts[file]!;
  const start = after ? text.indexOf(after) : 0;
  expect(start, `anchor ${after}`).toBeGreaterThanOrEqual(0);
  const i = text.indexOf(needle, start);
  expect(i, `needle ${needle}`).toBeGreaterThanOrEqual(0);
  const before = text.slice(0, i).split('\n');
  return `${file}:${before.length}:${before[before.length - 1]!.length + 1}`;
}

/** Loads with one set of edits and expects exactly these problems (`[needle, message]` or `[needle, message, file, after]`). */
function expectProblems(edits: Edits, expected: Array<[needle: string, message: string, file?: string, after?: string]>, defaultFile = PROG) {
  const { texts, lines, result } = mini(edits);
  expect(lines).toEqual(expected.map(([needle, message, file = defaultFile, after]) => `${at(texts, file, needle, after)}: ${message}`));
  expect(result.bundle).toBeUndefined();
  expect(result.total).toBe(expected.length);
}

describe('the small rule set', () => {
  it('loads with no problem into exactly this bundle', () => {
    const { result } = mini();
    expect(result.problems).toEqual([]);
    expect(result.total).toBe(0);
    const b = result.bundle!;
    expect(b.format).toBe(1);
    expect(Object.keys(b.parameters)).toEqual(['t.rate', 't.share', 't.steps', 't.cap']);
    expect(b.parameters['t.rate']).toEqual({
      id: 't.rate',
      file: PARAMS,
      description: 'A scalar rate for the tests.',
      label: { en: 'Rate', es: 'Tasa' },
      unit: 'fraction',
      type: 'scalar',
      values: [
        { effective: '2020-01-01', value: 0.5, reference: [{ title: 'Test source', href: '/methodology', convention: true }], last_verified: '2024-01-01' },
      ],
    });
    expect(b.parameters['t.share']!.keys).toEqual(['school', 'county']);
    expect(b.parameters['t.steps']!.values[0]!.bands).toEqual([{ below: 10, value: 1 }, { at_most: 20, value: 2 }, { value: 3 }]);

    expect(Object.keys(b.programs)).toEqual(['t.main']);
    const p = b.programs['t.main']!;
    const f = (src: string) => parseFormula(src);
    expect(p).toEqual({
      id: 't.main',
      file: PROG,
      description: 'A program for the tests.',
      label: { en: 'Main', es: 'Principal' },
      period: { start: '01-01', fiscal: false },
      years: [2021, 2022],
      parameters: { rate: 't.rate', share: 't.share', steps: 't.steps', cap: 't.cap' },
      validations: [{ when: { fact: 'value', operator: 'lessThan', value: 0 }, code: 'NEGATIVE', message: { en: 'Negative', es: 'Negativo' } }],
      steps: [
        { id: 'base', label: { en: 'Base', es: 'Base' }, formula: f('min(value * rate, cap)') },
        {
          id: 'big',
          label: { en: 'Big', es: 'Grande' },
          condition: { any: [{ fact: 'value', operator: 'greaterThan', value: 100 }, { not: { fact: 'propertyClass', operator: 'in', value: ['class1'] } }] },
        },
        {
          id: 'pick',
          label: { en: 'Pick', es: 'Elegir' },
          cases: [{ when: { fact: 'big', operator: 'equal', value: true }, formula: f('band(steps, base)') }, { formula: f('-base') }],
        },
        {
          id: 'word',
          label: { en: 'Word', es: 'Palabra' },
          cases: [{ when: { fact: 'homestead', operator: 'equal', value: true }, value: 'home' }, { value: 'other' }],
        },
      ],
      notes: [{ when: { fact: 'homestead', operator: 'equal', value: true }, text: { en: 'A note', es: 'Una nota' } }],
      result: {
        tax: { formula: f('pick'), unit: 'usd' },
        monthly: { formula: f('pick / 12'), unit: 'usd' },
        parts: {
          school: { formula: f('base * share[propertyClass]'), unit: 'usd' },
          county: { formula: f('floor(base * share.county)'), unit: 'usd' },
        },
      },
    } satisfies ProgramDef);
    // The unary minus and the call keep their shape in the bundle.
    expect(p.steps[2]!.cases![1]!.formula!.ast).toEqual({ type: 'UnaryExpression', operator: '-', argument: { type: 'Identifier', name: 'base' } });
    expect(p.steps[0]!.formula!.ast).toMatchObject({ type: 'CallExpression', callee: { type: 'Identifier', name: 'min' } });

    expect(Object.keys(b.states)).toEqual(['NY']);
    expect(b.states.NY).toEqual({
      code: 'NY',
      file: STATE,
      name: { en: 'New York', es: 'Nueva York' },
      description: 'The state for the tests.',
      // No tier in the file: a state other than HUB is an edition.
      tier: 'edition',
      countiesId: 't.counties',
      counties: [
        {
          name: 'One County',
          slug: 'one',
          fips: '36001',
          rates: [
            { effective: '2020-01-01', value: 1.5 },
            { effective: '2021-01-01', value: 1.6 },
          ],
          flags: ['nycClass'],
        },
        { name: 'Two County', slug: 'two', fips: '36003', rates: [{ effective: '2020-01-01', value: 2 }], flags: [] },
      ],
      countiesMeta: {
        file: COUNTIES,
        label: { en: 'County rate', es: 'Tasa del condado' },
        description: 'Counties for the tests.',
        reference: [{ title: 'Test source', href: '/methodology', convention: true }],
        last_verified: '2024-01-01',
      },
      programs: [{ when: { all: [{ fact: 'nycClass', operator: 'equal', value: true }] }, program: 't.main' }, { program: 't.main' }],
      aliases: [{ name: 'Test City', program: 't.main', description: 'An alias for the tests.' }],
      calculators: [],
    });
  });

  it('notes and state aliases are optional: they default to empty lists', () => {
    const { result } = mini({
      [PROG]: [['notes:\n  - when: {fact: homestead, operator: equal, value: true}\n    text: {en: A note, es: Una nota}\n', '']],
      [STATE]: [['aliases:\n  - name: Test City\n    program: t.main\n    description: An alias for the tests.\n', '']],
    });
    expect(result.problems).toEqual([]);
    expect(result.bundle!.programs['t.main']!.notes).toEqual([]);
    expect(result.bundle!.states.NY!.aliases).toEqual([]);
  });

  it('loadRulesOrThrow returns the same bundle', () => {
    const { root, result } = mini();
    expect(loadRulesOrThrow('rules', root)).toEqual(result.bundle);
  });
});

describe('listYaml and the schema validators', () => {
  it('lists .yaml and .yml files below a folder, sorted, relative to the root, and nothing else', () => {
    const root = mkdtempSync(join(tmpdir(), 'ptax-load-problems-'));
    made.push(root);
    for (const f of ['d/b.yaml', 'd/a.yml', 'd/README.md', 'd/sub/c.yaml', 'd/yaml']) {
      mkdirSync(dirname(join(root, f)), { recursive: true });
      writeFileSync(join(root, f), '');
    }
    expect(listYaml(join(root, 'd'), root)).toEqual(['d/a.yml', 'd/b.yaml', 'd/sub/c.yaml']);
  });

  it('compiles the schemas once per folder; the default folder is ./schemas', () => {
    const v = schemaValidators();
    expect(schemaValidators(resolve('schemas'))).toBe(v);
    expect(Object.keys(v).sort()).toEqual(['counties', 'fixture', 'inputs', 'parameters', 'pieces', 'program', 'results', 'state']);
  });

  it('compiles in ajv strict mode: a schema with an unknown keyword is refused', () => {
    const root = mkdtempSync(join(tmpdir(), 'ptax-load-problems-'));
    made.push(root);
    cpSync(join(REPO, 'schemas'), root, { recursive: true });
    const p = join(root, 'state.schema.json');
    writeFileSync(p, readFileSync(p, 'utf8').replace('"type": "object",', '"type": "object", "colour": "red",'));
    expect(() => schemaValidators(root)).toThrow('strict mode: unknown keyword: "colour"');
  });

  it('the default rules folder is ./rules (loadRules and loadRulesOrThrow)', () => {
    const b = loadRules().bundle!;
    expect(Object.keys(b.states)).toEqual(expect.arrayContaining(['NY', 'HUB']));
    expect(loadRulesOrThrow()).toEqual(b);
  });

  it("the schema's condition operators are exactly the engine's OPERATORS (so the loader need not check them)", () => {
    const common = JSON.parse(readFileSync(join(REPO, 'schemas/common.schema.json'), 'utf8'));
    expect(common.$defs.condition.properties.operator.enum).toEqual([...OPERATORS]);
  });
});

describe('reading a file: YAML, the $schema line and kind', () => {
  it('a YAML alias is reported at the alias, with the anchor name', () => {
    expectProblems(
      {
        [PARAMS]: [
          ['unit: fraction\n    type: scalar', 'unit: &u fraction\n    type: scalar'],
          ['unit: usd\n    type: scalar', 'unit: *u\n    type: scalar'],
        ],
      },
      [['*u', 'YAML aliases (*u) are not allowed in rule files: write the value out', PARAMS]],
    );
  });

  it('an alias to no anchor is reported too, and what the file declares is not reported missing', () => {
    // The file cannot be turned into data at all, so its parameters are unknown: the
    // program's aliases to them are reported.
    const { texts, lines } = mini({ [PARAMS]: [['value: 1000', 'value: *nope']] });
    expect(lines[0]).toBe(`${at(texts, PARAMS, '*nope')}: YAML aliases (*nope) are not allowed in rule files: write the value out`);
    expect(lines.slice(1)).toEqual(
      ['rate: t.rate', 'share: t.share', 'steps: t.steps', 'cap: t.cap'].map((s) => `${at(texts, PROG, s.split(' ')[1]!, s)}: no parameter ${s.split(' ')[1]}`),
    );
  });

  it('a YAML error keeps its message on one line, at the position of the error', () => {
    expectProblems({ [PARAMS]: [['    unit: usd\n', '    unit: usd\n    unit: usd # again\n']] }, [['unit: usd # again', 'Map keys must be unique', PARAMS]]);
  });

  it('a file with a YAML error still names what it declares: no "no parameter" for its ids', () => {
    expectProblems({ [PARAMS]: [['    unit: usd\n', '    unit: usd\n    unit: usd # again\n']], [PROG]: [['cap: t.cap', 'cap: t.capp']] }, [
      ['unit: usd # again', 'Map keys must be unique', PARAMS],
      ['t.capp', 'no parameter t.capp'],
    ]);
    // But the ids it does declare are not reported.
    expectProblems({ [PARAMS]: [['    unit: usd\n', '    unit: usd\n    unit: usd # again\n']] }, [['unit: usd # again', 'Map keys must be unique', PARAMS]]);
  });

  const EXTRA = 'rules/t/extra.yaml';
  const KINDS_MSG = 'kind must be one of parameters, program, pieces, counties, state, inputs, results';
  it('an unknown kind is reported at the kind', () => {
    expectProblems({ [EXTRA]: '# yaml-language-server: $schema=../../schemas/state.schema.json\nkind: nonsense\n' }, [['nonsense', KINDS_MSG, EXTRA]]);
  });

  it('a file with no kind, an empty file and a file that is one word: kind at the top of the file', () => {
    expectProblems({ [EXTRA]: '# yaml-language-server: $schema=../../schemas/state.schema.json\nsomething: 1\n' }, [['something', KINDS_MSG, EXTRA]]);
    expectProblems({ [EXTRA]: '# yaml-language-server: $schema=../../schemas/state.schema.json\n' }, [['# yaml', KINDS_MSG, EXTRA]]);
    expectProblems({ [EXTRA]: '# yaml-language-server: $schema=../../schemas/state.schema.json\nhello\n' }, [['hello', KINDS_MSG, EXTRA]]);
  });

  it('a missing $schema line and an unknown kind: both', () => {
    expectProblems({ [EXTRA]: 'kind: nonsense\n' }, [
      ['kind', 'the first line must be "# yaml-language-server: $schema=<path to schemas/…schema.json>"', EXTRA],
      ['nonsense', KINDS_MSG, EXTRA],
    ]);
  });
});

describe('schema problems', () => {
  it('every schema problem of a file is reported (ajv allErrors), in document order', () => {
    expectProblems(
      {
        [PARAMS]: [
          ['unit: fraction\n    type: scalar', 'unit: fractions\n    type: scalar'],
          ['    unit: usd\n', '    unit: usd\n    colour: red\n'],
        ],
      },
      [
        ['fractions', 'parameters.rate.unit must be one of usd, percent, fraction, count', PARAMS],
        ['colour', "parameters.steps unknown key 'colour'", PARAMS],
      ],
    );
  });

  it('a missing key is named; the if/then of by_key parameters adds nothing', () => {
    expectProblems({ [PARAMS]: [['    keys: [school, county]\n', '']] }, [['description: Shares', "parameters.share missing 'keys'", PARAMS]]);
  });

  it('a missing top-level key is reported at the top of the file, with no path', () => {
    expectProblems({ [STATE]: [['description: The state for the tests.\n', '']] }, [['kind: state', "missing 'description'", STATE]]);
  });

  it('a key that is not allowed (propertyNames) is named at its map', () => {
    expectProblems(
      {
        [PROG]: [
          ['  cap: t.cap', '  Cap: t.cap'],
          ['value * rate, cap)', 'value * rate, Cap)'],
        ],
      },
      [
        ['rate: t.rate', 'parameters must match pattern "^[a-z][A-Za-z0-9]*$"'],
        ['Cap: t.cap', "parameters key 'Cap' is not allowed here"],
      ],
    );
  });

  it('a key with / and ~ is named as written, and found (every problem of a bad result leaf)', () => {
    const V = '{formula: pick, unit: dollars}';
    expectProblems({ [PROG]: [['result:\n', `result:\n  "a/b~c": ${V}\n`]] }, [
      ['"a/b~c"', 'result must match pattern "^[a-z][A-Za-z0-9]*$"'],
      ['"a/b~c"', "result key 'a/b~c' is not allowed here"],
      [V, 'result.a/b~c must be string'],
      ['dollars', 'result.a/b~c.unit must be one of usd, percent, fraction, count, text'],
      [V, 'result.a/b~c must have exactly one of the allowed forms (check the keys)'],
      [V, 'result.a/b~c must NOT be valid'],
      [V, 'result.a/b~c must match a schema in anyOf'],
    ]);
  });

  it('an unknown key in a result leaf is named (a oneOf branch keeps its unknown keys)', () => {
    const { texts, lines } = mini({ [PROG]: [['{formula: pick / 12, unit: usd}', '{formula: pick / 12, unit: usd, colour: red}']] });
    expect(lines).toContain(`${at(texts, PROG, 'colour')}: result.monthly unknown key 'colour'`);
  });

  it('a wrong unit in a result leaf lists the units (a oneOf branch keeps its enums)', () => {
    const { texts, lines } = mini({ [PROG]: [['{formula: pick / 12, unit: usd}', '{formula: pick / 12, unit: dollars}']] });
    expect(lines).toContain(`${at(texts, PROG, 'dollars')}: result.monthly.unit must be one of usd, percent, fraction, count, text`);
    expect(lines.filter((l) => l.includes('must be string'))).toEqual([`${at(texts, PROG, '{formula: pick / 12')}: result.monthly must be string`]);
  });

  it('a value missing in a flow map ({…, value}) is reported at its key', () => {
    expectProblems({ [COUNTIES]: [['[{effective: 2020-01-01, value: 2}]', '[{effective: 2020-01-01, value}]']] }, [
      ['value}', 'counties.1.rates.0.value must be number', COUNTIES],
    ]);
  });

  it('a file that fails the schema still declares its ids: nothing is reported missing because of it', () => {
    expectProblems({ [PROG]: [['id: t.main\n', 'id: t.main\ncolour: red\n']] }, [['colour', "unknown key 'colour'"]]);
    expectProblems({ [COUNTIES]: [['unit: percent', 'unit: percents']] }, [['percents', 'unit must be equal to constant', COUNTIES]]);
  });

  it('a program that fails the schema with a stray `module` key still declares the program, not parameters', () => {
    expectProblems({ [PROG]: [['id: t.main\n', 'id: t.main\nmodule: t\n']] }, [['module', "unknown key 'module'"]]);
  });

  it('a parameters file whose module is not a string declares nothing', () => {
    const { texts, lines } = mini({ [PARAMS]: [['module: t', 'module: [t]']] });
    expect(lines[0]).toBe(`${at(texts, PARAMS, '[t]')}: module must be string`);
    expect(lines.slice(1)).toEqual(['rate', 'share', 'steps', 'cap'].map((n) => `${at(texts, PROG, `t.${n}`)}: no parameter t.${n}`));
  });
});

describe('cross-file checks', () => {
  const MORE = 'rules/t/z-more.yaml';
  it('a parameter id declared twice is reported at the second, naming the first file', () => {
    const more = BASE[PARAMS]!.slice(0, BASE[PARAMS]!.indexOf('  share:'));
    expectProblems({ [MORE]: more }, [['rate:', `duplicate parameter id t.rate (also in ${PARAMS})`, MORE]]);
  });

  it('a program id declared twice is reported at the second id', () => {
    expectProblems({ [MORE]: BASE[PROG]! }, [['t.main', 'duplicate program id t.main', MORE]]);
  });

  it('a county slug used twice', () => {
    expectProblems({ [COUNTIES]: [['slug: two', 'slug: one']] }, [['one', 'duplicate county slug one', COUNTIES, 'Two County']], COUNTIES);
  });

  it("a county's rates must ascend: an equal date is not after", () => {
    expectProblems({ [COUNTIES]: [['{effective: 2021-01-01, value: 1.6}', '{effective: 2020-01-01, value: 1.6}']] }, [
      ['2020-01-01, value: 1.6', 'effective dates must ascend: 2020-01-01 is not after 2020-01-01; append history, never rewrite it', COUNTIES],
    ]);
  });

  it('a state naming a counties file that does not exist', () => {
    expectProblems({ [STATE]: [['counties: t.counties', 'counties: t.countiez']] }, [['t.countiez', 'no counties file with id t.countiez', STATE]]);
  });

  it('a state whose counties file is for another state', () => {
    expectProblems({ [COUNTIES]: [['state: NY', 'state: TX']] }, [['t.counties', 't.counties is for TX, not NY', STATE]]);
  });

  it('a state naming a program that does not exist', () => {
    expectProblems({ [STATE]: [['    program: t.main\n  - program', '    program: t.mian\n  - program']] }, [['t.mian', 'no program t.mian', STATE]]);
  });

  it("a state's last program must have no `when`", () => {
    expectProblems({ [STATE]: [['  - program: t.main\n', '  - when: {all: [{fact: topCoded, operator: equal, value: true}]}\n    program: t.main\n']] }, [
      ['- when', 'the last program must have no `when`: it is the default', STATE],
    ]);
  });

  it('only: several paths, a file and a folder; a folder does not take in a sibling with the same prefix', () => {
    const edits: Edits = {
      [COUNTIES]: [['slug: two', 'slug: one']],
      'rules/t2/x.yaml': '# yaml-language-server: $schema=../../schemas/state.schema.json\nkind: nonsense\n',
    };
    const all = mini(edits);
    expect(all.result.total).toBe(2);
    expect(mini(edits, ['rules/t']).lines).toEqual([`${at(all.texts, COUNTIES, 'one', 'Two County')}: duplicate county slug one`]);
    expect(mini(edits, ['rules/t2/x.yaml', 'rules/t']).result.problems).toHaveLength(2);
    expect(mini(edits, ['rules/t/', 'rules/t2/']).result.problems).toHaveLength(2);
  });
});

describe('parameter checks', () => {
  const V = (name: string) => `  ${name}:`;
  it('a scalar parameter given bands, and given a map', () => {
    expectProblems(
      {
        [PARAMS]: [
          ['        value: 0.5\n', '        bands: [{value: 1}]\n'],
          ['value: 1000', 'value: {school: 1}'],
        ],
      },
      [
        ['effective', 'a scalar parameter takes `value`, not `bands`', PARAMS, V('rate')],
        ['{school: 1}', 'a scalar parameter takes a number', PARAMS],
      ],
      PARAMS,
    );
  });

  it('a bands parameter given a value', () => {
    expectProblems(
      {
        [PARAMS]: [['        bands:\n          - {below: 10, value: 1}\n          - {at_most: 20, value: 2}\n          - {value: 3}\n', '        value: 3\n']],
      },
      [['effective', 'a bands parameter needs `bands`, not `value`', PARAMS, V('steps')]],
    );
  });

  it('a by_key parameter given a number', () => {
    expectProblems({ [PARAMS]: [['{school: 0.25, county: 0.75}', '1']] }, [['1', 'a by_key parameter takes a map of school, county', PARAMS, 'value: 1\n']]);
  });

  it('every band but the last needs a bound', () => {
    expectProblems({ [PARAMS]: [['{below: 10, value: 1}', '{value: 1}']] }, [['{value: 1}', 'every band but the last needs `below` or `at_most`', PARAMS]]);
  });

  it('band bounds must ascend: an equal bound, below then at_most, and at_most then below', () => {
    expectProblems({ [PARAMS]: [['{at_most: 20, value: 2}', '{at_most: 10, value: 2}']] }, [['{at_most: 10', 'band bounds must ascend', PARAMS]]);
    expectProblems({ [PARAMS]: [['{below: 10, value: 1}', '{at_most: 30, value: 1}']] }, [['{at_most: 20', 'band bounds must ascend', PARAMS]]);
  });

  it('a bounded last band gets only its own message, even when its bound is lower', () => {
    expectProblems({ [PARAMS]: [['{value: 3}', '{below: 5, value: 3}']] }, [
      ['{below: 5', 'the last band must have no bound: it takes every larger value', PARAMS],
    ]);
  });

  it('a fraction lies between 0 and 1, in a map too; 0 and 1 themselves are fractions', () => {
    expectProblems({ [PARAMS]: [['{school: 0.25, county: 0.75}', '{school: 1.25, county: -0.25}']] }, [
      ['{school: 1.25', 'a fraction lies between 0 and 1', PARAMS],
    ]);
    expect(
      mini({
        [PARAMS]: [
          ['value: 0.5', 'value: 0'],
          ['{school: 0.25, county: 0.75}', '{school: 0, county: 1}'],
        ],
      }).lines,
    ).toEqual([]);
    // One value out of range is enough, below 0 or above 1.
    expectProblems({ [PARAMS]: [['value: 0.5', 'value: -0.5']] }, [['-0.5', 'a fraction lies between 0 and 1', PARAMS]]);
    expectProblems(
      {
        [PARAMS]: [
          ['    sums_to_one: true\n', ''],
          ['{school: 0.25, county: 0.75}', '{school: 1.5, county: 0.5}'],
        ],
      },
      [['{school: 1.5', 'a fraction lies between 0 and 1', PARAMS]],
    );
    expect(mini({ [PARAMS]: [['value: 0.5', 'value: 1']] }).lines).toEqual([]);
  });
});

describe('program checks', () => {
  const BASE_F = 'min(value * rate, cap)';
  const withBase = (f: string) => ({ [PROG]: [[`formula: ${BASE_F}`, `formula: ${f}`]] as Array<[string, string]> });
  const formulaProblem = (f: string, why: string): [string, string] => [f, `formula "${f}": ${why}`];

  it('a parameter alias named like an input or a county fact', () => {
    expectProblems(
      {
        [PROG]: [
          ['  cap: t.cap', '  value: t.cap'],
          [BASE_F, 'min(value * rate, value)'],
        ],
      },
      [['value: t.cap', 'value is already an input fact']],
    );
    expectProblems(
      {
        [PROG]: [
          ['  cap: t.cap', '  countyRate: t.cap'],
          [BASE_F, 'min(value * rate, countyRate)'],
        ],
      },
      [['countyRate: t.cap', 'countyRate is already an county fact']],
    );
  });

  it('tables used as numbers', () => {
    for (const [f, why] of [
      ['min(value * rate, share)', 'share is a table: index it, e.g. share[key]'],
      ['min(value * rate, steps)', 'steps is a band table: use band(steps, value)'],
      ['min(value * rate[propertyClass], cap)', 'rate is not a table'],
      ['min(value * share.schol, cap)', 'share has no key schol (keys: school, county)'],
      ['min(value * share[steps], cap)', 'steps is a band table: use band(steps, value)'],
      ['min(share, cap)', 'share is a table: index it, e.g. share[key]'],
      ['max(value, -share)', 'share is a table: index it, e.g. share[key]'],
    ])
      expectProblems(withBase(f!), [formulaProblem(f!, why!)]);
  });

  it('a key with the name of an alias is still a key', () => {
    expect(mini({ [PROG]: [['  cap: t.cap', '  cap: t.cap\n  county: t.share']] }).lines).toEqual([]);
  });

  it('the arity of floor, min, max and band', () => {
    for (const [f, why] of [
      ['floor(value, cap)', 'floor() takes one value'],
      ['min(cap)', 'min() takes two or more values'],
      ['max(cap)', 'max() takes two or more values'],
      ['band(steps)', 'band() takes a band parameter and a value'],
      ['band()', 'band() takes a band parameter and a value'],
      ['band(share, cap)', 'band() takes a band parameter and a value'],
      ['band(cap * 1, cap)', 'band() takes a band parameter and a value'],
      ['band(steps, share)', 'share is a table: index it, e.g. share[key]'],
    ])
      expectProblems(withBase(f!), [formulaProblem(f!, why!)]);
  });

  it('a missing parameter is reported once, not again where a formula reads it', () => {
    expectProblems({ [PROG]: [['steps: t.steps', 'steps: t.stepz']] }, [['t.stepz', 'no parameter t.stepz']]);
    expectProblems({ [PROG]: [['share: t.share', 'share: t.sharez']] }, [['t.sharez', 'no parameter t.sharez']]);
  });

  it('formulas in cases and results are checked where they are written', () => {
    expectProblems({ [PROG]: [['band(steps, base)', 'band(steps, nope)']] }, [formulaProblem('band(steps, nope)', 'unknown name nope')]);
    expectProblems({ [PROG]: [['tax: pick', 'tax: pick * 2']] }, [
      formulaProblem('pick * 2', 'the figure 2 belongs in a parameter with its citation (formulas may use only 0, 1, 4, 12, 100)'),
    ]);
    expectProblems({ [PROG]: [['pick / 12', 'pick / 13']] }, [
      formulaProblem('pick / 13', 'the figure 13 belongs in a parameter with its citation (formulas may use only 0, 1, 4, 12, 100)'),
    ]);
    expectProblems({ [PROG]: [['base * share[propertyClass]', 'base * nope']] }, [formulaProblem('base * nope', 'unknown name nope')]);
  });

  it('conditions of condition steps and notes are checked where they are written', () => {
    expectProblems({ [PROG]: [['{fact: value, operator: greaterThan, value: 100}', '{fact: nope, operator: greaterThan, value: 100}']] }, [
      ['{any: [{fact: nope', 'condition reads unknown fact nope'],
    ]);
    expectProblems(
      { [PROG]: [['  - when: {fact: homestead, operator: equal, value: true}\n    text', '  - when: {fact: nope, operator: equal, value: true}\n    text']] },
      [['{fact: nope', 'condition reads unknown fact nope']],
    );
  });

  it('the same problem twice at the same place is reported once', () => {
    expectProblems(
      {
        [PROG]: [
          ['{fact: value, operator: greaterThan, value: 100}', '{fact: nope, operator: greaterThan, value: 100}, {fact: nope, operator: lessThan, value: 0}'],
        ],
      },
      [['{any: [{fact: nope', 'condition reads unknown fact nope']],
    );
  });

  it('in and notIn take a list, inside any and not too', () => {
    expectProblems({ [PROG]: [['operator: in, value: [class1]', 'operator: in, value: class1']] }, [['class1}}', 'in takes a list']]);
    expectProblems({ [PROG]: [['{fact: value, operator: greaterThan, value: 100}', '{fact: propertyClass, operator: notIn, value: class2}']] }, [
      ['class2}', 'notIn takes a list'],
    ]);
  });

  it('every case but the last needs `when`', () => {
    expectProblems({ [PROG]: [['      - when: {fact: homestead, operator: equal, value: true}\n        value: home', '      - value: home']] }, [
      ['value: home', 'every case but the last needs `when`'],
    ]);
  });

  it('years must ascend', () => {
    expectProblems({ [PROG]: [['years: [2021, 2022]', 'years: [2021, 2023, 2022]']] }, [['[2021, 2023, 2022]', 'years must ascend']]);
  });
});

describe('parseFormula', () => {
  const code = (src: string) => {
    try {
      parseFormula(src);
    } catch (e) {
      return [(e as RulesInvalid).code, (e as Error).message];
    }
    return undefined;
  };
  it('throws FORMULA errors naming the formula', () => {
    expect(code('x +')).toEqual(['FORMULA', expect.stringMatching(/^cannot parse formula "x \+": /)]);
    expect(code('!x')).toEqual(['FORMULA', 'formula "!x": operator ! is not allowed']);
    expect(code('+x')).toEqual(['FORMULA', 'formula "+x": operator + is not allowed']);
    expect(code('a.b(1)')).toEqual(['FORMULA', 'formula "a.b(1)": unknown function; the rule language has min, max, floor, pow, band']);
    expect(code('(a + b)[c]')).toEqual(['FORMULA', 'formula "(a + b)[c]": only a parameter table can be indexed']);
    expect(code('a.b.c')).toEqual(['FORMULA', 'formula "a.b.c": only a parameter table can be indexed']);
    expect(code('a b')).toEqual(['FORMULA', 'formula "a b": Compound is not part of the rule language']);
  });
});

describe('schemaProblems (also used for the fixture files)', () => {
  it('a problem ajv finds by two routes (a result leaf, or a group holding `formula`) is listed once', () => {
    const text = BASE[PROG]!.replace('{formula: pick / 12, unit: usd}', '{formula: 5, unit: usd}');
    const src = readYaml(PROG, text);
    const validate = schemaValidators().program;
    expect(validate(src.data)).toBe(false);
    const lines = schemaProblems(src, validate.errors!).map(formatProblem);
    expect(lines.filter((l) => l.endsWith('must be string'))).toEqual([
      `${at({ [PROG]: text }, PROG, '{formula: 5')}: result.monthly must be string`,
      `${at({ [PROG]: text }, PROG, '5, unit')}: result.monthly.formula must be string`,
    ]);
    expect(new Set(lines).size).toBe(lines.length);
  });
});
