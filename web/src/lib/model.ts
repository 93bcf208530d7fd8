/**
 * The calculator's model: the form's values, the edition's counties with their rates, the
 * property-type rates and the income limit read from the rule data, the mapping from the
 * form to the engine's input, and from the engine's result to what the page shows.
 * No tax figure lives here: every rate, amount and limit is read from the data package.
 */
import type { TFunction } from 'i18next';
import { Calculator, DEFAULT_VALUE, type CalcInput, type CalcResult, type ExplainStep } from '../../../engine/index.js';
import { countyRateAt, periodStart, slugOf, valueAt } from '../../../engine/index.js';
import type { Bundle, CountyDef, ParameterDef, StateDef } from '../../../engine/index.js';
import { at, declarationsOf, type Declarations, type InputDecl, type ResultFieldDecl } from './declarations.js';
import { PtaxError } from '../../../engine/index.js';
import { clampValue } from './parseValue.js';
import { COMMERCIAL_TYPES, PROPERTY_TYPES } from './config.js';
import { formatNumber, type Lang } from './format.js';
import { loadProgramsOf } from './generated.js';
import type { CountyFactsPackage } from './stateData.js';
import { loweredOf } from './lowered.js';

export type PropertyType = '' | (typeof PROPERTY_TYPES)[number];
export type InputValue = boolean | number | string | null;
export type Ownership = 'buying' | 'owned';

/**
 * Client state of the calculator (seed 000 §3, "Calculator input"): the value, county,
 * property type and tax year, and one entry per declared input of the edition (by the
 * input's id: `homestead`, `over65`, `veteranDisability`, `priorAssessed`, …).
 */
export interface FormValues {
  homeValue: number;
  county: string; // county name, '' when none chosen
  propertyType: PropertyType;
  /** The tax year asked for, '' for the latest the rules cover. */
  year: string;
  showSchoolTaxBreakdown: boolean;
  /** Issue 21: buying (or bought this year), or owned the home for a while; owner_only inputs are asked and used only when owned. */
  ownership: Ownership;
  [input: string]: InputValue;
}

/** Inputs the form shows in fields of its own (not in the declared-inputs list). */
const OWN_FIELDS = new Set(['value', 'propertyClass', 'year']);

/** A declared input's empty value in the form: its default, else off / not given. */
export function emptyValue(d: InputDecl): InputValue {
  if (d.default !== undefined) return d.default;
  return d.type === 'boolean' ? false : null;
}

export const DEFAULT_FORM: FormValues = {
  homeValue: DEFAULT_VALUE,
  county: '',
  propertyType: '',
  year: '',
  showSchoolTaxBreakdown: false,
  ownership: 'buying',
};

/** The form's starting values for an edition: every declared input at its empty value. */
export function defaultForm(edition: Pick<Edition, 'formInputs'>): FormValues {
  const v: FormValues = { ...DEFAULT_FORM };
  for (const d of edition.formInputs) v[d.id] = emptyValue(d);
  return v;
}

/** The message for a number outside a declared input's bounds, or '' (years without separators). */
export function boundsMessage(d: InputDecl, x: unknown, lang: Lang, t: TFunction): string {
  if (typeof x !== 'number') return '';
  const show = (n: number) => (d.type === 'year' ? String(n) : formatNumber(n, lang));
  if (d.min !== undefined && x < d.min) return t('form.atLeast', { min: show(d.min) });
  if (d.max !== undefined && x > d.max) return t('form.atMost', { max: show(d.max) });
  return '';
}

/** Exemption inputs that class4 clears and disables (seed 000 §2; rules reference: every residential exemption). */
export function isResidentialInput(d: InputDecl): boolean {
  return d.type === 'boolean' || d.id === 'veteranDisability' || d.requires !== undefined;
}

export interface CountyInfo {
  name: string;
  slug: string;
  flags: string[];
  /** The county rate in percent: the official nominal rate in force, else the Census effective rate (rules reference §1). */
  rate: number | null;
  /** The typical owner's rate in percent (the Census effective rate), a comparison; null where the data has none. */
  typicalRate: number | null;
  needsPropertyType: boolean;
  program: string;
  /** Median value of the county's owner-occupied homes (counties file), if the data gives one. */
  medianValue: number | null;
  /** Population on July 1, 2023 (Census PEP Vintage 2023; county facts), if known. */
  population?: number | null;
  /** Median real estate taxes paid (ACS B25103; county facts), in dollars; `taxesTopCoded`: $10,000 or more. */
  medianTax?: number | null;
  taxesTopCoded?: boolean;
}

