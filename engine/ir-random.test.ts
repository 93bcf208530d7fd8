/**
 * Random programs (issue 27), not bounded by today's rules: small random expression and
 * condition trees over the declared inputs, the county facts, a scalar parameter, a table
 * and a band table, and the earlier steps; every operator and function of the language
 * (+ − × ÷, unary minus, min, max, floor, pow, band, a table by a static key and by a key
 * read at run time; the ten condition operators, all / any / not, a fact compared with a
 * fact), formula, condition and case steps, validations, notes and a result tree with
 * every unit and both dropping groups. Each program is lowered once (engine/core/ir.ts),
 * then on random fact arrays (null, 0, −0, negative and huge numbers, NaN, Infinity, text
 * where a number is expected) the interpreter (engine/core/walk.ts) and the generated
 * JavaScript (engine/codegen/js.ts) must give the same outcome: the result object to the
 * bit (−0 and NaN included), its notes, the steps' values, or the same error (code and
 * message), in English and Spanish.
 *
 * The last test checks that the programs drawn used every operator and function, so a new
 * construct of the language that the generator does not draw fails here.
 *
 * PTAX_IR_PROGRAMS programs (default 150; 2,000 with PTAX_FULL=1), PTAX_IR_INPUTS fact
 * arrays each (default 25; 100 with PTAX_FULL=1). Checked 2026-11-27 by putting bugs into
 * the printer: `Math.min` printed for max, and `<` for lessThanInclusive, each fail at the
 * default counts.
 */
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { readBundle } from './build/bundle.js';
import { compileProgram } from './core/compile.js';
import { evaluate } from './core/calculate.js';
import type { Cond, Num, CaseValue, GroupIR } from './core/ir.js';
import { registryOf } from './core/registry.js';
import { generateProgram } from './codegen/js.js';
import { runtime, type GeneratedModuleExports, type GeneratedProgram } from './codegen/runtime.js';
import type { Bundle, Condition, ConditionValue, Expr, ParameterDef, ProgramDef, ResultGroup, StepDef } from './core/types.js';
import { Calculator, type CalcInput } from './core/calculate.js';
import { PtaxError } from './core/errors.js';
import { useDuckDb } from './sql/duckdb-test.js';
import { usePostgres } from './sql/pg-test.js';
import { BATCH_INPUT_COLUMNS, SQL_INPUTS, SQL_RESULT_COLUMNS, generateSql, num as sqlNum, str as sqlStr } from './sql/generate.js';

const FULL = !!process.env.PTAX_FULL;
const PROGRAMS = Number(process.env.PTAX_IR_PROGRAMS ?? (process.env.PTAX_MUTATION ? 40 : FULL ? 2_000 : 150));
const INPUTS = Number(process.env.PTAX_IR_INPUTS ?? (FULL ? 100 : 25));
const SQL_PROGRAMS = Number(process.env.PTAX_IR_SQL ?? (process.env.PTAX_MUTATION ? 5 : FULL ? 300 : 20));
// Under mutation testing a failure ends the run at once: shrinking the counterexample (many
// more programs, each printed and loaded) only costs time there, and ran past Stryker's timeout.
const END_ON_FAILURE = !!process.env.PTAX_MUTATION;

const base: Bundle = readBundle('dist/rules/bundle.json');
const table = registryOf(base).table;
const NUMBER_FACTS = [...table.filter((e) => e.type === 'number').map((e) => e.fact), 'typicalRate', 'schoolPart'];
const CHOICE_FACTS = [...table.filter((e) => e.type === 'text').map((e) => e.fact), 'schoolUnit'];
const BOOLEAN_FACTS = [...table.filter((e) => e.type === 'boolean').map((e) => e.fact), 'nycClass'];
const KEYS = ['class1', 'class2', 'basic', '0', '1.5'];

