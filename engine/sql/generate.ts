/**
 * The rules as SQL: one query, generated from the same checked syntax tree as the
 * interpreter and the generated JavaScript, that reads a table of batch inputs
 * (`ptax_input`, the batch columns of rules/inputs.yaml) and returns the batch output
 * columns: the input's columns, then county, program, rules' year, the result columns of
 * rules/results.yaml (dollars and cents, rates), the notes joined, error and errorCode.
 * Counties, rates and the program choice come in as generated VALUES tables, so the query
 * needs nothing but the input table. Dialects: DuckDB and PostgreSQL.
 *
 * Shape: the distinct (state, county, year) keys of the roll are placed once each (county,
 * program, rules' year, rate, place errors); the roll is joined to them, in two branches
 * (UNION ALL): the program of the most places, streamed (nothing held), and the others, whose
 * rows DuckDB gathers first when the roll is mostly the first's (gatherOthers, rowsSql); a row's program and year is a number py, each step a column computed
 * only for its program's rows (CASE WHEN py = k; a step the years of a program share, the
 * same but for its numbers, is one column for all of them), one CTE per level of steps; then
 * each result column is one CASE over the programs, rounded once; the row's error and notes
 * are numbers (the first validation that holds; a bit per note) whose texts are looked up
 * once (a CASE; a join to ptax_note_sets, every set of a program's notes with its text
 * joined, made in the query; notes that read only the place's facts: per key, ptax_knotes). DuckDB estimates as many keys
 * as rows and would build the join's hash table on the roll: run with
 * `SET disabled_optimizers = 'build_side_probe_side'` (run.ts does; the query's header says so).
 *
 * Where SQL semantics differ from the engine's JavaScript, and what the generator does
 * (README, "SQL"):
 * - Numbers: every number is FLOAT8 (IEEE double, as JS), literals are cast from their
 *   exact shortest text ('0.06'::FLOAT8), never SQL NUMERIC/DECIMAL or integer literals
 *   (PostgreSQL's 7/2 is integer division, 3; DuckDB's 7.0 is a DECIMAL).
 * - Rounding: SQL ROUND is not the engine's (half away from zero on the double, after a
 *   tiny nudge: round.ts). The generator writes the engine's own formula with FLOOR and
 *   comparisons, so every figure is the engine's to the cent.
 * - Division by zero: JS gives ±Infinity or NaN, DuckDB the same, PostgreSQL an error that
 *   stops the query: the postgres dialect guards every division with a CASE.
 * - NULLs: JS reads null as 0 in arithmetic (null + 5 = 5) and compares it as json-rules-
 *   engine does (null < 5 is false, null !== 5 is true). SQL NULL propagates: operands that
 *   can be NULL are COALESCEd to 0, conditions on them are written with IS [NOT] NULL, IS
 *   DISTINCT FROM and COALESCE(…, FALSE), so every condition is TRUE or FALSE as in the
 *   engine. The generator knows which facts and steps cannot be NULL (inputs with a default,
 *   booleans, arithmetic, conditions, cases with an otherwise) and writes those bare.
 * - NaN and infinities (only from a division by zero) print as empty cells, as JSON prints
 *   them null.
 * - Cells written as text (a CSV file, VARCHAR columns: SqlOptions.text) are read as the
 *   engine's one reader of input text reads them (engine/core/cells.ts `readCell`, which
 *   the streaming batch, the CLI's flags, share links and the web's money fields use):
 *   trimmed as JS trims, empty is not given, money by parseMoney's rules (sign, $, USD,
 *   groups of three between commas or spaces, a decimal point, a k or m after the number;
 *   the largest amount), the refused negative amounts, years of four digits,
 *   true/false/yes/no/1/0 in any case, the star's values; the first unreadable cell in the
 *   input's column order is the row's error, with the reader's code and message (readCell,
 *   moneyRegex here). The kinds of cells, the refused negatives and the boolean words are
 *   taken from engine/core/cells.ts, not copied. Typed cells (Parquet numbers and booleans) are read as they are, as the
 *   streaming path reads NDJSON numbers. DuckDB's CSV output prints numbers as JS does
 *   (jsNumberText); PostgreSQL's numbers come to run.ts as JS numbers.
 * - Not covered by SQL (the row gets an error cell, or the generator refuses): the
 *   countyRate what-if column (passed through, not read), `contains` conditions, Spanish
 *   messages, the county suggestions of an unknown county's message ("Did you mean …?"),
 *   rows with more or fewer cells than the header (the streaming path's INVALID_ROW: DuckDB
 *   and COPY refuse the file), the header's checks (two spellings of one column, a column
 *   named like an output column), a bad boolean's message when the cell holds a control
 *   character other than \b \t \n \f \r (JSON.stringify writes \u00XX; SQL writes it raw),
 *   and power (pow) is the database's, not V8's (the same to the last bit in every case
 *   tried, not proven; PostgreSQL's errors are answered as JS answers them: SqlPrinter.pow).
 */
import { compileCondition } from '../core/conditions.js';
import { countyRateAt, slugOf, stateCodeOf, stateNamesOf } from '../core/counties.js';
import { message } from '../core/messages.js';
import { periodStart } from '../core/params.js';
import { leavesOf, type CaseValue, type Cond, type Literal, type Num, type Operator, type ProgramIR, type StepIR } from '../core/ir.js';
import { lowered } from '../build/ir.js';
import { PtaxError } from '../core/errors.js';
import {
  COUNTY_FACTS,
  COUNTY_FLAGS,
  INPUT_FACTS,
  type Bundle,
  type GeneratedInput,
  type Condition,
  type CountyDef,
  type ProgramDef,
  type ResultLeaf,
  type StateDef,
} from '../core/types.js';
import { INPUTS } from '../generated/inputs.js';
import { declaredInputs, inputFactsOf } from '../core/registry.js';
import { RESULT_FIELDS } from '../generated/results.js';
import { RESULT_COLUMNS } from '../batch/header.js';
import { FALSE_WORDS, TRUE_WORDS, kindOf, refusesNegative, type CellKind } from '../core/cells.js';

export type Dialect = 'duckdb' | 'postgres';
export interface SqlOptions {
  state?: string;
  year?: number;
  dialect?: Dialect;
  table?: string;
  /** The input table's columns, passed through to the output (default: the batch columns, BATCH_INPUT_COLUMNS). */
  columns?: readonly string[];
  /** The output's names of `columns` (default: the same): the input's header as written. */
  headers?: readonly string[];
  /**
   * The batch columns whose cells are text as written (a CSV file, a VARCHAR column): read as
   * the engine reads them (engine/core/cells.ts readCell: trimmed, empty is not given, money
   * by parseMoney's rules, years of four digits, true/false/yes/no/1/0, the star's values),
   * a cell that cannot be read being the row's error (the first in `columns` order). The
   * other batch columns are typed (numbers, booleans) and read as they are.
   */
  text?: readonly string[];
  /** A column of the input table passed to the output last (run.ts: the row's number in the file, to sort CSV output in the roll's order). */
  orderBy?: string;
  /**
   * The roll's rows by their state cell as written (run.ts counts them before the query:
   * every row of a Parquet file, the first 100,000 of a CSV file). DuckDB gathers the other
   * programs' rows (the last branch, rowsSql) only when the rows of the states of the
   * program of the most places are more than half the roll (gatherOthers); without `mix`
   * (`ptax rules sql`: no roll) it gathers them. Only the speed and memory depend on it.
   */
  mix?: ReadonlyArray<{ state: string | null; rows: number }>;
}

type Ty = 'num' | 'bool' | 'text';
const NOTE_SEPARATOR = ' | ';

/** The input columns the query reads: fact, column name, type (inputs without a batch column are NULL), default. */
function sqlInputsOf(inputs: readonly GeneratedInput[], facts: readonly string[]) {
  return facts.map((fact) => {
    const d = inputs.find((x) => x.id === fact);
    const ty: Ty = !d ? 'num' : d.type === 'boolean' ? 'bool' : (d.type === 'choice' || d.type === 'text') && typeof d.default !== 'number' ? 'text' : 'num';
    return {
      fact,
      column: d?.column,
      ty,
      ...(typeof d?.default === 'number' ? { default: d.default } : {}),
    };
  });
}
/** The input columns of the rules the code was built with (engine/generated/inputs.ts); generateSql reads the bundle's own. */
export const SQL_INPUTS = sqlInputsOf(INPUTS, INPUT_FACTS);
/** The batch input columns: state, county, then each input with a column (rules/inputs.yaml). */
const batchColumnsOf = (inputs: ReturnType<typeof sqlInputsOf>): readonly string[] => [
  'state',
  'county',
  ...inputs.flatMap((x) => (x.column ? [x.column] : [])),
];
export const BATCH_INPUT_COLUMNS: readonly string[] = batchColumnsOf(SQL_INPUTS);
/** The result columns after the place's: path and column name (rules/results.yaml). */
export const SQL_RESULT_COLUMNS = RESULT_COLUMNS.slice(3, -1);

/** An SQL identifier, quoted. */
export const q = (name: string): string => `"${name.replace(/"/g, '""')}"`;
/** An SQL string literal. */
export const str = (s: string): string => `'${s.replace(/'/g, "''")}'`;
/** A number as an exact FLOAT8 (String gives NaN, Infinity and -Infinity as SQL spells them). */
export function num(n: number): string {
  return `CAST('${Object.is(n, -0) ? '-0' : String(n)}' AS FLOAT8)`;
}
const nz = (sql: string): string => `COALESCE(${sql}, ${num(0)})`;

/** A message with SQL expressions in place of some of its values: 'Rules for ' || y || ' are …'. */
function template(key: Parameters<typeof message>[0], values: Record<string, string | number>, sqlValues: Record<string, string>): string {
  const marks: Record<string, string> = {};
  Object.keys(sqlValues).forEach((k, i) => {
    marks[k] = `\u0001${i}\u0001`;
  });
  const text = message(key, { ...values, ...marks }, 'en');
  const parts = text.split(/\u0001(\d+)\u0001/);
  const keys = Object.keys(sqlValues);
  return (
    '(' +
    parts
      .map((p, i) => (i % 2 ? `CAST(${sqlValues[keys[Number(p)]!]} AS TEXT)` : str(p)))
      .filter((p) => p !== "''")
      .join(' || ') +
    ')'
  );
}
/** A whole number (a double holding one) as text, as JS prints it. */
const intText = (sql: string): string => `CAST(CAST(${sql} AS BIGINT) AS TEXT)`;

/**
 * The cells written as text, read as the engine reads them (engine/core/cells.ts readCell,
 * parseAmount, parseYear, parseBool, parseStar; engine/core/money.ts parseMoney), in SQL. One
 * place for both dialects: only the regular expressions' spelling differs (DuckDB's RE2 and
 * regexp_full_match, PostgreSQL's ~).
 */
interface CellSpec {
  kind: CellKind;
  /** The column's name in its messages: an amount's field name (messages `field.<id>`), else the flag. */
  field: string;
  /** A money input whose negative amounts the reader refuses (engine/core/cells.ts refusesNegative). */
  noNegative: boolean;
  values?: readonly string[];
}
/**
 * How each input's batch column's cell is read (engine/core/cells.ts kindOf and
 * refusesNegative: the one reading). The state and county cells are read per key, as text
 * (keysSql).
 */
const batchCellsOf = (inputs: readonly GeneratedInput[]): ReadonlyMap<string, CellSpec> =>
  new Map<string, CellSpec>(
    inputs.flatMap((x): Array<[string, CellSpec]> => {
      if (!('column' in x) || x.id === 'countyRate') return [];
      const kind: CellKind = kindOf(x);
      return [
        [
          x.column as string,
          {
            kind,
            field: kind === 'amount' ? x.name.en : x.flag,
            noNegative: refusesNegative(x.id),
            ...(kind === 'star' ? { values: (x as { values?: readonly string[] }).values } : {}),
          },
        ],
      ];
    }),
  );
export const BATCH_CELLS = batchCellsOf(INPUTS);

const sqlCache = new WeakMap<
  Bundle,
  { SQL_INPUTS: ReturnType<typeof sqlInputsOf>; BATCH_INPUT_COLUMNS: readonly string[]; BATCH_CELLS: ReadonlyMap<string, CellSpec> }
>();
/** A bundle's own input columns, batch columns and cell readings (its declarations, engine/core/registry.ts). */
export function sqlDeclarationsOf(bundle: Bundle) {
  let d = sqlCache.get(bundle);
  if (!d) {
    const inputs = declaredInputs(bundle);
    const sqlInputs = sqlInputsOf(inputs, inputFactsOf(bundle));
    d = { SQL_INPUTS: sqlInputs, BATCH_INPUT_COLUMNS: batchColumnsOf(sqlInputs), BATCH_CELLS: batchCellsOf(inputs) };
    sqlCache.set(bundle, d);
  }
  return d;
}

