/** Shapes shared by the loader (build time) and the evaluator (run time). */

export type Lang = 'en' | 'es';
export interface Label {
  en: string;
  es: string;
}
/** A citation: a primary source's link, or (`convention`) the path of the site's page stating a product convention (/how-it-works#convention-…). */
export interface Reference {
  title: string;
  href: string;
  convention?: true;
}

export type ParamType = 'scalar' | 'by_key' | 'bands';
export interface Band {
  below?: number;
  at_most?: number;
  value: number;
}
export interface ParamEntry {
  effective: string;
  value?: number | Record<string, number>;
  bands?: Band[];
  reference: Reference[];
  last_verified: string;
  note?: string;
}
export interface ParameterDef {
  id: string;
  file: string;
  description: string;
  label: Label;
  unit: string;
  type: ParamType;
  keys?: string[];
  sums_to_one?: boolean;
  values: ParamEntry[];
}

/** The subset of jsep's syntax tree that the rule language allows. */
export type Expr =
  | { type: 'Literal'; value: number }
  | { type: 'Identifier'; name: string }
  | { type: 'BinaryExpression'; operator: '+' | '-' | '*' | '/'; left: Expr; right: Expr }
  | { type: 'UnaryExpression'; operator: '-'; argument: Expr }
  | { type: 'CallExpression'; callee: { type: 'Identifier'; name: string }; arguments: Expr[] }
  | { type: 'MemberExpression'; object: Expr; property: Expr; computed: boolean };

export interface Formula {
  src: string;
  ast: Expr;
}

export type ConditionValue = number | string | boolean | null | Array<number | string | boolean | null> | { fact: string };
export type Condition = { all: Condition[] } | { any: Condition[] } | { not: Condition } | { fact: string; operator: string; value: ConditionValue };

export interface StepDef {
  id: string;
  label: Label;
  /** Where the step's rule comes from (a statute section), shown by --explain. */
  reference?: Reference[];
  formula?: Formula;
  condition?: Condition;
  cases?: Array<{ when?: Condition; formula?: Formula; value?: string }>;
}

export type ResultUnit = 'usd' | 'percent' | 'fraction' | 'count' | 'text';
export interface ResultLeaf {
  formula: Formula;
  unit: ResultUnit;
}
export interface ResultGroup {
  [key: string]: ResultLeaf | ResultGroup;
}

export interface ProgramDef {
  id: string;
  file: string;
  description: string;
  label: Label;
  period: { start: string; fiscal: boolean };
  years: number[];
  parameters: Record<string, string>;
  validations: Array<{ when: Condition; code: string; message: Label }>;
  steps: StepDef[];
  notes: Array<{ when: Condition; text: Label }>;
  result: ResultGroup;
}

/** A county rate's parts by levy, in percent of each levy's taxable value (they add up to the rate). */
export interface RateParts {
  school: number;
  county: number;
  city: number;
  special: number;
}
/** A dated county rate: the official nominal rate with its parts by levy where the data has them, else the Census effective rate. */
export interface CountyRate {
  effective: string;
  value: number;
  parts?: RateParts;
  /** Texas: the taxing units the parts are the rates of. */
  units?: { school: string; city?: string };
}

export interface CountyDef {
  name: string;
  slug: string;
  fips: string;
  rates: CountyRate[];
  /** The typical owner's rate: the Census effective rate (median taxes paid ÷ median value), a comparison. */
  typicalRate?: { effective: string; value: number };
  flags: string[];
  /** Median value of the county's owner-occupied homes, in dollars (counties file `median_value`). */
  medianValue?: number;
  /** County-level states: median real estate taxes paid, in dollars (10001: $10,000 or more). */
  medianTaxes?: number;
  /** County-level states: resident population, July 1, 2023 (absent for Puerto Rico). */
  population?: number;
}

/**
 * A state's specialised calculator (`ptax tx payment`): a program of its own, or the
 * state's own calculation compared under two rule years (`compare`).
 */
export interface CalculatorDef {
  name: string;
  label: Label;
  /** What it does (`ptax <state> list`): in both languages, or English only. */
  description: string | Label;
  program?: string;
  compare?: { years: [number, number] };
  /** A comparison's measures put to the voters: each one's parameters (the change) and the result fields whose difference is its saving. */
  propositions?: Array<{
    id: string;
    title: Label;
    description: Label;
    parameters: string[];
    savings: string[];
    reference?: Array<{ title: string; href: string }>;
  }>;
  /** The dates of the vote, for the visitor. */
  voting?: Array<{ label: Label; date: string; note?: Label }>;
  /** Whether a county is needed (programs that read the county rate). */
  county: boolean;
}

