/**
 * The checks of each kind of rule file that a schema cannot express: parameters (dates in
 * order, descriptions without figures), programs (names, formulas, conditions, results),
 * the declared inputs and result fields.
 */
import { type YamlSource } from './yaml-source.js';
import { conditionFacts } from '../core/conditions.js';
import { exprNames } from '../core/expr.js';
import { periodStart, valueAt } from '../core/params.js';
import {
  COUNTY_FACTS,
  COUNTY_FLAGS,
  type Bundle,
  type Condition,
  type Formula,
  type InputDecl,
  type ParameterDef,
  type ProgramDef,
  type ResultFieldDecl,
  type ResultGroup,
} from '../core/types.js';

import { inputFactsOf } from '../core/registry.js';
import { checkOperators, kindProblems, parseFormula } from './formulas.js';

/** The inputs the engine reads itself, besides the programs: every rules folder declares them. */
const ENGINE_INPUTS = ['value', 'year', 'countyRate'];

export type StateFile = { code: string; calculators?: Array<{ name: string }> };
/** "<state lowercase>.<name>" of every specialised calculator. */
export function calculatorNames(states: StateFile[]): Set<string> {
  return new Set(states.flatMap((s) => (s.calculators ?? []).map((k) => `${s.code.toLowerCase()}.${k.name}`)));
}

/**
 * rules/inputs.yaml: unique ids, flags and columns; every input fact declared once (a date
 * input declares its three facts), and nothing else but the county-rate what-if; states
 * and calculators that exist; defaults and values of the input's type, within its bounds.
 */
export function checkInputs(src: YamlSource, d: { inputs: any[] }, states: StateFile[], fail: Fail, failing: Set<string>): InputDecl[] {
  const facts = new Map<string, number>();
  const flags = new Set<string>();
  const columns = new Set<string>();
  const calculators = calculatorNames(states);
  const numeric = (t: string) => t === 'money' || t === 'number' || t === 'integer' || t === 'year';
  d.inputs.forEach((x: any, i: number) => {
    const at = ['inputs', i];
    for (const f of x.type === 'date' ? Object.values<string>(x.facts) : [x.id]) {
      if (facts.has(f)) fail(src, [...at, 'id'], `${f} is declared twice (also input ${facts.get(f)! + 1})`);
      facts.set(f, i);
      if ((COUNTY_FACTS as readonly string[]).includes(f) && f !== 'countyRate')
        fail(src, [...at, 'id'], `${f} is a county fact (${COUNTY_FACTS.join(', ')}): an input cannot fill it`);
    }
    if (flags.has(x.flag)) fail(src, [...at, 'flag'], `flag --${x.flag} is declared twice`);
    flags.add(x.flag);
    if (x.column !== undefined) {
      if (columns.has(x.column)) fail(src, [...at, 'column'], `column ${x.column} is declared twice`);
      columns.add(x.column);
    }
    const codes = new Set(states.map((s) => s.code));
    (x.states as string[]).forEach((s, j) => {
      if (!codes.has(s) && !failing.has(s)) fail(src, [...at, 'states', j], `no state ${s}`);
    });
    // The schemas take any state code: the states are the state files'.
    for (const key of ['help_by_state', 'state_labels', 'county_flag'] as const) {
      for (const s of Object.keys(x[key] ?? {})) if (!codes.has(s) && !failing.has(s)) fail(src, [...at, key, s], `no state ${s}`);
    }
    (x.calculators ?? []).forEach((k: string, j: number) => {
      if (!calculators.has(k)) fail(src, [...at, 'calculators', j], `no calculator ${k} (calculators: ${[...calculators].join(', ')})`);
    });
    const ok = (v: unknown): boolean => {
      if (x.type === 'boolean') return typeof v === 'boolean';
      if (numeric(x.type)) return typeof v === 'number' && (x.type === 'money' || x.type === 'number' || Number.isInteger(v)) && !(v < x.min) && !(v > x.max);
      return typeof v === 'string';
    };
    (x.values ?? []).forEach((v: any, j: number) => {
      if (!ok(v.value))
        fail(
          src,
          [...at, 'values', j, 'value'],
          `${JSON.stringify(v.value)} is not a value of a ${x.type} input${x.min !== undefined || x.max !== undefined ? ' within its bounds' : ''}`,
        );
    });
    if (x.values && x.type !== 'choice' && x.type !== 'integer') fail(src, [...at, 'values'], 'only a choice or an integer input takes `values`');
    if (x.default !== undefined && (!ok(x.default) || (x.values && !x.values.some((v: any) => v.value === x.default))))
      fail(src, [...at, 'default'], `default ${JSON.stringify(x.default)} is not a value of this input`);
    if (x.min !== undefined && x.max !== undefined && x.min > x.max) fail(src, [...at, 'max'], 'max is below min');
  });
  d.inputs.forEach((x: any, i: number) => {
    const at = ['inputs', i];
    if (x.requires !== undefined && !d.inputs.some((o: any) => o.id === x.requires && o.type === 'boolean'))
      fail(src, [...at, 'requires'], `requires names no boolean input: ${x.requires}`);
    for (const [s, flag] of Object.entries<string>(x.county_flag ?? {})) {
      if (!(COUNTY_FLAGS as readonly string[]).includes(flag))
        fail(src, [...at, 'county_flag', s], `${flag} is not a county flag (${COUNTY_FLAGS.join(', ')})`);
    }
  });
  // The engine itself reads these (the home value, the year whose rules apply, the what-if rate).
  const missing = ENGINE_INPUTS.filter((f) => !facts.has(f));
  if (missing.length) fail(src, ['inputs'], `input facts not declared: ${missing.join(', ')}`);
  return d.inputs as InputDecl[];
}

