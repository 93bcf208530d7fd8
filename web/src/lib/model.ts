/**
 * The calculator's model: the form's values, the edition's counties with their rates, the
 * property-type rates and the income limit read from the rule data, the mapping from the
 * form to the engine's input, and from the engine's result to what the page shows.
 * No tax figure lives here: every rate, amount and limit is read from the data package.
 */
import { Calculator, DEFAULT_VALUE, type CalcInput, type CalcResult, type ExplainStep } from '../../../engine/calculate.js';
import { valueAt } from '../../../engine/params.js';
import { INPUT_FACTS, type Bundle, type CountyDef, type ParameterDef } from '../../../engine/types.js';
import { PtaxError } from '../../../engine/errors.js';
import { clampValue } from './parseValue.js';
import { COMMERCIAL_TYPES, PROPERTY_TYPES } from './config.js';
import type { Lang } from './format.js';

export type PropertyType = '' | (typeof PROPERTY_TYPES)[number];

/** Client state of the calculator (seed 000 §3, "Calculator input"). */
export interface FormValues {
  homeValue: number;
  county: string; // county name, '' when none chosen
  propertyType: PropertyType;
  homesteadExemption: boolean;
  over65Exemption: boolean;
  disabledPersonExemption: boolean;
  disabledVeteranExemption: string; // 'none' or '10'…'100'
  seniorIncome: number | null;
  seniorCitizen: boolean;
  coldWarVeteran: boolean;
  showSchoolTaxBreakdown: boolean;
}

export const DEFAULT_FORM: FormValues = {
  homeValue: DEFAULT_VALUE,
  county: '',
  propertyType: '',
  homesteadExemption: false,
  over65Exemption: false,
  disabledPersonExemption: false,
  disabledVeteranExemption: 'none',
  seniorIncome: null,
  seniorCitizen: false,
  coldWarVeteran: false,
  showSchoolTaxBreakdown: false,
};

/** Residential exemption choices that class4 clears and disables (seed 000 §2; rules reference: every residential exemption). */
export const RESIDENTIAL_FIELDS = [
  'homesteadExemption', 'over65Exemption', 'seniorCitizen', 'coldWarVeteran', 'disabledVeteranExemption', 'disabledPersonExemption',
] as const;

export interface CountyInfo {
  name: string;
  slug: string;
  /** Combined rate in percent (the county's effective rate in force). */
  rate: number | null;
  needsPropertyType: boolean;
  program: string;
}

export interface Edition {
  code: string;
  stateName: { en: string; es: string };
  calculator: Calculator;
  counties: CountyInfo[];
  county(name: string): CountyInfo | undefined;
  /** The class rates (percent) of a county's program, from its by-class rate parameter. */
  classRates(county: CountyInfo): Record<string, number>;
  /** The Enhanced STAR income limit for a county's program, if the rules have one. */
  incomeLimit(county: CountyInfo | undefined): number | null;
}

const findParam = (bundle: Bundle, ids: string[], test: (p: ParameterDef) => boolean) =>
  ids.map((id) => bundle.parameters[id]).find((p): p is ParameterDef => !!p && test(p));

export function makeEdition(bundle: Bundle): Edition {
  const calculator = new Calculator(bundle);
  const state = Object.values(bundle.states)[0]!;
  const countyOf = (c: CountyDef): CountyInfo => {
    const p = calculator.prepare({ state: state.code, county: c.slug, value: 1 });
    const rate = p.facts[INPUT_FACTS.length];
    return {
      name: c.name,
      slug: c.slug,
      rate: typeof rate === 'number' ? rate : null,
      needsPropertyType: c.flags.includes('nycClass'),
      program: p.compiled.program.id,
    };
  };
  const counties = state.counties.map(countyOf);
  const programParams = (programId: string) => Object.values(bundle.programs[programId]?.parameters ?? {});
  const dateOf = (programId: string) => {
    const years = bundle.programs[programId]!.years;
    return calculator.compiled(programId, years[years.length - 1]!).date;
  };
  const byName = new Map(counties.map((c) => [c.name.toLowerCase(), c]));
  return {
    code: state.code,
    stateName: state.name,
    calculator,
    counties,
    county: (name) => (name ? byName.get(name.toLowerCase()) : undefined),
    classRates(county) {
      const p = findParam(bundle, programParams(county.program), (d) => d.type === 'by_key' && d.unit === 'percent' && !!d.keys?.includes('class1'));
      const v = p && valueAt(p, dateOf(county.program))?.value;
      return v && typeof v === 'object' ? (v as Record<string, number>) : {};
    },
    incomeLimit(county) {
      const program = county?.program ?? counties[0]?.program;
      if (!program) return null;
      const id = bundle.programs[program]?.parameters.enhancedIncomeLimit;
      const p = id ? bundle.parameters[id] : undefined;
      const v = p && valueAt(p, dateOf(program))?.value;
      return typeof v === 'number' ? v : null;
    },
  };
}

