/** Human output: a readable table of the result and, on request, its explanation. */
import type { CalcResult } from '../engine/node.js';
import type { CalculatorDef, Label, Lang, ProgramDef, Reference, ResultFieldDecl, ResultGroup, ResultLeaf } from '../engine/node.js';
import { RESULT_FIELDS } from '../engine/node.js';
import { numberText, usdText } from '../engine/node.js';

// Dollars and numbers as Intl.NumberFormat('en-US') writes them, without loading ICU
// (engine/core/number-text.ts: its first use costs more than the CLI's whole start-up budget).
const usd = { format: (x: number) => usdText(x, 2) };
const num = { format: (x: number) => numberText(x) };
const money = (x: unknown) => (typeof x === 'number' ? usd.format(x) : '—');
const pct = (x: unknown) => (typeof x === 'number' ? `${x.toFixed(2)}%` : '—');

/**
 * The words of the human output that are not in the rule files (those are: the rows'
 * labels in rules/results.yaml, the programs', calculators' and notes' texts). English here;
 * Spanish in cli/format-es.ts, read by `loadTexts('es')` before the first Spanish output
 * (a chunk of its own in the CLI bundle, so that an English run does not load it).
 * Amounts are written alike in both (es-MX writes them as en-US: web/src/lib/format.ts).
 */
export interface CliTexts {
  /** The head line of `ptax calc`: the place, the rules and their year, the value (and a New York City class). */
  head(x: { place: string; program: string; fiscal: boolean; year: number; value: string; propertyClass?: string | null | undefined }): string;
  /** The head line of a calculator: its title, the place, the year or years compared. */
  calculatorHead(x: { title: string; place: string; years: number[] | undefined; year: unknown }): string;
  /** A county as the rules name it ("Kings County"), in this language. */
  place(county: string): string;
  /** The heading of the notes. */
  notes: string;
  /** A saving by its name (an exemption the declarations do not name, a proposition of a vote). */
  saves(name: string): string;
  /** The heading of a state's detail object (`newYork` → New York). */
  detail(key: string): string;
  yes: string;
  no: string;
  /** A text value of a result (a STAR type, a bill's status, a New York City class) as shown; English shows it as it is. */
  values: Record<string, string>;
  /** --explain: the heading, a step's own citation, a parameter's date and file. */
  howCalculated: string;
  rule: string;
  inForce(effective: string, file: string): string;
  /** A source's title (English: as the rule file gives it), with the label of the step or parameter it is cited for. */
  citation(title: string, label?: Label): string;
  /** `ptax <state> list`: a calculator that needs --county; a state with none. */
  needsCounty: string;
  noCalculators(state: string): string;
  /** `ptax counties`: the last line. */
  counties(count: number, aliases: string[]): string;
  /** A row label of rules/results.yaml in this language: the `cli` label, or the field's label when `cli` is true. */
  row(f: { cli?: true | Label; label: Label }): string;
}

const DETAIL_TITLES: Record<string, string> = { newYork: 'New York' };

const EN: CliTexts = {
  head: (x) =>
    `${x.place} · ${x.program} rules, ${x.fiscal ? 'fiscal year' : 'tax year'} ${x.year} · value ${x.value}${x.propertyClass ? ` · ${x.propertyClass}` : ''}`,
  calculatorHead: (x) => `${x.title} · ${x.place} · ${x.years ? `years ${x.years.join(' → ')}` : `year ${x.year}`}`,
  place: (county) => county,
  notes: 'Notes:',
  saves: (name) => `${name} saves`,
  detail: (key) => `${DETAIL_TITLES[key] ?? `${key[0]!.toUpperCase()}${key.slice(1)}`} detail:`,
  yes: 'yes',
  no: 'no',
  values: {},
  howCalculated: 'How this was calculated:',
  rule: 'rule',
  inForce: (effective, file) => `in force from ${effective}; ${file}`,
  citation: (title) => title,
  needsCounty: ' (needs --county)',
  noCalculators: (state) => `${state} has no specialised calculators`,
  counties: (n, aliases) => `${n} counties${aliases.length ? `; also: ${aliases.join(', ')}` : ''}`,
  row: (f) => (f.cli === true || f.cli === undefined ? f.label.en : f.cli.en),
};

const TEXTS: Partial<Record<Lang, CliTexts>> = { en: EN };

