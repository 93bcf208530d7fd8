/** Human output: a readable table of the result and, on request, its explanation. */
import type { CalcResult } from '../engine/calculate.js';
import type { Lang, ProgramDef, ResultGroup, ResultLeaf } from '../engine/types.js';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const num = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });
const money = (x: unknown) => (typeof x === 'number' ? usd.format(x) : '—');
const pct = (x: unknown) => (typeof x === 'number' ? `${x.toFixed(2)}%` : '—');

const EXEMPTION_NAMES: Record<string, string> = {
  seniorCitizen: 'Senior citizen', disabledPerson: 'Disabled person', star: 'STAR', veteran: 'Veterans',
  coldWarVeteran: 'Cold War veterans', coopCondoAbatement: 'Co-op/condo abatement', homeowners: "Homeowners'", homestead: 'Homestead',
  over65: 'Over 65', disabled: 'Disabled person', over65OrDisabled: 'Over 65 / disabled',
};

export function formatResult(r: CalcResult, input: { value: number; propertyClass?: string | null }, programLabel: string = r.program, program?: ProgramDef): string {
  const rows: Array<[string, string]> = [];
  const add = (k: string, v: string) => rows.push([k, v]);
  add('Annual tax', money(r.annualTax));
  add('Monthly tax', money(r.monthlyTax));
  add('Effective rate', pct(r.effectiveRate));
  add('Base assessed value', money(r.baseAssessedValue));
  add('Final assessed value', money(r.finalAssessedValue));
  add('Taxable value', money(r.taxableValue));
  add('Exemption savings', money(r.exemptionSavings));
  const b = (r.countyBreakdown ?? {}) as Record<string, number>;
  for (const k of ['school', 'county', 'city', 'special']) add(`  ${k[0]!.toUpperCase()}${k.slice(1)} tax`, money(b[k]));
  const ex = (r.exemptions ?? {}) as Record<string, number>;
  for (const [k, v] of Object.entries(ex)) add(`  ${EXEMPTION_NAMES[k] ?? k} saves`, money(v));
  add('Potential savings', money(r.potentialSavings));
  if (r.nyc) {
    const n = r.nyc as Record<string, number>;
    add('NYC base tax', money(n.baseTax));
    add('NYC quarterly payment', money(n.quarterlyPayment));
  }
  const width = Math.max(...rows.map(([k]) => k.length));
  const valueWidth = Math.max(...rows.map(([, v]) => v.length));
  const fiscal = r.nyc !== undefined; // NYC years are fiscal years (July to June)
  const head = `${r.county}, ${r.state} · ${programLabel} rules, ${fiscal ? 'fiscal year' : 'tax year'} ${r.year}` +
    ` · value ${money(input.value)}${input.propertyClass ? ` · ${input.propertyClass}` : ''}`;
  const lines = [head, ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v.padStart(valueWidth)}`), ...detailLines(r, program)];
  if (r.notes.length) lines.push('Notes:', ...r.notes.map((n) => `  - ${n}`));
  return lines.join('\n');
}

export function formatExplanation(r: CalcResult, lang: Lang = 'en'): string {
  const lines = [lang === 'es' ? 'Cómo se calculó:' : 'How this was calculated:'];
  (r.explanation ?? []).forEach((s, i) => {
    const value = typeof s.value === 'number' ? num.format(s.value) : String(s.value);
    lines.push(`  ${String(i + 1).padStart(2)}. ${s.label[lang]} = ${value}`);
    lines.push(`      ${s.expression}   [${s.rule}]`);
    for (const p of s.params) {
      lines.push(`      ${p.id} (in force from ${p.effective}; ${p.file}): ${p.reference.map((x) => `${x.title} <${x.href}>`).join('; ')}`);
    }
  });
  return lines.join('\n');
}

/** The unit of each result leaf, by dotted path, from the program's result tree. */
function leafUnits(tree: ResultGroup | undefined, prefix = '', out = new Map<string, string>()): Map<string, string> {
  for (const [k, v] of Object.entries(tree ?? {})) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(path, 'usd');
    else if (v && typeof v === 'object' && 'formula' in v && 'unit' in v) out.set(path, (v as ResultLeaf).unit);
    else leafUnits(v as ResultGroup, path, out);
  }
  return out;
}

const HEAD_KEYS = new Set(['state', 'county', 'year', 'program', 'calculator', 'notes', 'explanation', 'before', 'after', 'years']);

/** Rows "key  value" for an object of results, nested objects indented, formatted by unit. */
function resultRows(o: Record<string, unknown>, units: Map<string, string>, prefix: string, depth: number, skip: Set<string> = new Set()): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  const fmt = (path: string, x: unknown): string => {
    const u = units.get(path) ?? (typeof x === 'number' ? 'usd' : 'text');
    if (typeof x === 'boolean') return x ? 'yes' : 'no';
    if (typeof x !== 'number') return String(x);
    // Counts (years held, a bill's tax year, months late) print without thousands separators.
    return u === 'usd' ? usd.format(x) : u === 'percent' ? `${x.toFixed(2)}%` : u === 'count' ? String(x) : num.format(x);
  };
  for (const [k, v] of Object.entries(o)) {
    if (skip.has(k)) continue;
    const path = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) rows.push([`${'  '.repeat(depth)}${k}`, ''], ...resultRows(v as Record<string, unknown>, units, path, depth + 1));
    else rows.push([`${'  '.repeat(depth)}${k}`, fmt(path, v)]);
  }
  return rows;
}

/** A state's detail object in the human table (`florida`, `california`, `texas`; NYC has its own lines). */
export const DETAIL_KEYS = ['florida', 'california', 'texas'] as const;

export function detailLines(r: CalcResult, program: ProgramDef | undefined): string[] {
  const units = leafUnits(program?.result);
  const lines: string[] = [];
  for (const k of DETAIL_KEYS) {
    const d = r[k];
    if (!d || typeof d !== 'object') continue;
    const rows = resultRows(d as Record<string, unknown>, units, k, 0);
    const width = Math.max(0, ...rows.map(([x]) => x.length));
    lines.push(`${k[0]!.toUpperCase()}${k.slice(1)} detail:`, ...rows.map(([x, v]) => `  ${x.padEnd(width)}  ${v}`.trimEnd()));
  }
  return lines;
}

/**
 * Human output of a specialised calculator (`ptax tx payment`, `ptax ca prop13`, …): every
 * figure of its result, labelled by its key and formatted by the unit the rule file gives.
 */
export function formatCalculator(r: CalcResult, program: ProgramDef | undefined, title: string): string {
  const rows = resultRows(r as Record<string, unknown>, leafUnits(program?.result), '', 0, HEAD_KEYS);
  const width = Math.max(0, ...rows.map(([k]) => k.length));
  const where = [r.county, r.state].filter(Boolean).join(', ');
  const years = Array.isArray(r.years) ? `years ${(r.years as number[]).join(' → ')}` : `year ${r.year}`;
  const lines = [`${title} · ${where} · ${years}`, ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`.trimEnd())];
  if (r.notes.length) lines.push('Notes:', ...r.notes.map((n) => `  - ${n}`));
  return lines.join('\n');
}