export const isCommercial = (t: string) => COMMERCIAL_TYPES.includes(t);

/** Seed 000 §2/§5: a county, a value above 0 and, for NYC, a property type. */
export function canCalculate(v: FormValues, county: CountyInfo | undefined): boolean {
  return !!county && clampValue(v.homeValue) > 0 && (!county.needsPropertyType || !!v.propertyType);
}

/** Seed 000 §5: over-65 with income above the limit, or with no income given, gets Basic STAR. */
export function incomeExceedsLimit(v: FormValues, limit: number | null): boolean {
  if (!v.over65Exemption || limit === null) return false;
  return v.seniorIncome === null || v.seniorIncome > limit;
}

/** The engine's input for the form's values (the mapping of rules reference §3 is in the rules). */
export function toCalcInput(v: FormValues, stateCode: string, county: CountyInfo): CalcInput {
  const commercial = county.needsPropertyType && isCommercial(v.propertyType);
  const level = v.disabledVeteranExemption === 'none' ? 0 : Number(v.disabledVeteranExemption) || 0;
  return {
    state: stateCode,
    county: county.slug,
    value: clampValue(v.homeValue),
    propertyClass: county.needsPropertyType ? v.propertyType || null : null,
    homestead: !commercial && v.homesteadExemption,
    over65: !commercial && v.over65Exemption,
    seniorIncome: v.over65Exemption ? v.seniorIncome : null,
    seniorCitizen: !commercial && v.seniorCitizen,
    disabled: !commercial && v.disabledPersonExemption,
    veteranDisability: commercial ? 0 : level,
    coldWarVeteran: !commercial && v.coldWarVeteran,
  };
}

export interface Breakdown { school: number; county: number; city: number; special: number }
export interface ResultView {
  county: string;
  countySlug: string;
  year: number;
  annualTax: number;
  monthlyTax: number;
  effectiveRate: number; // percent
  baseAssessedValue: number;
  finalAssessedValue: number;
  taxableValue: number;
  taxableValues: Breakdown;
  exemptionSavings: number;
  exemptions: Array<{ key: string; amount: number; detail?: Record<string, unknown> }>;
  breakdown: Breakdown;
  potentialSavings: number;
  notes: string[];
  steps: ExplainStep[];
  quarterlyPayment?: number;
  schoolTaxBeforeExemptions?: number;
}

const num = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) ? x : 0);
const breakdownOf = (x: unknown): Breakdown => {
  const o = (x ?? {}) as Record<string, unknown>;
  return { school: num(o.school), county: num(o.county), city: num(o.city), special: num(o.special) };
};

/** What the results card shows, straight from the engine's (already rounded) result. */
export function toResultView(r: CalcResult, countySlug: string): ResultView {
  const exemptions = Object.entries((r.exemptions ?? {}) as Record<string, unknown>)
    .filter(([, a]) => num(a) > 0)
    .map(([key, amount]) => ({ key, amount: num(amount), detail: ((r.exemptionBreakdown ?? {}) as Record<string, Record<string, unknown>>)[key] }));
  const nyc = r.nyc as Record<string, unknown> | undefined;
  return {
    county: r.county,
    countySlug,
    year: r.year,
    annualTax: num(r.annualTax),
    monthlyTax: num(r.monthlyTax),
    effectiveRate: num(r.effectiveRate),
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
  };
}

/** Runs the engine for the form's values; errors are PtaxError with a message in `lang`. */
export function calculate(edition: Edition, v: FormValues, lang: Lang): ResultView {
  const county = edition.county(v.county);
  if (!county) throw new PtaxError('MISSING_COUNTY', 'County not found');
  const r = edition.calculator.calculate(toCalcInput(v, edition.code, county), { explain: true, lang });
  return toResultView(r, county.slug);
}
