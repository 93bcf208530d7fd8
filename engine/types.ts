/** Shapes shared by the loader (build time) and the evaluator (run time). */

export type Lang = 'en' | 'es';
export interface Label { en: string; es: string }
export interface Reference { title: string; href: string }

export type ParamType = 'scalar' | 'by_key' | 'bands';
export interface Band { below?: number; at_most?: number; value: number }
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

export interface Formula { src: string; ast: Expr }

export type ConditionValue = number | string | boolean | null | Array<number | string | boolean | null> | { fact: string };
export type Condition =
  | { all: Condition[] }
  | { any: Condition[] }
  | { not: Condition }
  | { fact: string; operator: string; value: ConditionValue };

export interface StepDef {
  id: string;
  label: Label;
  formula?: Formula;
  condition?: Condition;
  cases?: Array<{ when?: Condition; formula?: Formula; value?: string }>;
}

export type ResultUnit = 'usd' | 'percent' | 'fraction' | 'count' | 'text';
export interface ResultLeaf { formula: Formula; unit: ResultUnit }
export interface ResultGroup { [key: string]: ResultLeaf | ResultGroup }

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

export interface CountyDef {
  name: string;
  slug: string;
  fips: string;
  rates: Array<{ effective: string; value: number }>;
  flags: string[];
}

/**
 * A state's specialised calculator (`ptax tx payment`): a program of its own, or the
 * state's own calculation compared under two rule years (`compare`).
 */
export interface CalculatorDef {
  name: string;
  label: Label;
  description: string;
  program?: string;
  compare?: { years: [number, number] };
  /** Whether a county is needed (programs that read the county rate). */
  county: boolean;
}

export interface StateDef {
  code: string;
  file: string;
  name: Label;
  description: string;
  /** Absent for the hub, which has no counties. */
  countiesId?: string;
  counties: CountyDef[];
  countiesMeta?: { file: string; label: Label; description: string; reference: Reference[]; last_verified: string };
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
}

/** Everything `ptax calc` needs, parsed and validated at build time, stored as JSON. */
export interface Bundle {
  format: 1;
  parameters: Record<string, ParameterDef>;
  programs: Record<string, ProgramDef>;
  states: Record<string, StateDef>;
}

/** The facts every program may read, besides its parameters and its own steps. */
export const INPUT_FACTS = [
  'value', 'propertyClass', 'homestead', 'over65', 'seniorIncome', 'seniorCitizen', 'disabled',
  'veteranDisability', 'coldWarVeteran', 'starType', 'priorAssessed', 'purchasePrice', 'purchaseYear',
  // California's Mello-Roos special tax; the payment and tax-shock calculators' inputs.
  'melloRoos', 'taxAmount', 'paymentYear', 'paymentMonth', 'paymentDay', 'sellerTax',
  // The payment calculator's bill year, when given (else the date decides).
  'billYear',
  // The year calculated: the year asked for, else the rules' year (NYC: the fiscal year).
  'year',
] as const;
export const COUNTY_FACTS = ['countyRate', 'nycClass', 'topCoded', 'estimated'] as const;
export type InputFact = (typeof INPUT_FACTS)[number];
export type FactValue = number | string | boolean | null;
