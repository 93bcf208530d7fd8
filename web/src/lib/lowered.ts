/**
 * The lowered forms of a state package's programs (issue 27): web/scripts/build-data.mjs
 * lowers the latest year of each program at build time (engine/core/ir.ts lowerProgram,
 * packed without the texts the package's programs hold), and the browser's engine reads
 * them (Calculator's `lowered` option) instead of lowering the program it runs at the first
 * calculation (about 40% of that calculation's time). lib/lowered.test.ts compares every
 * form of every package with the engine's lowering of the package.
 */
import { unpackProgram, type Bundle, type PackedProgramIR, type ProgramIR } from '../../../engine/index.js';

const forms = new WeakMap<Bundle, Record<string, PackedProgramIR>>();

/** Records the lowered forms a bundle's package carries (stateData.ts toBundle). */
export function setLowered(bundle: Bundle, lowered: Record<string, PackedProgramIR>): void {
  forms.set(bundle, lowered);
}

/**
 * The lowered form of a program and year of a bundle when its package has one, else
 * undefined (an earlier year, a bundle without forms): the engine then lowers it itself.
 */
export function loweredOf(bundle: Bundle): ((programId: string, year: number) => ProgramIR | undefined) | undefined {
  const of = forms.get(bundle);
  if (!of) return undefined;
  return (programId, year) => {
    const packed = of[`${programId}@${year}`];
    const program = bundle.programs[programId];
    return packed && program ? unpackProgram(packed, program) : undefined;
  };
}
