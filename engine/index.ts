/**
 * The engine's public entry point for code that runs in the browser (the web app): the
 * calculator over a bundle, parameter look-ups, amount parsing and the types they use.
 * Build-time and Node-only modules (load, bundle, batch, csv-out) are not exported here.
 */
export { Calculator, DEFAULT_VALUE } from './calculate.js';
export type { CalcInput, CalcResult, ExplainStep } from './calculate.js';
export { valueAt } from './params.js';
export { parseMoney, type MoneyParse } from './money.js';
export { countyKey } from './counties.js';
export { inputsFromQuery } from './share.js';
export { INPUT_FACTS } from './types.js';
export type { Band, Bundle, CountyDef, Label, ParameterDef, ProgramDef, StateDef } from './types.js';
export { PtaxError } from './errors.js';