const tmp = mkdtempSync(join(tmpdir(), 'ptax-ir-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const require = createRequire(import.meta.url);

// Numbers of every kind a rule may meet: small and large, negative, fractional, a half-cent.
const NUMBERS = [0, 1, -1, 2, 4, 12, 100, 0.5, 0.1, 0.005, 1.005, -2.5, 3, 1e15, -1e15, 1e300, 123456.789, 50000];
const num = fc.oneof(fc.constantFrom(...NUMBERS), fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.integer({ min: -1000, max: 1000 }));

// Syntax trees with name placeholders (`#n`), bound to a step's readable names afterwards.
const lit = (value: number): Expr => ({ type: 'Literal', value });
const ref = (n: number): Expr => ({ type: 'Identifier', name: `#${n}` });
const idf = (name: string): Expr => ({ type: 'Identifier', name });
const call = (name: string, args: Expr[]): Expr => ({ type: 'CallExpression', callee: { type: 'Identifier', name }, arguments: args });

const { expr } = fc.letrec<{ expr: Expr }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    num.map(lit),
    fc.nat(60).map(ref),
    fc.constant(idf('k')),
    fc
      .tuple(fc.constantFrom('+', '-', '*', '/') as fc.Arbitrary<'+' | '-' | '*' | '/'>, tie('expr'), tie('expr'))
      .map(([operator, left, right]): Expr => ({ type: 'BinaryExpression', operator, left, right })),
    tie('expr').map((argument): Expr => ({ type: 'UnaryExpression', operator: '-', argument })),
    fc.tuple(fc.constantFrom('min', 'max'), fc.array(tie('expr'), { minLength: 2, maxLength: 3 })).map(([f, args]) => call(f, args)),
    tie('expr').map((x) => call('floor', [x])),
    fc.tuple(tie('expr'), fc.oneof(tie('expr'), fc.constantFrom(0, 1, 2, 0.5, -1).map(lit))).map(([b, x]) => call('pow', [b, x])),
    tie('expr').map((x) => call('band', [idf('b'), x])),
    fc.constantFrom(...KEYS.slice(0, 3)).map((key): Expr => ({ type: 'MemberExpression', object: idf('t'), property: idf(key), computed: false })),
    fc
      .oneof(
        fc.nat(60).map((n): Expr => ({ type: 'Identifier', name: `@${n}` })),
        tie('expr'),
      )
      .map((key): Expr => ({ type: 'MemberExpression', object: idf('t'), property: key, computed: true })),
  ),
}));

const OPERATORS = ['equal', 'notEqual', 'lessThan', 'lessThanInclusive', 'greaterThan', 'greaterThanInclusive', 'in', 'notIn', 'contains', 'doesNotContain'];
const scalarValue: fc.Arbitrary<ConditionValue> = fc.oneof(num, fc.constantFrom<ConditionValue>(null, true, false, ...KEYS, 'enhanced', ''));
const condValue: fc.Arbitrary<ConditionValue> = fc.oneof(
  scalarValue,
  fc.array(fc.oneof(num, fc.constantFrom<string | boolean | null>(null, true, false, ...KEYS)), { maxLength: 4 }),
  fc.nat(60).map((n) => ({ fact: `#${n}` })),
);
const { cond } = fc.letrec<{ cond: Condition }>((tie) => ({
  cond: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    fc.record({ fact: fc.nat(60).map((n) => `#${n}`), operator: fc.constantFrom(...OPERATORS), value: condValue }),
    fc.array(tie('cond'), { maxLength: 3 }).map((all) => ({ all })),
    fc.array(tie('cond'), { maxLength: 3 }).map((any) => ({ any })),
    tie('cond').map((not) => ({ not })),
  ),
}));