/** A cell that cannot be read: its code and message, by the number the query gives it. */
const CELL_ERRORS = {
  1: { code: 'INVALID_NUMBER', key: 'notNumberLike' },
  2: { code: 'INVALID_NUMBER', key: 'amountTooLarge' },
  3: { code: 'NEGATIVE_AMOUNT', key: 'amountNegative' },
  4: { code: 'INVALID_YEAR', key: 'yearFourDigits' },
  5: { code: 'INVALID_BOOLEAN', key: 'badBoolean' },
  6: { code: 'INVALID_STAR', key: 'badStar' },
} as const;
/** parseMoney's largest amount (exact to the cent). */
const LARGEST = Math.floor(Number.MAX_SAFE_INTEGER / 100);
/** What JavaScript's trim() and \s take for white space. */
const JS_SPACES = [9, 10, 11, 12, 13, 32, 0xa0, 0x1680, ...Array.from({ length: 11 }, (_, i) => 0x2000 + i), 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff];
/** JS_SPACES inside a regular expression's brackets. */
const spaceClass = (d: Dialect): string => {
  const ch = (c: number) => (c === 32 ? ' ' : d === 'postgres' ? `\\u${c.toString(16).padStart(4, '0')}` : `\\x{${c.toString(16)}}`);
  return JS_SPACES.filter((c) => c <= 0x2000 || c > 0x200a)
    .map((c) => (c === 0x2000 ? `${ch(0x2000)}-${ch(0x200a)}` : ch(c)))
    .join('');
};
/** Whether text matches a regular expression whole. */
const matches = (d: Dialect, x: string, re: string): string => (d === 'postgres' ? `(${x} ~ ${str(`^(?:${re})$`)})` : `REGEXP_FULL_MATCH(${x}, ${str(re)})`);
/** A cell as the engine's readCell (engine/core/cells.ts) sees it: trimmed as JS trims, NULL when empty (not given). */
const jsTrim = (d: Dialect, x: string): string => `NULLIF(${d === 'postgres' ? 'BTRIM' : 'TRIM'}(${x}, ${JS_SPACES.map((c) => `CHR(${c})`).join(' || ')}), '')`;
/** JSON.stringify of a text (the bad boolean's message), for the escapes a cell can need. */
const jsonText = (x: string): string =>
  `('"' || ${[
    ['\\', '\\\\'],
    ['"', '\\"'],
    ['CHR(10)', '\\n'],
    ['CHR(13)', '\\r'],
    ['CHR(9)', '\\t'],
    ['CHR(8)', '\\b'],
    ['CHR(12)', '\\f'],
  ].reduce((acc, [from, to]) => `REPLACE(${acc}, ${from!.startsWith('CHR') ? from : str(from!)}, ${str(to!)})`, x)} || '"')`;

/**
 * parseMoney's grammar (engine/core/money.ts) as one regular expression over the trimmed
 * cell without its " USD": a sign and dollar signs before the digits in the orders its loop
 * takes ($, $$, -, -$, -$$, $-, $-$), white space after each, then digits in groups of
 * three separated by single spaces, then a decimal point and digits; or digits in groups of
 * three separated by commas, or not at all, then a decimal point and digits, then white
 * space and a k or m (thousand, million: "425k", "1.2m", "$1.5 M") or nothing. The sign is
 * the cell's only minus.
 */
function moneyRegex(d: Dialect): string {
  const ws = `[${spaceClass(d)}]`;
  const m = `[-${d === 'postgres' ? '\\u2212' : '\\x{2212}'}]${ws}*`;
  const dl = `\\$${ws}*`;
  return `(?:(?:${dl})?(?:${m})?(?:${dl})?|${m}${dl}${dl})(?:[0-9]{1,3}(?:${ws}[0-9]{3})+(?:\\.[0-9]+)?|(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\\.[0-9]+)?(?:${ws}*[kKmM])?)`;
}

/**
 * The digits of a money cell that matched moneyRegex (`raw`: its digits and decimal point),
 * times a thousand or a million for a k or m (`u`: the cell), moved as parseMoney moves them,
 * in decimal text ("1.2" and m: "1200000"; "1.2345" and k: "1234.5"), so the amount is not
 * rounded twice.
 */
function shiftedDigits(u: string, raw: string): string {
  const shift = (places: number) => {
    const frac = `SPLIT_PART(${raw}, '.', 2)`;
    return `(SPLIT_PART(${raw}, '.', 1) || RPAD(${frac}, ${places}, '0') || (CASE WHEN LENGTH(${frac}) > ${places} THEN '.' || SUBSTR(${frac}, ${places + 1}) ELSE '' END))`;
  };
  const last = `RIGHT(${u}, 1)`;
  return `(CASE WHEN ${last} IN ('k', 'K') THEN ${shift(3)} WHEN ${last} IN ('m', 'M') THEN ${shift(6)} ELSE ${raw} END)`;
}

/**
 * A text cell read as its kind: the value (typed, NULL when not given or unreadable) and the
 * error number (CELL_ERRORS, NULL when readable), from `t`, the trimmed cell (jsTrim); for
 * an amount, `fast`: the cell's value when it is a plain whole number (plainNumber), else
 * NULL. `stage` makes a part a column of an earlier CTE (level 0, 1, …) and gives its name;
 * by default a part is written where it is used.
 */
function readCell(
  d: Dialect,
  spec: CellSpec,
  t: string,
  fast?: string,
  stage: (level: number, name: string, sql: string) => string = (_l, _n, sql) => sql,
): { value: string; error?: string } {
  switch (spec.kind) {
    case 'text':
      return { value: t };
    case 'year': {
      const ok = matches(d, t, '[0-9]{4}');
      return { value: `(CASE WHEN ${ok} THEN CAST(${t} AS FLOAT8) END)`, error: `(CASE WHEN ${t} IS NOT NULL AND NOT ${ok} THEN 4 END)` };
    }
    case 'bool': {
      const l = `LOWER(${t})`;
      return {
        value: `(CASE WHEN ${l} IN (${TRUE_WORDS.map(str).join(', ')}) THEN TRUE WHEN ${l} IN (${FALSE_WORDS.map(str).join(', ')}) THEN FALSE END)`,
        error: `(CASE WHEN ${t} IS NOT NULL AND ${l} NOT IN (${[...TRUE_WORDS, ...FALSE_WORDS].map(str).join(', ')}) THEN 5 END)`,
      };
    }
    case 'star': {
      const vs = spec.values!.map(str).join(', ');
      return { value: `(CASE WHEN ${t} IN (${vs}) THEN ${t} END)`, error: `(CASE WHEN ${t} IS NOT NULL AND ${t} NOT IN (${vs}) THEN 6 END)` };
    }
    case 'amount': {
      // In stages (columns of CTEs one after the other), each regular expression once per cell:
      // u, the cell without " USD" (only when `fast` did not read it); ok, whether u is money;
      // the digits and the sign of a cell that is.
      const u = stage(
        0,
        'u',
        `(CASE WHEN ${fast ? `${fast} IS NULL AND ` : ''}${t} IS NOT NULL THEN REGEXP_REPLACE(${t}, ${str(`[${spaceClass(d)}]*[uU][sS][dD]$`)}, '') END)`,
      );
      const ok = stage(1, 'ok', matches(d, u, moneyRegex(d)));
      const digits = stage(2, 'd', `(CASE WHEN ${ok} THEN ${shiftedDigits(u, `REGEXP_REPLACE(${u}, '[^0-9.]', '', 'g')`)} END)`);
      const neg = stage(2, 'neg', `(CASE WHEN ${ok} THEN STRPOS(${u}, '-') > 0 OR STRPOS(${u}, CHR(8722)) > 0 END)`);
      const whole = `COALESCE(NULLIF(LTRIM(SPLIT_PART(${digits}, '.', 1), '0'), ''), '0')`;
      const big = `(CASE WHEN LENGTH(${whole}) > ${String(LARGEST).length} THEN TRUE ELSE CAST(${whole} AS FLOAT8) > ${num(LARGEST)} END)`;
      const n = `CAST(${digits} AS FLOAT8)`;
      const slow = `(CASE WHEN ${ok} AND NOT ${big} THEN (CASE WHEN ${neg} AND ${n} <> 0 THEN -${n} ELSE ${n} END) END)`;
      const slowErr = `(CASE WHEN ${u} IS NULL THEN NULL WHEN NOT ${ok} THEN 1 WHEN ${big} THEN 2${spec.noNegative ? ` WHEN ${neg} AND ${n} <> 0 THEN 3` : ''} END)`;
      if (!fast) return { value: slow, error: slowErr };
      return {
        value: `(CASE WHEN ${fast} IS NOT NULL THEN ${fast} ELSE ${slow} END)`,
        error: `(CASE WHEN ${fast} IS NOT NULL THEN ${spec.noNegative ? `(CASE WHEN ${fast} < 0 THEN 3 END)` : 'NULL'} ELSE ${slowErr} END)`,
      };
    }
  }
}

/**
 * DuckDB: a plain whole number (its text is the number's own, within the largest amount) as
 * a double, without regular expressions; else NULL.
 */
const plainNumber = (raw: string): string =>
  `(CASE WHEN CAST(TRY_CAST(${raw} AS BIGINT) AS VARCHAR) = ${raw} AND ABS(TRY_CAST(${raw} AS BIGINT)) <= ${LARGEST} THEN CAST(TRY_CAST(${raw} AS BIGINT) AS FLOAT8) END)`;

/**
 * A double as JavaScript prints it (String(x)), for DuckDB's CSV output (DuckDB prints
 * 400000.0, 1e-05, 1e+16 where JS prints 400000, 0.00001, 10000000000000000); NaN and the
 * infinities are empty cells, as JSON prints them null. Whole numbers below 1e21 in full,
 * 1e-6 ≤ |x| < 1e-4 in fixed notation, smaller ones with JS's exponent (1e-7, not 1e-07);
 * DuckDB's shortest digits otherwise, which are JS's.
 */
export function jsNumberText(x: string): string {
  const s = `CAST(${x} AS VARCHAR)`;
  const mant = `SPLIT_PART(${s}, 'e', 1)`;
  const fixed = `((CASE WHEN ${x} < 0 THEN '-' ELSE '' END) || '0.' || REPEAT('0', -CAST(SPLIT_PART(${s}, 'e', 2) AS INTEGER) - 1) || REPLACE(REPLACE(${mant}, '-', ''), '.', ''))`;
  return `(CASE WHEN ${x} IS NULL OR ISNAN(${x}) OR ISINF(${x}) THEN NULL WHEN ${x} = TRUNC(${x}) AND ABS(${x}) < ${num(1e21)} THEN CAST(CAST(${x} AS HUGEINT) AS VARCHAR) WHEN ABS(${x}) >= ${num(1e-4)} THEN ${s} WHEN ABS(${x}) >= ${num(1e-6)} THEN ${fixed} ELSE REPLACE(REPLACE(${s}, 'e-0', 'e-'), 'e+0', 'e+') END)`;
}

interface ProgramYear {
  program: ProgramDef;
  year: number;
}

