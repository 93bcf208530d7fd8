/**
 * The build's lowering (issue 27): every program and year of a checked bundle, lowered
 * once into the serialisable form of engine/core/ir.ts, for the build's printers (the
 * JavaScript modules, the SQL) and the guides. The form and the lowering of one program
 * live in engine/core/ir.ts, because the browser's interpreter lowers the program it runs
 * and engine/core imports nothing from the build (engine/rooms.test.ts).
 */
import { lowerProgram, type ProgramIR } from '../core/ir.js';
import type { Bundle } from '../core/types.js';

export * from '../core/ir.js';

const cache = new WeakMap<Bundle, Map<string, ProgramIR>>();

/** One program and year of a bundle, lowered once per bundle. */
export function lowered(bundle: Bundle, programId: string, year: number): ProgramIR {
  let m = cache.get(bundle);
  if (!m) cache.set(bundle, (m = new Map()));
  const key = `${programId}@${year}`;
  let p = m.get(key);
  if (!p) m.set(key, (p = lowerProgram(bundle, programId, year)));
  return p;
}

/** Every program and year of a bundle, lowered (a program that cannot be lowered is left out, with the reason). */
export function lowerAll(bundle: Bundle): { programs: ProgramIR[]; skipped: string[] } {
  const programs: ProgramIR[] = [];
  const skipped: string[] = [];
  for (const p of Object.values(bundle.programs))
    for (const y of p.years) {
      try {
        programs.push(lowered(bundle, p.id, y));
      } catch (e) {
        skipped.push(`${p.id}@${y}: ${(e as Error).message}`);
      }
    }
  return { programs, skipped };
}
