/**
 * The one reading of an input's text, derived from rules/inputs.yaml (the bundle's inputs,
 * engine/generated/inputs.ts): money and numbers, booleans, years and choices, for every
 * path that reads an input written as text:
 *
 * - `ptax calc`'s flags (cli/parse.ts `numericFlags`, `choiceFlags`),
 * - batch cells, CSV and NDJSON (engine/batch/reader.ts, which reads the commonest cells
 *   straight from the bytes and gives what `readCell` gives),
 * - share links (engine/core/share.ts `inputsFromQuery`, the web page and the site server),
 * - the web form's typed amounts (web/src/lib/parseValue.ts `readTypedAmount`),
 * - and, as generated SQL, the SQL batch (engine/sql/generate.ts `readCell`, which
 *   documents itself against this file).
 *
 * In engine/core (no Node API, imports nothing from engine/batch): share links and the web
 * read with it, and the batch row reader (engine/batch/reader.ts) imports it. Readers differ only in what they do with a bad
 * value (the CLI and the batch report it, a share link leaves it out, the web form shows
 * its field's message), never in how a text is read: cli/readers.test.ts reads one
 * table of cells through all four.
 */
import { INPUTS } from '../generated/inputs.js';
import type { GeneratedInput } from './types.js';
import { parseMoney } from '../core/money.js';
import { inputError, type MessageValue } from '../core/messages.js';

type Input = (typeof INPUTS)[number];

/** The numbers read from flags and cells: the declared money, number and integer inputs. */
export type AmountField = Extract<Input, { type: 'money' | 'number' | 'integer' }>['id'];

/**
 * What the readers know of each input by its id: its name in messages (rules/inputs.yaml
 * `message_name`, else its label) and whether they refuse a negative amount (a money input
 * with min 0 that the rules do not check themselves: engine/core/registry.ts
 * declaredInputs). The rules the code was built with are known from the start; another
 * bundle's inputs are learnt when its declarations are read (`learnInputs`), so an input
 * the compiled code has never seen is named by its own label.
 */
const KNOWN = new Map<string, Pick<GeneratedInput, 'name' | 'refusesNegative'>>();
export function learnInputs(inputs: ReadonlyArray<Pick<GeneratedInput, 'id' | 'name' | 'refusesNegative'>>): void {
  for (const x of inputs) KNOWN.set(x.id, { name: x.name, ...(x.refusesNegative ? { refusesNegative: true as const } : {}) });
}
learnInputs(INPUTS as ReadonlyArray<GeneratedInput>);

/** An input's name in a message, in the message's language (its id when the input is unknown). */
export const inputName = (id: string): MessageValue => {
  const n = KNOWN.get(id)?.name;
  return n ? { text: n } : id;
};

/** Whether the readers refuse a negative amount of this input (NEGATIVE_AMOUNT): the SQL reader asks too (engine/sql/generate.ts). */
export const refusesNegative = (id: string): boolean => KNOWN.get(id)?.refusesNegative === true;

/**
 * "1,250,000", "$350,000.00", "425k", "-5000" → number, read by engine/core/money.ts
 * parseMoney (the web's money fields read the same function); anything else is an error
 * (INVALID_NUMBER; NEGATIVE_AMOUNT for a refused negative).
 */
export function parseAmount(raw: string, field: AmountField): number {
  const r = parseMoney(String(raw));
  const params = () => ({ field: inputName(field), raw: String(raw) });
  if (!r.ok) throw inputError('INVALID_NUMBER', r.reason === 'tooLarge' ? 'amountTooLarge' : 'notNumberLike', params());
  if (r.value < 0 && refusesNegative(field)) throw inputError('NEGATIVE_AMOUNT', 'amountNegative', params());
  return r.value;
}

/** A year: four digits (spaces around them ignored); anything else is INVALID_YEAR. */
export function parseYear(raw: string): number {
  const s = String(raw).trim();
  if (!/^\d{4}$/.test(s)) throw inputError('INVALID_YEAR', 'yearFourDigits', { raw: String(raw) });
  return Number(s);
}

/** "2026-03-15" → its year, month and day; a date that does not exist is an error. */
export function parseDate(raw: string): { year: number; month: number; day: number } {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(raw).trim());
  const d = m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!)) : null;
  if (!m || !d || d.getUTCMonth() !== +m[2]! - 1 || d.getUTCDate() !== +m[3]!) throw inputError('INVALID_DATE', 'badDate', { raw: String(raw) });
  return { year: +m[1]!, month: +m[2]!, day: +m[3]! };
}

/** The words read as true and as false, whatever their case (the SQL batch reads the same list: engine/sql/generate.ts). */
export const TRUE_WORDS = ['true', 'yes', '1'] as const;
export const FALSE_WORDS = ['false', 'no', '0'] as const;

/** true/yes/1 → true, false/no/0 → false (any case, spaces around ignored); anything else is INVALID_BOOLEAN. */
export function parseBool(raw: string, field: MessageValue): boolean {
  const s = String(raw).trim();
  switch (s.length <= 5 ? s.toLowerCase() : '') {
    case 'true':
    case 'yes':
    case '1':
      return true;
    case 'false':
    case 'no':
    case '0':
      return false;
  }
  throw inputError('INVALID_BOOLEAN', 'badBoolean', { field, raw: JSON.stringify(raw) });
}

/**
 * How a cell is read. text: as written (trimmed; `class` is a choice the rules check, with
 * their own message); amount: parseAmount; year: parseYear; bool: parseBool; star: a
 * choice the rules do not check (`star`), one of its values exactly.
 */
