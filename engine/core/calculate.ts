/** The calculation: state and county look-up, year selection, validation, steps, result. */
import { compileProgram, type CompiledProgram, type StepInfo } from './compile.js';
import { compileCondition, type Facts } from './conditions.js';
import { countyRateAt, findCounty } from './counties.js';
import { PtaxError } from './errors.js';
import { inputError, localized, message, percent } from './messages.js';
import { DECIMALS, roundTo } from './round.js';
import {
  COUNTY_FACTS,
  INPUT_FACTS,
  type Bundle,
  type CalculatorDef,
  type CountyDef,
  type CountyRate,
  type FactValue,
  type Lang,
  type StateDef,
} from './types.js';
import { INPUTS } from '../generated/inputs.js';
import { SentenceBuilder } from './sentence.js';
import type { GeneratedProgram } from '../codegen/runtime.js';

/**
 * Where compiled programs come from, besides the interpreter: a function giving the
 * generated module of a program and year when it matches these rules (engine/codegen/node.ts
 * in Node), else undefined, and the interpreter runs the program.
 */
export type ProgramSource = (bundle: Bundle, programId: string, year: number) => GeneratedProgram | undefined;
let defaultSource: ProgramSource | undefined;
/** The source every Calculator uses unless told otherwise (engine/codegen/node.ts sets it when imported). */
export function setProgramSource(source: ProgramSource | undefined): void {
  defaultSource = source;
}
export interface CalculatorOptions {
  /** Generated programs: a source, or false for the interpreter alone (default: the one set by setProgramSource). */
  generated?: ProgramSource | false;
}

/** States the product will cover; those without rules yet answer "not yet supported". */
export const PLANNED_STATES = ['NY', 'TX', 'CA', 'FL'] as const;

export interface CalcInput {
  state: string;
  county: string;
  value: number;
  year?: number;
  propertyClass?: string | null;
  homestead?: boolean;
  over65?: boolean;
  seniorIncome?: number | null;
  seniorCitizen?: boolean;
  disabled?: boolean;
  wartimeVeteran?: boolean;
  combatVeteran?: boolean;
  veteranDisability?: number;
  totallyDisabledVeteran?: boolean;
  veteranIncome?: number | null;
  coldWarVeteran?: boolean;
  starType?: string | null;
  priorAssessed?: number | null;
  purchasePrice?: number | null;
  purchaseYear?: number | null;
  melloRoos?: number | null;
  taxAmount?: number | null;
  paymentYear?: number | null;
  paymentMonth?: number | null;
  paymentDay?: number | null;
  sellerTax?: number | null;
  /** The year of the bill being paid (payment calculator). */
  billYear?: number | null;
  /** A county rate (percent) to use instead of the county's own: a what-if. */
  countyRate?: number | null;
}

/**
 * The command line's flags, by their camelCase names (the golden fixtures' input keys are
 * the same names), with numbers already parsed. `null` and absent mean "not given".
 */
export interface FlagInput {
  state: string;
  county: string;
  value?: number | null;
  class?: string | null;
  homestead?: boolean;
  over65?: boolean;
  seniorIncome?: number | null;
  seniorCitizen?: boolean;
  disabled?: boolean;
  wartimeVeteran?: boolean;
  combatVeteran?: boolean;
  veteranDisability?: number | null;
  totallyDisabledVeteran?: boolean;
  veteranIncome?: number | null;
  coldWarVeteran?: boolean;
  star?: string | null;
  priorAssessed?: number | null;
  purchasePrice?: number | null;
  purchaseYear?: number | null;
  melloRoos?: number | null;
  /** The payment calculator's tax amount and date (ISO date already split by the caller). */
  tax?: number | null;
  paymentYear?: number | null;
  paymentMonth?: number | null;
  paymentDay?: number | null;
  sellerTax?: number | null;
  billYear?: number | null;
  countyRate?: number | null;
}

const YEAR_SLOT = INPUT_FACTS.indexOf('year');

type Decl = (typeof INPUTS)[number];
/** The facts the declarations fill (rules/inputs.yaml): an input's id, or a date input's three facts. */
type DeclaredFact = Exclude<Decl, { type: 'date' }>['id'] | Extract<Decl, { type: 'date' }>['facts'][keyof Extract<Decl, { type: 'date' }>['facts']];
/** The FlagInput keys the declarations give (the flags in camelCase; a date is split by the caller into its facts). */
type DeclaredFlag = Exclude<Decl, { type: 'date' }>['key'] | Extract<Decl, { type: 'date' }>['facts'][keyof Extract<Decl, { type: 'date' }>['facts']];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/**
 * CalcInput and FlagInput list each declared input (rules/inputs.yaml) by name, with its
 * type; these fail to compile when a key is added to one but not the other.
 */