/** rules/results.yaml: unique ids and columns, no field both a leaf and a group, calculators that exist. */
export function checkResults(src: YamlSource, d: { fields: any[] }, states: StateFile[], fail: Fail): ResultFieldDecl[] {
  const ids = new Set<string>();
  const columns = new Set<string>();
  const calculators = calculatorNames(states);
  d.fields.forEach((x: any, i: number) => {
    const at = ['fields', i];
    if (ids.has(x.id)) fail(src, [...at, 'id'], `field ${x.id} is declared twice`);
    ids.add(x.id);
    if (x.column !== undefined) {
      if (columns.has(x.column)) fail(src, [...at, 'column'], `column ${x.column} is declared twice`);
      columns.add(x.column);
    }
    (x.calculators ?? []).forEach((k: string, j: number) => {
      if (!calculators.has(k)) fail(src, [...at, 'calculators', j], `no calculator ${k} (calculators: ${[...calculators].join(', ')})`);
    });
  });
  d.fields.forEach((x: any, i: number) => {
    if ([...ids].some((o) => o.startsWith(x.id + '.'))) fail(src, ['fields', i, 'id'], `${x.id} is a group (other fields are inside it), not a field`);
  });
  return d.fields as ResultFieldDecl[];
}

export type Fail = (src: YamlSource, path: Array<string | number>, message: string, key?: string) => void;

export function checkAscending(src: YamlSource, path: Array<string | number>, entries: Array<{ effective: string }>, fail: Fail) {
  for (let i = 1; i < entries.length; i++) {
    if (entries[i]!.effective <= entries[i - 1]!.effective)
      fail(
        src,
        [...path, i, 'effective'],
        `effective dates must ascend: ${entries[i]!.effective} is not after ${entries[i - 1]!.effective}; append history, never rewrite it`,
      );
  }
}