/** Loads the texts of a language (Spanish: cli/format-es.ts) for the functions below; English is always there. */
export async function loadTexts(lang: Lang): Promise<CliTexts> {
  return (TEXTS[lang] ??= (await import('./format-es.js')).ES);
}

/** The texts of a language, loaded by `loadTexts` (a missing language is a mistake of the caller, not of the input). */
export function texts(lang: Lang): CliTexts {
  const t = TEXTS[lang];
  if (!t) throw new Error(`cli/format.ts: the texts of "${lang}" are not loaded: await loadTexts('${lang}') first`);
  return t;
}

/**
 * The table's rows: the fields of rules/results.yaml with a `cli` label, in its order
 * (a detail object's rows only when the result has that object). Rows of the groups
 * breakdown and exemptions are indented under the row before them; the exemptions rows
 * come in the result's own order, those it has (an exemption the declarations do not
 * name is labelled by its key).
 */
const TABLE = RESULT_FIELDS.filter((f): f is Extract<(typeof RESULT_FIELDS)[number], { cli: string }> => 'cli' in f);
const EXEMPTION_ROWS = new Map<string, string>(TABLE.filter((f) => f.group === 'exemptions' && f.path[0] === 'exemptions').map((f) => [f.path[1]!, f.cli]));
const SUB_ROWS = new Set(['breakdown', 'exemptions']);
const DETAIL_GROUPS = new Set(['nyc', 'texas', 'california', 'florida', 'newYork']);

const at = (r: Record<string, unknown>, path: readonly string[]): unknown =>
  path.reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), r);
const cell = (unit: string, x: unknown): string => (unit === 'percent' ? pct(x) : money(x));

