/**
 * A step of the explanation as a sentence with its figures (issue 24): the step's label
 * from the rule file, then its formula with every name replaced by the value it had
 * ("School value after the over-65 or disabled exemption: $285,000 − $60,000 = $225,000").
 * Built from the program's own syntax tree and the evaluated facts, in English or Spanish;
 * no figure is written here. The formula itself stays in `expression` for reviewers.
 *
 * A value's unit comes from where the name is declared: an input's unit (rules/inputs.yaml),
 * a parameter's unit (its rule file), the county's rate (percent); a step's unit is read off
 * its formula (a dollar amount times or over anything stays in dollars; a sum takes its
 * terms' unit).
 */
import type { Facts } from './conditions.js';
import type { Binding } from './expr.js';
import type { Bundle, Expr, Lang, ProgramDef } from './types.js';
import type { StepIR } from './ir.js';
import { holds } from './walk.js';
import { INPUTS } from '../generated/inputs.js';
import { numberText, usdText } from './number-text.js';

type Unit = 'usd' | 'percent' | 'fraction' | 'count' | 'year' | 'bool' | 'text' | 'none';

/** What the sentence builder needs from a compiled program: where each name lives. */
export interface SentenceNames {
  slots: ReadonlyMap<string, number>;
  bindings: ReadonlyMap<string, Binding>;
  /** Parameter aliases → parameter ids (the program's `parameters`). */
  params: Readonly<Record<string, string>>;
  /** The lowered steps (ir.ts), in the program's order: a step with cases shows the case its lowered conditions chose, as the walker does. */
  steps: readonly StepIR[];
}

const INPUT_UNITS: Record<string, Unit> = {};
for (const x of INPUTS as ReadonlyArray<{ id: string; type: string; unit: string; facts?: Record<string, string> }>) {
  if (x.type === 'boolean') INPUT_UNITS[x.id] = 'bool';
  else if (x.type === 'choice' || x.type === 'text') INPUT_UNITS[x.id] = 'text';
  else if (x.facts) for (const f of Object.values(x.facts)) INPUT_UNITS[f] = 'count';
  else INPUT_UNITS[x.id] = (x.unit === 'none' ? 'count' : x.unit) as Unit;
}
const COUNTY_UNITS: Record<string, Unit> = {
  countyRate: 'percent',
  nycClass: 'bool',
  topCoded: 'bool',
  estimated: 'bool',
  typicalRate: 'percent',
  schoolPart: 'percent',
  countyPart: 'percent',
  cityPart: 'percent',
  specialPart: 'percent',
  schoolUnit: 'text',
  cityUnit: 'text',
};

const WORDS = {
  en: {
    yes: 'yes',
    no: 'no',
    notBelow: (x: string) => `${x}, not below`,
    greater: 'the greater of',
    lesser: 'the lesser of',
    and: 'and',
    floor: 'rounded down',
    choices: { none: 'none', basic: 'Basic', enhanced: 'Enhanced' },
  },
  es: {
    yes: 'sí',
    no: 'no',
    notBelow: (x: string) => `${x}, sin bajar de`,
    greater: 'el mayor entre',
    lesser: 'el menor entre',
    and: 'y',
    floor: 'redondeado hacia abajo',
    choices: { none: 'ninguno', basic: 'básico', enhanced: 'mejorado' },
  },
} as const;

/** A number format of one language. */
interface Format {
  format(x: number): string;
}

/**
 * The explanation's formats: dollars (cents only where there are some), dollars and cents,
 * and numbers of at most six decimals, as Intl.NumberFormat writes them in en-US and es-MX
 * (engine/core/number-text.ts, without Intl: making the first Intl.NumberFormat costs a
 * phone's first calculation 20–40 ms, and an explanation formats every figure of every step).
 */
function formatsOf(lang: Lang): { money: Format; cents: Format; number: Format } {
  return {
    money: { format: (x) => usdText(x, 0, lang) },
    cents: { format: (x) => usdText(x, 2, lang) },
    number: { format: (x) => numberText(x, lang) },
  };
}
const PREC: Record<string, number> = { '+': 1, '-': 1, '*': 2, '/': 2 };
const SIGN: Record<string, string> = { '+': '+', '-': '−', '*': '×', '/': '÷' };

export class SentenceBuilder {
  private readonly money: Format;
  private readonly cents: Format;
  private readonly number: Format;
  private readonly w: (typeof WORDS)['en'] | (typeof WORDS)['es'];
  private readonly stepUnits = new Map<string, Unit>();