export interface StateDef {
  code: string;
  file: string;
  name: Label;
  description: string;
  /** The state's path segment on the national hub (/ohio); absent for the hub. */
  slug?: string;
  /** edition: a full edition with its own site; county: county level on the hub; hub: the national entry. */
  tier: 'edition' | 'county' | 'hub';
  /** The result's detail objects this state's programs give. */
  detail?: string[];
  /** The state's own phrases for the pages (people, authority, exemptions, offers, where), in both languages. */
  phrases?: Record<string, Label>;
  /** Absent for the hub, which has no counties. */
  countiesId?: string;
  counties: CountyDef[];
  countiesMeta?: {
    file: string;
    label: Label;
    description: string;
    reference: Reference[];
    last_verified: string;
    /** The counties file's `parts`: what the rate's parts are and the source columns of each. */
    parts?: { label: Label; description: string; reference: Reference[]; columns: Record<keyof RateParts, string> };
    /** The counties file's `typical_rate`: what the typical owner's rate is and its source. */
    typicalRate?: {
      label: Label;
      description: string;
      reference: Reference[];
      /** County-level states: the middle of the state's county rates, and of the nation's (50 states and DC), percent. */
      stateMedian?: number;
      nationalMedian?: number;
    };
    /** The counties file's `median_value`: the state's figure, with what it is and its source. */
    medianValue?: { label: Label; description: string; reference: Reference[]; state: number };
    /** County-level states: the counties file's `population` (the state's total). */
    population?: { label: Label; description: string; reference: Reference[]; state: number };
  };
  programs: Array<{ when?: Condition; program: string }>;
  aliases: Array<{ name: string; program: string; description?: string }>;
  calculators: CalculatorDef[];
  /** The edition's configuration (tax system, exemptions, stats, dates), as in the state file. */
  profile?: StateProfile;
}

export interface StateProfile {
  tax_system: Label;
  exemptions: Array<{ id: string; label: Label; description?: Label }>;
  stats: { county_count: number; average_rate?: string };
  due_dates: Array<{ label: Label; date: string; note?: Label }>;
  deadlines: Array<{ label: Label; date: string; note?: Label }>;
  /** The state's major counties (slugs), for the major-county table. */
  major_counties?: string[];
}

export type InputType = 'money' | 'number' | 'integer' | 'year' | 'boolean' | 'choice' | 'text' | 'date';
export type InputUnit = 'usd' | 'percent' | 'year' | 'count' | 'none';

/** One input of the calculation, as rules/inputs.yaml declares it. */
export interface InputDecl {
  /** The engine fact and CalcInput key (a `date` input fills the facts in `facts`). */
  id: string;
  type: InputType;
  unit: InputUnit;
  label: Label;
  help: Label;
  /** Its name in the engine's messages, where shorter than the label (absent: the label). */
  message_name?: Label;
  /** The rules' own validations refuse a negative value (absent: the readers refuse it, for a money input with min 0). */
  min_checked_by_rules?: true;
  /** An edition's own help where `help` speaks of other states (the web shows it on that state's site). */
  help_by_state?: Record<string, Label>;
  default?: number | string | boolean;
  min?: number;
  max?: number;
  /** A choice's values (an integer with values takes only those). */
  values?: Array<{ value: string | number; label: Label }>;
  /** A date input: the facts its year, month and day fill. */
  facts?: { year: string; month: string; day: string };
  /** A state's own name for the input. */
  state_labels?: Record<string, Label>;
  /** State editions whose main calculator reads it. */
  states: string[];
  /** Specialised calculators that read it: "<state lowercase>.<name>". */
  calculators?: string[];
  /** The CLI long flag without dashes. */
  flag: string;
  /** The batch CSV/NDJSON column (absent: not a batch column). */
  column?: string;
  /** false: not offered in the web form (analysts' inputs, such as the what-if rate). */
  web?: boolean;
  /** The web form shows the input only while this boolean input is on. */
  requires?: string;
  /** By state: the web form shows the input only for counties with this county flag. */
  county_flag?: Record<string, string>;
  /** The web form asks it only of a visitor who has owned the home for a while (not of a buyer). */
  owner_only?: boolean;
}

export type ResultFieldUnit = 'usd' | 'percent' | 'fraction' | 'count' | 'text';