export function generateSql(bundle: Bundle, o: SqlOptions = {}): string {
  const decl = sqlDeclarationsOf(bundle);
  const { SQL_INPUTS, BATCH_INPUT_COLUMNS } = decl;
  const nInputs = SQL_INPUTS.length;
  const dialect = o.dialect ?? 'duckdb';
  const table = o.table ?? 'ptax_input';
  const states = Object.values(bundle.states).filter((s) => !o.state || s.code === o.state.trim().toUpperCase());
  if (!states.length) throw new PtaxError('UNKNOWN_STATE', `no state ${o.state} in the rules`);
  const { places, rates, used, programYears, years, placeCount } = placesOf(bundle, o, states, nInputs);
  const lines: string[] = [];
  // PostgreSQL inlines a CTE read once, and with it every step's expression into the next
  // step's: the expressions grow with each level. MATERIALIZED keeps each level a table.
  // DuckDB: nothing materialized (a 10M-row roll would spill); each program reads the roll's columns it needs.
  // A CTE read by several branches (the keys, the note sets) is MATERIALIZED in both dialects: worked out once.
  const cte = (name: string, body: string, materialized: boolean | 'always' = true) =>
    lines.push(`${name} AS ${materialized === 'always' || (dialect === 'postgres' && materialized) ? 'MATERIALIZED ' : ''}(\n${body}\n)`);
  cte('ptax_places(p_state, p_slug, p_county, p_program, f_nycclass, f_topcoded, f_estimated)', tableSql(dialect, 'ttttbbb', places));
  cte(
    'ptax_rates(r_state, r_slug, r_year, r_rate, r_typical, r_school, r_county, r_city, r_special, r_school_unit, r_city_unit, r_carried)',
    rates.length
      ? tableSql(dialect, 'ttinnnnnnttt', rates)
      : `  SELECT CAST(NULL AS TEXT), CAST(NULL AS TEXT), 0, ${num(0)}, ${num(0)}, ${num(0)}, ${num(0)}, ${num(0)}, ${num(0)}, CAST(NULL AS TEXT), CAST(NULL AS TEXT), CAST(NULL AS TEXT) WHERE FALSE`,
  );
  cte(
    'ptax_years(y_program, y_years, y_last)',
    `  VALUES\n  ${[...used].map((id) => `(${str(id)}, ${str(years(id).join(', '))}, ${years(id).at(-1)})`).join(',\n  ')}`,
  );

  const x: Query = { bundle, o, dialect, table, decl, states, used, programYears, years, cte };
  const branches = branchesOf(programYears, placeCount);
  const gather = dialect === 'duckdb' && branches.length > 1 && gatherOthers(bundle, places, programYears[branches[0]![0]!]!.program.id, o.mix);
  const cells = cellsSql(x);
  const yearKey = keysSql(x, cells, branches.length > 1, gather);
  const parts = programYears.map(({ program, year }, k) => programSql(bundle, program, year, k, dialect));
  const notes = noteSetsSql(x, parts, branches.length > 1);
  // A branch whose programs' notes are a key's (`keyed`) reads them with its keys (ptax_knotes).
  const keyed = branches.map((ks) => notes && ks.every((k) => parts[k]!.notes.keyed));
  if (keyed.some(Boolean))
    keyNotesSql(
      x,
      parts,
      branches.flatMap((ks, b) => (keyed[b] ? ks : [])),
    );
  const inputCols = (o.columns ?? BATCH_INPUT_COLUMNS)
    .map((c, i) => (o.headers?.[i] !== undefined && o.headers[i] !== c ? `r.${q(c)} AS ${q(o.headers[i]!)}` : `r.${q(c)}`))
    .join(', ');
  // An error row keeps only the input's columns, the error and its code. A row whose
  // program and year the query does not cover (--year) is left out.
  // A number column of an error row is NULL: the number plus o_zero (0, NULL for an error
  // row), cheaper than a CASE per column.
  const result = SQL_RESULT_COLUMNS.map((c) =>
    leafType(c.path) === 'text' ? `CASE WHEN o_code IS NULL THEN ${q(c.name)} END AS ${q(c.name)}` : `${q(c.name)} + o_zero AS ${q(c.name)}`,
  ).join(', ');
  // A branch of program years only (not the last of several) keeps every row: a row of its
  // keys has a program year (py) unless it has an error.
  const branchSelect = (sfx: string, covered: boolean) =>
    `SELECT ${inputCols}, CASE WHEN o_code IS NULL THEN p_county END AS ${q('countyName')}, CASE WHEN o_code IS NULL THEN p_program END AS ${q('program')}, CASE WHEN o_code IS NULL THEN CAST(p_year AS INTEGER) END AS ${q('rulesYear')}, ${result}, CASE WHEN o_code IS NULL THEN p_notes END AS ${q('notes')}, o_msg AS ${q('error')}, o_code AS ${q('errorCode')}${o.orderBy ? `, r.${q(o.orderBy)}` : ''} FROM ptax_out${sfx} AS r${covered ? '' : ' WHERE r.py IS NOT NULL OR r.p_error IS NOT NULL'}`;
  const selects = branches.map((ks, b) => {
    const sfx = branches.length > 1 ? `_${b}` : '';
    // A branch's rows: its program years' keys (the last branch: the others' and the refused keys).
    const others = branches.flatMap((o, c) => (c === b ? [] : o));
    const filter =
      branches.length < 2 ? undefined : b < branches.length - 1 ? `k.p_py IN (${ks.join(', ')})` : `k.p_py IS NULL OR k.p_py NOT IN (${others.join(', ')})`;
    rowsSql(x, cells, yearKey, sfx, filter, gather && b === branches.length - 1, keyed[b]!);
    const mine: ProgramPart[] = [];
    for (const k of ks) mine[k] = parts[k]!;
    const from = levelsSql(x, mine, sfx);
    outSql(x, mine, from, sfx, keyed[b] ? 'keyed' : notes);
    return branchSelect(sfx, branches.length > 1 && b < branches.length - 1);
  });
  const header = `-- Generated by ptax (engine/sql/generate.ts) from the checked rules: do not edit.\n-- dialect: ${dialect}; states: ${states.map((s) => s.code).join(', ')}${o.year !== undefined ? `; year: ${o.year}` : ''}\n-- rules: ${[...new Set(programYears.flatMap(({ program }) => [program.file, ...Object.values(program.parameters).map((p) => bundle.parameters[p]!.file)]))].sort().join(', ')}\n-- input: a table ${table} with the batch columns (state, county, ${SQL_INPUTS.filter(
    (x) => x.column && x.column !== 'year',
  )
    .map((x) => x.column)
    .join(', ')}, year)\n${
    dialect === 'duckdb'
      ? "-- DuckDB, for a large roll: SET disabled_optimizers = 'build_side_probe_side' first (the join's hash table is then built on the roll's few distinct state, county and year keys, not on the roll)\n"
      : ''
  }`;
  return `${header}WITH\n${lines.join(',\n')}\n${selects.join('\nUNION ALL\n')}`;
}

/** What the query's parts share: the rules, the options, the states and program years it covers, and its CTEs. */
interface Query {
  bundle: Bundle;
  o: SqlOptions;
  dialect: Dialect;
  table: string;
  decl: ReturnType<typeof sqlDeclarationsOf>;
  states: StateDef[];
  used: Set<string>;
  programYears: ProgramYear[];
  years: (id: string) => number[];
  cte: (name: string, body: string, materialized?: boolean | 'always') => void;
}

type Cell = string | number | boolean | null;

/**
 * A generated table (types: t text, i integer, n FLOAT8, b boolean; null is NULL). PostgreSQL:
 * VALUES. DuckDB: one string of lines of |-separated fields, split and cast when the query
 * runs; DuckDB plans a VALUES list of 3,222 places and 6,600 rates (80,000 constants) in about
 * 0.9 s of CPU, the string in next to none. The casts are the literals' (CAST('0.06' AS
 * FLOAT8) of num: the same doubles); an empty field is NULL. A field holding | or a line
 * break, or an empty text that is not NULL, keeps VALUES.
 */
function tableSql(dialect: Dialect, types: string, rows: Cell[][]): string {
  const lit = (v: Cell, ty: string) =>
    v === null
      ? ty === 't'
        ? 'CAST(NULL AS TEXT)'
        : 'NULL'
      : ty === 't'
        ? str(v as string)
        : ty === 'n'
          ? num(v as number)
          : ty === 'b'
            ? v
              ? 'TRUE'
              : 'FALSE'
            : String(v);
  const field = (v: Cell, ty: string) => (v === null ? '' : ty === 'n' ? (Object.is(v, -0) ? '-0' : String(v)) : String(v));
  const plain = rows.every((r) => r.every((v) => !/[|\n]/.test(String(v))));
  const nullableText = [...types].map((ty, i) => ty === 't' && rows.some((r) => r[i] === null));
  const emptyNull = rows.some((r) => r.some((v, i) => v === '' && nullableText[i]));
  if (dialect === 'postgres' || !plain || emptyNull)
    return `  VALUES\n  ${rows.map((r) => `(${r.map((v, i) => lit(v, types[i]!)).join(', ')})`).join(',\n  ')}`;
  const nullable = [...types].map((_, i) => rows.some((r) => r[i] === null));
  const cols = [...types].map((ty, i) => {
    const x = nullable[i] ? `NULLIF(s[${i + 1}], '')` : `s[${i + 1}]`;
    return ty === 't' ? x : `CAST(${x} AS ${ty === 'n' ? 'FLOAT8' : ty === 'i' ? 'INTEGER' : 'BOOLEAN'})`;
  });
  return `  SELECT ${cols.join(', ')}\n  FROM (SELECT STRING_SPLIT(UNNEST(STRING_SPLIT(${str(rows.map((r) => r.map((v, i) => field(v, types[i]!)).join('|')).join('\n'))}, CHR(10))), '|') AS s) AS d`;
}

/** Places: every county and alias of the states, with its program (chosen by county facts, here), and the rates in force. */
function placesOf(bundle: Bundle, o: SqlOptions, states: StateDef[], nInputs: number) {
  const places: Cell[][] = [];
  const rates: Cell[][] = [];
  const used = new Set<string>();
  const placeCount = new Map<string, number>();
  for (const s of states) {
    const slot = (f: string) => COUNTY_FACTS.indexOf(f as (typeof COUNTY_FACTS)[number]) + nInputs;
    const choose = s.programs.map((p) => ({ test: p.when ? compileCondition(p.when, slot) : undefined, program: p.program }));
    const facts = (c: CountyDef | undefined): unknown[] => {
      const v: unknown[] = new Array(nInputs).fill(null);
      const flags = new Set(c?.flags);
      for (const f of COUNTY_FACTS) v.push((COUNTY_FLAGS as readonly string[]).includes(f) ? flags.has(f) : null);
      return v;
    };
    for (const p of s.programs)
      if (p.when && [...conditionNames(p.when)].some((f) => !(COUNTY_FACTS as readonly string[]).includes(f))) {
        throw new PtaxError('RULES_INVALID', `${s.code}: the program is chosen by input facts; SQL chooses by county only`);
      }
    const pick = (c: CountyDef | undefined) => choose.find((p) => !p.test || p.test(facts(c)))!.program;
    const flag = (c: CountyDef | undefined, f: string) => !!c?.flags.includes(f);
    const row = (slug: string, name: string, program: string, c: CountyDef | undefined) => {
      if (o.year !== undefined && !bundle.programs[program]!.years.includes(o.year) && o.year < bundle.programs[program]!.years.at(-1)!) return;
      used.add(program);
      placeCount.set(program, (placeCount.get(program) ?? 0) + 1);
      places.push([s.code, slug, name, program, flag(c, 'nycClass'), flag(c, 'topCoded'), flag(c, 'estimated')]);
      if (c)
        for (const y of bundle.programs[program]!.years) {
          // The rate in force, or the earliest carried back (countyRateAt; the note says so).
          const e = countyRateAt(c, periodStart(bundle.programs[program]!.period, y));
          if (!e) continue;
          const p = e.rate.parts;
          rates.push([
            s.code,
            slug,
            y,
            e.rate.value,
            c.typicalRate?.value ?? null,
            p?.school ?? null,
            p?.county ?? null,
            p?.city ?? null,
            p?.special ?? null,
            e.rate.units?.school ?? null,
            e.rate.units?.city ?? null,
            e.carried ? e.rate.effective.slice(0, 4) : null,
          ]);
        }
    };
    if (!s.counties.length) row('', '', pick(undefined), undefined);
    // Aliases first: findCounty tries them first.
    const aliasSlugs = new Set<string>();
    for (const a of s.aliases) {
      const sl = slugOf(a.name);
      aliasSlugs.add(sl);
      row(sl, a.name, a.program, undefined);
    }
    for (const c of s.counties) if (!aliasSlugs.has(c.slug)) row(c.slug, c.name, pick(c), c);
  }
  const programYears: ProgramYear[] = [...used].flatMap((id) =>
    bundle.programs[id]!.years.filter((y) => o.year === undefined || y === o.year || (y === bundle.programs[id]!.years.at(-1) && o.year > y)).map((y) => ({
      program: bundle.programs[id]!,
      year: y,
    })),
  );
  const years = (id: string) => bundle.programs[id]!.years;
  // (No place, no program used, no program year: the three go together.)
  if (!programYears.length) {
    const all = [...new Set(states.flatMap((s) => s.programs.flatMap((p) => bundle.programs[p.program]!.years)))].sort();
    throw new PtaxError('YEAR_NOT_COVERED', `${states.map((s) => s.code).join(', ')}: no rules for ${o.year} (rules' years: ${all.join(', ')})`);
  }
  return { places, rates, used, programYears, years, placeCount };
}

/**
 * The query's branches (UNION ALL), each a list of program years (k): the program of the most
 * places (the county-level estimate of 48 states) apart from the others. Each branch reads
 * the roll and joins it to its own keys; a row then goes through its branch's step columns
 * only: a row of a one-step program does not pass through the ~40 levels and ~150 step
 * columns of the others. The last branch also takes the refused keys. One program: one
 * branch. (A branch per program measured 8% less CPU on the 52-state roll, but 50% more on
 * a roll of New York alone: each branch is planned and reads the roll.)
 */