export type CellKind = 'text' | 'amount' | 'year' | 'bool' | 'star';

/** The kind of cell a declared input reads (rules/inputs.yaml). */
export function kindOf(x: Input | GeneratedInput): CellKind {
  switch (x.type) {
    case 'money':
    case 'number':
    case 'integer':
      return 'amount';
    case 'year':
      return 'year';
    case 'boolean':
      return 'bool';
    case 'choice':
      return x.checkedByRules ? 'text' : 'star';
    default:
      return 'text';
  }
}

/**
 * A column (or flag, or share-link parameter) and how it is read. key: the flag (camelCase;
 * `year` is not a FlagInput field but the year argument); name: the column; what: its name
 * in messages (an amount: its name in engine/core/messages.ts, `field.<what>`, in the
 * output's language; else the flag); values: a star column's.
 */
export interface CellSpec {
  key: string;
  name: string;
  kind: CellKind;
  what: string;
  values?: readonly string[];
}

/** The cell spec of one declared input (with or without a batch column: flags have no column). */
export function cellSpec(x: Input | GeneratedInput): CellSpec {
  const kind = kindOf(x);
  return {
    key: x.key,
    name: 'column' in x && x.column !== undefined ? x.column : x.key,
    kind,
    what: kind === 'amount' ? x.id : x.flag,
    ...(kind === 'star' && 'values' in x ? { values: x.values as readonly string[] } : {}),
  };
}

/**
 * The batch columns: state and county, then every input rules/inputs.yaml gives a column,
 * in its order.
 */
export const columnsOf = (inputs: ReadonlyArray<Input | GeneratedInput>): readonly CellSpec[] => [
  { key: 'state', name: 'state', kind: 'text', what: 'state' },
  { key: 'county', name: 'county', kind: 'text', what: 'county' },
  ...inputs.flatMap((x): CellSpec[] => ('column' in x && x.column !== undefined ? [cellSpec(x)] : [])),
];
/** The columns of the rules the code was built with (engine/generated/inputs.ts); a bundle's own: `columnsOf(declaredInputs(bundle))` (a rules folder may declare more inputs). */
export const INPUT_COLUMNS: readonly CellSpec[] = columnsOf(INPUTS);

/** A column's name in a message: an amount's name (in the output's language), else the column's own name. */
export const fieldName = (spec: CellSpec): MessageValue => (spec.kind === 'amount' ? inputName(spec.what) : spec.what);

/** A star (unchecked choice) value: one of its values exactly, else INVALID_STAR. */
export function parseStar(spec: CellSpec, raw: string): string {
  const s = String(raw).trim();
  if (!spec.values!.includes(s)) throw inputError('INVALID_STAR', 'badStar', { raw: String(raw) });
  return s;
}

/**
 * A cell's text as the value of its input; empty (or only spaces) is "not given"
 * (undefined). Throws the input error of a bad cell (a PtaxError with its code).
 */
export function readCell(spec: CellSpec, raw: string): unknown {
  const s = raw.trim();
  if (s === '') return undefined;
  switch (spec.kind) {
    case 'text':
      return s;
    case 'amount':
      return parseAmount(s, spec.what as AmountField);
    case 'year':
      return parseYear(s);
    case 'star':
      if (!spec.values!.includes(s)) throw inputError('INVALID_STAR', 'badStar', { raw });
      return s;
    case 'bool':
      return parseBool(raw, fieldName(spec));
  }
}

/** A JSON value (NDJSON batch rows) as the value of its input: numbers and booleans as they are, strings as cells, null as not given. */
export function readJsonValue(spec: CellSpec, x: unknown): unknown {
  if (x === null || x === undefined) return undefined;
  if (typeof x === 'string') return readCell(spec, x);
  if (spec.kind === 'amount' && typeof x === 'number') return x;
  if (spec.kind === 'year' && typeof x === 'number') return parseYear(String(x));
  if (spec.kind === 'bool' && typeof x === 'boolean') return x;
  if (spec.kind === 'bool' && (x === 0 || x === 1)) return x === 1;
  throw inputError('INVALID_FIELD', 'badField', {
    field: fieldName(spec),
    kind: { key: spec.kind === 'bool' ? 'kind.bool' : spec.kind === 'amount' || spec.kind === 'year' ? 'kind.number' : 'kind.text' },
    raw: JSON.stringify(x) ?? String(x),
  });
}

/** `senior-income`, `seniorIncome`, `SENIOR_INCOME` → `seniorincome`: column, key and parameter names match whatever their case and separators. */
export const normalize = (name: string): string =>
  name
    .trim()
    .toLowerCase()
    .replace(/[-_\s]/g, '');

/** A cell read without throwing: its value (undefined: empty), or the code and message key of a bad cell. */
export type CellRead = { ok: true; value: unknown } | { ok: false; code: string; key?: string };
export function tryCell(spec: CellSpec, raw: string): CellRead {
  try {
    return { ok: true, value: readCell(spec, raw) };
  } catch (e) {
    const { code, key } = (e ?? {}) as { code?: unknown; key?: unknown };
    if (typeof code !== 'string') throw e;
    return typeof key === 'string' ? { ok: false, code, key } : { ok: false, code };
  }
}

/** A dollar amount typed in a form (the web's money fields): read as the `value` column's cells are (a negative one is read, not refused). */
export const MONEY_CELL: CellSpec = INPUT_COLUMNS.find((c) => c.key === 'value')!;
