/**
 * rules/inputs.yaml and rules/results.yaml: they load, they agree with the engine
 * (every input fact declared once, nothing more), and every declared result field is one
 * a program, a golden fixture or the engine itself gives. The loader's own checks are
 * tried on broken copies.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listYaml, loadRules } from './load.js';
import { readYaml, formatProblem } from './yaml-source.js';
import { inputFacts, inputFromFlags } from '../core/calculate.js';
import { INPUT_FACTS, type ResultGroup } from '../core/types.js';
import { generatedInputs, generatedSources } from './declarations.js';
import { fixtureInputProblems } from './fixtures.js';
import { INPUT_COLUMNS } from '../core/cells.js';

const bundle = loadRules('rules').bundle!;

/** Every fact the declarations fill: an input's id, or a date input's three facts. */
const declaredFacts = () => bundle.inputs.flatMap((x) => (x.facts ? [x.facts.year, x.facts.month, x.facts.day] : [x.id]));

describe('rules/inputs.yaml', () => {
  it('loads into the bundle, in its order', () => {
    expect(bundle.inputs.length).toBeGreaterThan(10);
    expect(bundle.inputs[0]!.id).toBe('value');
  });

  it('inputFromFlags and inputFacts (driven by the declarations) read each input as declared: its flag, its default, booleans as !!x', () => {
    const none = inputFromFlags({ state: 'NY', county: 'Kings' }) as unknown as Record<string, unknown>;
    const noneFacts = inputFacts(none as never);
    const slot = (f: string) => (INPUT_FACTS as readonly string[]).indexOf(f);
    for (const x of generatedInputs(bundle)) {
      if (x.id === 'year') continue; // the argument, not a flag
      const facts = x.facts ? Object.values(x.facts) : [x.id];
      const flagKeys = x.facts ? facts : [x.key];
      const probe = x.type === 'boolean' ? true : x.type === 'choice' ? String(x.values![0]) : 1234;
      const given = inputFromFlags({ state: 'NY', county: 'Kings', ...Object.fromEntries(flagKeys.map((k) => [k, probe])) } as never) as unknown as Record<
        string,
        unknown
      >;
      facts.forEach((f) => {
        expect(given[f], `${x.id}: ${f} given`).toBe(probe);
        expect(none[f], `${x.id}: ${f} not given`).toBe(x.type === 'boolean' ? undefined : (x.default ?? null));
        if (f === 'countyRate') return; // a county fact, not an input fact
        expect(inputFacts(given as never)[slot(f)], `${x.id}: fact ${f} given`).toBe(probe);
        expect(noneFacts[slot(f)], `${x.id}: fact ${f} not given`).toBe(x.type === 'boolean' ? false : (x.default ?? null));
      });
    }
  });

  it('declares every CalcInput field (as inputFromFlags fills them)', () => {
    const keys = Object.keys(inputFromFlags({ state: 'NY', county: 'Kings' })).filter((k) => k !== 'state' && k !== 'county');
    expect(keys.sort()).toEqual(declaredFacts().sort());
  });

  it('has labels in English and Spanish with no figures in them', () => {
    for (const x of bundle.inputs) {
      for (const l of [x.label, x.help, ...(x.values ?? []).map((v) => v.label), ...Object.values(x.state_labels ?? {})]) {
        expect(l.en.trim(), x.id).not.toBe('');
        expect(l.es.trim(), x.id).not.toBe('');
      }
      // A figure in a label would be a rule outside the rules (value labels name their own value).
      for (const l of [x.label, x.help]) expect(`${l.en} ${l.es}`, x.id).not.toMatch(/\$\s?\d|\d[\d,.]*\s?%|\d{1,3},\d{3}/);
    }
  });
});

/** Every leaf path of a program's result tree. */
function leaves(g: ResultGroup, prefix = '', out: string[] = []): string[] {
  for (const [k, v] of Object.entries(g)) {
    const p = prefix ? `${prefix}.${k}` : k;
    if ('formula' in v && typeof (v as { unit?: unknown }).unit === 'string') out.push(p);
    else leaves(v as ResultGroup, p, out);
  }
  return out;
}

describe('rules/results.yaml', () => {
  it('loads into the bundle, in its order, each field once', () => {
    const ids = bundle.results.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('annualTax');
  });

  it('declares only fields a program, a golden fixture or the engine gives', () => {
    const known = new Set<string>(['state', 'county', 'year', 'program', 'notes', 'calculator', 'years', 'taxBefore', 'taxAfter', 'savings']);
    for (const p of Object.values(bundle.programs)) for (const l of leaves(p.result)) known.add(l);
    for (const file of listYaml(resolve('fixtures'))) {
      const cases = readYaml(file, readFileSync(file, 'utf8')).data as Array<{ expected?: Record<string, unknown> }>;
      for (const c of cases) for (const k of Object.keys(c.expected ?? {})) known.add(k);
    }
    expect(bundle.results.map((f) => f.id).filter((id) => !known.has(id))).toEqual([]);
  });

  it("declares every leaf of every program's result", () => {
    const declared = new Set(bundle.results.map((f) => f.id));
    const missing = Object.values(bundle.programs).flatMap((p) =>
      leaves(p.result)
        .filter((l) => !declared.has(l))
        .map((l) => `${p.id}: ${l}`),
    );
    expect(missing).toEqual([]);
  });

  it('gives the batch columns and table rows of today, in their order', () => {
    expect(bundle.results.filter((f) => f.column).map((f) => f.column)).toEqual([
      'countyName',
      'program',
      'rulesYear',
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
      'notes',
    ]);
  });
});