export interface Edition {
  code: string;
  stateName: { en: string; es: string };
  /**
   * The engine over the edition's rules: the interpreter, then a Calculator running the
   * generated programs once they are loaded. The first use is the interpreter's; the
   * second asks for the generated programs (when the browser is idle), which the uses
   * after their arrival run (lib/generated.ts says why not sooner).
   */
  readonly calculator: Calculator;
  /**
   * Loads the generated programs of the edition's package (once) and, when they match its
   * rules, makes `calculator` a Calculator that runs them; resolves to whether it does.
   */
  loadGenerated(): Promise<boolean>;
  bundle: Bundle;
  state: StateDef;
  /** The declared inputs (rules/inputs.yaml) and result fields (rules/results.yaml). */
  decl: Declarations;
  /** The declared inputs this edition's main form offers, in declaration order. */
  formInputs: InputDecl[];
  /** The tax years a county's rules hold (a choice is offered when there are two or more). */
  years(county: CountyInfo | undefined): number[];
  /**
   * The year whose rates the edition's estimates use by default (issue 24: one year in titles,
   * result, share text and PDF): the latest year of the program most of its counties use (New
   * York: the counties outside New York City, whose fiscal years are their own program's).
   */
  ratesYear: number;
  /** The latest tax year any of the edition's programs holds. */
  latestYear: number;
  /** The state's average effective rate (percent; profile.stats.average_rate), or null. */
  stateAverageRate: number | null;
  counties: CountyInfo[];
  /** The national median rate and the sources of the county facts (issue 24), when the package has them. */
  facts: Pick<CountyFactsPackage, 'national' | 'sources'> | null;
  /** Names the rules accept besides counties (New York City as a whole), calculated by their program. */
  places: CountyInfo[];
  county(name: string): CountyInfo | undefined;
  /** The class rates (percent) of a county's program, from its by-class rate parameter. */
  classRates(county: CountyInfo): Record<string, number>;
  /** The Enhanced STAR income limit for a county's program, if the rules have one. */
  incomeLimit(county: CountyInfo | undefined): number | null;
  /** New York City: the class 2 value from which the form warns that it looks like a sale price (rules ny.nyc.class2_sale_price_warning), or null. */
  class2SalePriceWarning(county: CountyInfo | undefined): number | null;
}

export const whenIdle = (f: () => void): void => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(f);
  else setTimeout(f, 0);
};

const findParam = (bundle: Bundle, ids: string[], test: (p: ParameterDef) => boolean) =>
  ids.map((id) => bundle.parameters[id]).find((p): p is ParameterDef => !!p && test(p));

