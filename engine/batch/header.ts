/**
 * A CSV batch header's own checks, shared by the streaming path (engine/batch/reader.ts) and
 * the SQL engines (engine/sql/run.ts), so that both refuse the same headers. A module of its
 * own, with only light imports: engine/sql/run.ts importing the reader made the CLI's bundler
 * put the reader and the YAML loader into the entry chunk (126 → 234 KB), and every
 * `ptax calc` start ~9 ms slower.
 */
import { normalize } from '../core/cells.js';
import { PtaxError } from '../core/errors.js';
import { RESULT_FIELDS } from '../generated/results.js';

/**
 * The flat result columns of a CSV batch row: column name and result path, the fields of
 * rules/results.yaml with a `column`, in its order: the place's (county name, program,
 * rules' year), then result leaves, then the notes, joined. The one list: the streaming
 * path (engine/batch/batch.ts), the SQL generator and the header checks below read it.
 */
export const RESULT_COLUMNS: ReadonlyArray<{ name: string; path: readonly string[] }> = RESULT_FIELDS.flatMap(
  (f): Array<{ name: string; path: readonly string[] }> => ('column' in f ? [{ name: f.column, path: f.path }] : []),
);

/** The two columns that end every batch output row after the result columns. */
export const ERROR_COLUMNS = ['error', 'errorCode'] as const;

/** Every output column's name, normalized: the result columns and the error columns. */
const OUTPUT_NAMES = new Set([...RESULT_COLUMNS.map((c) => normalize(c.name)), ...ERROR_COLUMNS.map(normalize)]);

/**
 * The first problem of a header, thrown as BAD_HEADER: a column without a name, a column
 * spelt twice (names compared as `normalize` compares them), a column named like an output
 * column. Returns the names by normalized name.
 */
export function checkHeaderNames(fields: readonly string[]): Map<string, string> {
  const seen = new Map<string, string>();
  fields.forEach((f, i) => {
    const name = f.trim();
    if (!name) throw new PtaxError('BAD_HEADER', `header: column ${i + 1} has no name`);
    const k = normalize(name);
    if (seen.has(k)) throw new PtaxError('BAD_HEADER', `header: "${name}" and "${seen.get(k)}" are the same column`);
    if (OUTPUT_NAMES.has(k)) throw new PtaxError('BAD_HEADER', `header: "${name}" is an output column of ptax; rename it`);
    seen.set(k, name);
  });
  return seen;
}