const calcInputKeys: Same<Exclude<keyof CalcInput, 'state' | 'county'>, DeclaredFact> = true;
const flagInputKeys: Same<Exclude<keyof FlagInput, 'state' | 'county'>, Exclude<DeclaredFlag, 'year'>> = true;
void calcInputKeys;
void flagInputKeys;

/** The home value when none is given (seed 000 §3: default 350000; rules/inputs.yaml). */
export const DEFAULT_VALUE: number = INPUTS.find((x) => x.id === 'value')!.default;
/** The veteran's disability level when none is given (rules/inputs.yaml). */
const DEFAULT_VETERAN: number = INPUTS.find((x) => x.id === 'veteranDisability')!.default;

/**
 * The flags → CalcInput, as rules/inputs.yaml says (a value not given: its default, or
 * null; booleans as given, their facts read !!x). Written out, not looped over the
 * declarations: a keyed loop made a batch row's input about ten times slower;
 * engine/declarations.test.ts checks this against the declarations.
 */
export function inputFromFlags(f: FlagInput, year?: number): CalcInput {
  return {
    state: f.state,
    county: f.county,
    value: f.value ?? DEFAULT_VALUE,
    year,
    propertyClass: f.class ?? null,
    homestead: f.homestead,
    over65: f.over65,
    seniorIncome: f.seniorIncome ?? null,
    seniorCitizen: f.seniorCitizen,
    disabled: f.disabled,
    wartimeVeteran: f.wartimeVeteran,
    combatVeteran: f.combatVeteran,
    veteranDisability: f.veteranDisability ?? DEFAULT_VETERAN,
    totallyDisabledVeteran: f.totallyDisabledVeteran,
    veteranIncome: f.veteranIncome ?? null,
    coldWarVeteran: f.coldWarVeteran,
    starType: f.star ?? null,
    priorAssessed: f.priorAssessed ?? null,
    purchasePrice: f.purchasePrice ?? null,
    purchaseYear: f.purchaseYear ?? null,
    melloRoos: f.melloRoos ?? null,
    taxAmount: f.tax ?? null,
    paymentYear: f.paymentYear ?? null,
    paymentMonth: f.paymentMonth ?? null,
    paymentDay: f.paymentDay ?? null,
    sellerTax: f.sellerTax ?? null,
    billYear: f.billYear ?? null,
    countyRate: f.countyRate ?? null,
  };
}

export interface ExplainStep extends StepInfo {
  value: FactValue;
  /** The step as a sentence with its figures, in the language asked for (sentence.ts): "label: $285,000 − $60,000 = $225,000". */
  sentence: string;
}
export interface CalcResult {
  state: string;
  county: string;
  year: number;
  program: string;
  [field: string]: unknown;
  notes: string[];
  explanation?: ExplainStep[];
}

export interface CalcOptions {
  explain?: boolean;
  lang?: Lang;
}
/** A state's name as looked up: accents, case, spaces, hyphens and periods do not count ("Nueva-Jersey" = "nueva jersey"). */
export function stateKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

/** What `prepare` works out for an input. */
export interface Prepared {
  compiled: CompiledProgram;
  facts: Facts;
  state: string;
  county: string;
  notes: string[];
}

/** Compiled programs by program and year: compiling is done once per process. */
export class Calculator {
  private cache = new Map<string, CompiledProgram>();
  private chooser = new Map<string, Array<{ test?: (v: Facts) => boolean; program: string }>>();
  private readonly source: ProgramSource | undefined;
  constructor(
    readonly bundle: Bundle,
    options: CalculatorOptions = {},
  ) {
    this.source = options.generated === false ? undefined : (options.generated ?? defaultSource);
  }

  /** A state by its code or its name in either language, in any case and with or without accents ("OH", "ohio", "Nueva Jersey"). */
  state(code: string): StateDef {
    const c = String(code).trim().toUpperCase();
    const s = this.bundle.states[c] ?? this.stateNames().get(stateKey(String(code)));
    if (s) return s;
    if ((PLANNED_STATES as readonly string[]).includes(c))
      throw inputError('NOT_SUPPORTED', 'notSupported', { code: c, covered: Object.keys(this.bundle.states).join(', ') });
    const codes = Object.keys(this.bundle.states).sort((a, b) => Number(a === 'HUB') - Number(b === 'HUB') || a.localeCompare(b));
    throw inputError('UNKNOWN_STATE', 'unknownState', { code: String(code), choices: codes.join(', ') });
  }

