/**
 * The fixed grid of sample properties that `ptax rules diff` computes under both bundles.
 * Generic over the states a bundle has; deterministic (the same two bundles always give
 * the same grid, in the same order):
 *
 * - States: every state of either bundle, by code.
 * - Counties (from the head bundle's county list, the base's for a removed state): for each
 *   program the state uses, the first, middle (index ⌊(n−1)/2⌋) and last county it
 *   calculates; the first county carrying each flag (nycClass, topCoded, estimated, …);
 *   every alias (e.g. "New York City"); no county for a state that has none (the hub). Then, at 350,000 with no exemption only, every
 *   county whose rate changed (passed in by the caller).
 * - Values: 100,000, 350,000 and 1,000,000.
 * - Property classes: when the program reads `propertyClass`, every class it knows (the
 *   keys of the tables it indexes by class and the classes its steps compare with), and
 *   "no class" when a step tests for it; otherwise no class.
 * - Exemption combinations, each only when the program's steps or result read one of the
 *   facts it sets (so a state without, say, STAR is not asked about it): none; homestead;
 *   homestead + over 65; homestead + over 65 with a low and a high senior income; senior
 *   citizen (low income); disabled; homestead + disabled veteran 50 and 100; Cold War
 *   veteran; STAR basic; STAR enhanced (low income); a prior assessed value; a special
 *   tax of 1,000 a year (Mello-Roos); a purchase price and year; and everything that stacks
 *   at once.
 * - Year: each side's default year (the latest its program covers), as `ptax calc` shows by
 *   default; a change to an earlier year's value shows in the value list and in fixtures
 *   that name that year. Specialised calculators (`ptax tx payment`, …) are not in the
 *   grid: their fixtures (`calculator:`) are recomputed like the others.
 *
 * The sample inputs are not tax figures: they are the property, not the law. The low and
 * high incomes sit far either side of any income limit; the prior assessed value is 5% of
 * the value, low enough that a cap on assessment growth binds both where assessments are a
 * fraction of market value and where they are the market value; the purchase is at half the
 * value, ten years before the program's latest year.
 */
import { conditionFacts } from '../engine/node.js';
import { exprNames } from '../engine/node.js';
import { declaredInputs, type Calculator, type FlagInput } from '../engine/node.js';
import type { Bundle, Condition, Expr, ProgramDef, ResultGroup, StateDef } from '../engine/node.js';

export const GRID_VALUES = [100_000, 350_000, 1_000_000];
/** One line for reports: what the grid is (the details are in this file's header). */
export const GRID_DESCRIPTION =
  'per state: first, middle and last county of each program, the first county with each flag, every alias; ' +
  'values 100,000, 350,000 and 1,000,000; the classes and exemption combinations the program reads; ' +
  'plus each county whose rate changed at 350,000 (cli/diff-grid.ts)';
const LOW_INCOME = 30_000;
const HIGH_INCOME = 250_000;
const CHANGED_COUNTY_VALUE = 350_000;
/** A sample annual special assessment (California's Mello-Roos), an input like the value. */
const SPECIAL_TAX = 1_000;
const money = (v: number) => v.toLocaleString('en-US');

export interface GridPoint {
  label: string;
  flags: FlagInput;
}

/** The input facts a program's steps and result read (validations and notes excluded). */
export function factsRead(p: ProgramDef): Set<string> {
  const names: string[] = [];
  const conds = (c: Condition | undefined) => {
    if (c) conditionFacts(c, names);
  };
  for (const s of p.steps) {
    if (s.formula) exprNames(s.formula.ast, names);
    conds(s.condition);
    for (const c of s.cases ?? []) {
      conds(c.when);
      if (c.formula) exprNames(c.formula.ast, names);
    }
  }
  const leaves = (g: ResultGroup) => {
    for (const v of Object.values(g)) {
      if ('formula' in v && typeof (v as { formula: unknown }).formula === 'object') exprNames((v as { formula: { ast: Expr } }).formula.ast, names);
      else leaves(v as ResultGroup);
    }
  };
  leaves(p.result);
  return new Set(names);
}

/** The classes a program knows: keys of tables indexed by class, values its steps compare class with. */
export function classesOf(bundle: Bundle, p: ProgramDef): Array<string | null> {
  const found = new Set<string>();
  let testsNull = false;
  const walkExpr = (e: Expr) => {
    switch (e.type) {
      case 'MemberExpression':
        if (e.computed && e.property.type === 'Identifier' && e.property.name === 'propertyClass' && e.object.type === 'Identifier') {
          const pid = p.parameters[e.object.name];
          for (const k of (pid && bundle.parameters[pid]?.keys) ?? []) found.add(k);
        }
        walkExpr(e.object);
        walkExpr(e.property);
        break;
      case 'BinaryExpression':
        walkExpr(e.left);
        walkExpr(e.right);
        break;
      case 'UnaryExpression':
        walkExpr(e.argument);
        break;
      case 'CallExpression':
        e.arguments.forEach(walkExpr);
        break;
      default:
        break;
    }
  };
  const walkCond = (c: Condition | undefined) => {
    if (!c) return;
    if ('all' in c) c.all.forEach(walkCond);
    else if ('any' in c) c.any.forEach(walkCond);
    else if ('not' in c) walkCond(c.not);
    else if (c.fact === 'propertyClass') {
      for (const v of Array.isArray(c.value) ? c.value : [c.value]) {
        if (v === null) testsNull = true;
        else if (typeof v === 'string') found.add(v);
      }
    }
  };
  for (const s of p.steps) {
    if (s.formula) walkExpr(s.formula.ast);
    walkCond(s.condition);
    for (const c of s.cases ?? []) {
      walkCond(c.when);
      if (c.formula) walkExpr(c.formula.ast);
    }
  }
  const list: Array<string | null> = [...found].sort();
  return testsNull || !list.length ? [null, ...list] : list;
}

