/** The calculation: state and county look-up, year selection, validation, steps, result. */
import { compileProgram, compileProgramLazily, type CompiledProgram, type StepInfo } from './compile.js';
import { compileCondition, type Facts } from './conditions.js';
import { countyCount, countyRateAt, findCounty, stateCodeOf, stateKey, stateNamesOf } from './counties.js';
export { stateKey };
import { PtaxError } from './errors.js';
import { inputError, localized, message, percent } from './messages.js';
import { DECIMALS, roundTo } from './round.js';
import { COUNTY_FACTS, type Bundle, type CalculatorDef, type CountyDef, type CountyRate, type FactValue, type Lang, type StateDef } from './types.js';
import { INPUTS, type DeclaredCalcInput, type DeclaredFlagInput } from '../generated/inputs.js';
import { factTable, registryOf } from './registry.js';
import { SentenceBuilder } from './sentence.js';
import type { GeneratedProgram } from '../codegen/runtime.js';
import type { ProgramIR } from './ir.js';

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
  /**
   * A program's lowered form for a year made at build time, when there is one (the web's
   * data package carries them, so that a phone does not lower the program it runs); else
   * the program is lowered at its first use. It must be the form lowerProgram gives (the
   * web's test compares them for every program and year of every package).
   */
  lowered?: (programId: string, year: number) => ProgramIR | undefined;
}

/**
 * The input of a calculation: the state, the county, the home value and the year asked for,
 * then every input rules/inputs.yaml declares, by its fact (engine/generated/inputs.ts).
 * A rules folder may declare more: those are read by name from the same object.
 */
export interface CalcInput extends DeclaredCalcInput {
  state: string;
  county: string;
  value: number;
  year?: number;
}

/**
 * The command line's flags, by their camelCase names (the golden fixtures' input keys are
 * the same names), with numbers already parsed. `null` and absent mean "not given".
 */
export interface FlagInput extends DeclaredFlagInput {
  state: string;
  county: string;
}

/** The home value when none is given (seed 000 §3: default 350000; rules/inputs.yaml). */
export const DEFAULT_VALUE: number = INPUTS.find((x) => x.id === 'value')!.default;

/**
 * The flags → CalcInput, as the bundle's declarations say (rules/inputs.yaml): each flag
 * key to its fact; a value not given is left out (inputFacts then reads its default, or
 * null; booleans are read !!x). Without a bundle, the declarations the code was built with.
 */
export function inputFromFlags(f: FlagInput, year?: number, bundle?: Bundle): CalcInput {
  const flags = f as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = { state: f.state, county: f.county, value: flags.value ?? DEFAULT_VALUE, year };
  for (const e of bundle ? registryOf(bundle).table : builtIn().table) {
    if (e.fact === 'year' || e.fact === 'value') continue;
    const x = flags[e.key];
    out[e.fact] = x === undefined || x === null ? (e.type === 'boolean' ? x : (e.default ?? null)) : x;
  }
  return out as unknown as CalcInput;
}

export interface ExplainStep extends StepInfo {
  value: FactValue;
  /** The step as a sentence with its figures, in the language asked for (sentence.ts): "label: $285,000 − $60,000 = $225,000". Written when first read. */
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
  /**
   * Each compiled program's sentence builder, by language: a builder holds only what the
   * program and this calculator's bundle say (every step's unit, the number formats), never a
   * result's facts, so one serves every result of that program. A new one per result worked
   * out every step's unit again (~7% of web/src/lib/generated.test.ts's CPU).
   */
  private words = new WeakMap<CompiledProgram, Partial<Record<Lang, SentenceBuilder>>>();
  private readonly source: ProgramSource | undefined;
  private readonly lowered: CalculatorOptions['lowered'];
  constructor(
    readonly bundle: Bundle,
    options: CalculatorOptions = {},
  ) {
    this.source = options.generated === false ? undefined : (options.generated ?? defaultSource);
    this.lowered = options.lowered;
  }

  /** A state by its code or its name in either language, in any case and with or without accents ("OH", "ohio", "Nueva Jersey"). */
  state(code: string): StateDef {
    const found = stateCodeOf(this.bundle.states, code, () => (this.names ??= stateNamesOf(this.bundle.states)));
    const s = found === undefined ? undefined : this.bundle.states[found];
    if (s) return s;
    const codes = Object.keys(this.bundle.states).sort((a, b) => Number(a === 'HUB') - Number(b === 'HUB') || a.localeCompare(b));
    throw inputError('UNKNOWN_STATE', 'unknownState', { code: String(code), choices: codes.join(', ') });
  }

  /** The states' codes by stateKey of their names (`stateNamesOf`), made on the first name looked up. */
  private names?: Map<string, string>;

