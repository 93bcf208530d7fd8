/**
 * The declarations the web reads from the data package: every input (rules/inputs.yaml)
 * and every result field (rules/results.yaml), as the rules build stores them in the
 * bundle. Forms, result views, tools and the PDF are built from these lists.
 */
import type { Label } from '../../../engine/index.js';

export interface InputChoice {
  value: string | number;
  label: Label;
}
export interface InputDecl {
  id: string;
  type: 'money' | 'number' | 'integer' | 'year' | 'boolean' | 'choice' | 'text' | 'date';
  unit: string;
  label: Label;
  help?: Label;
  default?: string | number | boolean;
  min?: number;
  max?: number;
  values?: InputChoice[];
  states: string[];
  calculators?: string[];
  state_labels?: Record<string, Label>;
  /** Shown only when this boolean input is on (e.g. the senior income under over 65). */
  requires?: string;
  /** By state: shown only for counties with this flag (New York: nycClass). */
  county_flag?: Record<string, string>;
  /** Asked only of a visitor who has owned the home for a while (not of a buyer). */
  owner_only?: boolean;
  /** Not offered in the web form (analysts' inputs such as a what-if rate). */
  web?: boolean;
  /** A date input: the facts its year, month and day fill. */
  facts?: { year: string; month: string; day: string };
  flag?: string;
  column?: string;
}

export interface ResultFieldDecl {
  id: string;
  label: Label;
  unit: 'usd' | 'percent' | 'fraction' | 'count' | 'text';
  group: string;
  calculators?: string[];
}

export interface Declarations {
  inputs: InputDecl[];
  results: ResultFieldDecl[];
}

/** The declarations of a bundle (empty lists when a bundle predates them). */
export function declarationsOf(bundle: unknown): Declarations {
  const b = bundle as { inputs?: unknown; results?: unknown };
  const list = (x: unknown, key: string): unknown[] =>
    Array.isArray(x) ? x : x && typeof x === 'object' && Array.isArray((x as Record<string, unknown>)[key]) ? (x as Record<string, unknown[]>)[key]! : [];
  return { inputs: list(b.inputs, 'inputs') as InputDecl[], results: list(b.results, 'fields') as ResultFieldDecl[] };
}

/** The value at a dotted path of a result object. */
export function at(o: unknown, path: string): unknown {
  let x: unknown = o;
  for (const k of path.split('.')) {
    if (!x || typeof x !== 'object') return undefined;
    x = (x as Record<string, unknown>)[k];
  }
  return x;
}