/** One field of a result, as rules/results.yaml declares it. */
export interface ResultFieldDecl {
  /** The dotted path in the result object. */
  id: string;
  label: Label;
  unit: ResultFieldUnit;
  group: string;
  /** A row of the `ptax calc` table: true (labelled with `label`) or the row's own label in both languages. */
  cli?: true | Label;
  /** A column of the CSV batch output, with this name. */
  column?: string;
  /** A calculator's own figure: the calculators that give it. */
  calculators?: string[];
}

/**
 * An input as the CLI, the batch reader and the engine's input handling read it
 * (engine/generated/inputs.ts, generated from rules/inputs.yaml by the rules build):
 * English label and help only, the values without their labels.
 */
export interface GeneratedInput {
  id: string;
  type: InputType;
  unit: InputUnit;
  label: string;
  help: string;
  /** Its name in the engine's messages, in both languages (rules/inputs.yaml `message_name`, else the label). */
  name: Label;
  default?: number | string | boolean;
  min?: number;
  max?: number;
  /** The readers refuse a negative amount (a money input with min 0 that neither `notIn` nor `min_checked_by_rules` leaves to the rules). */
  refusesNegative?: true;
  values?: ReadonlyArray<string | number>;
  facts?: { readonly year: string; readonly month: string; readonly day: string };
  states: readonly string[];
  calculators: readonly string[];
  flag: string;
  /** The flag in camelCase: the FlagInput key, commander's option key and the golden fixtures' input key. */
  key: string;
  column?: string;
  /** Whether a program's validations refuse values outside a list (`notIn`): then the rules, not the CLI, refuse a bad value. */
  checkedByRules: boolean;
}

/** A result field of the CLI table or the batch output (engine/generated/results.ts, from rules/results.yaml). */
export interface GeneratedResultField {
  id: string;
  path: readonly string[];
  unit: ResultFieldUnit;
  group: string;
  /** The row's English label in the `ptax calc` table (the Spanish one is read from the bundle's results, for --lang es only). */
  cli?: string;
  column?: string;
}

/** Everything `ptax calc` needs, parsed and validated at build time, stored as JSON. */
export interface Bundle {
  format: 1;
  parameters: Record<string, ParameterDef>;
  programs: Record<string, ProgramDef>;
  states: Record<string, StateDef>;
  /** rules/inputs.yaml: every input, in the declaration's order (empty when the rules have no inputs file). */
  inputs: InputDecl[];
  /** rules/results.yaml: every result field, in the declaration's order (empty when the rules have no results file). */
  results: ResultFieldDecl[];
  /**
   * The fact table made from `inputs` by the loader (engine/core/registry.ts factTable): the
   * run time's input facts, their order and defaults. Kept whole where `inputs` is cut down
   * (a web package), so that slots and program hashes stay those of the full rules.
   */
  facts?: FactEntry[];
}

/** One fact of a declared input (engine/core/registry.ts). */
export interface FactEntry {
  /** The fact (a date input's year, month or day fact, else the input's id). */
  fact: string;
  /** The declaring input's id. */
  input: string;
  /** The flag in camelCase (FlagInput key); a date's facts: the fact. */
  key: string;
  type: 'boolean' | 'number' | 'text';
  default?: number | string | boolean;
  /** The declaring input's name in messages (rules/inputs.yaml `message_name`, else its label). */
  name?: Label;
}

/**
 * The facts every program may read, besides its parameters and its own steps: generated
 * from rules/inputs.yaml (engine/generated/inputs.ts). The run time reads a bundle's own
 * list (engine/core/registry.ts inputFactsOf); this one types the code built with rules/.
 */
export { INPUT_FACTS } from '../generated/inputs.js';
import type { INPUT_FACTS as GeneratedFacts } from '../generated/inputs.js';
/**
 * The county facts: the rate in force (or the what-if rate), the flags, the typical owner's
 * rate, the rate's parts by levy (null where the data has none) and, in Texas, the names
 * of the school district and city whose rates they are (null elsewhere).
 */
export const COUNTY_FACTS = [
  'countyRate',
  'nycClass',
  'topCoded',
  'estimated',
  'typicalRate',
  'schoolPart',
  'countyPart',
  'cityPart',
  'specialPart',
  'schoolUnit',
  'cityUnit',
] as const;
/** The county facts that are flags (the rest are numbers or names). */
export const COUNTY_FLAGS = ['nycClass', 'topCoded', 'estimated'] as const;
export type InputFact = (typeof GeneratedFacts)[number];
export type FactValue = number | string | boolean | null;