function branchesOf(programYears: ProgramYear[], placeCount: Map<string, number>): number[][] {
  const ids = [...new Set(programYears.map((p) => p.program.id))];
  const ks = (pick: (id: string) => boolean) => programYears.flatMap((p, k) => (pick(p.program.id) ? [k] : []));
  if (ids.length < 2) return [ks(() => true)];
  const top = ids.reduce((a, b) => ((placeCount.get(b) ?? 0) > (placeCount.get(a) ?? 0) ? b : a));
  return [ks((id) => id === top), ks((id) => id !== top)];
}

/**
 * Whether DuckDB gathers the last branch's rows (the other programs' and the refused keys')
 * before their steps (rowsSql). Spread through a roll of many states (8% of the bench's
 * 52-state roll: ~157 in each of DuckDB's vectors of 2,048 rows) they cost as much as the
 * county-level rows, and gathered, a quarter less CPU for the whole roll; but a roll of
 * those programs alone (New York's) is dense already: gathering every row cost it 7-34% more
 * CPU and 172 MB more memory per million rows. So they are gathered only when the rows of
 * the states whose places are all the first branch's program (`top`: the county-level
 * estimate) are more than half the roll (`mix`, by state cell as written, read as
 * Calculator.state reads it: a code in any case, else a name or slug by stateKey). A state
 * with places of another program, an unknown state and an empty cell count as the others'.
 * No mix (no roll to count): gathered, the shape of a roll of every state.
 */
export function gatherOthers(bundle: Bundle, places: ReadonlyArray<readonly Cell[]>, top: string, mix: SqlOptions['mix']): boolean {
  if (!mix) return true;
  const topState = new Map<string, boolean>();
  for (const p of places) topState.set(p[0] as string, (topState.get(p[0] as string) ?? true) && p[3] === top);
  const names = stateNamesOf(bundle.states);
  let mine = 0;
  let all = 0;
  for (const { state, rows } of mix) {
    all += rows;
    if (state === null) continue;
    const code = stateCodeOf(bundle.states, state, () => names);
    if (code !== undefined && topState.get(code)) mine += rows;
  }
  return mine * 2 > all;
}

/**
 * The input, typed, with the place's facts. A batch column written as text (o.text) is
 * read as the streaming path reads it: ptax_cells trims each such cell (ptax_t_k), ptax_read
 * reads it (ptax_v_k) and numbers what stops it (ptax_e_k, CELL_ERRORS).
 */
function cellsSql(x: Query) {
  const { o, dialect, cte } = x;
  const { SQL_INPUTS, BATCH_INPUT_COLUMNS, BATCH_CELLS } = x.decl;
  const textCols = new Set(o.text ?? []);
  const isText = (c: string | undefined) => c !== undefined && textCols.has(c) && BATCH_CELLS.has(c);
  const cellNo = (c: string) => BATCH_INPUT_COLUMNS.indexOf(c);
  const sqlType = (ty: Ty) => (ty === 'num' ? 'FLOAT8' : ty === 'bool' ? 'BOOLEAN' : 'TEXT');
  const col = (c: string | undefined, ty: Ty) =>
    c === undefined ? `CAST(NULL AS ${sqlType(ty)})` : isText(c) ? `i.ptax_v_${cellNo(c)}` : `CAST(i.${q(c)} AS ${sqlType(ty)})`;
  const typed = SQL_INPUTS.map((x, i) => {
    let v = x.fact === 'year' ? 'i.p_in_year' : col(x.column, x.ty);
    if (x.default !== undefined) v = `COALESCE(${v}, ${num(x.default)})`;
    else if (x.ty === 'bool') v = `COALESCE(${v}, FALSE)`;
    return `${v} AS f${i}`;
  });
  // The cells read per row (the state, county and year are read per key, below).
  const rowCells = BATCH_INPUT_COLUMNS.filter((c) => isText(c) && c !== 'year');
  const fastCells = dialect === 'duckdb' ? rowCells.filter((c) => BATCH_CELLS.get(c)!.kind === 'amount') : [];
  const stages: string[][] = [];
  const cellReads = rowCells.map((c) => ({
    c,
    k: cellNo(c),
    ...readCell(dialect, BATCH_CELLS.get(c)!, `i.ptax_t_${cellNo(c)}`, fastCells.includes(c) ? `i.ptax_n_${cellNo(c)}` : undefined, (level, name, sql) => {
      (stages[level] ??= []).push(`${sql} AS ptax_${name}_${cellNo(c)}`);
      return `i.ptax_${name}_${cellNo(c)}`;
    }),
  }));
  // The CTEs reading a branch's rows (`table`: the roll joined to the branch's keys); the last one's name.
  const emit = (table: string, sfx: string): string => {
    let source = table;
    if (rowCells.length) {
      // DuckDB: a plain whole number is read without trimming or regular expressions (most
      // cells of a roll). PostgreSQL: each stage MATERIALIZED (the cte default), as the steps
      // are. Inlined, each stage's expression was copied into every use in the next (a trimmed
      // cell into each of a money cell's reads, and so on): 4.7 ms of CPU a row in
      // engine/sql/sql.test.ts's batch of text cells, against ~0.1 ms materialized.
      let from = table;
      if (fastCells.length) {
        cte(
          `ptax_cells${sfx}`,
          `  SELECT i.*${fastCells.map((c) => `, ${plainNumber(`CAST(i.${q(c)} AS TEXT)`)} AS ptax_n_${cellNo(c)}`).join('')}\n  FROM ${table} AS i`,
          false,
        );
        from = `ptax_cells${sfx}`;
      }
      const trim = (c: string) => jsTrim(dialect, `CAST(i.${q(c)} AS TEXT)`);
      cte(
        `ptax_trimmed${sfx}`,
        `  SELECT i.*, ${rowCells
          .map(
            (c) =>
              `${fastCells.includes(c) ? `(CASE WHEN i.ptax_n_${cellNo(c)} IS NOT NULL THEN CAST(i.${q(c)} AS TEXT) ELSE ${trim(c)} END)` : trim(c)} AS ptax_t_${cellNo(c)}`,
          )
          .join(',\n    ')}\n  FROM ${from} AS i`,
      );
      from = `ptax_trimmed${sfx}`;
      stages.forEach((cols, l) => {
        cte(`ptax_money${l}${sfx}`, `  SELECT i.*, ${cols.join(',\n    ')}\n  FROM ${from} AS i`);
        from = `ptax_money${l}${sfx}`;
      });
      cte(
        `ptax_read${sfx}`,
        `  SELECT i.*, ${cellReads.flatMap((r) => [`${r.value} AS ptax_v_${r.k}`, ...(r.error ? [`${r.error} AS ptax_e_${r.k}`] : [])]).join(',\n    ')}\n  FROM ${from} AS i`,
      );
      source = `ptax_read${sfx}`;
    }
    return source;
  };
  return { isText, cellNo, col, typed, cellReads, emit };
}

/** The distinct (state, county, year) keys, placed: county, program, rules' year, rate, their errors and notes. */
function keysSql(x: Query, cells: ReturnType<typeof cellsSql>, shared: boolean, numbered: boolean): string {
  const { bundle, dialect, table, cte, used, programYears, years } = x;
  const { BATCH_CELLS } = x.decl;
  const { isText, col } = cells;
  // slugOf: accents dropped (Doña Ana, Bayamón: the letters the county names have), " county" dropped, the rest kebab-case.
  const slug = (x: string) =>
    `TRIM(BOTH '-' FROM REGEXP_REPLACE(REGEXP_REPLACE(TRANSLATE(LOWER(${x}), 'áàâäãåéèêëíìîïóòôöõúùûüñç', 'aaaaaaeeeeiiiiooooouuuunc'), '\\scounty$', ''), '[^a-z0-9]+', '-', 'g'))`;
  // The state cell as Calculator.state reads it: a code in any case, else a state's name in
  // either language or its slug, compared by stateKey (accents and everything but letters and
  // digits dropped, lower case); a cell that is neither stays as it is (UNKNOWN_STATE below).
  const stateNames = stateNamesOf(bundle.states);
  const stateOf = (x: string) => {
    const key = `REGEXP_REPLACE(TRANSLATE(LOWER(${x}), 'áàâäãåéèêëíìîïóòôöõúùûüñç', 'aaaaaaeeeeiiiiooooouuuunc'), '[^a-z0-9]+', '', 'g')`;
    const byName = [...stateNames].map(([k, c]) => `WHEN ${str(k)} THEN ${str(c)}`).join(' ');
    return `CASE WHEN UPPER(${x}) IN (${Object.keys(bundle.states).map(str).join(', ')}) THEN UPPER(${x})${
      stateNames.size ? ` ELSE COALESCE(CASE ${key} ${byName} END, UPPER(${x}))` : ` ELSE UPPER(${x})`
    } END`;
  };
  // Everything that depends on the state, county and year cells alone (place, program, rules
  // year, rate, their errors and notes, the year cell's own reading) is worked out once per
  // distinct triple (a roll repeats a few thousand), then joined to the rows.
  const yearText = isText('year');
  const yearRead = yearText ? readCell(dialect, BATCH_CELLS.get('year')!, jsTrim(dialect, 'k_year')) : undefined;
  const yearKey = yearText ? `CAST(i.${q('year')} AS TEXT)` : col('year', 'num');
  cte(
    'ptax_keys',
    `  SELECT k_state, k_county, k_year, ${stateOf('k_state_read')} AS p_in_state, ${slug('p_in_county')} AS p_in_slug, p_in_county, ${yearRead ? yearRead.value : 'k_year'} AS p_in_year,
    ${yearRead ? yearRead.error : 'CAST(NULL AS INTEGER)'} AS k_year_error, k_state_read
  FROM (SELECT *, ${jsTrim(dialect, 'k_state')} AS k_state_read, ${jsTrim(dialect, 'k_county')} AS p_in_county
    FROM (SELECT DISTINCT CAST(i.${q('state')} AS TEXT) AS k_state, CAST(i.${q('county')} AS TEXT) AS k_county, ${yearKey} AS k_year FROM ${table} AS i) AS d) AS d`,
  );
  // As the engine's Calculator.state lists them: every code of the rules, the hub last.
  const choices = Object.keys(bundle.states)
    .sort((a, b) => Number(a === 'HUB') - Number(b === 'HUB') || a.localeCompare(b))
    .join(', ');
  const needsCounty = `p_in_state IN (${
    Object.values(bundle.states)
      .filter((s) => s.counties.length)
      .map((s) => str(s.code))
      .join(', ') || "''"
  })`;
  cte(
    'ptax_placed',
    `  SELECT r.*, p.p_county, p.p_program, y.y_years, y.y_last,
    CASE WHEN r.p_in_year IS NULL OR r.p_in_year > y.y_last THEN y.y_last ELSE r.p_in_year END AS p_year,
    p.f_nycclass, p.f_topcoded, p.f_estimated,
    CASE
      WHEN r.p_in_state IS NULL OR r.p_in_state NOT IN (${Object.keys(bundle.states).map(str).join(', ')}) THEN 'UNKNOWN_STATE'
      WHEN ${needsCounty} AND r.p_in_county IS NULL THEN 'MISSING_COUNTY'
      WHEN p.p_program IS NULL THEN 'UNKNOWN_COUNTY'
      WHEN r.p_in_year IS NOT NULL AND r.p_in_year <> FLOOR(r.p_in_year) THEN 'INVALID_YEAR'
      WHEN r.p_in_year IS NOT NULL AND r.p_in_year <= y.y_last AND ${yearIn(
        'r.p_in_year',
        [...used].map((id) => ({ id, years: years(id) })),
      )} THEN 'YEAR_NOT_COVERED'
    END AS p_error
  FROM ptax_keys AS r
  LEFT JOIN ptax_places AS p ON p.p_state = r.p_in_state AND p.p_slug = ${`CASE WHEN r.p_in_state IN (${
    Object.values(bundle.states)
      .filter((s) => !s.counties.length)
      .map((s) => str(s.code))
      .join(', ') || "''"
  }) THEN '' ELSE r.p_in_slug END`}
  LEFT JOIN ptax_years AS y ON y.y_program = p.p_program`,
  );
  cte(
    'ptax_krated',
    `  SELECT r.*, ${numbered ? 'ROW_NUMBER() OVER () AS k_id, ' : ''}t.r_rate AS p_rate, t.r_typical AS p_typical, t.r_school AS p_school, t.r_county AS p_countypart, t.r_city AS p_city,
    t.r_special AS p_special, t.r_school_unit AS p_school_unit, t.r_city_unit AS p_city_unit,
    CASE r.p_error
      WHEN 'UNKNOWN_STATE' THEN ${template('unknownState', { choices }, { code: `COALESCE(r.k_state_read, '')` })}
      WHEN 'MISSING_COUNTY' THEN ${str(message('missingCounty', {}, 'en'))}
      WHEN 'UNKNOWN_COUNTY' THEN ${template('unknownCounty', {}, { county: 'r.p_in_county', state: 'r.p_in_state' })}
      WHEN 'INVALID_YEAR' THEN ${template('yearWhole', {}, { last: intText('r.y_last') })}
      WHEN 'YEAR_NOT_COVERED' THEN ${template('yearNotCovered', {}, { year: intText('r.p_in_year'), years: 'r.y_years' })}
    END AS p_message,
    CASE WHEN r.p_in_year > r.y_last THEN ${template('rulesCarried', {}, { year: intText('r.p_in_year'), last: intText('r.y_last') })}
      WHEN t.r_carried IS NOT NULL THEN ${template('rateCarriedBack', {}, { first: 't.r_carried', year: intText('r.p_year') })} END AS p_note,
    CASE WHEN r.p_error IS NULL THEN (CASE ${programYears.map(({ program, year }, k) => `WHEN r.p_program = ${str(program.id)} AND r.p_year = ${year} THEN ${k}`).join(' ')} END) END AS p_py
  FROM ptax_placed AS r
  LEFT JOIN ptax_rates AS t ON t.r_state = r.p_in_state AND t.r_slug = r.p_in_slug AND t.r_year = r.p_year`,
    shared ? 'always' : true,
  );
  return yearKey;
}