const label = { en: 'x', es: 'x' };
const formula = (ast: Expr) => ({ src: 'random', ast });
const step: fc.Arbitrary<Omit<StepDef, 'id'>> = fc.oneof(
  expr.map((ast) => ({ label, formula: formula(ast) })),
  cond.map((condition) => ({ label, condition })),
  fc
    .tuple(
      fc.array(fc.record({ when: cond, value: fc.oneof(expr.map(formula), fc.constantFrom(...KEYS)) }), { minLength: 1, maxLength: 3 }),
      fc.option(fc.oneof(expr.map(formula), fc.constantFrom('basic', 'none')), { nil: undefined }),
    )
    .map(([cases, otherwise]) => ({
      label,
      cases: [
        ...cases.map((c) => (typeof c.value === 'string' ? { when: c.when, value: c.value } : { when: c.when, formula: c.value })),
        ...(otherwise === undefined ? [] : [typeof otherwise === 'string' ? { value: otherwise } : { formula: otherwise }]),
      ],
    })),
);

const bandsArb = fc
  .tuple(fc.array(fc.tuple(fc.boolean(), num, num), { minLength: 1, maxLength: 3 }), fc.option(num, { nil: undefined }))
  .map(([bs, rest]) => [
    ...bs.map(([below, bound, value]) => (below ? { below: bound, value } : { at_most: bound, value })),
    ...(rest === undefined ? [] : [{ value: rest }]),
  ]);

const programArb = fc.record({
  steps: fc.array(step, { minLength: 1, maxLength: 6 }),
  validations: fc.array(cond, { maxLength: 2 }),
  notes: fc.array(cond, { maxLength: 3 }),
  leaves: fc.array(expr, { minLength: 8, maxLength: 8 }),
  k: num,
  t: fc.array(num, { minLength: KEYS.length, maxLength: KEYS.length }),
  b: bandsArb,
});

type Kind = 'number' | 'choice' | 'boolean' | 'mixed';
/** A step's kind: a formula's is a number, a condition's a boolean, cases' their values' (texts: a choice). */
const kindOf = (s: Omit<StepDef, 'id'>): Kind =>
  s.formula ? 'number' : s.condition ? 'boolean' : s.cases!.every((c) => c.formula) ? 'number' : s.cases!.every((c) => !c.formula) ? 'choice' : 'mixed';

/**
 * Binds a drawn tree's placeholders (#n, @n) to names. `any`: every program the language
 * takes (any fact or step where a number is read, any condition). `sql`: the programs SQL
 * takes: a number read where a number is wanted, a table indexed by a choice, the ordering
 * operators on numbers, in / notIn with a list, facts compared with facts of their kind,
 * no `contains` (SQL refuses the rest: engine/sql/generate.ts).
 */