  private names?: Map<string, StateDef>;
  /** The states by stateKey of their names (en, es) and slug; the hub's name is not a state's. */
  private stateNames(): Map<string, StateDef> {
    if (!this.names) {
      this.names = new Map();
      for (const s of Object.values(this.bundle.states)) {
        if (s.tier === 'hub') continue;
        for (const n of [s.name.en, s.name.es, s.slug ?? '']) if (n) this.names.set(stateKey(n), s);
      }
    }
    return this.names;
  }

  compiled(programId: string, year: number): CompiledProgram {
    const key = `${programId}@${year}`;
    let c = this.cache.get(key);
    if (!c) {
      c = compileProgram(this.bundle, programId, year);
      const generated = this.source?.(this.bundle, programId, year);
      if (generated) c.generated = generated;
      this.cache.set(key, c);
    }
    return c;
  }

  /** Which year's rules: the latest covered by default; later years carry the latest forward. */
  year(programId: string, requested: number | undefined, lang?: Lang): { year: number; note?: string } {
    const years = this.bundle.programs[programId]!.years;
    const last = years[years.length - 1]!;
    if (requested === undefined) return { year: last };
    if (!Number.isInteger(requested)) throw inputError('INVALID_YEAR', 'yearWhole', { last });
    if (requested > last) return { year: last, note: message('rulesCarried', { year: requested, last }, lang) };
    if (years.includes(requested)) return { year: requested };
    throw inputError('YEAR_NOT_COVERED', 'yearNotCovered', { year: requested, years: years.join(', ') });
  }

  private programFor(state: StateDef, facts: Facts): string {
    let list = this.chooser.get(state.code);
    if (!list) {
      const slot = (f: string) => COUNTY_FACTS.indexOf(f as (typeof COUNTY_FACTS)[number]) + INPUT_FACTS.length;
      list = state.programs.map((p) => ({ test: p.when ? compileCondition(p.when, slot) : undefined, program: p.program }));
      this.chooser.set(state.code, list);
    }
    return list.find((p) => !p.test || p.test(facts))!.program;
  }

  calculate(input: CalcInput, options: CalcOptions = {}, calculator?: CalculatorDef): CalcResult {
    const lang = options.lang ?? 'en';
    const p = this.prepare(input, lang, calculator);
    const out = {
      state: p.state,
      county: p.county,
      year: p.compiled.year,
      program: p.compiled.program.id,
      ...evaluate(p.compiled, p.facts, lang, options.explain === true),
    } as CalcResult;
    out.notes.push(...p.notes);
    if (options.explain) {
      const c = p.compiled;
      const words = new SentenceBuilder(this.bundle, c.program, c.names, lang);
      out.explanation = c.stepInfo.map((info, i) => ({ ...info, value: p.facts[c.steps[i]!.slot] as FactValue, sentence: words.sentence(i, p.facts) }));
    }
    return out;
  }

  /**
   * Looks up state, county, program and year, and fills the fact array for `evaluate`.
   * An input error's message is in `lang`.
   */
  prepare(input: CalcInput, lang?: Lang, calculator?: CalculatorDef): Prepared {
    try {
      return this.prepareIn(input, lang, calculator);
    } catch (e) {
      throw localized(e, lang);
    }
  }

