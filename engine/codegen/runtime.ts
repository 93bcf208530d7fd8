/**
 * What a generated program module (engine/codegen/js.ts) calls at run time: the engine's
 * own rounding, band look-up, errors and json-rules-engine's operators, so that the
 * generated code and the interpreter share them rather than repeat them. No Node API:
 * the web can use it too.
 */
import { bandPicker } from '../core/expr.js';
import { roundTo } from '../core/round.js';
import { PtaxError } from '../core/errors.js';
import type { Band, Lang } from '../core/types.js';

/** json-rules-engine's numberValidator, as engine/core/conditions.ts has it. */
const isNumeric = (x: unknown): boolean =>
  typeof x === 'number' ? x === x : x === null || x === undefined || typeof x === 'boolean' ? false : Number.parseFloat(x as string).toString() !== 'NaN';

export const runtime = {
  roundTo,
  isNumeric,
  bands: (id: string, bands: Band[]): ((x: number) => number) => bandPicker(id, bands),
  /** A table's entry for a key read at run time (expr.ts: NO_VALUE when it has none). */
  entry: (table: Record<string, number>, id: string, key: unknown): number => {
    const x = table[key as string];
    if (x === undefined) throw new PtaxError('NO_VALUE', `${id} has no value for ${String(key)}`);
    return x;
  },
  pow: (b: number, x: number): number => b ** x,
  error: (code: string, message: string): PtaxError => new PtaxError(code, message),
  /** The operators the generated code does not write out (conditions.ts's COMPARE). */
  op: {
    in: (a: any, b: any): boolean => b.indexOf(a) > -1,
    notIn: (a: any, b: any): boolean => b.indexOf(a) === -1,
    contains: (a: any, b: any): boolean => Array.isArray(a) && a.indexOf(b) > -1,
    doesNotContain: (a: any, b: any): boolean => Array.isArray(a) && a.indexOf(b) === -1,
  },
};
export type Runtime = typeof runtime;

/** A generated program, made (engine/codegen/js.ts: `make(runtime)`). */
export interface GeneratedProgram {
  hash: string;
  /**
   * The program, one function for `ptax calc` and batch rows alike. Validations and steps,
   * then the result object and its notes (the steps' slots written back into `v` when
   * `keepSteps`); or, when `nums` is given (a batch row), the batch columns' values
   * (engine/codegen/js.ts BATCH_COLUMNS, unrounded; a column the program has not is left
   * as it was): a number into `nums[i]`, anything else into `other[i]` (then `nums[i]` is
   * NaN and bit i of `nums[BATCH_COLUMNS.length]` is set), and the notes that apply as
   * bits: bit i for `notes[i]`. Either way it throws the row's error before anything else.
   */
  evaluate(v: unknown[], lang: Lang, keepSteps: boolean): Record<string, unknown> & { notes: string[] };
  evaluate(v: unknown[], lang: Lang, keepSteps: false, nums: Float64Array, other: unknown[]): number;
  /** The program's notes, in the rule file's order (a batch row's bits), in each language. */
  notes: ReadonlyArray<Record<Lang, string>>;
  /**
   * The fact slots `evaluate` reads (the facts' first slots: inputs, county facts), in order:
   * it reads no other slot of `v` (a batch row writes only these; engine/batch/batch.ts).
   * Absent in a module printed before it was added: every fact is then written.
   */
  reads?: readonly number[];
}
/** A generated module as loaded, before `make`. */
export interface GeneratedModuleExports {
  hash: string;
  program: string;
  year: number;
  make(rt: Runtime): GeneratedProgram;
}
