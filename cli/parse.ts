/**
 * Parsing of command-line values. Money, numbers, years and dates are read by the engine's
 * one reading of input text (engine/core/cells.ts), the same as batch cells, share links
 * and the web's fields; this file maps commander's options onto it.
 */
import { INPUTS, PtaxError, cellSpec, parseAmount, parseDate, parseStar, parseYear, type AmountField, type GeneratedInput } from '../engine/node.js';

export { parseAmount, parseDate, parseYear, type AmountField };

type NumericFlag = Extract<(typeof INPUTS)[number], { type: 'money' | 'number' | 'integer' | 'year' }>;
type Decl = GeneratedInput;

/**
 * The numeric flags of a list of declarations (rules/inputs.yaml, or a `--rules` folder's:
 * money, number, integer, year; not `--year`, the year calculated, which callers read
 * themselves) in the order they are checked: flag key, the input read as an amount
 * (its id, whose name the messages give) or null (years, read with parseYear).
 */
const numericOf = (inputs: readonly Decl[]): Array<[string, string | null]> =>
  inputs.flatMap((x): Array<[string, string | null]> => {
    if (x.id === 'year') return [];
    if (x.type === 'year') return [[x.key, null]];
    if (x.type === 'money' || x.type === 'number' || x.type === 'integer') return [[x.key, x.id]];
    return [];
  });

/**
 * Commander's option strings → the numbers `inputFromFlags` takes (null when not given),
 * for `ptax calc` and the state calculators alike; the first bad one is the error. The
 * declarations default to the rules the code was built with; `ptax --rules` passes its own.
 */
export function numericFlags(
  o: Record<string, unknown>,
  inputs: readonly Decl[] = INPUTS as unknown as readonly Decl[],
): Record<Exclude<NumericFlag['key'], 'year'>, number | null> {
  const out: Record<string, number | null> = {};
  for (const [k, what] of numericOf(inputs)) {
    const raw = o[k];
    out[k] = raw === undefined ? null : what === null ? parseYear(raw as string) : parseAmount(raw as string, what as AmountField);
  }
  return out as Record<Exclude<NumericFlag['key'], 'year'>, number | null>;
}

/**
 * Commander's choice options (`--star`) read by the one reading of a choice
 * (engine/core/cells.ts `parseStar`, as batch cells and share links read it): the values
 * read (trimmed), or the reader's error code with a message that names the flag.
 */
export function choiceFlags(o: Record<string, unknown>, inputs: readonly Decl[] = INPUTS as unknown as readonly Decl[]): Record<string, string> {
  const out: Record<string, string> = {};
  // Choices the rules do not check (`--star`): refused here, before anything is calculated.
  for (const x of inputs) {
    if (x.type !== 'choice' || x.checkedByRules) continue;
    const v = o[x.key];
    if (v === undefined) continue;
    const values = x.values as readonly string[];
    try {
      out[x.key] = parseStar(cellSpec(x), v as string);
    } catch (e) {
      throw new PtaxError((e as PtaxError).code, `--${x.flag} must be ${values.slice(0, -1).join(', ')} or ${values.at(-1)} (got "${v}")`);
    }
  }
  return out;
}