export function makeEdition(bundle: Bundle): Edition {
  // The interpreter, until the generated programs are loaded (lib/generated.ts).
  // Lowered at build time where the data package has the form (lib/lowered.ts).
  const lowered = loweredOf(bundle);
  const calculator = new Calculator(bundle, { generated: false, lowered });
  const state = Object.values(bundle.states)[0]!;
  // The date the latest year's rules take effect, as the compiled program has it, without
  // compiling it (issue 28: the programs compile at the first calculation, not on load).
  const dateOf = (programId: string) => {
    const p = bundle.programs[programId]!;
    return periodStart(p.period, p.years[p.years.length - 1]!);
  };
  // A county's program for the listing is prepare's for a value of 1 and no other input,
  // which reads only the county's flags (the state's program conditions see the rate as
  // null): one prepare per set of flags, not per county (254 in Texas). Its rate is the
  // rate in force on that program's date, read as prepare reads it (lib/generated.test.ts
  // compares both with prepare's for every county of every edition).
  const programByFlags = new Map<string, string>();
  const programOf = (c: CountyDef): string => {
    const key = [...new Set(c.flags)].sort().join(' ');
    let program = programByFlags.get(key);
    if (program === undefined) {
      program = calculator.countyProgram(state.code, c.slug);
      programByFlags.set(key, program);
    }
    return program;
  };
  const facts = (bundle as Bundle & { countyFacts?: CountyFactsPackage }).countyFacts;
  const countyOf = (c: CountyDef): CountyInfo => {
    const program = programOf(c);
    const rate = countyRateAt(c, dateOf(program))?.rate.value;
    return {
      name: c.name,
      slug: c.slug,
      flags: c.flags,
      rate: typeof rate === 'number' ? rate : null,
      needsPropertyType: c.flags.includes('nycClass'),
      program,
      medianValue: c.medianValue ?? null,
      typicalRate: c.typicalRate?.value ?? null,
      population: facts?.counties[c.name]?.[0] ?? null,
      medianTax: facts?.counties[c.name]?.[1] ?? null,
      taxesTopCoded: facts?.counties[c.name]?.[2] ?? false,
    };
  };
  const counties = state.counties.map(countyOf);
  const decl = declarationsOf(bundle);
  const formInputs = decl.inputs.filter((d) => d.states.includes(state.code) && d.web !== false && !OWN_FIELDS.has(d.id));
  const programParams = (programId: string) => Object.values(bundle.programs[programId]?.parameters ?? {});
  const places = state.aliases.map((a): CountyInfo => {
    const like = counties.filter((c) => c.program === a.program);
    const flags = like.length && like.every((c) => c.needsPropertyType) ? ['nycClass'] : [];
    return {
      name: a.name,
      slug: slugOf(a.name),
      flags,
      rate: null,
      typicalRate: null,
      needsPropertyType: flags.length > 0,
      program: a.program,
      medianValue: null,
    };
  });
  const byName = new Map([...counties, ...places].map((c) => [c.name.toLowerCase(), c]));
  let generated: Promise<boolean> | undefined;
  let current = calculator;
  let uses = 0;
  const edition: Edition = {
    code: state.code,
    stateName: state.name,
    facts: facts ? { national: facts.national, sources: facts.sources } : null,
    get calculator() {
      if (uses++ === 1) whenIdle(() => void edition.loadGenerated());
      return current;
    },
    loadGenerated() {
      generated ??= loadProgramsOf(bundle).then((source) => {
        if (!source) return false;
        current = new Calculator(bundle, { generated: source, lowered });
        return true;
      });
      return generated;
    },
    bundle,
    state,
    decl,
    formInputs,
    years: (county) => {
      const program = county?.program ?? counties[0]?.program;
      return program ? (bundle.programs[program]?.years ?? []) : [];
    },
    stateAverageRate: (() => {
      const id = state.profile?.stats.average_rate;
      const p = id ? bundle.parameters[id] : undefined;
      const v = p?.values?.at(-1)?.value;
      return typeof v === 'number' ? v : null;
    })(),
    latestYear: Math.max(0, ...counties.map((c) => bundle.programs[c.program]?.years.at(-1) ?? 0)),
    ratesYear: ratesYearOf(
      counties.map((c) => c.program),
      (id) => bundle.programs[id]?.years ?? [],
    ),
    counties,
    places,
    county: (name) => (name ? byName.get(name.toLowerCase()) : undefined),
    classRates(county) {
      const p = findParam(bundle, programParams(county.program), (d) => d.type === 'by_key' && d.unit === 'percent' && !!d.keys?.includes('class1'));
      const v = p && valueAt(p, dateOf(county.program))?.value;
      return v && typeof v === 'object' ? (v as Record<string, number>) : {};
    },
    incomeLimit(county) {
      return programScalar(county?.program ?? counties[0]?.program, 'enhancedIncomeLimit');
    },
    class2SalePriceWarning(county) {
      return county?.needsPropertyType ? programScalar(county.program, 'class2SalePriceWarning') : null;
    },
  };
  /** A scalar parameter of a program, by its name in the program, at the program's date. */
  function programScalar(program: string | undefined, name: string): number | null {
    if (!program) return null;
    const id = bundle.programs[program]?.parameters[name];
    const p = id ? bundle.parameters[id] : undefined;
    const v = p && valueAt(p, dateOf(program))?.value;
    return typeof v === 'number' ? v : null;
  }
  return edition;
}

export const isCommercial = (t: string) => COMMERCIAL_TYPES.includes(t);

/** Seed 000 §2/§5: a county, a value above 0 and, for NYC, a property type. */
export function canCalculate(v: FormValues, county: CountyInfo | undefined): boolean {
  return !!county && clampValue(v.homeValue) > 0 && (!county.needsPropertyType || !!v.propertyType);
}

/** Seed 000 §5: over-65 with income above the limit, or with no income given, gets Basic STAR. */
export function incomeExceedsLimit(v: FormValues, limit: number | null): boolean {
  if (!v.over65 || limit === null) return false;
  return v.seniorIncome === null || v.seniorIncome === undefined || (v.seniorIncome as number) > limit;
}

/** The owner-only inputs that apply to this county (the buyer-or-owner question is asked only where there are some). */
export function ownerInputs(edition: Pick<Edition, 'code' | 'formInputs'>, county: CountyInfo | undefined): InputDecl[] {
  return edition.formInputs.filter((d) => d.owner_only && inputShown(d, { ...DEFAULT_FORM, ownership: 'owned' }, county, edition.code));
}