function binder(kinds: Kind[], sql: boolean) {
  /** The names step i (or the result, i = steps; the validations, i = 0) may read, by kind. */
  const names = (i: number) => {
    const steps = (k: Kind) => kinds.slice(0, i).flatMap((x, j) => (!sql || x === k ? [`s${j}`] : []));
    const all = Array.from({ length: i }, (_, j) => `s${j}`);
    return {
      any: [...NUMBER_FACTS, ...CHOICE_FACTS, ...BOOLEAN_FACTS, 'k', ...all],
      number: [...NUMBER_FACTS, ...steps('number')],
      choice: [...CHOICE_FACTS, ...steps('choice')],
      boolean: [...BOOLEAN_FACTS, ...steps('boolean')],
    };
  };
  const expr = (e: Expr, i: number): Expr => {
    const n = names(i);
    const go = (x: Expr): Expr => {
      switch (x.type) {
        case 'Identifier':
          return x.name.startsWith('#')
            ? idf(pick(n.number, Number(x.name.slice(1))))
            : x.name.startsWith('@')
              ? idf(pick(n.choice, Number(x.name.slice(1))))
              : x;
        case 'BinaryExpression':
          return { ...x, left: go(x.left), right: go(x.right) };
        case 'UnaryExpression':
          return { ...x, argument: go(x.argument) };
        case 'CallExpression':
          return { ...x, arguments: x.arguments.map((a) => (a.type === 'Identifier' && a.name === 'b' ? a : go(a))) };
        case 'MemberExpression':
          if (!x.computed) return x;
          // SQL indexes a table by a choice only.
          return { ...x, property: sql && !(x.property.type === 'Identifier' && x.property.name.startsWith('@')) ? idf(pick(n.choice, 0)) : go(x.property) };
        default:
          return x;
      }
    };
    return go(e);
  };
  const cond = (c: Condition, i: number): Condition => {
    if ('all' in c) return { all: c.all.map((x) => cond(x, i)) };
    if ('any' in c) return { any: c.any.map((x) => cond(x, i)) };
    if ('not' in c) return { not: cond(c.not, i) };
    const n = names(i);
    const at = Number(c.fact.slice(1));
    const v = c.value;
    const ref = typeof v === 'object' && v !== null && !Array.isArray(v);
    if (!sql) return { fact: pick(n.any, at), operator: c.operator, value: ref ? { fact: pick(n.any, Number(v.fact.slice(1))) } : v };
    const order = ['lessThan', 'lessThanInclusive', 'greaterThan', 'greaterThanInclusive'].includes(c.operator);
    const list = c.operator === 'in' || c.operator === 'notIn';
    const operator = c.operator === 'contains' ? 'equal' : c.operator === 'doesNotContain' ? 'notEqual' : c.operator;
    const kind = order ? 'number' : (['number', 'choice', 'boolean'] as const)[at % 3]!;
    const fact = pick(n[kind], at);
    if (list) return { fact, operator, value: Array.isArray(v) ? v : ref ? [] : [v] };
    if (ref) return { fact, operator, value: { fact: pick(n[kind], Number(v.fact.slice(1))) } };
    if (order) return { fact, operator, value: typeof v === 'number' ? v : NUMBERS[at % NUMBERS.length]! };
    return { fact, operator, value: Array.isArray(v) ? (v[0] ?? null) : v };
  };
  return { expr, cond };
}
const pick = (xs: string[], n: number) => xs[n % xs.length]!;

type Drawn = typeof programArb extends fc.Arbitrary<infer T> ? T : never;
let serial = 0;