/**
 * A row's key cell against its key's (the join of the roll to ptax_krated), NULL equal to
 * NULL. DuckDB hashes IS NOT DISTINCT FROM; PostgreSQL does not, and joined every row to
 * every key in a nested loop (4,106 rows × 1,921 keys: 7.9 million comparisons, 30 s of a
 * 36 s batch in engine/sql/sql.test.ts; a roll of a million rows would not end). There the
 * same test is two equalities it can hash: the cells with NULL read as `zero`, and whether
 * each is NULL.
 */
function sameKey(dialect: Dialect, a: string, b: string, zero: string): string {
  if (dialect !== 'postgres') return `${a} IS NOT DISTINCT FROM ${b}`;
  return `COALESCE(${a}, ${zero}) = COALESCE(${b}, ${zero}) AND (${a} IS NULL) = (${b} IS NULL)`;
}

/** The rows: the typed facts, their key's place, the first unreadable cell's error, the value's. */
function rowsSql(
  x: Query,
  cells: ReturnType<typeof cellsSql>,
  yearKey: string,
  sfx: string,
  filter: string | undefined,
  gather: boolean,
  keyed: boolean,
): void {
  const { o, dialect, table, cte } = x;
  const { BATCH_INPUT_COLUMNS, BATCH_CELLS } = x.decl;
  const { isText, cellNo, cellReads, typed } = cells;
  // A row's first unreadable cell, in the input's column order (the streaming path reads the
  // cells in that order and stops at the first): 8 × its batch column's number + its error's.
  const order = (o.columns ?? BATCH_INPUT_COLUMNS).filter((c) => isText(c) && (c === 'year' || cellReads.some((r) => r.c === c && r.error)));
  const cellError = `CASE ${order.map((c) => `WHEN ${c === 'year' ? 'i.k_year_error' : `i.ptax_e_${cellNo(c)}`} IS NOT NULL THEN ${8 * cellNo(c)} + ${c === 'year' ? 'i.k_year_error' : `i.ptax_e_${cellNo(c)}`}`).join(' ')} END`;
  // Its code and message (the message's value: the trimmed cell; a boolean's and the star's: as written).
  const cellWhens = (what: 'code' | 'message') =>
    order.flatMap((c) => {
      const spec = BATCH_CELLS.get(c)!;
      const errs = spec.kind === 'amount' ? (spec.noNegative ? [1, 2, 3] : [1, 2]) : [{ year: 4, bool: 5, star: 6 }[spec.kind as 'year']];
      const raw = c === 'year' ? 'CAST(i.' + q('year') + ' AS TEXT)' : `CAST(i.${q(c)} AS TEXT)`;
      const trimmed = c === 'year' ? jsTrim(dialect, raw) : `i.ptax_t_${cellNo(c)}`;
      return errs.map((e) => {
        const { code, key } = CELL_ERRORS[e as keyof typeof CELL_ERRORS];
        if (what === 'code') return `WHEN ${8 * cellNo(c) + e} THEN ${str(code)}`;
        const text =
          e === 5
            ? template(key, { field: spec.field }, { raw: jsonText(raw) })
            : e === 6
              ? template(key, {}, { raw })
              : template(key, { field: spec.field }, { raw: trimmed });
        return `WHEN ${8 * cellNo(c) + e} THEN ${text}`;
      });
    });
  // The rows: typed facts, their place's columns, and the value's own error (prepare checks
  // the numbers after the state and the county's presence, before the county itself).
  const early = `k.p_error IN ('UNKNOWN_STATE', 'MISSING_COUNTY')`;
  const badValue = `f0 IN (CAST('NaN' AS FLOAT8), CAST('Infinity' AS FLOAT8), CAST('-Infinity' AS FLOAT8))`;
  // The roll joined to its keys first (to the branch's keys: a row of another branch stops
  // here), then its cells read.
  // The other programs' rows (`gather`, DuckDB only: a few in each of DuckDB's vectors of 2,048
  // rows, as a roll of many states holds them: gatherOthers) are gathered first (MATERIALIZED): every
  // projection after the join costs DuckDB about the same per vector however few rows it
  // holds, and these rows pass ~40 of them. Memory: these rows' input columns and their key's
  // number (k_id; the key's columns are joined again after: 40% less memory than gathering
  // them too), spilled to the temporary folder beyond the memory limit (README, bench:roll).
  const keyJoin = `${sameKey(dialect, `CAST(i.${q('state')} AS TEXT)`, 'k.k_state', "''")} AND ${sameKey(dialect, `CAST(i.${q('county')} AS TEXT)`, 'k.k_county', "''")}
    AND ${sameKey(dialect, yearKey, 'k.k_year', isText('year') ? "''" : '0')}`;
  if (gather)
    cte(
      `ptax_gathered${sfx}`,
      `  SELECT i.*, k.k_id\n  FROM ${table} AS i\n  JOIN ptax_krated AS k ON ${keyJoin}${filter ? `\n  WHERE ${filter}` : ''}`,
      'always',
    );
  cte(
    `ptax_joined${sfx}`,
    `  SELECT i.*, k.p_in_year, k.p_county, k.p_program, k.p_year, k.f_nycclass, k.f_topcoded, k.f_estimated, k.p_rate, k.p_typical, k.p_school, k.p_countypart, k.p_city,
    k.p_special, k.p_school_unit, k.p_city_unit, ${keyed ? 'k.p_knotes' : 'k.p_note'},
    k.p_error AS k_error, k.p_message AS k_message, k.p_py AS k_py${order.includes('year') ? ', k.k_year_error' : ''}
  FROM ${gather ? `ptax_gathered${sfx}` : table} AS i
  JOIN ${keyed ? 'ptax_knotes' : 'ptax_krated'} AS k ON ${gather ? 'k.k_id = i.k_id' : `${keyJoin}${filter ? `\n  WHERE ${filter}` : ''}`}`,
    false,
  );
  const source = cells.emit(`ptax_joined${sfx}`, sfx);
  cte(
    `ptax_in${sfx}`,
    `  SELECT i.*, ${typed.join(',\n    ')}${
      order.length ? `, ${cellError} AS c_error,\n    CASE ${cellError} ${cellWhens('message').join(' ')} END AS c_message` : ''
    }
  FROM ${source} AS i`,
  );
  const cellCode = order.length ? `CASE c_error ${cellWhens('code').join(' ')} END` : 'NULL';
  const cellFirst = (x: string) => (order.length ? `WHEN c_error IS NOT NULL THEN ${x} ` : '');
  cte(
    `ptax_rated${sfx}`,
    `  SELECT *, CASE ${cellFirst(cellCode)}WHEN ${early.replace('k.p_error', 'k_error')} THEN k_error WHEN ${badValue} THEN 'INVALID_VALUE' ELSE k_error END AS p_error,
    CASE ${cellFirst('c_message')}WHEN ${early.replace('k.p_error', 'k_error')} THEN k_message WHEN ${badValue} THEN ${str(message('valueNotNumber', {}, 'en'))} ELSE k_message END AS p_message,
    CASE WHEN ${order.length ? 'c_error IS NULL AND ' : ''}k_error IS NULL AND NOT ${badValue} THEN k_py END AS py
  FROM ptax_in${sfx}`,
  );
}

/** The programs' steps, one CTE per level; a later year's step that is its first year's (but for its numbers) shares its column. */
function levelsSql(x: Query, parts: ProgramPart[], sfx: string): string {
  const { cte, programYears } = x;
  // One pass over the roll, the programs side by side: a row's program and year is the
  // number py (NULL for a row the place or its value refused); each step is a column
  // computed only for its program's rows (CASE WHEN py = k), one CTE per level of steps
  // (a level's steps read facts and earlier levels only), then the result columns, each
  // one CASE over the programs, rounded once. Nothing is read twice, nothing is held.
  // (parts: the branch's program years, by k; the others are holes, skipped.)
  // A step of a program's later year whose expression is its first year's (most are: the
  // parameters they read did not change) is that year's column, computed for both years'
  // rows (py IN (…)), not a column of its own: its readers are rewritten to read it. A step
  // is shared only when every step it reads is (a step read across years would be NULL).
  const firstOf = programYears.map(({ program }) => programYears.findIndex((x) => x.program.id === program.id));
  const shared = parts.map(() => new Map<string, string>());
  const rewrite = (k: number, sql: string) => (shared[k]!.size ? sql.replace(new RegExp(`\\bpy${k}_[se]\\d+\\b`, 'g'), (c) => shared[k]!.get(c) ?? c) : sql);
  const owners = new Map<string, number[]>();
  // Years whose step differs only in its numbers (a parameter changed) share it too: each
  // number that differs is the row's year's (CASE py WHEN … THEN …).
  const LITERAL = /CAST\('[^']*' AS FLOAT8\)/g;
  const skeleton = (sql: string) => sql.replace(LITERAL, '?');
  const literals = (sql: string) => sql.match(LITERAL) ?? [];
  const variants = new Map<string, Map<number, string[]>>();
  const merged = (col: string, sql: string): string => {
    const byK = variants.get(col)!;
    if (byK.size < 2) return sql;
    let n = 0;
    return sql.replace(LITERAL, (lit) => {
      const i = n++;
      const values = [...byK].map(([k, ls]) => [k, ls[i]!] as const);
      return values.every(([, v]) => v === lit) ? lit : `(CASE py ${values.map(([k, v]) => `WHEN ${k} THEN ${v}`).join(' ')} END)`;
    });
  };
  const firstCols = parts.map((p) => new Map(p.levels.flat().map((e) => [e.col, e.sql])));
  const levelCols: Array<Array<{ col: string; sql: string }>> = [];
  parts.forEach((p, k) =>
    p.levels.forEach((entries, l) => {
      for (const e of entries) {
        const sql = rewrite(k, e.sql);
        const f = firstOf[k]!;
        if (f !== k && !new RegExp(`\\bpy${k}_`).test(sql)) {
          const target = e.col.replace(`py${k}_`, `py${f}_`);
          const first = firstCols[f]!.get(target);
          // (The first year's columns are all owned: its steps were placed before.)
          if (first !== undefined && skeleton(first) === skeleton(sql)) {
            shared[k]!.set(e.col, target);
            owners.get(target)!.push(k);
            variants.get(target)!.set(k, literals(sql));
            continue;
          }
        }
        owners.set(e.col, [k]);
        variants.set(e.col, new Map([[k, literals(sql)]]));
        (levelCols[l] ??= []).push({ col: e.col, sql });
      }
    }),
  );
  // The parts' other expressions read the shared columns.
  parts.forEach((p, k) => {
    if (!shared[k]!.size) return;
    p.err = p.err && rewrite(k, p.err);
    p.failing = p.failing && rewrite(k, p.failing);
    p.notes.mask = rewrite(k, p.notes.mask);
    for (const [i, leaf] of p.leaves) p.leaves.set(i, { ...leaf, sql: rewrite(k, leaf.sql) });
  });
  let from = `ptax_rated${sfx}`;
  // (forEach skips the levels with no column: levelCols is sparse, each level in it holds one.)
  levelCols.forEach((entries, l) => {
    const mine = (col: string) => {
      const ks = owners.get(col)!;
      return pyIn(ks);
    };
    cte(
      `ptax_l${l}${sfx}`,
      `  SELECT *, ${entries.map((e) => `CASE WHEN ${mine(e.col)} THEN ${merged(e.col, e.sql)} END AS ${e.col}`).join(',\n    ')}\n  FROM ${from}`,
    );
    from = `ptax_l${l}${sfx}`;
  });
  return from;
}

