/**
 * The engine's public entry point for Node programs (the CLI, the site server, the build
 * and bench scripts): everything the browser entry (./index.ts) offers, plus what needs
 * Node (reading rule files and the bundle, batch output, the generated programs, SQL).
 * Code outside engine/ imports the engine from here or from ./index.ts only.
 */
export * from './core/calculate.js';
export * from './core/cells.js';
export * from './core/compile.js';
export * from './core/conditions.js';
export * from './core/counties.js';
export * from './core/errors.js';
export * from './core/expr.js';
export * from './core/messages.js';
export * from './core/money.js';
export * from './core/number-text.js';
export * from './core/params.js';
export * from './core/registry.js';
export * from './core/round.js';
export * from './core/share.js';
export * from './core/types.js';
export * from './build/bundle.js';
export * from './build/declarations.js';
export * from './build/fixtures.js';
export * from './build/load.js';
export * from './build/yaml-source.js';
export * from './batch/batch.js';
export * from './batch/csv-out.js';
export * from './batch/reader.js';
export * from './generated/inputs.js';
export * from './generated/results.js';
export * from './codegen/js.js';
// The lowered form of the programs (issue 27): the build's lowering, and the walker's entry points.
export { lowerAll, lowered } from './build/ir.js';
export type { ProgramIR } from './core/ir.js';
export { run as runLowered } from './core/walk.js';
// Not re-exported: ./codegen/node.js, whose import makes the generated programs every Calculator's default (cli/ptax.ts imports it for that).
// The SQL room is loaded only when asked for (its runner loads DuckDB's native addon and the
// PostgreSQL client): the generator (`ptax rules sql`) and the runner (`--engine duckdb|postgres`).
export const loadSqlGenerator = () => import('./sql/generate.js');
export const loadSqlRunner = () => import('./sql/run.js');