  private prepareIn(input: CalcInput, lang: Lang | undefined, calculator: CalculatorDef | undefined): Prepared {
    const state = this.state(input.state);
    const given = typeof input.county === 'string' && input.county.trim() !== '';
    // The hub has no counties, and some calculators need none: a county is then not read.
    const needsCounty = state.counties.length > 0 && (calculator ? calculator.county : true);
    if (needsCounty && !given) throw inputError('MISSING_COUNTY', 'missingCounty');
    checkNumbers(input);
    const match = needsCounty ? findCounty(state, input.county) : undefined;
    const inputs = inputFacts(input);
    // A county's program is chosen by its flags (the rate in force waits for the year);
    // an alias names its program; a calculator names its own.
    const programId =
      calculator?.program ??
      (!match
        ? this.programFor(state, [...inputs, ...countyFacts(undefined, null)])
        : match.county
          ? this.programFor(state, [...inputs, ...countyFacts(match.county, null)])
          : match.alias.program);
    const { year, note } = this.year(programId, input.year, lang);
    const c = this.compiled(programId, year);
    const inForce = match?.county ? countyRateAt(match.county, c.date) : undefined;
    const own = inForce?.rate;
    const rate = input.countyRate ?? own?.value ?? null;
    // Inputs and county facts fill the first slots of a copy of the program's template.
    const v = Object.assign(c.template.slice(), [...inputs, ...countyFacts(match?.county, rate, own)]);
    v[YEAR_SLOT] = input.year ?? year;
    const county = !match ? '' : match.county ? match.county.name : match.alias.name;
    const notes = note === undefined ? [] : [note];
    if (inForce?.carried && (input.countyRate === null || input.countyRate === undefined))
      notes.push(message('rateCarriedBack', { first: inForce.rate.effective.slice(0, 4), year: c.date.slice(0, 4) }, lang));
    if (input.countyRate !== null && input.countyRate !== undefined) {
      notes.push(
        own
          ? message('rateGiven', { given: percent(input.countyRate, lang), own: percent(own.value as number, lang) }, lang)
          : message('rateGivenNoOwn', { given: percent(input.countyRate, lang) }, lang),
      );
    }
    return { compiled: c, facts: v, state: state.code, county, notes };
  }

  /** The state's specialised calculator by name, or an error listing those it has. */
  calculatorOf(stateCode: string, name: string): CalculatorDef {
    const state = this.state(stateCode);
    const k = state.calculators.find((x) => x.name === name);
    if (k) return k;
    const names = state.calculators.map((x) => x.name);
    throw names.length
      ? inputError('UNKNOWN_CALCULATOR', 'unknownCalculator', { state: state.code, name, names: names.join(', ') })
      : inputError('UNKNOWN_CALCULATOR', 'noCalculators', { state: state.code });
  }

  /**
   * Runs a specialised calculator. A program calculator is evaluated like `calculate`; a
   * comparison runs the state's calculation for the same input under each of its two
   * years and reports the tax under each and the difference (first − second).
   */
  run(name: string, input: CalcInput, options: CalcOptions = {}): CalcResult {
    let k: CalculatorDef;
    try {
      k = this.calculatorOf(input.state, name);
    } catch (e) {
      throw localized(e, options.lang);
    }
    if (!k.compare) return this.calculate(input, options, k);
    const [y0, y1] = k.compare.years;
    const a = this.calculate({ ...input, year: y0 }, options);
    const b = this.calculate({ ...input, year: y1 }, options);
    const tax = (r: CalcResult) => r.annualTax as number;
    // Each proposition saves what its result fields grew by from the first year to the second.
    const field = (r: CalcResult, path: string) => {
      const x = path.split('.').reduce<unknown>((o, key) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[key] : undefined), r);
      return typeof x === 'number' ? x : 0;
    };
    const propositions = (k.propositions ?? []).map((p) => ({
      id: p.id,
      savings: roundTo(
        p.savings.reduce((sum, f) => sum + field(b, f) - field(a, f), 0),
        DECIMALS.usd,
      ),
    }));
    return {
      state: a.state,
      county: a.county,
      year: y1,
      program: a.program,
      calculator: k.name,
      years: [y0, y1],
      taxBefore: tax(a),
      taxAfter: tax(b),
      savings: roundTo(tax(a) - tax(b), DECIMALS.usd),
      ...(propositions.length ? { propositions } : {}),
      before: a,
      after: b,
      notes: b.notes,
    };
  }
}

/**
 * Runs a compiled program on a filled fact array (inputs, county facts, parameters):
 * validations first, then every step, then the result and its notes.
 */
export function evaluate(c: CompiledProgram, v: Facts, lang: Lang = 'en', keepSteps = true): Record<string, unknown> & { notes: string[] } {
  // keepSteps: the steps' values left in their slots (for --explain); a generated program
  // then writes them back, the interpreter always does.
  if (c.generated) return c.generated.evaluate(v, lang, keepSteps);
  for (const val of c.validations) if (val.test(v)) throw new PtaxError(val.code, val.message[lang]);
  for (const s of c.steps) v[s.slot] = s.run(v);
  const result = c.result(v) as Record<string, unknown> & { notes: string[] };
  result.notes = c.notes.filter((n) => n.test(v)).map((n) => n.text[lang]);
  return result;
}

const NUMERIC_TYPES = new Set<string>(['money', 'number', 'integer', 'year']);
/**
 * The numeric inputs besides the value and the year (the year is checked as the rules'
 * year is chosen), each absent or a finite number (`checkNumbers`), in the declarations'
 * order: money, number, integer and year inputs, and a date's facts.
 */