export function formatResult(
  r: CalcResult,
  input: { value: number; propertyClass?: string | null },
  programLabel: string = r.program,
  program?: ProgramDef,
  fields: ResultFieldDecl[] | (() => ResultFieldDecl[]) = [],
  lang: Lang = 'en',
): string {
  const t = texts(lang);
  // English: the labels compiled with the code (engine/generated/results.ts); another
  // language: the declarations' own (the bundle's results), the English one if there is none.
  const declared = lang === 'en' ? undefined : new Map(fieldsOf(fields).map((f) => [f.id, f]));
  const label = (id: string, en: string): string => {
    const f = declared?.get(id);
    return f ? t.row(f) : en;
  };
  const rows: Array<[string, string]> = [];
  let exemptionsDone = false;
  for (const f of TABLE) {
    const indent = SUB_ROWS.has(f.group) ? '  ' : '';
    if (f.group === 'exemptions' && f.path[0] === 'exemptions') {
      if (exemptionsDone) continue;
      exemptionsDone = true;
      for (const [k, v] of Object.entries((r.exemptions ?? {}) as Record<string, number>)) {
        const en = EXEMPTION_ROWS.get(k);
        rows.push([`${indent}${en === undefined ? t.saves(k) : label(`exemptions.${k}`, en)}`, money(v)]);
      }
      continue;
    }
    if (DETAIL_GROUPS.has(f.group) && !r[f.group]) continue;
    // A field the program does not give at all (the county-level program has no assessed values or levy split) has no row.
    if (!(f.path[0]! in r)) continue;
    rows.push([`${indent}${label(f.id, f.cli)}`, cell(f.unit, at(r, f.path))]);
  }
  const width = Math.max(...rows.map(([k]) => k.length));
  const valueWidth = Math.max(...rows.map(([, v]) => v.length));
  const fiscal = r.nyc !== undefined; // NYC years are fiscal years (July to June)
  const head = t.head({
    place: `${t.place(r.county)}, ${r.state}`,
    program: programLabel,
    fiscal,
    year: r.year,
    value: money(input.value),
    propertyClass: input.propertyClass ? (t.values[input.propertyClass] ?? input.propertyClass) : undefined,
  });
  const lines = [head, ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v.padStart(valueWidth)}`), ...detailLines(r, program, fields, lang)];
  if (r.notes.length) lines.push(t.notes, ...r.notes.map((n) => `  - ${n}`));
  return lines.join('\n');
}

/**
 * Each step with its value, expression and rule id; the step's own `reference` (the
 * statute section it applies, from the program: the step's `reference` in the explanation
 * data when it carries one, else the program's step); the parameters it reads with theirs.
 */
export function formatExplanation(r: CalcResult, lang: Lang = 'en', program?: ProgramDef, parameters?: Record<string, { label?: Label }>): string {
  const t = texts(lang);
  const lines = [t.howCalculated];
  const refs = (x: Reference[], label?: Label) => x.map((y) => `${t.citation(y.title, label)} <${y.href}>`).join('; ');
  (r.explanation ?? []).forEach((s, i) => {
    const value = typeof s.value === 'number' ? num.format(s.value) : String(s.value);
    // The sentence with its figures (engine/core/sentence.ts); an explanation without one (older JSON): label = value.
    lines.push(`  ${String(i + 1).padStart(2)}. ${s.sentence ?? `${s.label[lang]} = ${value}`}`);
    lines.push(`      ${s.expression}   [${s.rule}]`);
    const own = (s as { reference?: Reference[] }).reference ?? program?.steps.find((x) => `${program.id}.${x.id}` === s.rule)?.reference;
    if (own) lines.push(`      ${t.rule}: ${refs(own, s.label)}`);
    for (const p of s.params) lines.push(`      ${p.id} (${t.inForce(p.effective, p.file)}): ${refs(p.reference, parameters?.[p.id]?.label)}`);
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

/**
 * Rows "key  value" for an object of results, nested objects indented, formatted by unit.
 * In English a row is named by its key; in another language by the label of the field that
 * rules/results.yaml declares with that path elsewhere (a calculator's `annualTax`), else by its key.
 */
function resultRows(
  o: Record<string, unknown>,
  units: Map<string, string>,
  prefix: string,
  depth: number,
  t: CliTexts,
  names?: Map<string, string>,
): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  const fmt = (path: string, x: unknown): string => {
    const u = units.get(path) ?? (typeof x === 'number' ? 'usd' : 'text');
    if (typeof x === 'boolean') return x ? t.yes : t.no;
    if (typeof x !== 'number') return t.values[String(x)] ?? String(x);
    // Counts (years held, a bill's tax year, months late) print without thousands separators.
    return u === 'usd' ? usd.format(x) : u === 'percent' ? `${x.toFixed(2)}%` : u === 'count' ? String(x) : num.format(x);
  };
  for (const [k, v] of Object.entries(o)) {
    const path = prefix ? `${prefix}.${k}` : k;
    const name = `${'  '.repeat(depth)}${names?.get(path) ?? k}`;
    if (v && typeof v === 'object' && !Array.isArray(v)) rows.push([name, ''], ...resultRows(v as Record<string, unknown>, units, path, depth + 1, t, names));
    else rows.push([name, fmt(path, v)]);
  }
  return rows;
}

/**
 * The result declarations, given as they are or as a function that reads them: `ptax calc`
 * passes the bundle's `results` that way, so that a table in English without a state detail
 * does not read them (24 KB of the rule index; issue 23).
 */
const fieldsOf = (fields: ResultFieldDecl[] | (() => ResultFieldDecl[])): ResultFieldDecl[] => (typeof fields === 'function' ? fields() : fields);

/** The labels of the declared fields by their path, in a language other than English (English names leftover rows by their keys). */
const namesOf = (fields: ResultFieldDecl[], lang: Lang): Map<string, string> | undefined =>
  lang === 'en' ? undefined : new Map(fields.map((f) => [f.id, f.label[lang] ?? f.label.en]));

/** A state's detail object in the human table (`florida`, `california`, `texas`; NYC has its own lines). */
export const DETAIL_KEYS = ['florida', 'california', 'texas', 'newYork'] as const;

/** A declared field's value as the table prints it, by its unit. */
function declaredCell(f: ResultFieldDecl, x: unknown, t: CliTexts): string {
  if (typeof x === 'boolean') return x ? t.yes : t.no;
  if (typeof x !== 'number') return x === undefined || x === null ? '—' : (t.values[String(x)] ?? String(x));
  if (f.unit === 'usd') return usd.format(x);
  if (f.unit === 'percent') return `${x.toFixed(2)}%`;
  if (f.unit === 'fraction') return `${(x * 100).toFixed(2)}%`;
  return f.unit === 'count' ? String(x) : num.format(x);
}

/**
 * Rows of an object of results: first the fields rules/results.yaml declares for it (its
 * label in the language, its unit), in the declaration's order; then any figure the
 * declarations do not name, by its key, so nothing is left out.
 */
function declaredRows(
  o: Record<string, unknown>,
  fields: ResultFieldDecl[],
  prefix: string,
  lang: Lang,
  units: Map<string, string>,
  skip: Set<string> = new Set(),
  names?: Map<string, string>,
): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  const covered = new Set<string>();
  for (const f of fields) {
    const rel = prefix ? f.id.slice(prefix.length + 1) : f.id;
    const x = at(o, rel.split('.'));
    if (x === undefined || (x !== null && typeof x === 'object')) continue;
    rows.push([f.label[lang] ?? f.label.en, declaredCell(f, x, texts(lang))]);
    covered.add(rel);
  }
  const leftover = (v: Record<string, unknown>, path: string): Record<string, unknown> | undefined => {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const p = path ? `${path}.${k}` : k;
      if (skip.has(p) || covered.has(p) || Array.isArray(x)) continue;
      if (x && typeof x === 'object') {
        const sub = leftover(x as Record<string, unknown>, p);
        if (sub) out[k] = sub;
      } else out[k] = x;
    }
    return Object.keys(out).length ? out : undefined;
  };
  const rest = leftover(o, '');
  if (rest) rows.push(...resultRows(rest, units, prefix, 0, texts(lang), names));
  return rows;
}

export function detailLines(
  r: CalcResult,
  program: ProgramDef | undefined,
  lazyFields: ResultFieldDecl[] | (() => ResultFieldDecl[]) = [],
  lang: Lang = 'en',
): string[] {
  const units = leafUnits(program?.result);
  const lines: string[] = [];
  for (const k of DETAIL_KEYS) {
    const d = r[k];
    if (!d || typeof d !== 'object') continue;
    const fields = fieldsOf(lazyFields);
    const declared = fields.filter((f) => f.id.startsWith(`${k}.`));
    const rows = declared.length
      ? declaredRows(d as Record<string, unknown>, declared, k, lang, units, undefined, namesOf(fields, lang))
      : resultRows(d as Record<string, unknown>, units, k, 0, texts(lang), namesOf(fields, lang));
    const width = Math.max(0, ...rows.map(([x]) => x.length));
    lines.push(texts(lang).detail(k), ...rows.map(([x, v]) => `  ${x.padEnd(width)}  ${v}`.trimEnd()));
  }
  return lines;
}

/**
 * Human output of a specialised calculator (`ptax tx payment`, `ptax ca prop13`, …): its
 * figures as rules/results.yaml declares them for the calculator (label and unit), then any
 * other figure by its key; a vote's propositions with what each saves.
 */
export function formatCalculator(
  r: CalcResult,
  program: ProgramDef | undefined,
  title: string,
  fields: ResultFieldDecl[] = [],
  lang: Lang = 'en',
  k?: CalculatorDef,
): string {
  const t = texts(lang);
  const key = `${String(r.state).toLowerCase()}.${String(r.calculator ?? '')}`;
  const own = fields.filter((f) => f.calculators?.includes(key) || (k?.program && f.calculators?.includes(`${String(r.state).toLowerCase()}.${k.name}`)));
  const rows = declaredRows(r as Record<string, unknown>, own, '', lang, leafUnits(program?.result), HEAD_KEYS, namesOf(fields, lang));
  const props = (r.propositions ?? []) as Array<{ id: string; savings: number }>;
  for (const p of props) {
    const def = k?.propositions?.find((x) => x.id === p.id);
    rows.push([t.saves(def ? (def.title[lang] ?? def.title.en) : p.id), usd.format(p.savings)]);
  }
  const width = Math.max(0, ...rows.map(([x]) => x.length));
  const place = [r.county ? t.place(r.county) : r.county, r.state].filter(Boolean).join(', ');
  const head = t.calculatorHead({ title, place, years: Array.isArray(r.years) ? (r.years as number[]) : undefined, year: r.year });
  const lines = [head, ...rows.map(([x, v]) => `  ${x.padEnd(width)}  ${v}`.trimEnd())];
  if (r.notes.length) lines.push(t.notes, ...r.notes.map((n) => `  - ${n}`));
  return lines.join('\n');
}
