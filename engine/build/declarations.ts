/**
 * Build time: engine/generated/inputs.ts and engine/generated/results.ts, made from the
 * bundle's declarations (rules/inputs.yaml, rules/results.yaml) by the rules build. The
 * CLI, the batch reader and writer and the engine's input handling import them: plain
 * data compiled with the code, so nothing is read or parsed at run time for them.
 * engine/declarations.test.ts checks that the files are up to date.
 */
import { declaredInputs, factTable } from '../core/registry.js';
import { COUNTY_FACTS, type Bundle, type FactEntry, type GeneratedInput, type GeneratedResultField } from '../core/types.js';

export const GENERATED_INPUTS = 'engine/generated/inputs.ts';
export const GENERATED_RESULTS = 'engine/generated/results.ts';

/** The inputs as the CLI, the batch reader and the engine read them (engine/core/registry.ts declaredInputs). */
export function generatedInputs(bundle: Bundle): GeneratedInput[] {
  return declaredInputs(bundle);
}

/** The fields of the CLI table and the batch output, in the declaration's order. */
export function generatedResults(bundle: Bundle): GeneratedResultField[] {
  return bundle.results
    .filter((f) => f.cli !== undefined || f.column !== undefined)
    .map((f) => ({
      id: f.id,
      path: f.id.split('.'),
      unit: f.unit,
      group: f.group,
      ...(f.cli !== undefined ? { cli: f.cli === true ? f.label.en : f.cli.en } : {}),
      ...(f.column !== undefined ? { column: f.column } : {}),
    }));
}

const HEADER = (from: string) => `// Generated from ${from} by the rules build (scripts/build-rules.ts): do not edit.\n`;
const lines = (list: unknown[]) => `[\n${list.map((x) => `  ${JSON.stringify(x)},`).join('\n')}\n]`;

const TS_TYPE = { boolean: 'boolean', number: 'number | null', text: 'string | null' } as const;
/** An interface of optional fields, one per fact table entry, keyed by `key` (a fact or a flag). */
const fields = (name: string, doc: string, entries: FactEntry[], key: (e: FactEntry) => string): string =>
  `/** ${doc} */\nexport interface ${name} {\n${entries.map((e) => `  ${key(e)}?: ${TS_TYPE[e.type]};`).join('\n')}\n}\n`;

/** The TypeScript sources of the two generated files, and their JavaScript (what tsc makes of them). */
export function generatedSources(bundle: Bundle): Array<{ path: string; ts: string; js: string }> {
  const inputs = lines(generatedInputs(bundle));
  const results = lines(generatedResults(bundle));
  const table = factTable(bundle.inputs);
  const factList = `export const INPUT_FACTS = ${JSON.stringify(table.filter((e) => !(COUNTY_FACTS as readonly string[]).includes(e.fact)).map((e) => e.fact))}`;
  const factsDoc = `\n/** The input facts in slot order: each input's id (a date input: its three facts), the county facts (the what-if rate) left out. */\n`;
  const types =
    '\n' +
    fields(
      'DeclaredCalcInput',
      "CalcInput's inputs besides the value and the year: each fact by its type.",
      table.filter((e) => e.fact !== 'value' && e.fact !== 'year'),
      (e) => e.fact,
    ) +
    '\n' +
    fields(
      'DeclaredFlagInput',
      "FlagInput's flags in camelCase (a date: its facts, split by the caller), the year left out.",
      table.filter((e) => e.fact !== 'year'),
      (e) => e.key,
    );
  return [
    {
      path: GENERATED_INPUTS,
      ts: `${HEADER('rules/inputs.yaml')}import type { GeneratedInput } from '../core/types.js';\n\nexport const INPUTS = ${inputs} as const satisfies readonly GeneratedInput[];\n${factsDoc}${factList} as const;\n${types}`,
      js: `${HEADER('rules/inputs.yaml')}export const INPUTS = ${inputs};\n${factsDoc}${factList};\n`,
    },
    {
      path: GENERATED_RESULTS,
      ts: `${HEADER('rules/results.yaml')}import type { GeneratedResultField } from '../core/types.js';\n\nexport const RESULT_FIELDS = ${results} as const satisfies readonly GeneratedResultField[];\n`,
      js: `${HEADER('rules/results.yaml')}export const RESULT_FIELDS = ${results};\n`,
    },
  ];
}