export const OPTIONAL_NUMBERS = INPUTS.flatMap((x): string[] =>
  x.id === 'value' || x.id === 'year' ? [] : x.type === 'date' ? Object.values(x.facts) : NUMERIC_TYPES.has(x.type) ? [x.id] : [],
) as ReadonlyArray<Exclude<NumericFact, 'value' | 'year'>>;
type NumericFact = { [K in keyof CalcInput]-?: NonNullable<CalcInput[K]> extends number ? K : never }[keyof CalcInput];

/** Numbers must be numbers (Number.isFinite is false for anything else): NaN or Infinity would slip past every comparison. */
function checkNumbers(input: CalcInput): void {
  if (!Number.isFinite(input.value)) throw inputError('INVALID_VALUE', 'valueNotNumber');
  for (const k of OPTIONAL_NUMBERS) {
    const x = input[k];
    if (x !== undefined && x !== null && !Number.isFinite(x)) throw inputError('INVALID_NUMBER', 'notNumber', { field: { key: `field.${k}` } });
  }
  const r = input.countyRate;
  if (r !== undefined && r !== null && !(r >= 0 && r <= 100)) throw inputError('INVALID_RATE', 'rateRange', { rate: r });
}

/**
 * The county facts in COUNTY_FACTS order: the rate used, whether each flag is set, the
 * typical owner's rate, the parts of the county's own rate in force and its units' names
 * (null where the data has none).
 */
export function countyFacts(county: CountyDef | undefined, rate: number | null, own?: CountyRate): FactValue[] {
  const flags = new Set(county?.flags);
  const parts = own?.parts;
  return COUNTY_FACTS.map((f): FactValue => {
    switch (f) {
      case 'countyRate':
        return rate;
      case 'typicalRate':
        return county?.typicalRate?.value ?? null;
      case 'schoolPart':
        return parts ? parts.school : null;
      case 'countyPart':
        return parts ? parts.county : null;
      case 'cityPart':
        return parts ? parts.city : null;
      case 'specialPart':
        return parts ? parts.special : null;
      case 'schoolUnit':
        return own?.units?.school ?? null;
      case 'cityUnit':
        return own?.units?.city ?? null;
      default:
        return flags.has(f);
    }
  });
}

/**
 * An input's facts in INPUT_FACTS order, read as rules/inputs.yaml says: a boolean as
 * !!x, anything else as given, else its default (the veteran's level), else null (`year`:
 * the year asked for; prepare puts the rules' year when none). Written out, as
 * inputFromFlags; engine/declarations.test.ts checks it against the declarations.
 */
export function inputFacts(input: CalcInput): FactValue[] {
  return INPUT_FACTS.map((f) => inputFact(input, f));
}

function inputFact(input: CalcInput, f: (typeof INPUT_FACTS)[number]): FactValue {
  switch (f) {
    case 'value':
      return input.value;
    case 'propertyClass':
      return input.propertyClass ?? null;
    case 'homestead':
      return !!input.homestead;
    case 'over65':
      return !!input.over65;
    case 'seniorIncome':
      return input.seniorIncome ?? null;
    case 'seniorCitizen':
      return !!input.seniorCitizen;
    case 'disabled':
      return !!input.disabled;
    case 'wartimeVeteran':
      return !!input.wartimeVeteran;
    case 'combatVeteran':
      return !!input.combatVeteran;
    case 'veteranDisability':
      return input.veteranDisability ?? DEFAULT_VETERAN;
    case 'totallyDisabledVeteran':
      return !!input.totallyDisabledVeteran;
    case 'veteranIncome':
      return input.veteranIncome ?? null;
    case 'coldWarVeteran':
      return !!input.coldWarVeteran;
    case 'starType':
      return input.starType ?? null;
    case 'priorAssessed':
      return input.priorAssessed ?? null;
    case 'purchasePrice':
      return input.purchasePrice ?? null;
    case 'purchaseYear':
      return input.purchaseYear ?? null;
    case 'melloRoos':
      return input.melloRoos ?? null;
    case 'taxAmount':
      return input.taxAmount ?? null;
    case 'paymentYear':
      return input.paymentYear ?? null;
    case 'paymentMonth':
      return input.paymentMonth ?? null;
    case 'paymentDay':
      return input.paymentDay ?? null;
    case 'sellerTax':
      return input.sellerTax ?? null;
    case 'billYear':
      return input.billYear ?? null;
    case 'year':
      return input.year ?? null; // filled in by prepare once the rules' year is known
  }
}
