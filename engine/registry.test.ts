/**
 * Issue 26 §1, the proof that a state and an input are data only: a copy of rules/ (with
 * fixtures/ and the schemas the rule files point at) gets a state ZZ ("Zedland") with three
 * counties, a program of its own and ONE new boolean input in inputs.yaml that the program
 * reads, following rules/README.md's recipes "Adding a state" and "Adding an input". Nothing
 * outside the temporary folder is edited (engine/generated/ is checked unchanged): the rules
 * build is pointed at the folder, and the CLI (one property and a batch), the generated
 * JavaScript, the SQL run by DuckDB and the web model (over the web data package built from
 * that bundle) all compute the hand-worked figure.
 *
 * By hand: Alpha County's rate is 1.25 %; a home of $300,000 whose owner is a pioneer
 * (--zz-pioneer) takes the pioneer exemption of $50,000 (zz.pioneer_exemption):
 *   taxable 300,000 − 50,000 = 250,000; annual tax 250,000 × 1.25 / 100 = 3,125.00;
 *   monthly 3,125 / 12 = 260.4166… → 260.42.
 * Without the exemption: 300,000 × 1.25 / 100 = 3,750.00.
 * Gamma County (0.8 %), pioneer, $40,000: the exemption is at most the value, so
 *   taxable max(0, 40,000 − 50,000) = 0 and the tax 0.
 *
 * Build first: npx tsc -p tsconfig.json && node dist/scripts/build-rules.js.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Calculator, readBundle, type Bundle } from './node.js';
import { nodeProgramSource } from './codegen/node.js';

const run = promisify(execFile);
const REPO = resolve('.');
const MAIN = join(REPO, 'dist/cli/main.js');

const STATE = `# yaml-language-server: $schema=../../schemas/state.schema.json
kind: state
code: ZZ
name: {en: Zedland, es: Zelandia Z}
slug: zedland
tier: county
detail: []
description: A state made for the registry's proof test (engine/registry.test.ts); three counties.
counties: zz.counties
programs:
  - program: zz
`;

const COUNTIES = `# yaml-language-server: $schema=../../schemas/counties.schema.json
kind: counties
id: zz.counties
state: ZZ
description: The test state's county rates, in percent of market value.
label: {en: County rate, es: Tasa del condado}
unit: percent
reference:
  - title: "US Census Bureau, ACS 2019–2023 five-year table B25103 (the test's figures are made up)"
    href: https://data.census.gov/table/ACSDT5Y2023.B25103
last_verified: 2026-11-27
counties:
  - name: "Alpha County"
    slug: alpha
    fips: "99001"
    rates: [{effective: 2025-01-01, value: 1.25}]
  - name: "Beta County"
    slug: beta
    fips: "99003"
    rates: [{effective: 2025-01-01, value: 2.0}]
  - name: "Gamma County"
    slug: gamma
    fips: "99005"
    rates: [{effective: 2025-01-01, value: 0.8}]
`;

const PARAMS = `# yaml-language-server: $schema=../../schemas/parameters.schema.json
kind: parameters
module: zz
parameters:
  pioneer_exemption:
    description: The amount of a pioneer's exemption, off the market value.
    label: {en: Pioneer exemption, es: Exención de pionero}
    unit: usd
    type: scalar
    values:
      - effective: 2025-01-01
        value: 50000
        reference:
          - title: "US Census Bureau (the test's figure is made up)"
            href: https://data.census.gov/table/ACSDT5Y2023.B25103
        last_verified: 2026-11-27
`;

const PROGRAM = `# yaml-language-server: $schema=../../schemas/program.schema.json
kind: program
id: zz
description: The test state's program, the county rate on the value less a pioneer's exemption.
label: {en: Zedland, es: Zelandia Z}
period:
  start: "01-01"
  fiscal: false
years: [2025]
parameters:
  pioneerAmount: zz.pioneer_exemption
validations:
  - use: valueCheck
  - when: countyRate == null
    code: NO_COUNTY_RATE
    message: {en: No tax rate is known for this county, es: No se conoce la tasa de impuesto de este condado}
steps:
  - id: pioneerExemption
    label: {en: Pioneer exemption, es: Exención de pionero}
    when: zzPioneer
    formula: min(value, pioneerAmount)
    otherwise: 0
  - id: taxable
    label: {en: Taxable value, es: Valor imponible}
    formula: max(0, value + zzImprovements - pioneerExemption)
  - id: annualTax
    label: {en: Annual tax, es: Impuesto anual}
    formula: taxable * countyRate / 100
notes: []
result:
  use: taxSummary
  countyRate: {formula: countyRate, unit: percent}
  baseAssessedValue: value
  finalAssessedValue: taxable
  taxableValue: taxable
  exemptionSavings: pioneerExemption * countyRate / 100
  countyBreakdown: {school: "0", county: annualTax, city: "0", special: "0"}
  potentialSavings: "0"
`;

const INPUT = `
  - id: zzPioneer
    type: boolean
    unit: none
    label: {en: Pioneer owner, es: Propietario pionero}
    help:
      en: "An owner is one of the state's pioneers (the test state's exemption)"
      es: "Uno de los propietarios es pionero del estado (la exención del estado de prueba)"
    default: false
    states: [ZZ]
    flag: zz-pioneer
    column: zzPioneer

  - id: zzImprovements
    type: money
    unit: usd
    label: {en: Improvements not yet assessed, es: Mejoras aún no tasadas}
    message_name: {en: Improvements, es: Mejoras}
    help:
      en: "Improvements the test state adds to the value"
      es: "Mejoras que el estado de prueba suma al valor"
    min: 0
    states: [ZZ]
    flag: zz-improvements
    column: zzImprovements
`;

const FIXTURE = `# yaml-language-server: $schema=../schemas/fixture.schema.json
- name: Alpha, a pioneer, 300,000 → (300,000 − 50,000) × 1.25% = 3,125.00
  input: {state: ZZ, county: Alpha, value: 300000, zzPioneer: true}
  expected: {annualTax: 3125, monthlyTax: 260.42, taxableValue: 250000}
  source: engine/registry.test.ts, by hand
`;

let dir = '';
let out = '';
const generatedBefore = () => ['engine/generated/inputs.ts', 'engine/generated/results.ts'].map((f) => readFileSync(join(REPO, f), 'utf8'));
let before: string[] = [];

beforeAll(async () => {
  expect(existsSync(MAIN), 'build first: npx tsc -p tsconfig.json && node dist/scripts/build-rules.js').toBe(true);
  before = generatedBefore();
  dir = mkdtempSync(join(tmpdir(), 'ptax-registry-'));
  for (const d of ['rules', 'fixtures', 'schemas']) cpSync(join(REPO, d), join(dir, d), { recursive: true });
  // "Adding a state": a folder with its state file, its counties, its program (and its parameters).
  mkdirSync(join(dir, 'rules/zz'));
  writeFileSync(join(dir, 'rules/zz/state.yaml'), STATE);
  writeFileSync(join(dir, 'rules/zz/counties.yaml'), COUNTIES);
  writeFileSync(join(dir, 'rules/zz/exemptions.yaml'), PARAMS);
  writeFileSync(join(dir, 'rules/zz/calculation.yaml'), PROGRAM);
  // "Adding an input": one entry at the end of inputs.yaml.
  writeFileSync(join(dir, 'rules/inputs.yaml'), readFileSync(join(dir, 'rules/inputs.yaml'), 'utf8').trimEnd() + '\n' + INPUT);
  writeFileSync(join(dir, 'fixtures/zz.yaml'), FIXTURE);
  // The rules build, pointed at the folder.
  out = join(dir, 'dist');
  await run(process.execPath, [join(REPO, 'dist/scripts/build-rules.js'), join(dir, 'rules'), out], { cwd: REPO });
}, 180_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const ptax = (...args: string[]) => run(process.execPath, [MAIN, '--rules', out, ...args], { cwd: dir });

describe('a new state and a new input, as data only (issue 26)', () => {
  it('the build leaves engine/generated/ alone and writes the bundle, with the new input among its facts, and the state', () => {
    expect(generatedBefore()).toEqual(before);
    const b: Bundle = readBundle(join(out, 'bundle.json'));
    expect(Object.keys(b.states)).toContain('ZZ');
    expect(b.states.ZZ!.counties.map((c) => c.name)).toEqual(['Alpha County', 'Beta County', 'Gamma County']);
    expect(b.facts!.map((f) => f.fact)).toContain('zzPioneer');
    expect(existsSync(join(out, 'js', 'zz@2025.cjs'))).toBe(true);
  });

  it('ptax calc --rules: 3,125.00 with the new flag, 3,750.00 without; 0 when the exemption exceeds the value', async () => {
    const a = JSON.parse((await ptax('calc', '--state', 'ZZ', '--county', 'Alpha', '--value', '300000', '--zz-pioneer', '--json')).stdout);
    expect([a.annualTax, a.monthlyTax, a.taxableValue, a.program]).toEqual([3125, 260.42, 250000, 'zz']);
    const b = JSON.parse((await ptax('calc', '--state', 'zz', '--county', 'alpha', '--value', '300000', '--json')).stdout);
    expect(b.annualTax).toBe(3750);
    const g = JSON.parse((await ptax('calc', '--state', 'ZZ', '--county', 'Gamma', '--value', '40000', '--zz-pioneer', '--json')).stdout);
    expect(g.annualTax).toBe(0);
    // The YAML folder itself works too (checked as the build checks it).
    const y = JSON.parse(
      (
        await run(process.execPath, [
          MAIN,
          'calc',
          '--rules',
          join(dir, 'rules'),
          '--state',
          'ZZ',
          '--county',
          'Alpha',
          '--value',
          '300000',
          '--zz-pioneer',
          '--json',
        ])
      ).stdout,
    );
    expect(y.annualTax).toBe(3125);
  });

  it('a new money input: its flag and column add to the value, and a negative amount is refused with its own name, in both languages', async () => {
    // (300,000 + 20,000 − 50,000) × 1.25% = 3,375.00
    const a = JSON.parse(
      (await ptax('calc', '--state', 'ZZ', '--county', 'Alpha', '--value', '300000', '--zz-pioneer', '--zz-improvements', '20k', '--json')).stdout,
    );
    expect(a.annualTax).toBe(3375);
    const bad = await ptax('calc', '--state', 'ZZ', '--county', 'Alpha', '--value', '300000', '--zz-improvements', '-5').catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect([bad.code, bad.stderr.trim()]).toEqual([2, 'ptax: Improvements cannot be negative (got "-5")']);
    const es = await ptax('calc', '--lang', 'es', '--state', 'ZZ', '--county', 'Alpha', '--value', '300000', '--zz-improvements', 'mucho').catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect([es.code, es.stderr.trim()]).toEqual([2, 'ptax: Mejoras: debe ser un número, como 350000 o 1,250,000 (se recibió "mucho")']);
  });

  it('ptax test --rules runs the folder fixture of the new state', async () => {
    const r = await ptax('test', join(dir, 'fixtures/zz.yaml'));
    expect(r.stdout).toContain('1 passed, 0 failed');
  });

  it('the batch (CSV, the Node streaming path, and DuckDB) reads the new column', async () => {
    const csv = join(dir, 'roll.csv');
    writeFileSync(csv, 'state,county,value,zzPioneer\nZZ,Alpha,300000,yes\nZZ,Alpha,300000,\nZZ,Beta,300000,true\n');
    const tax = (text: string) => {
      const [head, ...rows] = text.trim().split('\n');
      const at = head!.split(',').indexOf('annualTax');
      return rows.map((r) => Number(r.split(',')[at]));
    };
    // Beta (2 %), pioneer: (300,000 − 50,000) × 2 / 100 = 5,000.
    expect(tax((await ptax('calc', '--batch', csv)).stdout)).toEqual([3125, 3750, 5000]);
    const sqlOut = join(dir, 'roll.out.csv');
    await ptax('calc', '--batch', csv, '--engine', 'duckdb', '--out', sqlOut);
    expect(tax(readFileSync(sqlOut, 'utf8')).sort((x, y) => x - y)).toEqual([3125, 3750, 5000]);
  }, 120_000);

  it('the generated JavaScript of the new program runs, and gives the same figure as the interpreter', () => {
    const b = readBundle(join(out, 'bundle.json'));
    const gen = new Calculator(b, { generated: nodeProgramSource(join(out, 'js')) });
    const interp = new Calculator(b, { generated: false });
    expect(gen.compiled('zz', 2025).generated).toBeDefined();
    const input = { state: 'ZZ', county: 'Alpha', value: 300000, zzPioneer: true } as never;
    expect(gen.calculate(input).annualTax).toBe(3125);
    expect(interp.calculate(input).annualTax).toBe(3125);
  });

  it('the web model over the data package built from that bundle', async () => {
    const web = join(dir, 'web-states');
    await run(process.execPath, [join(REPO, 'web/scripts/build-data.mjs'), join(out, 'bundle.json'), web], { cwd: REPO });
    const pkg = JSON.parse(readFileSync(join(web, 'ZZ.json'), 'utf8'));
    const { toBundle } = await import('../web/src/lib/stateData.js');
    const { makeEdition, defaultForm, calculate } = await import('../web/src/lib/model.js');
    const edition = makeEdition(toBundle(pkg));
    expect(edition.formInputs.map((d) => d.id)).toContain('zzPioneer');
    const v = { ...defaultForm(edition), county: 'Alpha County', homeValue: 300000, zzPioneer: true };
    expect(calculate(edition, v, 'en').annualTax).toBe(3125);
    expect(calculate(edition, { ...v, zzPioneer: false }, 'es').annualTax).toBe(3750);
  });
});