/** A bundle with the drawn program (`rnd.p`) and its three parameters added to the rules' own; `sql`: bound as SQL takes it. */
function bundleOf(d: Drawn, sql = false): Bundle {
  // SQL: a step whose cases mix texts and numbers gives numbers only (0 for a text).
  const drawn = sql
    ? d.steps.map((s) =>
        kindOf(s) === 'mixed' ? { ...s, cases: s.cases!.map((c) => (c.formula ? c : { ...(c.when ? { when: c.when } : {}), formula: formula(lit(0)) })) } : s,
      )
    : d.steps;
  const kinds = drawn.map(kindOf);
  const { expr: bindExpr, cond: bindCond } = binder(kinds, sql);
  const param = (id: string, type: ParameterDef['type'], entry: object): ParameterDef => ({
    id,
    file: 'rules/random.yaml',
    description: id,
    label,
    unit: 'none',
    type,
    values: [{ effective: '2000-01-01', reference: [], last_verified: '2026-11-27', ...entry }],
  });
  const steps = drawn.map((s, i): StepDef => {
    const id = `s${i}`;
    if (s.formula) return { id, label, formula: formula(bindExpr(s.formula.ast, i)) };
    if (s.condition) return { id, label, condition: bindCond(s.condition, i) };
    return {
      id,
      label,
      cases: s.cases!.map((c) => ({
        ...(c.when ? { when: bindCond(c.when, i) } : {}),
        ...(c.formula ? { formula: formula(bindExpr(c.formula.ast, i)) } : { value: c.value }),
      })),
    };
  });
  const all = steps.length;
  const leaf = (j: number, unit: 'usd' | 'percent' | 'fraction' | 'count') => ({ formula: formula(bindExpr(d.leaves[j]!, all)), unit });
  // Four leaves at paths the SQL's result columns have (rules/results.yaml), one of each unit.
  const result: ResultGroup = {
    annualTax: leaf(0, 'usd'),
    effectiveRate: leaf(1, 'percent'),
    taxableValue: leaf(2, 'fraction'),
    baseAssessedValue: leaf(3, 'count'),
    last: { formula: formula(idf(`s${all - 1}`)), unit: 'text' },
    exemptions: { a: leaf(4, 'usd'), b: leaf(5, 'usd') },
    exemptionBreakdown: { x: { amount: leaf(6, 'usd'), share: leaf(7, 'fraction') } },
  };
  const program: ProgramDef = {
    id: 'rnd.p',
    file: 'rules/random.yaml',
    description: 'a random program',
    label,
    period: { start: '01-01', fiscal: false },
    years: [2026],
    parameters: { k: 'rnd.k', t: 'rnd.t', b: 'rnd.b' },
    validations: d.validations.map((w, i) => ({ when: bindCond(w, 0), code: `RANDOM_${i}`, message: { en: `invalid ${i}`, es: `no válido ${i}` } })),
    steps,
    notes: d.notes.map((w, i) => ({ when: bindCond(w, all), text: { en: `note ${i}`, es: `nota ${i}` } })),
    result,
  };
  return {
    ...base,
    parameters: {
      ...base.parameters,
      'rnd.k': param('rnd.k', 'scalar', { value: d.k }),
      'rnd.t': param('rnd.t', 'by_key', { value: Object.fromEntries(KEYS.map((key, i) => [key, d.t[i]!])) }),
      'rnd.b': param('rnd.b', 'bands', { bands: d.b }),
    },
    programs: { ...base.programs, 'rnd.p': program },
    // A state without counties whose one program is the drawn one, for the SQL.
    states: {
      ...base.states,
      ZZ: {
        code: 'ZZ',
        file: 'rules/random.yaml',
        name: { en: 'Zed', es: 'Zed' },
        description: 'random',
        tier: 'county',
        counties: [],
        programs: [{ program: 'rnd.p' }],
        aliases: [],
        calculators: [],
      },
    },
  };
}

/** The generated module of the program, loaded as the engine loads one (engine/codegen/node.ts). */
function generated(bundle: Bundle): GeneratedProgram {
  const m = generateProgram(bundle, 'rnd.p', 2026);
  const file = join(tmp, `p${serial++}.cjs`);
  writeFileSync(file, m.source);
  return (require(file) as GeneratedModuleExports).make(runtime);
}

// Fact values: each type's own, and the wrong types a caller of the engine could pass.
const anyValue = fc.oneof(num, fc.constantFrom<unknown>(null, -0, Number.NaN, Infinity, -Infinity, true, false, ...KEYS, '5', 'enhanced', ''));
const factArb = (n: number) =>
  fc.array(
    fc.oneof({ weight: 6, arbitrary: fc.oneof(num, fc.constantFrom<unknown>(null, null, 0, -0, ...KEYS, true, false)) }, { weight: 1, arbitrary: anyValue }),
    { minLength: n, maxLength: n },
  );

/** An outcome, for comparison with toEqual (−0 and NaN kept): the result and the steps' values, or the error. */
function outcome(run: () => unknown, v: unknown[], from: number): unknown {
  try {
    return { result: run(), steps: v.slice(from) };
  } catch (e) {
    const x = e as { name?: string; code?: string; message?: string };
    return { error: `${x.name} ${x.code} ${x.message}` };
  }
}

/** Which operators and functions the lowered programs used. */
const seen = new Set<string>();
function note(n: CaseValue | Cond | GroupIR): void {
  const visit = (x: unknown): void => {
    if (Array.isArray(x)) return x.forEach(visit);
    if (x === null || typeof x !== 'object') return;
    const o = x as Record<string, unknown>;
    if (typeof o.op === 'string') seen.add(o.op === 'test' ? String(o.operator) : o.op);
    if (o.op === 'test' && (o.value as { op?: string }).op === 'read') seen.add('fact-vs-fact');
    for (const [key, y] of Object.entries(o)) if (key !== 'table' && key !== 'bands') visit(y);
  };
  visit(n);
}

