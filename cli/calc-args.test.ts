/**
 * `ptax calc` of one property reads its arguments without commander when they are of a
 * simple shape (cli/ptax.ts calcArgs; issue 23: start-up). For each command line below, either
 * calcArgs declines it (commander then reads it, as before) or it gives exactly the options
 * object that commander hands to calc's action: the same keys in the same order, the same
 * values. Commander's object is taken from the program as `ptax calc` builds it, with calc's
 * action replaced by one that keeps its argument. Nothing is calculated here.
 */
import { describe, expect, it } from 'vitest';
import { buildProgram, calcArgs } from './ptax.js';

/** What commander gives calc's action for `args` (after `ptax calc`), or the error code commander stops with. */
async function commanderOptions(args: string[]): Promise<Record<string, unknown> | string> {
  const argv = ['node', 'ptax', 'calc', ...args];
  const program = await buildProgram('calc', argv);
  const calc = program.commands.find((c) => c.name() === 'calc')!;
  let got: Record<string, unknown> | undefined;
  calc.configureOutput({ outputError: () => {}, writeErr: () => {}, writeOut: () => {} });
  calc.action((o: Record<string, unknown>) => {
    got = o;
  });
  try {
    await program.parseAsync(argv);
  } catch (e) {
    return (e as { code?: string }).code ?? 'error';
  }
  return got === undefined ? 'no action' : { ...got };
}

const TX = ['--state', 'TX', '--county', 'Harris'];

/** Read without commander, and the same object as commander's. */
const simple: string[][] = [
  [...TX, '--value', '400000'],
  ['--value', '400000', ...TX],
  [...TX, '--value', '400000', '--json'],
  [...TX, '--value', '400000', '--explain', '--lang', 'es'],
  [...TX, '--value=400000', '--lang=es'],
  ['--state=NY', '--county=Kings', '--class', 'class1', '--value', '800000'],
  [...TX, '--value', '400000', '--homestead', '--over65', '--senior-income', '50000'],
  [...TX, '--value', '1', '--value', '2'],
  ['--lang', 'es', ...TX, '--lang', 'en', '--value', '5'],
  ['--state', 'CA', '--county', 'Los Angeles', '--value', '900000', '--purchase-price', '700000', '--purchase-year', '2019', '--mello-roos', '300'],
  ['--state', 'NY', '--county', 'Westchester', '--value', '400000', '--star', 'basic', '--year', '2025'],
  ['--state', 'TX', '--county', 'Harris', '--value', '400000', '--veteran-disability', '70', '--totally-disabled-veteran'],
  // No option at all: commander's object too is only --lang's default (the action then asks for --state).
  [],
];

/** Left to commander: help, unknown or misspelt options, missing or dashed values, arguments, a batch, other languages. */
const declined: string[][] = [
  [...TX, '--value', '400000', '--help'],
  [...TX, '-h'],
  [...TX, '--version'],
  [...TX, '--vaule', '400000'],
  [...TX, '--value'],
  [...TX, '--value', '-5'],
  [...TX, '--value', '400000', 'extra'],
  [...TX, '--', '--value', '400000'],
  [...TX, '-'],
  [...TX, '--batch', 'props.csv'],
  [...TX, '--lang', 'fr'],
  [...TX, '--json=1'],
  [...TX, '--homestead=true'],
  ['--state=', '--county', 'Harris'],
  [...TX, '--no-homestead'],
  ['--state', '--county', 'Harris'],
];

describe('calcArgs: ptax calc without commander', () => {
  for (const args of simple) {
    it(`reads ${JSON.stringify(args)} as commander does`, async () => {
      const fast = calcArgs(['node', 'ptax', 'calc', ...args]);
      expect(fast, 'calcArgs declined a command line of the simple shape').toBeDefined();
      const theirs = await commanderOptions(args);
      expect(typeof theirs, `commander stopped with ${String(theirs)}`).toBe('object');
      // Same entries in the same order (the table's and JSON's order follow it).
      expect(Object.entries(fast!)).toEqual(Object.entries(theirs as Record<string, unknown>));
    });
  }
  for (const args of declined) {
    it(`leaves ${JSON.stringify(args)} to commander`, () => {
      expect(calcArgs(['node', 'ptax', 'calc', ...args])).toBeUndefined();
    });
  }
  it('reads only `calc`', () => {
    expect(calcArgs(['node', 'ptax', 'counties', '--state', 'TX'])).toBeUndefined();
    expect(calcArgs(['node', 'ptax', 'tx', ...TX])).toBeUndefined();
  });
});