  compiled(programId: string, year: number): CompiledProgram {
    const key = `${programId}@${year}`;
    let c = this.cache.get(key);
    if (!c) {
      // Lowered once (a missing program or value throws here); the generated module, when
      // one matches, runs it, else the walker (engine/core/walk.ts). A lowered form made
      // at build time (the web's data package) is taken as it is; with a source of generated
      // modules and a template known ahead (the rule build's split), the lowering waits until
      // something reads it (--explain, or no matching module).
      const lowered = this.lowered?.(programId, year);
      c = lowered
        ? compileProgram(this.bundle, programId, year, lowered)
        : this.source
          ? compileProgramLazily(this.bundle, programId, year)
          : compileProgram(this.bundle, programId, year);
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

  /**
   * The program `prepare` chooses for a county or alias of a state with no other input than a
   * value (by the county's flags), without compiling it: the web's county list reads it on
   * load, before any calculation (issue 28).
   */
  countyProgram(stateCode: string, county: string): string {
    const state = this.state(stateCode);
    const match = findCounty(state, county);
    const inputs = inputFacts({ state: stateCode, county, value: 1 });
    if (match && !match.county) return match.alias.program;
    return this.programFor(state, [...inputs, ...countyFacts(match?.county, null)]);
  }

  private programFor(state: StateDef, facts: Facts): string {
    let list = this.chooser.get(state.code);
    if (!list) {
      const facts = registryOf(this.bundle).facts;
      const slot = (f: string) => facts.indexOf(f);
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
      const facts = p.facts;
      // Each step's sentence is written when it is first read, from these facts (nothing
      // changes them after this call): the same text, but a result whose explanation is not
      // read does not pay for it (issue 27: the web shows the sentences when its explanation
      // is opened; in a profile of a phone's first calculation they were about 28% of it,
      // and about half once the lowered forms were shipped).
      let words: SentenceBuilder | undefined;
      const sentence = (i: number) => (words ??= this.wordsOf(c, lang)).sentence(i, facts);
      out.explanation = c.stepInfo.map((info, i): ExplainStep => {
        let text: string | undefined;
        return {
          ...info,
          value: facts[c.steps[i]!.slot] as FactValue,
          get sentence() {
            return (text ??= sentence(i));
          },
          set sentence(s: string) {
            text = s;
          },
        };
      });
    }
    return out;
  }

  /** The sentence builder of a compiled program in a language (see `words`). */
  private wordsOf(c: CompiledProgram, lang: Lang): SentenceBuilder {
    let byLang = this.words.get(c);
    if (!byLang) this.words.set(c, (byLang = {}));
    return (byLang[lang] ??= new SentenceBuilder(this.bundle, c.program, c.names, lang));
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
    const needsCounty = countyCount(state) > 0 && (calculator ? calculator.county : true);
    if (needsCounty && !given) throw inputError('MISSING_COUNTY', 'missingCounty');
    checkNumbers(input, this.bundle);
    const match = needsCounty ? findCounty(state, input.county) : undefined;
    const reg = registryOf(this.bundle);
    const inputs = inputFacts(input, this.bundle);
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
    // Inputs and county facts fill the first slots of a copy of the program's template
    // (a loop: Object.assign on an array took most of a first row's time in batch mode).
    const v = c.template.slice();
    const county = countyFacts(match?.county, rate, own);
    for (let i = 0; i < inputs.length; i++) v[i] = inputs[i];
    for (let j = 0; j < county.length; j++) v[inputs.length + j] = county[j];
    v[reg.yearSlot] = input.year ?? year;
    const name = !match ? '' : match.county ? match.county.name : match.alias.name;
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
    return { compiled: c, facts: v, state: state.code, county: name, notes };
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

/** The declarations the code was built with (engine/generated/inputs.ts), for callers without a bundle. */
/** (Made on first use: a calculation with a bundle, `ptax calc`'s, does not need them.) */
let builtInRegistry: { table: ReturnType<typeof factTable>; readers: ReturnType<typeof registryOf>['readers'] } | undefined;
function builtIn(): NonNullable<typeof builtInRegistry> {
  if (!builtInRegistry) {
    const table = factTable(INPUTS);
    builtInRegistry = { table, readers: registryOf({ format: 1, parameters: {}, programs: {}, states: {}, inputs: [], results: [], facts: table }).readers };
  }
  return builtInRegistry;
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
function checkNumbers(input: CalcInput, bundle: Bundle): void {
  if (!Number.isFinite(input.value)) throw inputError('INVALID_VALUE', 'valueNotNumber');
  const given = input as unknown as Record<string, unknown>;
  for (const k of registryOf(bundle).numbers) {
    const x = given[k];
    if (x !== undefined && x !== null && !Number.isFinite(x)) {
      const name = registryOf(bundle).table.find((e) => e.fact === k)?.name;
      throw inputError('INVALID_NUMBER', 'notNumber', { field: name ? { text: name } : k });
    }
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
 * An input's facts in the bundle's slot order (engine/core/registry.ts), read as its
 * declarations say: a boolean as !!x, anything else as given, else its default, else null
 * (`year`: the year asked for; prepare puts the rules' year when none).
 */
export function inputFacts(input: CalcInput, bundle?: Bundle): FactValue[] {
  const readers = bundle ? registryOf(bundle).readers : builtIn().readers;
  const x = input as unknown as Record<string, unknown>;
  const out = new Array<FactValue>(readers.length);
  for (let i = 0; i < readers.length; i++) out[i] = readers[i]!(x);
  return out;
}