describe('random programs: the interpreter and the generated JavaScript agree', () => {
  it(`${PROGRAMS} programs × ${INPUTS} fact arrays, in English and Spanish`, () => {
    let errors = 0,
      results = 0;
    fc.assert(
      fc.property(programArb, fc.array(factArb(base.facts!.length), { minLength: INPUTS, maxLength: INPUTS }), fc.boolean(), (d, inputs, es) => {
        const bundle = bundleOf(d);
        const c = compileProgram(bundle, 'rnd.p', 2026);
        note(c.ir.result);
        c.ir.steps.forEach((s) => note(s.body as never));
        c.ir.validations.forEach((x) => note(x.when));
        c.ir.notes.forEach((x) => note(x.when));
        const g = generated(bundle);
        const lang = es ? 'es' : 'en';
        const from = c.ir.facts + c.ir.params.filter((p) => p.kind === 'scalar').length;
        for (const facts of inputs) {
          const v = Object.assign(c.template.slice(), facts);
          const w = v.slice();
          const a = outcome(() => evaluate(c, v, lang, true), v, from);
          const b = outcome(() => g.evaluate(w, lang, true), w, from);
          expect(b).toEqual(a);
          if ('error' in (a as object)) errors++;
          else results++;
        }
      }),
      { numRuns: PROGRAMS, seed: 20261127, endOnFailure: END_ON_FAILURE },
    );
    // Both kinds of outcome were compared, not only errors.
    expect(results).toBeGreaterThan(PROGRAMS);
    expect(errors).toBeGreaterThan(0);
  });

  it('the programs drawn used every operator and function of the language', () => {
    const language = [
      '+',
      '-',
      '*',
      '/',
      'neg',
      'min',
      'max',
      'floor',
      'pow',
      'band',
      'entry',
      'const',
      'read',
      'text',
      'all',
      'any',
      'not',
      'fact-vs-fact',
      ...OPERATORS,
    ];
    expect(language.filter((x) => !seen.has(x))).toEqual([]);
  });
});

/** A batch row of the SQL's input table and the same input for the engine. */
const batchRow = fc.record({
  value: fc.oneof(num, fc.constantFrom(0, -0, 350000)),
  year: fc.constantFrom<number | null>(null, null, null, 2026, 2027),
  ...Object.fromEntries(
    SQL_INPUTS.filter((x) => x.column && x.fact !== 'value' && x.fact !== 'year').map((x) => [
      x.fact,
      x.ty === 'bool' ? fc.boolean() : x.ty === 'text' ? fc.constantFrom<string | null>(null, ...KEYS, 'enhanced') : fc.oneof(fc.constant(null), num),
    ]),
  ),
}) as fc.Arbitrary<Record<string, number | string | boolean | null>>;

/** A value as an SQL literal of the input table. */
const sqlValue = (x: unknown): string =>
  x === null ? 'NULL' : typeof x === 'number' ? sqlNum(x) : typeof x === 'boolean' ? String(x).toUpperCase() : sqlStr(String(x));
const COLUMN_TYPE = new Map(SQL_INPUTS.filter((x) => x.column).map((x) => [x.column!, x.ty === 'num' ? 'DOUBLE' : x.ty === 'bool' ? 'BOOLEAN' : 'VARCHAR']));
const FACT_OF = new Map(SQL_INPUTS.filter((x) => x.column).map((x) => [x.column!, x.fact]));
const SQL_LEAVES = SQL_RESULT_COLUMNS.filter((c) => ['annualTax', 'effectiveRate', 'taxableValue', 'baseAssessedValue'].includes(c.name));