/** Whether a declared input is shown for these values and this county (its `requires` and `county_flag`). */
export function inputShown(d: InputDecl, v: FormValues, county: CountyInfo | undefined, state: string): boolean {
  if (d.requires && !v[d.requires]) return false;
  // A buyer is not asked what only an owner of a while knows, and a value typed before switching back is not used.
  if (d.owner_only && v.ownership !== 'owned') return false;
  const flag = d.county_flag?.[state];
  if (flag && !county?.flags.includes(flag)) return false;
  return true;
}

/** A form value as the engine takes it, by the input's type. */
function engineValue(d: InputDecl, x: InputValue): InputValue | undefined {
  if (d.type === 'boolean') return !!x;
  if (x === null || x === undefined || x === '') return null;
  if (d.type === 'choice' || d.type === 'text') return String(x);
  const n = typeof x === 'number' ? x : Number(x);
  return Number.isFinite(n) ? n : null;
}

/** The engine's input for the form's values (the mapping of rules reference §3 is in the rules). */
export function toCalcInput(v: FormValues, edition: Pick<Edition, 'code' | 'formInputs'>, county: CountyInfo): CalcInput {
  const commercial = county.needsPropertyType && isCommercial(v.propertyType);
  const input: Record<string, unknown> = {
    state: edition.code,
    county: county.slug,
    value: clampValue(v.homeValue),
    propertyClass: county.needsPropertyType ? v.propertyType || null : null,
  };
  if (v.year) input.year = Number(v.year);
  for (const d of edition.formInputs) {
    if (!inputShown(d, v, county, edition.code)) continue;
    // Class 4 takes no residential exemption: those inputs go at their empty value.
    const x = engineValue(d, commercial && isResidentialInput(d) ? emptyValue(d) : (v[d.id] ?? null));
    if (x !== undefined && x !== null) input[d.id] = x;
  }
  return input as unknown as CalcInput;
}

export interface Breakdown {
  school: number;
  county: number;
  city: number;
  special: number;
}
export interface ResultView {
  county: string;
  countySlug: string;
  year: number;
  annualTax: number;
  monthlyTax: number;
  effectiveRate: number; // percent: your tax ÷ your value
  /** The value the visitor typed (the market value), before any assessment rule. */
  marketValue: number;
  /** The county rate used (percent), and the county's typical owner's rate (Census), where the result gives them. */
  countyRate: number | null;
  typicalRate: number | null;
  baseAssessedValue: number;
  finalAssessedValue: number;
  taxableValue: number;
  taxableValues: Breakdown;
  exemptionSavings: number;
  exemptions: Array<{ key: string; amount: number; detail?: Record<string, unknown>; label?: string }>;
  breakdown: Breakdown;
  potentialSavings: number;
  notes: string[];
  steps: ExplainStep[];
  quarterlyPayment?: number;
  schoolTaxBeforeExemptions?: number;
  /** The state's detail object (`nyc`, `texas`, `california`, `florida`), field by field as declared. */
  details: DetailView[];
  /** California with a Mello-Roos special tax given: the bill a buyer budgets for (tax plus Mello-Roos) and its monthly share (issue 24). */
  withMelloRoos?: { melloRoos: number; total: number; monthly: number };
  /** The state and the figures of the generic result as the engine gave them (for the share link, the PDF, the charts). */
  state: string;
}

export interface FieldView {
  id: string;
  label: string;
  unit: ResultFieldDecl['unit'];
  value: unknown;
}
export interface DetailView {
  key: string;
  fields: FieldView[];
}

/** The result's detail objects a result view shows: the state's own (its state file's `detail`) that the result holds. */
export function detailKeysOf(r: unknown, state?: Pick<StateDef, 'detail'>): string[] {
  const o = (r ?? {}) as Record<string, unknown>;
  const keys = state?.detail ?? [];
  return keys.filter((k) => o[k] !== null && typeof o[k] === 'object' && !Array.isArray(o[k]));
}

/** The declared fields of `group` that the result has, with their labels in `lang`. */
export function fieldsOf(decl: Declarations, r: unknown, group: string, lang: Lang, calculator?: string): FieldView[] {
  return decl.results
    .filter((f) => f.group === group && (!calculator || !f.calculators || f.calculators.includes(calculator)))
    .map((f) => ({ id: f.id, label: f.label[lang] ?? f.label.en, unit: f.unit, value: at(r, f.id) }))
    .filter((f) => f.value !== undefined && f.value !== null && typeof f.value !== 'object');
}