describe('the loader checks the declarations', () => {
  const made: string[] = [];
  afterAll(() => {
    for (const d of made) rmSync(d, { recursive: true, force: true });
  });
  const broken = (file: string, from: string, to: string): string[] => {
    const root = mkdtempSync(join(tmpdir(), 'ptax-decl-'));
    made.push(root);
    cpSync('schemas', join(root, 'schemas'), { recursive: true });
    cpSync('rules', join(root, 'rules'), { recursive: true });
    const p = join(root, file);
    const text = readFileSync(p, 'utf8');
    expect(text.includes(from)).toBe(true);
    writeFileSync(p, text.replace(from, to));
    return loadRules('rules', { root }).problems.map(formatProblem);
  };

  it('an input renamed: the programs that read the old name fail (the declarations are the facts)', () => {
    const problems = broken('rules/inputs.yaml', '  - id: sellerTax\n', '  - id: sellerTaxes\n');
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((p) => /^rules\/fl\/tax-shock.yaml:\d+:\d+: .*(unknown fact|unknown name) sellerTax/.test(p))).toBe(true);
  });

  it('an input the engine reads itself cannot be left out; an input cannot fill a county fact', () => {
    expect(broken('rules/inputs.yaml', '  - id: value\n', '  - id: homeValue\n')).toContainEqual(
      expect.stringMatching(/^rules\/inputs.yaml:\d+:\d+: input facts not declared: value$/),
    );
    expect(broken('rules/inputs.yaml', '  - id: sellerTax\n', '  - id: nycClass\n')).toContainEqual(
      expect.stringMatching(/^rules\/inputs.yaml:\d+:\d+: nycClass is a county fact/),
    );
  });

  it('a flag twice, an unknown calculator, a default outside the values', () => {
    expect(broken('rules/inputs.yaml', 'flag: over65', 'flag: homestead')).toEqual([expect.stringMatching(/flag --homestead is declared twice$/)]);
    expect(broken('rules/inputs.yaml', 'calculators: [tx.payment]', 'calculators: [tx.pay]')).toEqual([
      expect.stringMatching(/no calculator tx.pay \(calculators: /),
    ]);
    expect(broken('rules/inputs.yaml', '    default: 0\n    min: 0\n    max: 100', '    default: 5\n    min: 0\n    max: 100')).toEqual([
      expect.stringMatching(/default 5 is not a value of this input$/),
    ]);
  });

  it('a schema problem (an unknown type), and a field declared twice', () => {
    expect(broken('rules/inputs.yaml', '    type: money', '    type: dollars')).toEqual([expect.stringMatching(/inputs.0.type must be one of money, /)]);
    expect(broken('rules/results.yaml', '  - id: monthlyTax\n', '  - id: annualTax\n')).toEqual([expect.stringMatching(/field annualTax is declared twice$/)]);
  });
});

describe('what is made from the declarations', () => {
  it('engine/generated/ is up to date with rules/inputs.yaml and rules/results.yaml (npm run build regenerates it)', () => {
    for (const g of generatedSources(bundle)) expect(readFileSync(g.path, 'utf8'), g.path).toBe(g.ts);
  });

  it("a golden fixture's input keys are checked against the declarations (the schema leaves them open)", () => {
    expect(fixtureInputProblems(bundle, { state: 'NY', homestead: true, veteranDisability: 10, star: 'basic', date: '2026-01-31' })).toEqual([]);
    expect(fixtureInputProblems(bundle, { state: 'NY', homesteed: true })[0]).toMatch(/^input homesteed: not a declared input/);
    expect(fixtureInputProblems(bundle, { state: 'NY', homestead: 'yes', star: 'gold', purchaseYear: 2001.5 })).toEqual([
      'input homestead: "yes" is not a value of a boolean input',
      'input star: "gold" is not a value of a choice input',
      'input purchaseYear: 2001.5 is not a value of a year input',
    ]);
  });

  it('the batch columns are the declared ones, and the CLI checks only the choices the rules do not (--star, with its own message)', () => {
    expect(INPUT_COLUMNS.map((c) => c.name)).toEqual(['state', 'county', ...bundle.inputs.flatMap((x) => (x.column ? [x.column] : []))]);
    expect(
      generatedInputs(bundle)
        .filter((x) => x.type === 'choice' && !x.checkedByRules)
        .map((x) => x.id),
    ).toEqual(['starType']);
  });
});
