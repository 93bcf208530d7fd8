/**
 * The registry of inputs at run time: what rules/inputs.yaml declares, read from the bundle
 * (never from a hand-written list). The engine's input fact slots, how a CalcInput fills
 * them and how the command line's flags make a CalcInput all follow from the bundle's fact
 * table (`Bundle.facts`, written by the loader from the declarations), so a rules folder
 * with an input the compiled code has never seen still calculates.
 *
 * engine/generated/inputs.ts (the rules build) holds the same table for rules/ as types
 * (CalcInput, FlagInput, INPUT_FACTS); the run time does not depend on it being current.
 */
import { COUNTY_FACTS, type Bundle, type Label, type Condition, type FactEntry, type FactValue, type GeneratedInput, type InputType } from './types.js';
import { INPUTS } from '../generated/inputs.js';
import { learnInputs } from './cells.js';

/** `veteran-disability` → `veteranDisability`. */
export const camelFlag = (flag: string): string => flag.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

interface InputLike {
  id: string;
  type: InputType;
  flag: string;
  /** A declaration's (InputDecl) label and message name, or a generated input's name (GeneratedInput). */
  label?: Label | string;
  message_name?: Label;
  name?: Label;
  default?: number | string | boolean;
  facts?: { readonly year: string; readonly month: string; readonly day: string };
}

/**
 * The fact table of a list of declarations, in their order: one entry per fact (a date
 * input gives three, its year, month and day, whose flag keys are the facts' names: the
 * caller splits the date), with the flag key (camelCase) and the default.
 */
export function factTable(inputs: readonly InputLike[]): FactEntry[] {
  return inputs.flatMap((x): FactEntry[] => {
    const name = nameOf(x);
    return x.type === 'date' && x.facts
      ? Object.values(x.facts).map((f) => ({ fact: f, input: x.id, key: f, type: 'number' as const, ...(name ? { name } : {}) }))
      : [
          {
            fact: x.id,
            input: x.id,
            key: camelFlag(x.flag),
            type: x.type === 'boolean' ? 'boolean' : x.type === 'choice' || x.type === 'text' ? (typeof x.default === 'number' ? 'number' : 'text') : 'number',
            ...(x.default !== undefined ? { default: x.default } : {}),
            ...(name ? { name } : {}),
          },
        ];
  });
}

/** An input's name in messages: its `message_name`, else its label (both languages); a generated input's `name`. */
function nameOf(x: InputLike): Label | undefined {
  if (x.name) return x.name;
  const l = x.message_name ?? x.label;
  return l && typeof l === 'object' ? { en: l.en, es: l.es } : undefined;
}

/** The fact table of the rules the code was built with (engine/generated/inputs.ts): for bundles made by hand without declarations (made on first use). */
let builtIn: FactEntry[] | undefined;

const isCountyFact = (f: string) => (COUNTY_FACTS as readonly string[]).includes(f);

/** What the run time keeps per bundle: the fact table, the input facts' names (slots 0…n−1) and the year's slot. */
export interface Registry {
  /** Every declared input's facts, in declaration order (county facts such as the what-if rate included). */
  table: readonly FactEntry[];
  /** The input facts: the first slots of every compiled program, in this order. */
  inputFacts: readonly string[];
  /** Input facts then county facts: the slots every program starts with. */
  facts: readonly string[];
  /** The slot of `year`. */
  yearSlot: number;
  /** The numeric facts besides the value and the year, each absent or a finite number (calculate.ts checkNumbers). */
  numbers: readonly string[];
  /** Per input fact: how a CalcInput fills it. */
  readers: ReadonlyArray<(input: Record<string, unknown>) => FactValue>;
}

const cache = new WeakMap<Bundle, Registry>();

/** The registry of a bundle: its fact table (Bundle.facts), else its declarations, else the built-in one. */
export function registryOf(bundle: Bundle): Registry {
  let r = cache.get(bundle);
  if (r) return r;
  const table = bundle.facts?.length
    ? bundle.facts
    : bundle.inputs?.length
      ? factTable(bundle.inputs)
      : (builtIn ??= factTable(INPUTS as readonly InputLike[]));
  const own = table.filter((e) => !isCountyFact(e.fact));
  const inputFacts = own.map((e) => e.fact);
  const readers = own.map((e): ((input: Record<string, unknown>) => FactValue) => {
    const f = e.fact;
    if (f === 'year') return (input) => (input.year as FactValue | undefined) ?? null; // prepare puts the rules' year when none
    if (e.type === 'boolean') return (input) => !!input[f];
    const d = e.default === undefined ? null : e.default;
    return (input) => (input[f] as FactValue | undefined) ?? d;
  });
  const numbers = table.filter((e) => e.type === 'number' && e.fact !== 'value' && e.fact !== 'year').map((e) => e.fact);
  r = { table, inputFacts, numbers, facts: [...inputFacts, ...COUNTY_FACTS], yearSlot: inputFacts.indexOf('year'), readers };
  cache.set(bundle, r);
  return r;
}

/** The input facts of a bundle's programs, in slot order. */
export const inputFactsOf = (bundle: Bundle): readonly string[] => registryOf(bundle).inputFacts;
/** Input facts then county facts: the first slots of a bundle's programs. */
export const factsOf = (bundle: Bundle): readonly string[] => registryOf(bundle).facts;

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

const declared = new WeakMap<Bundle, GeneratedInput[]>();
/**
 * A bundle's inputs as the CLI, the batch reader and the SQL read them (English label and
 * help, the values without their labels): what engine/generated/inputs.ts holds for rules/,
 * made at run time for any bundle (a bundle without declarations: the built-in list).
 */
export function declaredInputs(bundle: Bundle): GeneratedInput[] {
  let out = declared.get(bundle);
  if (out) return out;
  if (!bundle.inputs?.length) return INPUTS as unknown as GeneratedInput[];
  const validated = validatedFacts(bundle);
  out = bundle.inputs.map((x) => {
    const checkedByRules = (x.facts ? Object.values(x.facts) : [x.id]).some((f) => validated.has(f));
    return {
      id: x.id,
      type: x.type,
      unit: x.unit,
      label: x.label.en,
      help: x.help.en,
      name: nameOf(x)!,
      ...(x.default !== undefined ? { default: x.default } : {}),
      ...(x.min !== undefined ? { min: x.min } : {}),
      ...(x.max !== undefined ? { max: x.max } : {}),
      ...(x.type === 'money' && x.min === 0 && !checkedByRules && !x.min_checked_by_rules ? { refusesNegative: true as const } : {}),
      ...(x.values ? { values: x.values.map((v) => v.value) } : {}),
      ...(x.facts ? { facts: x.facts } : {}),
      states: x.states,
      calculators: x.calculators ?? [],
      flag: x.flag,
      key: camelFlag(x.flag),
      ...(x.column !== undefined ? { column: x.column } : {}),
      checkedByRules,
    };
  });
  learnInputs(out);
  declared.set(bundle, out);
  return out;
}