/** Whether a value, or any number in it, is NaN or infinite: JavaScript's alone (SQL's LEAST, GREATEST, comparisons and bands order NaN above every number). */
const nonFinite = (x: unknown): boolean =>
  typeof x === 'number' ? !Number.isFinite(x) : x !== null && typeof x === 'object' ? Object.values(x).some(nonFinite) : false;

/** How a test runs SQL: the input table made from literal rows, then the query's rows. */
interface SqlRunner {
  dialect: 'duckdb' | 'postgres';
  /** Column types: DuckDB's, or PostgreSQL's spelling of them. */
  type(sqlType: 'DOUBLE' | 'BOOLEAN' | 'VARCHAR'): string;
  run(sql: string): Promise<void>;
  rows(sql: string): Promise<Array<Record<string, unknown>>>;
  /** Whether an error of the query is the database refusing a double out of its range (PostgreSQL's 22003). */
  outOfRange?(e: unknown): boolean;
}

/** A number a double's range cannot square or multiply safely: non-finite, ≥ 1e150 or a non-zero ≤ 1e-150 in size. */
const extreme = (x: unknown): boolean =>
  typeof x === 'number'
    ? !Number.isFinite(x) || Math.abs(x) >= 1e150 || (x !== 0 && Math.abs(x) <= 1e-150)
    : x !== null && typeof x === 'object'
      ? Object.values(x).some(extreme)
      : false;

/**
 * The random programs through one SQL engine: each program SQL takes is printed for
 * `runner.dialect`, run on INPUTS rows, and compared row by row with the interpreter (the
 * Calculator without generated code): the four result leaves, the notes, or the error's
 * code and message. A program SQL refuses is refused whole (RULES_INVALID), never run wrong.
 */
async function sqlAgrees(runner: SqlRunner, seed: number): Promise<void> {
  const columns = ['id', ...BATCH_INPUT_COLUMNS];
  let checked = 0,
    refused = 0,
    rows = 0,
    skipped = 0,
    outOfRange = 0;
  await fc.assert(
    fc.asyncProperty(programArb, fc.array(batchRow, { minLength: INPUTS, maxLength: INPUTS }), async (d, inputs) => {
      const bundle = bundleOf(d, true);
      let sql: string;
      try {
        sql = generateSql(bundle, { state: 'ZZ', dialect: runner.dialect, columns });
      } catch (e) {
        // A construct SQL does not take (text or a boolean in arithmetic, a table by a number, …): refused whole, never run wrong.
        expect((e as PtaxError).code).toBe('RULES_INVALID');
        refused++;
        return;
      }
      checked++;
      await runner.run('DROP TABLE IF EXISTS ptax_input');
      await runner.run(
        `CREATE TABLE ptax_input (id ${runner.type('VARCHAR')}, state ${runner.type('VARCHAR')}, county ${runner.type('VARCHAR')}, ${BATCH_INPUT_COLUMNS.slice(
          2,
        )
          .map((k) => `"${k}" ${runner.type(COLUMN_TYPE.get(k) as 'DOUBLE')}`)
          .join(', ')})`,
      );
      const values = inputs.map(
        (r, i) => `(${[`'R${i}'`, "'ZZ'", 'NULL', ...BATCH_INPUT_COLUMNS.slice(2).map((k) => sqlValue(r[FACT_OF.get(k)!] ?? null))].join(', ')})`,
      );
      await runner.run(`INSERT INTO ptax_input VALUES ${values.join(', ')}`);
      const calc = new Calculator(bundle, { generated: false });
      let answer: Array<Record<string, unknown>>;
      try {
        answer = await runner.rows(sql);
      } catch (e) {
        if (!runner.outOfRange?.(e)) throw e;
        // PostgreSQL stops the query when + − × ÷ give a double out of its range (overflow
        // to ±Infinity, underflow to 0), where JS and DuckDB go on: only where the program
        // or its rows hold such numbers (their values, or the interpreter's steps and
        // results on them), never on ordinary figures (engine/sql/generate.ts, header).
        const steps = inputs.map((r) => {
          try {
            const input = { state: 'ZZ', county: '', ...Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null)) } as unknown as CalcInput;
            const res = calc.calculate(input, { explain: true });
            return [res, res.explanation!.map((x) => x.value)];
          } catch {
            return null;
          }
        });
        expect(extreme(d) || extreme(inputs) || extreme(steps), String(e)).toBe(true);
        outOfRange++;
        return;
      }
      const got = new Map(answer.map((r) => [String(r.id), r]));
      inputs.forEach((r, i) => {
        const input = { state: 'ZZ', county: '', ...Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null)) } as unknown as CalcInput;
        const g = got.get(`R${i}`)!;
        let want: Record<string, unknown>;
        try {
          const res = calc.calculate(input, { explain: true });
          if (nonFinite(res.explanation!.map((x) => x.value)) || nonFinite(res)) {
            skipped++;
            return;
          }
          want = { notes: res.notes.length ? res.notes.join(' | ') : null, errorCode: null };
          for (const col of SQL_LEAVES) want[col.name] = (res as Record<string, unknown>)[col.path[0]!];
        } catch (e) {
          const x = e as { code?: string; message?: string };
          want = { errorCode: x.code, error: x.message };
        }
        rows++;
        // −0 is 0 in an output cell (as engine/sql/sql.test.ts compares).
        const cell = (x: unknown) => (typeof x === 'number' ? x + 0 : (x ?? null));
        const have = Object.fromEntries(Object.keys(want).map((k) => [k, cell(g[k])]));
        expect({ row: r, ...have }).toEqual({ row: r, ...Object.fromEntries(Object.entries(want).map(([k, v]) => [k, cell(v)])) });
      });
    }),
    { numRuns: SQL_PROGRAMS, seed, endOnFailure: END_ON_FAILURE },
  );
  // Most programs and rows are compared, not refused or skipped.
  expect(checked).toBeGreaterThan(SQL_PROGRAMS / 4);
  expect(outOfRange).toBeLessThan(checked / 2);
  expect(rows).toBeGreaterThan(skipped);
  expect(refused + checked).toBe(SQL_PROGRAMS);
}