/** `needs`: the facts that make the combination relevant (any one; `min` of them when given). */
interface Combo {
  name: string;
  needs: string[];
  min?: number;
  flags: (value: number, lastYear: number) => Partial<FlagInput>;
}

const COMBOS: Combo[] = [
  { name: 'no exemption', needs: [], flags: () => ({}) },
  { name: 'homestead', needs: ['homestead'], flags: () => ({ homestead: true }) },
  { name: 'homestead+over65', needs: ['over65'], flags: () => ({ homestead: true, over65: true }) },
  { name: `homestead+over65 income ${money(LOW_INCOME)}`, needs: ['seniorIncome'], flags: () => ({ homestead: true, over65: true, seniorIncome: LOW_INCOME }) },
  {
    name: `homestead+over65 income ${money(HIGH_INCOME)}`,
    needs: ['seniorIncome'],
    flags: () => ({ homestead: true, over65: true, seniorIncome: HIGH_INCOME }),
  },
  { name: `senior citizen income ${money(LOW_INCOME)}`, needs: ['seniorCitizen'], flags: () => ({ seniorCitizen: true, seniorIncome: LOW_INCOME }) },
  { name: 'disabled', needs: ['disabled'], flags: () => ({ disabled: true }) },
  { name: 'homestead+veteran 50', needs: ['veteranDisability'], flags: () => ({ homestead: true, veteranDisability: 50 }) },
  { name: 'homestead+veteran 100', needs: ['veteranDisability'], flags: () => ({ homestead: true, veteranDisability: 100 }) },
  { name: 'cold war veteran', needs: ['coldWarVeteran'], flags: () => ({ coldWarVeteran: true }) },
  { name: 'homestead+wartime veteran', needs: ['wartimeVeteran'], flags: () => ({ homestead: true, wartimeVeteran: true }) },
  {
    name: 'homestead+wartime+combat veteran 50',
    needs: ['wartimeVeteran'],
    flags: () => ({ homestead: true, wartimeVeteran: true, combatVeteran: true, veteranDisability: 50 }),
  },
  { name: 'homestead+disabled veteran (CA)', needs: ['totallyDisabledVeteran'], flags: () => ({ homestead: true, totallyDisabledVeteran: true }) },
  {
    name: `homestead+disabled veteran (CA) income ${money(LOW_INCOME)}`,
    needs: ['veteranIncome'],
    flags: () => ({ homestead: true, totallyDisabledVeteran: true, veteranIncome: LOW_INCOME }),
  },
  { name: 'star basic', needs: ['starType'], flags: () => ({ star: 'basic' }) },
  { name: `star enhanced income ${money(LOW_INCOME)}`, needs: ['starType'], flags: () => ({ star: 'enhanced', seniorIncome: LOW_INCOME }) },
  { name: 'prior assessed 5% of value', needs: ['priorAssessed'], flags: (v) => ({ priorAssessed: v / 20 }) },
  { name: `special tax ${money(SPECIAL_TAX)} a year`, needs: ['melloRoos'], flags: () => ({ melloRoos: SPECIAL_TAX }) },
  {
    name: 'purchase at half the value, 10 years back',
    needs: ['purchasePrice', 'purchaseYear'],
    flags: (v, y) => ({ purchasePrice: v / 2, purchaseYear: y - 10 }),
  },
  {
    name: 'everything',
    needs: ['homestead', 'over65', 'seniorCitizen', 'disabled', 'wartimeVeteran', 'veteranDisability', 'coldWarVeteran'],
    min: 2,
    flags: () => ({
      homestead: true,
      over65: true,
      seniorIncome: LOW_INCOME,
      seniorCitizen: true,
      disabled: true,
      wartimeVeteran: true,
      veteranDisability: 50,
      coldWarVeteran: true,
    }),
  },
];

/** Which program computes a county (or alias), under one calculator; undefined if it cannot say. */
function programOf(calc: Calculator, state: string, county: string): string | undefined {
  try {
    return calc.prepare({ state, county, value: GRID_VALUES[0]! }).compiled.program.id;
  } catch {
    return undefined;
  }
}

/**
 * One combination per declared input (rules/inputs.yaml) that no combination above reads: a
 * new input is sampled by the grid without a line of code. A boolean on; a choice at its
 * first value; an amount at a tenth of the value; a year ten years back; an integer with
 * values at its largest.
 */
