/** Parsing of command-line values: numbers with thousands separators, booleans, levels. */
import { inputError, type MessageKey } from '../engine/node.js';
import { INPUTS } from '../engine/node.js';
import { parseMoney } from '../engine/node.js';

/** The numbers read from flags and batch cells, by the name messages give them (engine/core/messages.ts `field.*`): the declared money, number and integer inputs. */
export type AmountField = Extract<(typeof INPUTS)[number], { type: 'money' | 'number' | 'integer' }>['id'];
/** Every amount has its name in engine/core/messages.ts (`field.<id>`): this fails to compile when one is missing. */
const amountNames: `field.${AmountField}` extends MessageKey ? true : false = true;
void amountNames;

/**
 * "1,250,000", "$350,000.00", "-5000" → number, read by the same function as the web's
 * fields (engine/core/money.ts); anything else is a clear error.
 */
export function parseAmount(raw: string, field: AmountField): number {
  const r = parseMoney(String(raw));
  const params = () => ({ field: { key: `field.${field}` as MessageKey }, raw: String(raw) });
  if (!r.ok) throw inputError('INVALID_NUMBER', r.reason === 'tooLarge' ? 'amountTooLarge' : 'notNumberLike', params());
  if (r.value < 0 && NEGATIVE_REFUSED.has(field)) throw inputError('NEGATIVE_AMOUNT', 'amountNegative', params());
  return r.value;
}

/**
 * Amounts that the engine would otherwise take below zero without a word: the money inputs
 * declared `min: 0` (rules/inputs.yaml) that no rule checks. The value and the senior income
 * reach the engine's own validation (its messages: "Market value must be greater than 0",
 * "Senior income cannot be negative"), as the README says.
 */
const REACH_VALIDATION: ReadonlySet<string> = new Set(['value', 'seniorIncome']);
const NEGATIVE_REFUSED: ReadonlySet<string> = new Set(
  INPUTS.flatMap((x) => (x.type === 'money' && 'min' in x && x.min === 0 && !x.checkedByRules && !REACH_VALIDATION.has(x.id) ? [x.id] : [])),
);

/** "2026-03-15" → its year, month and day; a date that does not exist is an error. */
export function parseDate(raw: string): { year: number; month: number; day: number } {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(raw).trim());
  const d = m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!)) : null;
  if (!m || !d || d.getUTCMonth() !== +m[2]! - 1 || d.getUTCDate() !== +m[3]!) throw inputError('INVALID_DATE', 'badDate', { raw: String(raw) });
  return { year: +m[1]!, month: +m[2]!, day: +m[3]! };
}

type NumericFlag = Extract<(typeof INPUTS)[number], { type: 'money' | 'number' | 'integer' | 'year' }>;
/**
 * The numeric flags (rules/inputs.yaml: money, number, integer, year; not `--year`, the
 * year calculated, which callers read themselves) in the order they are checked: flag key,
 * the name in messages (amounts) or null (years, read with parseYear).
 */
const NUMERIC_FLAGS = INPUTS.flatMap((x): Array<[NumericFlag['key'], AmountField | null]> => {
  if (x.id === 'year') return [];
  if (x.type === 'year') return [[x.key, null]];
  if (x.type === 'money' || x.type === 'number' || x.type === 'integer') return [[x.key, x.id]];
  return [];
});

/**
 * Commander's option strings → the numbers `inputFromFlags` takes (null when not given),
 * for `ptax calc` and the state calculators alike; the first bad one is the error.
 */
export function numericFlags(o: Record<string, unknown>): Record<Exclude<NumericFlag['key'], 'year'>, number | null> {
  const out = {} as Record<Exclude<NumericFlag['key'], 'year'>, number | null>;
  for (const [k, what] of NUMERIC_FLAGS) {
    const raw = o[k];
    (out as Record<string, number | null>)[k] = raw === undefined ? null : what === null ? parseYear(raw as string) : parseAmount(raw as string, what);
  }
  return out;
}

export function parseYear(raw: string): number {
  if (!/^\d{4}$/.test(String(raw).trim())) throw inputError('INVALID_YEAR', 'yearFourDigits', { raw: String(raw) });
  return Number(raw);
}