/**
 * One row per figure (issue 24): a field with the same label and value as an earlier one
 * (New York City's savings appear in the result both on their own and in its breakdown) is shown once.
 */
export function onceEach(fields: FieldView[]): FieldView[] {
  const seen = new Set<string>();
  return fields.filter((f) => {
    const key = `${f.label}\u0000${String(f.value)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const num = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) ? x : 0);
const breakdownOf = (x: unknown): Breakdown => {
  const o = (x ?? {}) as Record<string, unknown>;
  return { school: num(o.school), county: num(o.county), city: num(o.city), special: num(o.special) };
};

/** What the results card shows, straight from the engine's (already rounded) result. */
export function toResultView(
  r: CalcResult,
  countySlug: string,
  decl: Declarations = { inputs: [], results: [] },
  lang: Lang = 'en',
  marketValue?: number,
  state?: Pick<StateDef, 'detail'>,
): ResultView {
  const exemptions = Object.entries((r.exemptions ?? {}) as Record<string, unknown>)
    .filter(([, a]) => num(a) > 0)
    .map(([key, amount]) => ({
      key,
      amount: num(amount),
      detail: ((r.exemptionBreakdown ?? {}) as Record<string, Record<string, unknown>>)[key],
      label: decl.results.find((f) => f.id === `exemptions.${key}`)?.label[lang],
    }));
  const nyc = r.nyc as Record<string, unknown> | undefined;
  return {
    county: r.county,
    countySlug,
    year: r.year,
    annualTax: num(r.annualTax),
    monthlyTax: num(r.monthlyTax),
    effectiveRate: num(r.effectiveRate),
    marketValue: marketValue ?? (nyc ? num(nyc.marketValue) : num(r.baseAssessedValue)),
    countyRate: typeof r.countyRate === 'number' ? r.countyRate : null,
    typicalRate: typeof r.typicalRate === 'number' ? r.typicalRate : null,
    baseAssessedValue: num(r.baseAssessedValue),
    finalAssessedValue: num(r.finalAssessedValue),
    taxableValue: num(r.taxableValue),
    taxableValues: breakdownOf(r.taxableValues),
    exemptionSavings: num(r.exemptionSavings),
    exemptions,
    breakdown: breakdownOf(r.countyBreakdown),
    potentialSavings: num(r.potentialSavings),
    notes: r.notes ?? [],
    steps: r.explanation ?? [],
    quarterlyPayment: nyc ? num(nyc.quarterlyPayment) : undefined,
    schoolTaxBeforeExemptions: nyc ? num(nyc.schoolTaxPortion) : undefined,
    details: detailKeysOf(r, state).map((k) => ({ key: k, fields: onceEach(fieldsOf(decl, r, k, lang)) })),
    state: r.state,
    ...melloRoosOf(r),
  };
}

/** The total with Mello-Roos when the visitor gave one (California's result: melloRoos, totalWithMelloRoos, monthlyWithMelloRoos). */
function melloRoosOf(r: CalcResult): { withMelloRoos?: ResultView['withMelloRoos'] } {
  const ca = r.california as Record<string, unknown> | undefined;
  if (!ca || !(num(ca.melloRoos) > 0)) return {};
  return { withMelloRoos: { melloRoos: num(ca.melloRoos), total: num(ca.totalWithMelloRoos), monthly: num(ca.monthlyWithMelloRoos) } };
}

/** Runs the engine for the form's values; errors are PtaxError with a message in `lang`. */
export function calculate(edition: Edition, v: FormValues, lang: Lang): ResultView {
  const county = edition.county(v.county);
  if (!county) throw new PtaxError('MISSING_COUNTY', 'County not found');
  const input = toCalcInput(v, edition, county);
  // One use of the engine (the getter counts uses: the second loads the generated programs).
  const calculator = edition.calculator;
  const r = calculator.calculate(input, { explain: true, lang });
  return toResultView(r, county.slug, edition.decl, lang, input.value, calculator.bundle.states[edition.code]);
}

/** The latest year of the program most counties use (the later one on a tie); 0 without counties. */
export function ratesYearOf(programs: readonly string[], years: (program: string) => readonly number[]): number {
  const count = new Map<string, number>();
  for (const p of programs) count.set(p, (count.get(p) ?? 0) + 1);
  let best = 0;
  let most = 0;
  for (const [p, n] of count) {
    const y = years(p).at(-1) ?? 0;
    if (n > most || (n === most && y > best)) [best, most] = [y, n];
  }
  return best;
}