export function declaredCombos(bundle: Bundle): Combo[] {
  // Read or set by a combination above; the property class is the grid's own axis (classesOf).
  const covered = new Set(COMBOS.flatMap((c) => [...c.needs, ...Object.keys(c.flags(1, 2000))]));
  return declaredInputs(bundle).flatMap((x): Combo[] => {
    if (
      covered.has(x.id) ||
      covered.has(x.key) ||
      x.id === 'propertyClass' ||
      x.type === 'date' ||
      x.type === 'text' ||
      ['value', 'year', 'countyRate'].includes(x.id)
    )
      return [];
    const flags =
      x.type === 'boolean'
        ? () => ({ [x.key]: true })
        : x.type === 'choice'
          ? () => ({ [x.key]: String(x.values?.[0] ?? '') })
          : x.type === 'year'
            ? (_v: number, y: number) => ({ [x.key]: y - 10 })
            : x.values?.length
              ? () => ({ [x.key]: x.values!.at(-1) })
              : (v: number) => ({ [x.key]: v / 10 });
    return [{ name: `--${x.flag}`, needs: [x.id], flags: flags as Combo['flags'] }];
  });
}

/** The counties of one state the grid uses, in county order, then the aliases. */
export function gridCounties(calc: Calculator, state: StateDef): string[] {
  const byProgram = new Map<string, string[]>();
  for (const c of state.counties) {
    const p = programOf(calc, state.code, c.slug) ?? '';
    byProgram.set(p, [...(byProgram.get(p) ?? []), c.slug]);
  }
  const chosen = new Set<string>();
  for (const slugs of byProgram.values()) {
    chosen.add(slugs[0]!);
    chosen.add(slugs[Math.floor((slugs.length - 1) / 2)]!);
    chosen.add(slugs[slugs.length - 1]!);
  }
  const flags = [...new Set(state.counties.flatMap((c) => c.flags))];
  for (const f of flags) chosen.add(state.counties.find((c) => c.flags.includes(f))!.slug);
  const ordered = state.counties.filter((c) => chosen.has(c.slug)).map((c) => c.name);
  const all = [...ordered, ...state.aliases.map((a) => a.name)];
  // A state without counties (the hub) is calculated without one.
  return all.length ? all : [''];
}

/**
 * The grid for two calculators (base and head). Counties come from the head's state when it
 * has the state; facts and classes are the union over both sides' programs for the county,
 * so a fact only one side reads is still exercised on both.
 */
export function buildGrid(base: Calculator, head: Calculator, changedCounties: Array<{ state: string; slug: string }> = []): GridPoint[] {
  const points: GridPoint[] = [];
  const codes = [...new Set([...Object.keys(base.bundle.states), ...Object.keys(head.bundle.states)])].sort();
  const shape = (code: string, county: string) => {
    const programs = [programOf(base, code, county), programOf(head, code, county)]
      .map((id, i) => (id ? (i ? head : base).bundle.programs[id] : undefined))
      .filter((p): p is ProgramDef => !!p);
    const facts = new Set(programs.flatMap((p) => [...factsRead(p)]));
    const classes = [...new Set(programs.flatMap((p) => classesOf((p === head.bundle.programs[p.id] ? head : base).bundle, p)))];
    const lastYear = Math.max(...programs.map((p) => p.years[p.years.length - 1]!), 0);
    return { facts, classes: facts.has('propertyClass') ? classes : [null], lastYear };
  };
  const inGrid = new Set<string>();
  for (const code of codes) {
    const side = head.bundle.states[code] ? head : base;
    const state = side.bundle.states[code]!;
    for (const county of gridCounties(side, state)) {
      inGrid.add(`${code}:${county}`);
      const { facts, classes, lastYear } = shape(code, county);
      const combos = [...COMBOS, ...declaredCombos(side.bundle)].filter(
        (c) => c.needs.filter((f) => facts.has(f)).length >= (c.min ?? Math.min(1, c.needs.length)),
      );
      for (const value of GRID_VALUES) {
        for (const cls of classes) {
          for (const combo of combos) {
            points.push({
              label: `${code} ${county || '(no county)'}${cls ? ` ${cls}` : ''} $${money(value)} ${combo.name}`,
              flags: { state: code, county, value, class: cls, ...combo.flags(value, lastYear) },
            });
          }
        }
      }
    }
  }
  for (const { state: code, slug } of changedCounties) {
    const side = head.bundle.states[code] ? head : base;
    const county = side.bundle.states[code]?.counties.find((c) => c.slug === slug)?.name ?? slug;
    if (inGrid.has(`${code}:${county}`)) continue;
    for (const cls of shape(code, slug).classes) {
      points.push({
        label: `${code} ${county}${cls ? ` ${cls}` : ''} $${money(CHANGED_COUNTY_VALUE)} no exemption (rate changed)`,
        flags: { state: code, county: slug, value: CHANGED_COUNTY_VALUE, class: cls },
      });
    }
  }
  return points;
}
