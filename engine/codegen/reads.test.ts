/**
 * `GeneratedProgram.reads` (engine/codegen/js.ts): the fact slots a generated program
 * reads. A batch row writes only these into its program's fact array
 * (engine/batch/batch.ts `csvPlaced`), so the list must hold every fact slot the program
 * reads, and the program must read no other:
 *
 * - it is the set of fact slots (below `ir.facts`) the lowered form reads, nothing more,
 *   for every program and year of the rules;
 * - every other fact slot filled with junk (a Symbol: arithmetic or a comparison on it
 *   would throw or differ), each program gives the same batch row (numbers, text cells,
 *   notes' bits, error) and the same result object as with the facts `prepare` filled,
 *   for a few places of every state (the county-level estimate reads 5 of its fact
 *   slots: the value, then countyRate, topCoded, typicalRate and schoolPart).
 */
import { describe, expect, it } from 'vitest';
import { readBundle } from '../build/bundle.js';
import { Calculator, inputFromFlags, type FlagInput } from '../core/calculate.js';
import { lowered } from '../build/ir.js';
import { nodeProgramSource } from './node.js';
import { BATCH_COLUMNS } from './js.js';
import type { GeneratedProgram } from './runtime.js';

const bundle = readBundle('dist/rules/bundle.json');
const calc = new Calculator(bundle, { generated: nodeProgramSource() });

/** Every fact slot (below `facts`) a lowered form reads, found by walking its JSON. */
function slotsRead(ir: unknown, facts: number): number[] {
  const out = new Set<number>();
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (x && typeof x === 'object') {
      const o = x as Record<string, unknown>;
      if (o.op === 'read' && typeof o.slot === 'number' && o.slot < facts) out.add(o.slot);
      Object.values(o).forEach(walk);
    }
  };
  walk(ir);
  return [...out].sort((a, b) => a - b);
}

/** A batch row's outcome as text: its cells and bits, or its error. */
function batchRow(g: GeneratedProgram, v: unknown[]): string {
  const nums = new Float64Array(BATCH_COLUMNS.length + 1);
  const other: unknown[] = [];
  try {
    const bits = g.evaluate(v, 'en', false, nums, other);
    return JSON.stringify({ nums: [...nums].map(String), other, bits });
  } catch (e) {
    return `error ${(e as { code?: string }).code} ${(e as Error).message}`;
  }
}
function resultOf(g: GeneratedProgram, v: unknown[]): string {
  try {
    return JSON.stringify(g.evaluate(v, 'es', false));
  } catch (e) {
    return `error ${(e as { code?: string }).code} ${(e as Error).message}`;
  }
}

describe('the fact slots a generated program reads', () => {
  const years = Object.values(bundle.programs).flatMap((p) => p.years.map((y) => ({ id: p.id, year: y })));

  it.each(years)('$id@$year: reads lists the fact slots its lowered form reads', ({ id, year }) => {
    const g = calc.compiled(id, year).generated!;
    expect(g, 'a generated module matches the rules').toBeDefined();
    const ir = lowered(bundle, id, year);
    expect(g.reads).toEqual(slotsRead(ir, ir.facts));
  });

  // rules/shared/county-level.yaml: the tax is value × countyRate; its notes compare countyRate
  // with typicalRate, and the capped note reads topCoded and whether schoolPart is null.
  it('the county-level estimate reads the value and four county facts', () => {
    const g = calc.compiled('county_level', 2025).generated!;
    const names = lowered(bundle, 'county_level', 2025).slots;
    expect(g.reads!.map((i) => names[i])).toEqual(['value', 'countyRate', 'topCoded', 'typicalRate', 'schoolPart']);
  });

  // A few places of every state, with a homestead and without, a value that fails validation (0) among them.
  const rows = Object.values(bundle.states).flatMap((s) =>
    (s.counties.length ? s.counties.slice(0, 3).map((c) => c.name) : ['']).flatMap((county) =>
      [
        { value: 400_000, homestead: true },
        { value: 0, homestead: false },
        { value: 1_250_000, homestead: false, over65: true },
      ].map((f) => ({ state: s.code, county, ...f })),
    ),
  );

  it.each(rows)('$state $county $value: junk in the slots not read changes nothing', (row) => {
    const p = calc.prepare(inputFromFlags(row as unknown as FlagInput, undefined, bundle));
    const g = p.compiled.generated!;
    const read = new Set(g.reads);
    const nFacts = lowered(bundle, p.compiled.program.id, p.compiled.year).facts;
    const junk = p.facts.map((x, i) => (i < nFacts && !read.has(i) ? Symbol('not read') : x));
    expect(junk.filter((x) => typeof x === 'symbol').length).toBe(nFacts - read.size);
    expect(batchRow(g, junk.slice())).toBe(batchRow(g, p.facts.slice()));
    expect(resultOf(g, junk.slice())).toBe(resultOf(g, p.facts.slice()));
  });
});