/** The result columns (raw, scaled, nudged, rounded), the notes' sets, the row's error: the CTEs up to ptax_out. */
function outSql(x: Query, parts: ProgramPart[], from: string, sfx: string, noteSets: boolean | 'keyed'): void {
  const { cte } = x;
  const nParts = parts.filter(Boolean).length;
  // One expression per program and year (those with the same expression, most often the
  // years of a program, share a branch: it is evaluated once for all their rows).
  // (Some program has each: a result column's unit, the notes' mask.)
  const byPy = (pick: (p: ProgramPart) => string | undefined): string => {
    const groups = new Map<string, number[]>();
    parts.forEach((p, k) => {
      const x = pick(p);
      if (x !== undefined) groups.set(x, [...(groups.get(x) ?? []), k]);
    });
    const whens = [...groups].map(([x, ks]) => `WHEN ${pyIn(ks)} THEN ${x}`);
    return `(CASE ${whens.join(' ')} END)`;
  };
  // Result leaves: one raw column per result column and unit (a column has one unit in every
  // program but may not), then |x| × f (a), nudged (t), rounded and printed from those columns.
  const raw: string[] = [];
  const scaled: string[] = [];
  const nudged: string[] = [];
  const columns = SQL_RESULT_COLUMNS.map((c, i) => {
    const ty = leafType(c.path);
    const units = [...new Set(parts.flatMap((p) => (p.leaves.has(i) ? [p.leaves.get(i)!.unit] : [])))];
    if (!units.length) return `CAST(NULL AS ${ty === 'text' ? 'TEXT' : 'FLOAT8'}) AS ${q(c.name)}`;
    const printed = units.map((unit, u) => {
      const l = `l${i}_${u}`;
      const ks = parts.flatMap((p, k) => (p.leaves.get(i)?.unit === unit ? [k] : []));
      raw.push(`${byPy((p) => (p.leaves.get(i)?.unit === unit ? p.leaves.get(i)!.sql : undefined))} AS ${l}`);
      // A program without this leaf gives NULL (not the 0 that rounding NULL would give).
      const mine = ks.length === nParts ? '' : pyIn(ks);
      if (unit === 'text') return { mine, sql: `CAST(${l} AS TEXT)` };
      if (unit === 'count') return { mine, sql: finite(l) };
      const f = 10 ** ({ usd: 2, percent: 6, fraction: 8 } as const)[unit];
      scaled.push(`ABS(${nz(l)}) * ${num(f)} AS a${i}_${u}`);
      nudged.push(`a${i}_${u} + LEAST(a${i}_${u} * ${num(2 ** -40)}, ${num(2 ** -12)}) AS t${i}_${u}`);
      const rounded = finite(roundSql(l, `t${i}_${u}`, f));
      const nullable = parts.some((p) => p.leaves.get(i)?.unit === unit && p.leaves.get(i)!.nullable);
      return { mine, sql: nullable ? `(CASE WHEN ${l} IS NULL THEN NULL ELSE ${rounded} END)` : rounded };
    });
    // A unit in every program is the column's only one; several units: each in some programs.
    const sql = printed[0]!.mine ? `(CASE ${printed.map((x) => `WHEN ${x.mine} THEN ${x.sql}`).join(' ')} END)` : printed[0]!.sql;
    return `${sql} AS ${q(c.name)}`;
  });
  const errNo = `(CASE py ${parts.flatMap((p, k) => (p.err ? [`WHEN ${k} THEN ${ERR_BASE * k} + ${p.err}`] : [])).join(' ')} END)`;
  const anyErr = parts.some((p) => p.err);
  cte(
    `ptax_raw${sfx}`,
    `  SELECT *, ${anyErr ? errNo : 'CAST(NULL AS INTEGER)'} AS p_err, ${noteSets === 'keyed' ? '' : `${byPy((p) => p.notes.mask)} AS p_nmask,\n    `}${raw.join(',\n    ')}\n  FROM ${from}`,
  );
  cte(`ptax_a${sfx}`, `  SELECT *, ${scaled.length ? scaled.join(', ') : 'NULL AS a_none'}\n  FROM ptax_raw${sfx}`);
  cte(`ptax_t${sfx}`, `  SELECT *, ${nudged.length ? nudged.join(', ') : 'NULL AS t_none'}\n  FROM ptax_a${sfx}`);
  const errWhens = (what: 'code' | 'message') =>
    parts.flatMap((p, k) => [
      ...p.errors.map((e, i) => `WHEN ${ERR_BASE * k + i + 1} THEN ${str(what === 'code' ? e.code : e.message)}`),
      ...(p.failing ? [`WHEN ${ERR_BASE * k} THEN ${what === 'code' ? "'NO_VALUE'" : p.failing}`] : []),
    ]);
  const byErr = (what: 'code' | 'message') =>
    anyErr ? `(CASE WHEN p_err IS NOT NULL THEN (CASE p_err ${errWhens(what).join(' ')} END) END)` : 'CAST(NULL AS TEXT)';
  cte(
    `ptax_out${sfx}`,
    `  SELECT *, CASE WHEN p_error IS NULL AND ${anyErr ? 'p_err IS NULL' : 'TRUE'} THEN ${num(0)} END AS o_zero, COALESCE(p_error, ${byErr('code')}) AS o_code, COALESCE(p_message, ${byErr('message')}) AS o_msg,
    ${noteSets === 'keyed' ? 'p_knotes' : notesOf(noteSets ? 'ns.n_notes' : undefined, 'p_note')} AS p_notes,
    ${columns.join(',\n    ')}
  FROM ptax_t${sfx}${noteSets === true ? `\n  JOIN ptax_note_sets AS ns ON ns.n_py = COALESCE(ptax_t${sfx}.py, -1) AND ns.n_mask = COALESCE(ptax_t${sfx}.p_nmask, 0)` : ''}`,
  );
}

/**
 * The notes: each program and year's notes that hold, as a number; its text, the notes
 * joined, from a table of every set of a program's notes (made here from their texts:
 * building the text per row cost more than the rest of a row's notes). Whether there is one.
 */
function noteSetsSql(x: Query, parts: ProgramPart[], shared: boolean): boolean {
  const { dialect, cte } = x;
  const noteTexts = parts.flatMap((p, k) => p.notes.texts.map((t, i) => `(${k}, ${i}, ${str(t)})`));
  if (!noteTexts.length) return false;
  const counts = ['(-1, 1)', ...parts.map((p, k) => `(${k}, ${2 ** p.notes.texts.length})`)];
  const series = dialect === 'postgres' ? `generate_series(0, ${2 ** MAX_NOTES - 1})` : `range(0, ${2 ** MAX_NOTES})`;
  if (dialect === 'duckdb') {
    // Each set's text from its program's list of texts, filtered by the mask's bits (six
    // times cheaper than the join and STRING_AGG below: 0.1 s instead of 0.6 for 36,000 sets).
    const lists = [
      '(-1, 1, CAST([] AS TEXT[]))',
      ...parts.map((p, k) => `(${k}, ${2 ** p.notes.texts.length}, CAST([${p.notes.texts.map(str).join(', ')}] AS TEXT[]))`),
    ];
    cte(
      'ptax_note_sets',
      `  SELECT c.n_py, CAST(g.n_mask AS INTEGER) AS n_mask, NULLIF(ARRAY_TO_STRING(LIST_FILTER(c.n_texts, lambda t, i: (g.n_mask >> (i - 1)) & 1 = 1), ${str(NOTE_SEPARATOR)}), '') AS n_notes
  FROM (VALUES\n  ${lists.join(',\n  ')}) AS c(n_py, n_count, n_texts) CROSS JOIN ${series} AS g(n_mask) WHERE g.n_mask < c.n_count`,
      shared ? 'always' : true,
    );
    return true;
  }
  cte('ptax_note_texts(n_py, n_bit, n_text)', `  VALUES\n  ${noteTexts.join(',\n  ')}`);
  cte(
    'ptax_note_sets',
    `  SELECT m.n_py, m.n_mask, STRING_AGG(t.n_text, ${str(NOTE_SEPARATOR)} ORDER BY t.n_bit) AS n_notes
  FROM (SELECT c.n_py, CAST(g.n_mask AS INTEGER) AS n_mask FROM (VALUES ${counts.join(', ')}) AS c(n_py, n_count) CROSS JOIN ${series} AS g(n_mask) WHERE g.n_mask < c.n_count) AS m
  LEFT JOIN ptax_note_texts AS t ON t.n_py = m.n_py AND (m.n_mask >> t.n_bit) & 1 = 1
  GROUP BY m.n_py, m.n_mask`,
    shared ? 'always' : true,
  );
  return true;
}

/** A row's notes: its program's notes that hold (a set's text), then its place's note (carried rates). */
const notesOf = (set: string | undefined, note: string): string =>
  `(CASE WHEN ${note} IS NULL THEN ${set ?? 'CAST(NULL AS TEXT)'} ELSE CONCAT_WS(${str(NOTE_SEPARATOR)}, ${set ? `${set}, ` : ''}${note}) END)`;

/**
 * The notes of the program years `ks`, whose notes read only the place's facts and the year
 * (keyed), worked out once per (state, county, year) key: ptax_krated with the row's notes'
 * text (p_knotes). A county-level row then carries its notes from the join to its key, as it
 * carries its rate (a join per row to ptax_note_sets and the text joined per row cost more).
 */
function keyNotesSql(x: Query, parts: ProgramPart[], ks: number[]): void {
  const groups = new Map<string, number[]>();
  for (const k of ks) groups.set(parts[k]!.notes.mask, [...(groups.get(parts[k]!.notes.mask) ?? []), k]);
  const mask = `(CASE ${[...groups].map(([m, g]) => `WHEN ${pyIn(g).replace(/^py\b/, 'k.p_py')} THEN ${m}`).join(' ')} END)`;
  x.cte(
    'ptax_knotes',
    `  SELECT k.*, ${notesOf('ns.n_notes', 'k.p_note')} AS p_knotes
  FROM ptax_krated AS k
  LEFT JOIN ptax_note_sets AS ns ON ns.n_py = k.p_py AND ns.n_mask = ${mask}`,
    'always',
  );
}

/**
 * A row of these program years. DuckDB makes a list of more than a few constants a join
 * (a MARK join per column: ten of them cost 0.1 s each per million rows): a run of five or
 * more numbers is a BETWEEN.
 */
function pyIn(ks: number[]): string {
  if (ks.length === 1) return `py = ${ks[0]}`;
  if (ks.length >= 5 && ks.every((k, i) => i === 0 || k === ks[i - 1]! + 1)) return `py BETWEEN ${ks[0]} AND ${ks.at(-1)}`;
  return `py IN (${ks.join(', ')})`;
}

/** Whether a year is not among its program's years (SQL). */
function yearIn(y: string, list: Array<{ id: string; years: number[] }>): string {
  return `(CASE r.p_program ${list.map((p) => `WHEN ${str(p.id)} THEN ${y} NOT IN (${p.years.join(', ')})`).join(' ')} ELSE FALSE END)`.replace(
    'CASE r.p_program',
    'CASE p.p_program',
  );
}

function leafType(path: readonly string[]): 'text' | 'num' {
  const f = RESULT_FIELDS.find((x) => x.path.join('.') === path.join('.')) as { unit?: string } | undefined;
  return f?.unit === 'text' ? 'text' : 'num';
}

function conditionNames(c: Condition, out = new Set<string>()): Set<string> {
  if ('all' in c) c.all.forEach((x) => conditionNames(x, out));
  else if ('any' in c) c.any.forEach((x) => conditionNames(x, out));
  else if ('not' in c) conditionNames(c.not, out);
  else {
    out.add(c.fact);
    if (typeof c.value === 'object' && c.value !== null && !Array.isArray(c.value)) out.add(c.value.fact);
  }
  return out;
}