  constructor(
    private readonly bundle: Bundle,
    private readonly program: ProgramDef,
    private readonly names: SentenceNames,
    private readonly lang: Lang,
  ) {
    const f = formatsOf(lang);
    this.money = f.money;
    this.cents = f.cents;
    this.number = f.number;
    this.w = WORDS[lang];
    for (const s of program.steps) this.stepUnits.set(s.id, this.stepUnit(s));
  }

  /** The sentence of step `i` of the program, with the facts it was evaluated with. */
  sentence(i: number, v: Facts): string {
    const s = this.program.steps[i]!;
    const label = s.label[this.lang] ?? s.label.en;
    const value = this.format(v[this.names.slots.get(s.id)!], this.stepUnits.get(s.id) ?? 'count');
    let expr: Expr | undefined = s.formula?.ast;
    if (s.cases) {
      const chosen = s.cases[this.chosenCase(i, v)];
      expr = chosen?.formula?.ast;
    }
    if (!expr) return `${label}: ${value}`;
    if (expr.type === 'Literal') return `${label}: ${value}`;
    const figures = this.render(expr, v, 0);
    return figures === value ? `${label}: ${value}` : `${label}: ${figures} = ${value}`;
  }

  /** The index of the case step `i` took (-1: none), read off its lowered conditions with the walker's own test (walk.ts holds). */
  private chosenCase(i: number, v: Facts): number {
    const body = this.names.steps[i]!.body;
    return body.kind === 'cases' ? body.cases.findIndex((c) => !c.when || holds(c.when, v)) : -1;
  }

  format(x: unknown, unit: Unit): string {
    if (x === null || x === undefined) return '—';
    if (typeof x === 'boolean') return x ? this.w.yes : this.w.no;
    if (typeof x !== 'number') return this.choice(String(x));
    switch (unit) {
      case 'usd':
        return (Number.isInteger(x) ? this.money : this.cents).format(x);
      case 'percent':
        return `${this.number.format(x)}%`;
      case 'fraction':
        return `${this.number.format(x * 100)}%`;
      case 'year':
        return String(x);
      default:
        return this.number.format(x);
    }
  }

  /** A choice's value in words (STAR type, NYC class); any other text as it is. */
  private choice(x: string): string {
    const c = /^class(\d)$/.exec(x);
    if (c) return `${this.lang === 'es' ? 'clase' : 'class'} ${c[1]}`;
    return (this.w.choices as Record<string, string>)[x] ?? x;
  }

  /** The unit of a name: an input, a county fact, a parameter or an earlier step. */
  private nameUnit(name: string): Unit {
    if (INPUT_UNITS[name]) return INPUT_UNITS[name]!;
    if (COUNTY_UNITS[name]) return COUNTY_UNITS[name]!;
    const pid = this.names.params[name];
    if (pid) return (this.bundle.parameters[pid]?.unit ?? 'count') as Unit;
    return this.stepUnits.get(name) ?? 'count';
  }

  private stepUnit(s: ProgramDef['steps'][number]): Unit {
    if (s.condition) return 'bool';
    if (s.formula) return this.unitOf(s.formula.ast);
    for (const c of s.cases ?? []) {
      if (c.value !== undefined) return 'text';
      const u = this.unitOf(c.formula!.ast);
      if (u !== 'count') return u;
    }
    return 'count';
  }

  private unitOf(e: Expr): Unit {
    switch (e.type) {
      case 'Literal':
        return 'count';
      case 'Identifier':
        return this.nameUnit(e.name);
      case 'MemberExpression':
        return e.object.type === 'Identifier' ? this.nameUnit(e.object.name) : 'count';
      case 'UnaryExpression':
        return this.unitOf(e.argument);
      case 'CallExpression': {
        if (e.callee.name === 'band') return e.arguments[0]?.type === 'Identifier' ? this.nameUnit(e.arguments[0].name) : 'count';
        const units = e.arguments.map((a) => this.unitOf(a));
        return units.find((u) => u !== 'count') ?? 'count';
      }
      case 'BinaryExpression': {
        const l = this.unitOf(e.left);
        const r = this.unitOf(e.right);
        if (e.operator === '+' || e.operator === '-') return l !== 'count' ? l : r;
        if (l === 'usd' || r === 'usd') return e.operator === '/' && r === 'usd' ? (l === 'usd' ? 'fraction' : 'count') : 'usd';
        if (e.operator === '*' && ((l === 'percent' && r === 'fraction') || (l === 'fraction' && r === 'percent'))) return 'percent';
        if (e.operator === '/' && l === 'percent' && isHundred(e.right)) return 'fraction';
        if (e.operator === '*' && l === 'fraction' && isHundred(e.right)) return 'percent';
        return l !== 'count' ? l : r;
      }
    }
  }

