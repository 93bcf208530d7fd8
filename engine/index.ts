/**
 * The engine's public entry point for code that runs in the browser (the web app): the
 * calculator over a bundle, parameter look-ups, amount parsing and the types they use.
 * Build-time and Node-only modules (load, bundle, batch, csv-out) are not exported here.
 */
export { Calculator, DEFAULT_VALUE } from './core/calculate.js';
export type { CalcInput, CalcResult, ExplainStep, ProgramSource } from './core/calculate.js';
// The generated programs' run-time support (no Node API): the web runs them when they match its rules.
export { runtime, type GeneratedModuleExports, type GeneratedProgram, type Runtime } from './codegen/runtime.js';
export { periodStart, valueAt } from './core/params.js';
// The lowered forms the web's data packages carry (web/scripts/build-data.mjs): read back, and for its tests.
export { lowerProgram, packProgram, unpackProgram, type PackedProgramIR, type ProgramIR } from './core/ir.js';
export { parseMoney, type MoneyParse } from './core/money.js';
export { countyKey, countyRateAt, slugOf } from './core/counties.js';
export { inputsFromQuery } from './core/share.js';
export { MONEY_CELL, cellSpec, tryCell, type CellRead, type CellSpec } from './core/cells.js';
export { INPUT_FACTS } from './core/types.js';
export type { Band, Bundle, CountyDef, CountyRate, Label, ParameterDef, ProgramDef, RateParts, StateDef } from './core/types.js';
export { PtaxError } from './core/errors.js';