describe('random programs: DuckDB agrees with the interpreter', () => {
  const duck = useDuckDb();

  it(`${SQL_PROGRAMS} programs × ${INPUTS} batch rows, where SQL takes the program`, async () => {
    const c = duck.c;
    await sqlAgrees(
      {
        dialect: 'duckdb',
        type: (t) => t,
        run: async (sql) => void (await c.run(sql)),
        rows: async (sql) => (await c.runAndReadAll(sql)).getRowObjects(),
      },
      20261128,
    );
  }, 600_000);
});

/**
 * The same through PostgreSQL (issue 27: "and PostgreSQL when available"): a throw-away
 * server from Debian's package (engine/sql/pg-server.ts, as engine/sql/sql.test.ts starts
 * one); skipped, with the reason, where there is none, and under mutation testing.
 */
describe('random programs: PostgreSQL agrees with the interpreter', () => {
  const postgres = usePostgres();

  it(`${SQL_PROGRAMS} programs × ${INPUTS} batch rows, where SQL takes the program`, async (ctx) => {
    const server = postgres.serverOr(ctx);
    if (!server) return;
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    onTestFinished(() => client.end());
    const PG_TYPE = { DOUBLE: 'FLOAT8', BOOLEAN: 'BOOLEAN', VARCHAR: 'TEXT' } as const;
    await sqlAgrees(
      {
        dialect: 'postgres',
        type: (t) => PG_TYPE[t],
        run: async (sql) => void (await client.query(sql)),
        rows: async (sql) => (await client.query(sql)).rows as Array<Record<string, unknown>>,
        outOfRange: (e) => (e as { code?: string }).code === '22003',
      },
      20261129,
    );
  }, 600_000);
});

export type { Num };