export function checkParameter(src: YamlSource, path: Array<string | number>, p: any, fail: Fail) {
  checkAscending(src, [...path, 'values'], p.values, fail);
  p.values.forEach((e: any, i: number) => {
    const at = [...path, 'values', i];
    if (p.type === 'bands') {
      if (!e.bands) return fail(src, at, 'a bands parameter needs `bands`, not `value`');
      const bands = e.bands as any[];
      bands.forEach((b, j) => {
        const last = j === bands.length - 1;
        const bound = b.below ?? b.at_most;
        if (last && bound !== undefined) fail(src, [...at, 'bands', j], 'the last band must have no bound: it takes every larger value');
        if (!last && bound === undefined) fail(src, [...at, 'bands', j], 'every band but the last needs `below` or `at_most`');
        const prev = j > 0 ? (bands[j - 1].below ?? bands[j - 1].at_most) : undefined;
        // A missing bound, here or before, compares false (its own problem is reported).
        if (!last && bound <= prev) fail(src, [...at, 'bands', j], 'band bounds must ascend');
      });
      return;
    }
    if (e.bands) return fail(src, at, `a ${p.type} parameter takes \`value\`, not \`bands\``);
    if (p.type === 'scalar' && typeof e.value !== 'number') return fail(src, [...at, 'value'], 'a scalar parameter takes a number');
    if (p.type === 'by_key') {
      if (typeof e.value !== 'object') return fail(src, [...at, 'value'], `a by_key parameter takes a map of ${p.keys.join(', ')}`);
      const got = Object.keys(e.value).sort().join(',');
      if (got !== [...p.keys].sort().join(',')) fail(src, [...at, 'value'], `keys must be exactly ${p.keys.join(', ')}`);
      if (p.sums_to_one) {
        const sum = Object.values<number>(e.value).reduce((a, b) => a + b, 0);
        if (Math.abs(sum - 1) > 1e-9) fail(src, [...at, 'value'], `shares must sum to 1 (they sum to ${+sum.toFixed(10)})`);
      }
    }
    if (p.unit === 'fraction') {
      const nums = typeof e.value === 'number' ? [e.value] : Object.values<number>(e.value);
      if (nums.some((n) => n < 0 || n > 1)) fail(src, [...at, 'value'], 'a fraction lies between 0 and 1');
    }
  });
}

/**
 * Figures a parameter's description repeats: a number written in it (30,000; 1.54%; 15)
 * equal to one of the parameter's values or band bounds, also read as a percentage of a
 * fraction (15% and 0.15). A description says what the figure is; the dated values say
 * how much, so the prose cannot go stale when a value is appended.
 */
export function descriptionFigures(p: {
  description: string;
  unit?: string;
  values: Array<{ value?: unknown; bands?: Array<{ below?: number; at_most?: number; value: number }> }>;
}): string[] {
  const figures = new Set<number>();
  for (const e of p.values) {
    if (typeof e.value === 'number') figures.add(e.value);
    else if (e.value && typeof e.value === 'object') for (const v of Object.values(e.value as Record<string, number>)) figures.add(v);
    for (const b of e.bands ?? []) for (const v of [b.value, b.below, b.at_most]) if (v !== undefined) figures.add(v);
  }
  const same = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));
  const out: string[] = [];
  for (const m of p.description.matchAll(/(?<![\w.§])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w])|(?<![\w.§])\d+(?:\.\d+)?(?![\w])/g)) {
    const text = m[0];
    const n = Number(text.replace(/,/g, ''));
    // Small whole numbers (0, 1, 2…) are words more than figures ("one or the other", "1 year").
    if (Number.isInteger(n) && n < 10 && !text.includes('.')) continue;
    const percent = p.description[m.index! + text.length] === '%';
    if ([...figures].some((f) => same(f, n) || (percent && p.unit === 'fraction' && same(f * 100, n)))) out.push(percent ? `${text}%` : text);
  }
  return [...new Set(out)];
}