/** What one program and year adds to the query: its step columns by level, its error, notes and result leaves (raw). */
interface ProgramPart {
  /** Per level, the step columns (pyk_s3) and their expressions (computed for the rows of py = k only). */
  levels: Array<Array<{ col: string; sql: string }>>;
  /** The row's error number (validation i + 1, 0 for a missing value), NULL when none. */
  err?: string;
  /** The validations' codes and messages, in order. */
  errors: Array<{ code: string; message: string }>;
  /** The message of a step or leaf without a value (NO_VALUE). */
  failing?: string;
  /**
   * The notes that hold as a number (bit i: note i), and the notes' texts; `keyed`: the notes
   * read only the place's facts and the year (the county-level estimate's), so they are the
   * same for every row of a (state, county, year) key.
   */
  notes: { mask: string; texts: string[]; keyed: boolean };
  /** Result leaves by index in SQL_RESULT_COLUMNS. */
  leaves: Map<number, { sql: string; unit: ResultLeaf['unit']; nullable?: boolean }>;
}
/** The facts that are the same for every row of a (state, county, year) key. */
const KEY_FACTS: ReadonlySet<string> = new Set([...COUNTY_FACTS, 'year']);
/** A program's notes at most (its note sets: 2^notes rows of ptax_note_sets). */
const MAX_NOTES = 14;
/** The row's error number: 64 × the program and year's number + the program's (ProgramPart.err). */
const ERR_BASE = 64;

/** An expression's SQL: its type, the level of steps it reads, the error it may give, whether it is never NULL, its value when constant. */
interface Code {
  sql: string;
  k?: number;
  ty: Ty;
  deps: number;
  err?: string;
  /** Never NULL. */
  nn?: boolean;
}
type Column = { sql: string; ty: Ty; nn: boolean };

const errOf = (xs: Array<string | undefined>): string | undefined => {
  const e = xs.filter((x): x is string => !!x);
  return e.length === 0 ? undefined : e.length === 1 ? e[0] : `COALESCE(${e.join(', ')})`;
};
const lv = (xs: Code[]) => Math.max(0, ...xs.map((x) => x.deps));

/** The SQL of an input or county fact: its column, its type, whether it can be NULL. */
function factColumns(bundle: Bundle): Map<string, Column> {
  const names = new Map<string, Column>();
  sqlDeclarationsOf(bundle).SQL_INPUTS.forEach((x, i) =>
    names.set(x.fact, {
      sql: x.fact === 'year' ? 'COALESCE(p_in_year, p_year)' : `f${i}`,
      ty: x.ty,
      nn: x.fact === 'year' || x.default !== undefined || x.ty === 'bool',
    }),
  );
  names.set('countyRate', { sql: 'p_rate', ty: 'num', nn: false });
  names.set('nycClass', { sql: 'COALESCE(f_nycclass, FALSE)', ty: 'bool', nn: true });
  names.set('topCoded', { sql: 'COALESCE(f_topcoded, FALSE)', ty: 'bool', nn: true });
  names.set('estimated', { sql: 'COALESCE(f_estimated, FALSE)', ty: 'bool', nn: true });
  names.set('typicalRate', { sql: 'p_typical', ty: 'num', nn: false });
  names.set('schoolPart', { sql: 'p_school', ty: 'num', nn: false });
  names.set('countyPart', { sql: 'p_countypart', ty: 'num', nn: false });
  names.set('cityPart', { sql: 'p_city', ty: 'num', nn: false });
  names.set('specialPart', { sql: 'p_special', ty: 'num', nn: false });
  names.set('schoolUnit', { sql: 'p_school_unit', ty: 'text', nn: false });
  names.set('cityUnit', { sql: 'p_city_unit', ty: 'text', nn: false });
  return names;
}

/**
 * Prints the lowered form (engine/core/ir.ts) as SQL expressions. Each node as the SQL of
 * the JavaScript operation the interpreter does: an operand that can be NULL is COALESCEd
 * to 0 (null-as-zero), a division guarded in PostgreSQL (±Infinity or NaN, as JS), a table
 * look-up or band that can miss gives its NO_VALUE message as the expression's error.
 */
class SqlPrinter {
  /** The level of steps each step's column is computed at (facts: 0). */
  readonly level = new Map<string, number>();
  constructor(
    private readonly ir: ProgramIR,
    private readonly dialect: Dialect,
    readonly names: Map<string, Column>,
  ) {}

  private numeric(c: Code): string {
    if (c.k !== undefined || (c.nn && c.ty === 'num')) return c.sql;
    if (c.ty === 'num') return nz(c.sql);
    throw new PtaxError('RULES_INVALID', `${this.ir.program}: a ${c.ty} in arithmetic is not supported in SQL`);
  }

  private div(a: string, b: string): string {
    return this.dialect === 'postgres'
      ? `(CASE WHEN ${b} = 0 THEN (CASE WHEN ${a} > 0 THEN CAST('Infinity' AS FLOAT8) WHEN ${a} < 0 THEN CAST('-Infinity' AS FLOAT8) ELSE CAST('NaN' AS FLOAT8) END) ELSE ${a} / ${b} END)`
      : `(${a} / ${b})`;
  }

  /**
   * A power as JavaScript's `**` gives it. DuckDB's POWER is C's pow, as V8's. PostgreSQL's
   * raises an error that stops the whole query where C gives ±Infinity, NaN or 0: zero to a
   * negative power (JS: Infinity), a negative base to a fractional power (NaN), and a
   * finite result out of the double's range (±Infinity above 1.797…e308; 0 below half the
   * smallest subnormal, 2.47e-324). Those are answered here from e × ln|b|, the logarithm of
   * the result's size (within about 1e-13 of the bounds the two may differ); the rest, and
   * NaN or infinite operands, are POWER's. A constant base of 0 is decided here: PostgreSQL
   * computes constant parts of a CASE before running it, and LN(0) is an error too.
   */
  private pow(b: string, e: string, baseConst: number | undefined): string {
    if (this.dialect !== 'postgres') return `POWER(${b}, ${e})`;
    const inf = "CAST('Infinity' AS FLOAT8)";
    if (baseConst === 0) return `(CASE WHEN ${e} < 0 THEN ${inf} ELSE POWER(${b}, ${e}) END)`;
    const size = `(${e} * LN(ABS(${b})))`;
    const odd = `(${e} - 2 * FLOOR(${e} / 2) = 1)`;
    const inRange = `(CASE WHEN ${size} > 709.782712893384 THEN (CASE WHEN ${b} < 0 AND ${odd} THEN -${inf} ELSE ${inf} END) WHEN ${size} < -744.4400719213812 THEN CAST(0 AS FLOAT8) ELSE POWER(${b}, ${e}) END)`;
    return (
      `(CASE WHEN ${b} = 0 THEN (CASE WHEN ${e} < 0 THEN ${inf} ELSE POWER(${b}, ${e}) END)` +
      ` WHEN NOT (ABS(${b}) < ${inf} AND ABS(${e}) < ${inf}) THEN POWER(${b}, ${e})` +
      ` WHEN ${b} < 0 AND ${e} <> FLOOR(${e}) THEN CAST('NaN' AS FLOAT8) ELSE ${inRange} END)`
    );
  }

  read(name: string): Code {
    const n = this.names.get(name);
    if (!n) throw new PtaxError('RULES_INVALID', `${this.ir.program}: unknown fact ${name}`);
    return { sql: n.sql, ty: n.ty, deps: this.level.get(name) ?? 0, nn: n.nn };
  }

  expr(n: CaseValue): Code {
    switch (n.op) {
      case 'const':
        // (Never NULL: a condition on it needs no COALESCE.)
        return { sql: num(n.value), k: n.value, ty: 'num', deps: 0, nn: true };
      case 'text':
        return { sql: str(n.value), ty: 'text', deps: 0, nn: true };
      case 'read':
        return this.read(n.name);
      case 'neg': {
        const a = this.expr(n.arg);
        return { sql: `(-${this.numeric(a)})`, ty: 'num', deps: a.deps, err: a.err, nn: true };
      }
      case '+':
      case '-':
      case '*':
      case '/': {
        const l = this.expr(n.left),
          r = this.expr(n.right);
        const sql = n.op === '/' ? this.div(this.numeric(l), this.numeric(r)) : `(${this.numeric(l)} ${n.op} ${this.numeric(r)})`;
        return { sql, ty: 'num', deps: lv([l, r]), err: errOf([l.err, r.err]), nn: true };
      }
      case 'entry':
        return this.entry(n);
      case 'band':
        return this.band(n);
      default:
        return this.call(n);
    }
  }

  private call(n: Extract<Num, { op: 'min' | 'max' | 'floor' | 'pow' }>): Code {
    const parts = (n.op === 'pow' ? [n.base, n.exp] : n.op === 'floor' ? [n.arg] : n.args).map((x) => this.expr(x));
    const args = parts.map((x) => this.numeric(x));
    const sql =
      n.op === 'floor'
        ? `FLOOR(${args[0]})`
        : n.op === 'pow'
          ? this.pow(args[0]!, args[1]!, parts[0]!.k)
          : args.slice(1).reduce((acc, a) => `${n.op === 'min' ? 'LEAST' : 'GREATEST'}(${acc}, ${a})`, args[0]!);
    return { sql, ty: 'num', deps: lv(parts), err: errOf(parts.map((x) => x.err)), nn: true };
  }

  private entry(n: Extract<Num, { op: 'entry' }>): Code {
    const key = this.expr(n.key);
    const entries = Object.entries(n.table);
    if (key.ty !== 'text') throw new PtaxError('RULES_INVALID', `${this.ir.program}: a table indexed by a ${key.ty} is not supported in SQL`);
    const sql = `(CASE ${key.sql} ${entries.map(([k, v]) => `WHEN ${str(k)} THEN ${num(v)}`).join(' ')} END)`;
    const miss = `(CASE WHEN ${key.sql} IS NULL OR ${key.sql} NOT IN (${entries.map(([k]) => str(k)).join(', ')}) THEN ${str(`${n.id} has no value for `)} || COALESCE(${key.sql}, 'null') END)`;
    return { sql, ty: 'num', deps: key.deps, err: errOf([key.err, miss]) };
  }

  private band(n: Extract<Num, { op: 'band' }>): Code {
    const x = this.expr(n.arg);
    const xs = this.numeric(x);
    // Each band as walk.ts tests it: `below` exclusive (a band with neither bound is below
    // Infinity, which NaN and Infinity are not: SQL orders NaN above every number, as JS's
    // comparisons leave it out), `at_most` inclusive; no band: NO_VALUE, the value written as
    // JavaScript writes it.
    const whens = n.bands.map((band) => {
      const below = band.below ?? (band.at_most === undefined ? Infinity : undefined);
      const tests = [below === undefined ? '' : `${xs} < ${num(below)}`, band.at_most === undefined ? '' : `${xs} <= ${num(band.at_most)}`].filter(Boolean);
      return { test: tests.join(' OR '), value: band.value };
    });
    const sql = `(CASE ${whens.map((w) => `WHEN ${w.test} THEN ${num(w.value)}`).join(' ')} END)`;
    const text = `(CASE WHEN ${xs} = ${num(NaN)} THEN 'NaN' WHEN ${xs} = ${num(Infinity)} THEN 'Infinity' WHEN ${xs} = ${num(-Infinity)} THEN '-Infinity' WHEN ${xs} = FLOOR(${xs}) AND ABS(${xs}) < ${num(1e15)} THEN ${intText(xs)} ELSE CAST(${xs} AS TEXT) END)`;
    const miss = `(CASE WHEN NOT (${whens.map((w) => w.test).join(' OR ')}) THEN ${str(`${n.id} has no band for `)} || ${text} END)`;
    return { sql, ty: 'num', deps: x.deps, err: errOf([x.err, miss]), nn: !miss };
  }

  cond(c: Cond): { sql: string; deps: number } {
    if (c.op === 'all' || c.op === 'any') {
      const xs = c.args.map((x) => this.cond(x));
      const [join, empty] = c.op === 'all' ? [' AND ', 'TRUE'] : [' OR ', 'FALSE'];
      return { sql: xs.length ? `(${xs.map((x) => x.sql).join(join)})` : empty, deps: Math.max(0, ...xs.map((x) => x.deps)) };
    }
    if (c.op === 'not') {
      const x = this.cond(c.arg);
      return { sql: `(NOT ${x.sql})`, deps: x.deps };
    }
    const a = c.fact.op === 'const' ? this.expr(c.fact) : this.read(c.fact.name);
    if (c.value.op !== 'literal') return this.factVsFact(c.operator, a, c.value.op === 'const' ? this.expr(c.value) : this.read(c.value.name), c);
    return { sql: this.test(c.operator, a, c.value.value), deps: a.deps };
  }