  /** The value a name had, formatted by its unit. */
  private nameValue(name: string, v: Facts): string {
    const b = this.names.bindings.get(name);
    if (b?.kind === 'scalar') return this.format(b.value, this.nameUnit(name));
    const slot = this.names.slots.get(name);
    return slot === undefined ? name : this.format(v[slot], this.nameUnit(name));
  }

  /** The expression with its figures: `prec` is the enclosing operator's precedence (parentheses when lower). */
  private render(e: Expr, v: Facts, prec: number): string {
    switch (e.type) {
      case 'Literal':
        return this.number.format(e.value);
      case 'Identifier':
        return this.nameValue(e.name, v);
      case 'UnaryExpression':
        return `−${this.render(e.argument, v, 3)}`;
      case 'MemberExpression': {
        if (e.object.type !== 'Identifier') return '—';
        const b = this.names.bindings.get(e.object.name);
        const key = e.computed ? String(this.keyValue(e.property, v)) : e.property.type === 'Identifier' ? e.property.name : '';
        const x = b?.kind === 'table' ? b.table[key] : undefined;
        return this.format(x, this.nameUnit(e.object.name));
      }
      case 'CallExpression': {
        const args = e.arguments;
        const name = e.callee.name;
        if (name === 'band' && args[0]?.type === 'Identifier') {
          const pid = this.names.params[args[0].name];
          const label = pid ? (this.bundle.parameters[pid]?.label[this.lang] ?? args[0].name) : args[0].name;
          return `${label} (${this.render(args[1]!, v, 0)})`;
        }
        if ((name === 'max' || name === 'min') && args.length === 2) {
          const [a, b] = args as [Expr, Expr];
          // max(0, x): "x, not below $0" — the floor in the unit of x.
          if (name === 'max' && a.type === 'Literal') return paren(`${this.w.notBelow(this.render(b, v, 1))} ${this.format(a.value, this.unitOf(b))}`, prec);
          const word = name === 'max' ? this.w.greater : this.w.lesser;
          return paren(`${word} ${this.render(a, v, 3)} ${this.w.and} ${this.render(b, v, 3)}`, prec);
        }
        if (name === 'floor') return paren(`${this.render(args[0]!, v, 3)} ${this.w.floor}`, prec);
        if (name === 'pow') return `${this.render(args[0]!, v, 3)}^${this.render(args[1]!, v, 3)}`;
        const word = name === 'max' ? this.w.greater : this.w.lesser;
        const parts = args.map((a) => this.render(a, v, 3));
        return paren(`${word} ${parts.slice(0, -1).join(', ')} ${this.w.and} ${parts[parts.length - 1]}`, prec);
      }
      case 'BinaryExpression': {
        // "× rate ÷ 100" with a rate in percent: the percent sign already says "÷ 100".
        if (e.operator === '/' && isHundred(e.right) && this.unitOf(e.left) !== 'count' && mentionsPercent(e.left, (n) => this.nameUnit(n)))
          return this.render(e.left, v, prec);
        const p = PREC[e.operator]!;
        const left = this.render(e.left, v, p);
        const right = this.render(e.right, v, p + (e.operator === '-' || e.operator === '/' ? 1 : 0));
        const s = `${left} ${SIGN[e.operator]} ${right}`;
        return p < prec ? `(${s})` : s;
      }
    }
  }

  private keyValue(e: Expr, v: Facts): unknown {
    if (e.type === 'Identifier') {
      const slot = this.names.slots.get(e.name);
      return slot === undefined ? e.name : v[slot];
    }
    return e.type === 'Literal' ? e.value : '';
  }
}

const isHundred = (e: Expr): boolean => e.type === 'Literal' && e.value === 100;

/** Whether a product reads a value in percent (so "÷ 100" is implied by the % shown). */
function mentionsPercent(e: Expr, unit: (name: string) => Unit): boolean {
  if (e.type === 'Identifier') return unit(e.name) === 'percent';
  if (e.type === 'MemberExpression') return e.object.type === 'Identifier' && unit(e.object.name) === 'percent';
  if (e.type === 'BinaryExpression' && (e.operator === '*' || e.operator === '/')) return mentionsPercent(e.left, unit) || mentionsPercent(e.right, unit);
  // A sum of such products: (a × r1 + b × r2) ÷ 100.
  if (e.type === 'BinaryExpression') return mentionsPercent(e.left, unit) && mentionsPercent(e.right, unit);
  return false;
}

/** A phrase ("the lesser of a and b") inside a product or quotient, in parentheses. */
const paren = (s: string, prec: number): string => (prec >= 2 ? `(${s})` : s);