export function checkProgram(src: YamlSource, d: any, bundle: Bundle, fail: Fail, failing: Set<string>): ProgramDef {
  const known = new Map<string, string>(); // name → what it is
  const tables = new Map<string, ParameterDef>();
  for (const f of inputFactsOf(bundle)) known.set(f, 'input');
  for (const f of COUNTY_FACTS) known.set(f, 'county');
  for (const [alias, pid] of Object.entries<string>(d.parameters)) {
    const p = bundle.parameters[pid];
    if (!p) {
      if (!failing.has(pid)) fail(src, ['parameters', alias], `no parameter ${pid}`);
      known.set(alias, 'parameter:unknown');
      continue;
    }
    tables.set(alias, p);
    if (known.has(alias)) fail(src, ['parameters'], `${alias} is already an ${known.get(alias)} fact`, alias);
    known.set(alias, `parameter:${p.type}`);
    for (const y of d.years) {
      const date = periodStart(d.period, y);
      if (!valueAt(p, date)) fail(src, ['parameters', alias], `${pid} has no value in force on ${date} (year ${y})`);
    }
  }
  const formula = (path: Array<string | number>, text: string): Formula => {
    try {
      const f = parseFormula(text);
      const names = [...new Set(exprNames(f.ast))];
      for (const n of names) if (!known.has(n)) fail(src, path, `formula "${text}": unknown name ${n}`);
      if (names.every((n) => known.has(n))) for (const why of kindProblems(f.ast, known, tables)) fail(src, path, `formula "${text}": ${why}`);
      return f;
    } catch (e) {
      fail(src, path, (e as Error).message);
      return undefined!; // never seen: there is no bundle when there is a problem
    }
  };
  const condition = (path: Array<string | number>, c: Condition) => {
    for (const f of conditionFacts(c)) {
      const k = known.get(f);
      if (!k) fail(src, path, `condition reads unknown fact ${f}`);
      else if (k.startsWith('parameter:') && k !== 'parameter:scalar' && k !== 'parameter:unknown')
        fail(src, path, `condition reads ${f}, a table: compare a step instead`);
    }
    checkOperators(src, path, c, fail);
  };
  d.validations.forEach((v: any, i: number) => condition(['validations', i, 'when'], v.when));
  const steps = d.steps.map((s: any, i: number) => {
    const path = ['steps', i];
    if (known.has(s.id)) fail(src, [...path, 'id'], `step ${s.id} shadows an ${known.get(s.id)}`);
    const out: any = { id: s.id, label: s.label, ...(s.reference ? { reference: s.reference } : {}) };
    if (s.formula !== undefined) out.formula = formula([...path, 'formula'], String(s.formula));
    if (s.condition) {
      condition([...path, 'condition'], s.condition);
      out.condition = s.condition;
    }
    if (s.cases) {
      s.cases.forEach((c: any, j: number) => {
        const last = j === s.cases.length - 1;
        if (last && c.when) fail(src, [...path, 'cases', j], 'the last case must have no `when`: it is the otherwise');
        if (!last && !c.when) fail(src, [...path, 'cases', j], 'every case but the last needs `when`');
      });
      out.cases = s.cases.map((c: any, j: number) => {
        if (c.when) condition([...path, 'cases', j, 'when'], c.when);
        return {
          ...(c.when ? { when: c.when } : {}),
          ...(c.formula !== undefined ? { formula: formula([...path, 'cases', j, 'formula'], String(c.formula)) } : { value: c.value }),
        };
      });
    }
    known.set(s.id, 'step');
    return out;
  });
  (d.notes ?? []).forEach((n: any, i: number) => condition(['notes', i, 'when'], n.when));
  const result = (g: any, path: Array<string | number>): ResultGroup => {
    const out: ResultGroup = {};
    for (const [k, v] of Object.entries<any>(g)) {
      // The schema: a leaf is an expression (a string) or {formula, unit}; a group has no `formula`.
      if (typeof v === 'string') out[k] = { formula: formula([...path, k], v), unit: 'usd' };
      else if (typeof v.formula === 'string') out[k] = { formula: formula([...path, k, 'formula'], v.formula), unit: v.unit };
      else out[k] = result(v, [...path, k]);
    }
    return out;
  };
  const yearsSorted = [...d.years].sort((a: number, b: number) => a - b);
  if (yearsSorted.join() !== d.years.join()) fail(src, ['years'], 'years must ascend');
  return {
    id: d.id,
    file: src.file,
    description: d.description,
    label: d.label,
    period: d.period,
    years: d.years,
    parameters: d.parameters,
    validations: d.validations,
    steps,
    notes: d.notes ?? [],
    result: result(d.result, ['result']),
  };
}