  /** A fact against a literal: SQL's NULL and types as json-rules-engine compares them. */
  private test(operator: Operator, a: Code, v: Literal['value']): string {
    const eq = (x: unknown): string => {
      const l = sqlLiteral(x);
      if (!l) return `(${a.sql} IS NULL)`;
      if (l.ty !== a.ty) return 'FALSE';
      if (a.nn && l.ty === 'bool') return l.sql === 'TRUE' ? a.sql : `(NOT ${a.sql})`;
      return a.nn ? `(${a.sql} = ${l.sql})` : `COALESCE(${a.sql} = ${l.sql}, FALSE)`;
    };
    switch (operator) {
      case 'equal':
        return eq(v);
      case 'notEqual':
        return `(NOT ${eq(v)})`;
      case 'in':
      case 'notIn': {
        if (!Array.isArray(v)) throw new PtaxError('RULES_INVALID', `${this.ir.program}: ${operator} needs a list`);
        const any = v.length ? `(${v.map(eq).join(' OR ')})` : 'FALSE';
        return operator === 'in' ? any : `(NOT ${any})`;
      }
      case 'lessThan':
      case 'lessThanInclusive':
      case 'greaterThan':
      case 'greaterThanInclusive': {
        if (a.ty === 'bool') return 'FALSE';
        if (a.ty !== 'num' || typeof v !== 'number')
          throw new PtaxError('RULES_INVALID', `${this.ir.program}: ${operator} on a ${a.ty} is not supported in SQL`);
        const op = ORDER[operator];
        return a.nn ? `(${a.sql} ${op} ${num(v)})` : `COALESCE(${a.sql} ${op} ${num(v)}, FALSE)`;
      }
      default:
        throw new PtaxError('RULES_INVALID', `${this.ir.program}: the ${operator} operator is not supported in SQL`);
    }
  }

  /** A fact against a fact: NULLs compared as JS compares null (IS [NOT] DISTINCT FROM; null read as 0 on the right of <). */
  private factVsFact(operator: Operator, a: Code, b: Code, c: Extract<Cond, { op: 'test' }>): { sql: string; deps: number } {
    const deps = Math.max(a.deps, b.deps);
    const nameOf = (x: { op: string; name?: string; value?: unknown }) => x.name ?? String(x.value);
    if (a.ty !== b.ty) throw new PtaxError('RULES_INVALID', `${this.ir.program}: ${nameOf(c.fact)} and ${nameOf(c.value)} compared across types`);
    const both = a.nn && b.nn;
    switch (operator) {
      case 'equal':
        return { sql: both ? `(${a.sql} = ${b.sql})` : `(${a.sql} IS NOT DISTINCT FROM ${b.sql})`, deps };
      case 'notEqual':
        return { sql: both ? `(${a.sql} <> ${b.sql})` : `(${a.sql} IS DISTINCT FROM ${b.sql})`, deps };
      case 'lessThan':
      case 'lessThanInclusive':
      case 'greaterThan':
      case 'greaterThanInclusive': {
        const x = `${a.sql} ${ORDER[operator]} ${b.nn || b.ty !== 'num' ? b.sql : nz(b.sql)}`;
        return { sql: a.nn ? `(${x})` : `COALESCE(${x}, FALSE)`, deps };
      }
      default:
        throw new PtaxError('RULES_INVALID', `${this.ir.program}: ${operator} between two facts is not supported in SQL`);
    }
  }
}

const ORDER: Record<string, string> = { lessThan: '<', lessThanInclusive: '<=', greaterThan: '>', greaterThanInclusive: '>=' };
const sqlLiteral = (v: unknown): { sql: string; ty: Ty } | null =>
  v === null
    ? null
    : typeof v === 'number'
      ? { sql: num(v), ty: 'num' }
      : typeof v === 'boolean'
        ? { sql: v ? 'TRUE' : 'FALSE', ty: 'bool' }
        : { sql: str(String(v)), ty: 'text' };

/** How often each name is read (steps, validations, notes, result). */
function readCounts(ir: ProgramIR): Map<string, number> {
  return readsOf([ir.steps.map((s) => s.body), ir.validations, ir.notes, ir.result]);
}

/** How often each name (fact, step) is read in a part of the lowered form. */
function readsOf(part: unknown): Map<string, number> {
  const reads = new Map<string, number>();
  const visit = (x: unknown): void => {
    if (Array.isArray(x)) return x.forEach(visit);
    if (x === null || typeof x !== 'object') return;
    const o = x as { op?: string; name?: string };
    if (o.op === 'read') reads.set(o.name!, (reads.get(o.name!) ?? 0) + 1);
    // (Tables, bands, labels and citations are visited too: they hold no read.)
    for (const y of Object.values(o)) visit(y);
  };
  visit(part);
  return reads;
}

/** A case step: CASE over its cases (none holding: NULL), and its error: the error of the case that holds. */
function casesSql(p: SqlPrinter, ir: ProgramIR, s: StepIR & { body: { kind: 'cases' } }): Code {
  const cases = s.body.cases.map((k) => ({ when: k.when ? p.cond(k.when) : undefined, value: p.expr(k.value) }));
  const tys = new Set(cases.map((k) => k.value.ty));
  if (tys.size > 1) throw new PtaxError('RULES_INVALID', `${ir.program}.${s.id}: cases of different types are not supported in SQL`);
  const ty = [...tys][0]!;
  const tail = cases.findIndex((k) => !k.when);
  const used = tail === -1 ? cases : cases.slice(0, tail + 1);
  const sql = `(CASE ${used
    .filter((k) => k.when)
    .map((k) => `WHEN ${k.when!.sql} THEN ${k.value.sql}`)
    .join(' ')}${tail === -1 ? '' : ` ELSE ${used[tail]!.value.sql}`} END)`;
  const errs = used.map((k) => (k.value.err ? { when: k.when?.sql, err: k.value.err } : undefined));
  const err = errs.some(Boolean)
    ? `(CASE ${used
        .filter((k) => k.when)
        .map((k, j) => `WHEN ${k.when!.sql} THEN ${errs[j]?.err ?? 'CAST(NULL AS TEXT)'}`)
        .join(' ')}${tail === -1 ? '' : ` ELSE ${errs[tail]?.err ?? 'CAST(NULL AS TEXT)'}`} END)`
    : undefined;
  const deps = Math.max(0, ...cases.map((k) => Math.max(k.when?.deps ?? 0, k.value.deps)));
  const nn = tail !== -1 && used.every((k) => k.value.nn || k.value.k !== undefined);
  // (A step has one case at least, the schema two: the CASE has a WHEN or an ELSE.)
  return { sql, ty, deps, err, nn };
}

/**
 * The steps, grouped by level into CTEs (a level's steps read only facts and earlier
 * levels). A step read once, that cannot fail, is written into its reader's expression
 * instead of a column of its own.
 */
function stepsSql(p: SqlPrinter, ir: ProgramIR, prefix: string): { levels: ProgramPart['levels']; stepErrs: string[] } {
  const reads = readCounts(ir);
  const byLevel: Array<Array<{ col: string; sql: string; err?: string; errCol?: string }>> = [];
  const stepErrs: string[] = [];
  ir.steps.forEach((s, i) => {
    let c: Code;
    if (s.body.kind === 'formula') c = p.expr(s.body.expr);
    else if (s.body.kind === 'condition') {
      const x = p.cond(s.body.cond);
      c = { sql: x.sql, ty: 'bool', deps: x.deps, nn: true };
    } else c = casesSql(p, ir, s as StepIR & { body: { kind: 'cases' } });
    if (!c.err && c.k === undefined && reads.get(s.id) === 1) {
      p.names.set(s.id, { sql: `(${c.sql})`, ty: c.ty, nn: !!c.nn });
      p.level.set(s.id, c.deps);
      return;
    }
    const lvl = c.deps + 1;
    (byLevel[lvl] ??= []).push({ col: `${prefix}s${i}`, sql: c.sql, err: c.err, errCol: c.err ? `${prefix}e${i}` : undefined });
    if (c.err) stepErrs.push(`${prefix}e${i}`);
    p.names.set(s.id, { sql: `${prefix}s${i}`, ty: c.ty, nn: !!(c.nn || c.k !== undefined) });
    p.level.set(s.id, lvl);
  });
  // (byLevel is sparse, level 0 holding no step: map and forEach skip its holes.)
  const levels = byLevel.map((steps) => steps.flatMap((s) => [{ col: s.col, sql: s.sql }, ...(s.err ? [{ col: s.errCol!, sql: s.err }] : [])]));
  return { levels, stepErrs };
}

/**
 * One program and year (number k of the query), lowered (engine/core/ir.ts) and printed:
 * its steps as columns by level, each computed only for the rows of this program and year;
 * the result leaves, the notes and the first error, as the engine evaluates them
 * (validations, then steps in order, then result leaves).
 */
function programSql(bundle: Bundle, program: ProgramDef, year: number, k: number, dialect: Dialect): ProgramPart {
  const ir = lowered(bundle, program.id, year);
  const p = new SqlPrinter(ir, dialect, factColumns(bundle));
  const { levels, stepErrs } = stepsSql(p, ir, `py${k}_`);
  // Result leaves (raw), their errors, the row's error and notes.
  const leafCodes = leavesOf(ir.result).map((l) => ({
    path: l.path.join('.'),
    unit: l.leaf.unit,
    code: p.expr(l.leaf.expr),
    nullable: l.leaf.expr.op === 'read' && l.leaf.expr.nullable,
  }));
  const leafErrs = leafCodes.filter((l) => l.code.err).map((l) => l.code.err!);
  const byColumn = new Map<number, { sql: string; unit: ResultLeaf['unit']; nullable?: boolean }>();
  SQL_RESULT_COLUMNS.forEach((c, i) => {
    const l = leafCodes.find((x) => x.path === c.path.join('.'));
    // A text leaf in a number column (rules/results.yaml) would be added to a number when the
    // query runs (an error of the database for every row): refused here.
    if (l?.unit === 'text' && leafType(c.path) === 'num')
      throw new PtaxError('RULES_INVALID', `${program.id}: the result ${l.path} is text, its column ${c.name} holds numbers`);
    // A leaf that reads a fact or step that may be null is null, rounded or not (round.ts roundTo).
    if (l) byColumn.set(i, { sql: l.code.sql, unit: l.unit, ...(l.nullable ? { nullable: true } : {}) });
  });
  const validations = ir.validations.map((v) => ({ test: p.cond(v.when).sql, code: v.code, message: v.message.en }));
  const failing = [...stepErrs, ...leafErrs];
  // The row's error as a number: validation i + 1 (the first that holds), 0 when a step or
  // leaf has no value (NO_VALUE, its message from the failing expression), NULL when none.
  const err =
    validations.length || failing.length
      ? `(CASE ${validations.map((v, i) => `WHEN ${v.test} THEN ${i + 1}`).join(' ')}${failing.length ? ` WHEN ${errOf(failing)} IS NOT NULL THEN 0` : ''} END)`
      : undefined;
  if (ir.notes.length > MAX_NOTES)
    throw new PtaxError('RULES_INVALID', `${ir.program}: more than ${MAX_NOTES} notes; the SQL's table of note sets (2^notes rows) would be too large`);
  // The notes that hold, as a number (note i: bit i); their text comes from ptax_note_sets.
  const mask = ir.notes.length ? `(${ir.notes.map((n, i) => `(CASE WHEN ${p.cond(n.when).sql} THEN ${2 ** i} ELSE 0 END)`).join(' + ')})` : '0';
  return {
    levels,
    err,
    errors: validations.map((v) => ({ code: v.code, message: v.message })),
    failing: failing.length ? errOf(failing) : undefined,
    notes: { mask, texts: ir.notes.map((n) => n.text.en), keyed: [...readsOf(ir.notes).keys()].every((n) => KEY_FACTS.has(n)) },
    leaves: byColumn,
  };
}

/** A number, or NULL for NaN and the infinities (JSON prints them null: an empty cell). */
const finite = (sql: string): string =>
  `(CASE WHEN ${sql} IN (CAST('NaN' AS FLOAT8), CAST('Infinity' AS FLOAT8), CAST('-Infinity' AS FLOAT8)) THEN NULL ELSE ${sql} END)`;

/**
 * round.ts's roundTo in SQL, from t = s + min(s × 2^-40, 2^-12), s = |x| × f (columns of the
 * CTEs before): rounded half up (floor, then +1 when the fraction is at least one half:
 * exactly Math.round for t ≥ 0), divided by f, the sign put back (no negative zero). NULL
 * is 0, as JS reads it.
 */
function roundSql(x: string, t: string, f: number): string {
  const u = `(FLOOR(${t}) + CASE WHEN ${t} - FLOOR(${t}) >= ${num(0.5)} THEN 1 ELSE 0 END)`;
  return `(CASE WHEN ${x} < 0 AND ${u} <> 0 THEN -(${u} / ${num(f)}) ELSE ${u} / ${num(f)} END)`;
}

export type { StateDef };
