/** Which dated value of a parameter is in force for a year. */
import type { ParamEntry, ParameterDef } from './types.js';

/** The first day of year `year`: a fiscal year starts in the calendar year before it. */
export function periodStart(period: { start: string; fiscal: boolean }, year: number): string {
  return `${period.fiscal ? year - 1 : year}-${period.start}`;
}

/** The latest entry that took effect on or before `date` (ISO dates compare as strings). */
export function valueAt(p: Pick<ParameterDef, 'values'>, date: string): ParamEntry | undefined {
  let found: ParamEntry | undefined;
  for (const e of p.values) if (e.effective <= date) found = e;
  return found;
}
