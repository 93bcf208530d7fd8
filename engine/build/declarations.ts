/**
 * Build time: engine/generated/inputs.ts and engine/generated/results.ts, made from the
 * bundle's declarations (rules/inputs.yaml, rules/results.yaml) by the rules build. The
 * CLI, the batch reader and writer and the engine's input handling import them: plain
 * data compiled with the code, so nothing is read or parsed at run time for them.
 * engine/declarations.test.ts checks that the files are up to date.
 */
import type { Bundle, Condition, GeneratedInput, GeneratedResultField } from '../core/types.js';

export const GENERATED_INPUTS = 'engine/generated/inputs.ts';
export const GENERATED_RESULTS = 'engine/generated/results.ts';

/** `veteran-disability` → `veteranDisability`. */
export const camelFlag = (flag: string): string => flag.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Every fact a program's validations check against a list of values (`notIn`): the rules refuse other values. */
function validatedFacts(bundle: Bundle): Set<string> {
  const out = new Set<string>();
  const walk = (c: Condition): void => {
    if ('all' in c) c.all.forEach(walk);
    else if ('any' in c) c.any.forEach(walk);
    else if ('not' in c) walk(c.not);
    else if (c.operator === 'notIn') out.add(c.fact);
  };
  for (const p of Object.values(bundle.programs)) for (const v of p.validations) walk(v.when);
  return out;
}

export function generatedInputs(bundle: Bundle): GeneratedInput[] {
  const validated = validatedFacts(bundle);
  return bundle.inputs.map((x) => ({
    id: x.id,
    type: x.type,
    unit: x.unit,
    label: x.label.en,
    help: x.help.en,
    ...(x.default !== undefined ? { default: x.default } : {}),
    ...(x.min !== undefined ? { min: x.min } : {}),
    ...(x.max !== undefined ? { max: x.max } : {}),
    ...(x.values ? { values: x.values.map((v) => v.value) } : {}),
    ...(x.facts ? { facts: x.facts } : {}),
    states: x.states,
    calculators: x.calculators ?? [],
    flag: x.flag,
    key: camelFlag(x.flag),
    ...(x.column !== undefined ? { column: x.column } : {}),
    checkedByRules: (x.facts ? Object.values(x.facts) : [x.id]).some((f) => validated.has(f)),
  }));
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
      ...(f.cli !== undefined ? { cli: f.cli === true ? f.label.en : f.cli } : {}),
      ...(f.column !== undefined ? { column: f.column } : {}),
    }));
}

const HEADER = (from: string) => `// Generated from ${from} by the rules build (scripts/build-rules.ts): do not edit.\n`;
const lines = (list: unknown[]) => `[\n${list.map((x) => `  ${JSON.stringify(x)},`).join('\n')}\n]`;

/** The TypeScript sources of the two generated files, and their JavaScript (what tsc makes of them). */
export function generatedSources(bundle: Bundle): Array<{ path: string; ts: string; js: string }> {
  const inputs = lines(generatedInputs(bundle));
  const results = lines(generatedResults(bundle));
  return [
    {
      path: GENERATED_INPUTS,
      ts: `${HEADER('rules/inputs.yaml')}import type { GeneratedInput } from '../core/types.js';\n\nexport const INPUTS = ${inputs} as const satisfies readonly GeneratedInput[];\n`,
      js: `${HEADER('rules/inputs.yaml')}export const INPUTS = ${inputs};\n`,
    },
    {
      path: GENERATED_RESULTS,
      ts: `${HEADER('rules/results.yaml')}import type { GeneratedResultField } from '../core/types.js';\n\nexport const RESULT_FIELDS = ${results} as const satisfies readonly GeneratedResultField[];\n`,
      js: `${HEADER('rules/results.yaml')}export const RESULT_FIELDS = ${results};\n`,
    },
  ];
}
