/**
 * What changed between two rule bundles, as data: dated parameter values, county rates,
 * programs (formula sources, conditions, years, parameter aliases) and states. Pure: the
 * git side and the output live in cli/diff.ts.
 */
import { describeCondition } from '../engine/node.js';
import { valueAt } from '../engine/node.js';
import type { Band, Bundle, Condition, ParamEntry, ParameterDef, ProgramDef, Reference, ResultGroup, StateDef } from '../engine/node.js';

/** One changed figure: a parameter entry (or one key of it) or a county rate entry. */
export interface ValueChange {
  /** ny.nyc.tax_rate, ny.nyc.tax_rate[class1], ny.counties:kings */
  id: string;
  label: string;
  unit: string;
  file: string;
  change: 'changed' | 'added' | 'removed';
  effective: string;
  /** Display text; for an added entry, the value in force before it (from `oldEffective`). */
  old: string | null;
  new: string | null;
  oldEffective?: string;
  /** new − old, when both are numbers. */
  difference: number | null;
  oldNumber?: number | null;
  newNumber?: number | null;
  citation: Reference[];
  oldCitation?: Reference[];
  lastVerified: string | null;
}

/** Same value, other metadata: a new citation, a new last_verified, a note, a description. */
export interface MetaChange {
  id: string;
  effective: string | null;
  what: string;
  old: string;
  new: string;
}

/** A change in a program or state definition (formulas are compared as their source). */
export interface DefinitionChange {
  id: string;
  part: string;
  change: 'changed' | 'added' | 'removed';
  old: string | null;
  new: string | null;
}

export interface RuleChanges {
  values: ValueChange[];
  counties: ValueChange[];
  meta: MetaChange[];
  parametersAdded: string[];
  parametersRemoved: string[];
  programsAdded: string[];
  programsRemoved: string[];
  statesAdded: string[];
  statesRemoved: string[];
  definitions: DefinitionChange[];
}

const num = (x: number) => String(+x.toPrecision(12));
const delta = (a: number, b: number) => +(b - a).toPrecision(12);

export const bandsText = (bands: Band[]): string =>
  bands.map((b) => `${b.below !== undefined ? `< ${num(b.below)}` : b.at_most !== undefined ? `≤ ${num(b.at_most)}` : 'above'}: ${num(b.value)}`).join('; ');

/** A whole entry's value as text: `19.843`, `class1 19.843, class2 12.439`, or bands. */
export function entryText(e: Pick<ParamEntry, 'value' | 'bands'>): string {
  if (e.bands) return bandsText(e.bands);
  if (typeof e.value === 'number') return num(e.value);
  return Object.entries(e.value ?? {})
    .map(([k, v]) => `${k} ${num(v)}`)
    .join(', ');
}

const refsText = (r: Reference[] | undefined) => (r ?? []).map((x) => `${x.title} <${x.href}>`).join('; ');
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function compareBundles(base: Bundle, head: Bundle): RuleChanges {
  const out: RuleChanges = {
    values: [],
    counties: [],
    meta: [],
    parametersAdded: [],
    parametersRemoved: [],
    programsAdded: [],
    programsRemoved: [],
    statesAdded: [],
    statesRemoved: [],
    definitions: [],
  };
  for (const id of union(Object.keys(base.parameters), Object.keys(head.parameters))) {
    const a = base.parameters[id],
      b = head.parameters[id];
    if (!a) out.parametersAdded.push(id);
    if (!b) out.parametersRemoved.push(id);
    compareParameter(id, a, b, out);
  }
  for (const id of union(Object.keys(base.programs), Object.keys(head.programs))) {
    const a = base.programs[id],
      b = head.programs[id];
    if (!a) {
      out.programsAdded.push(id);
      continue;
    }
    if (!b) {
      out.programsRemoved.push(id);
      continue;
    }
    compareProgram(a, b, out.definitions);
  }
  for (const code of union(Object.keys(base.states), Object.keys(head.states))) {
    const a = base.states[code],
      b = head.states[code];
    if (!a) out.statesAdded.push(code);
    if (!b) out.statesRemoved.push(code);
    // A state added or removed as a whole is one line (with its county count), not a row per county.
    if (a && b) {
      compareCounties(a, b, out);
      compareState(a, b, out.definitions);
    }
  }
  return out;
}

/** Sorted union, so the report's order does not depend on file order. */
function union(a: string[], b: string[]): string[] {
  return [...new Set([...a, ...b])].sort();
}

function compareParameter(id: string, a: ParameterDef | undefined, b: ParameterDef | undefined, out: RuleChanges): void {
  const def = (b ?? a)!;
  const label = def.label.en;
  if (a && b) {
    for (const k of ['description', 'unit', 'type', 'keys', 'sums_to_one', 'file'] as const) {
      if (!same(a[k], b[k])) out.meta.push({ id, effective: null, what: k, old: String(a[k] ?? '—'), new: String(b[k] ?? '—') });
    }
    if (!same(a.label, b.label)) out.meta.push({ id, effective: null, what: 'label', old: a.label.en, new: b.label.en });
  }
  const dates = union(
    (a?.values ?? []).map((e) => e.effective),
    (b?.values ?? []).map((e) => e.effective),
  );
  for (const date of dates) {
    const ea = a?.values.find((e) => e.effective === date);
    const eb = b?.values.find((e) => e.effective === date);
    const base = { label, unit: def.unit, file: def.file, effective: date };
    if (ea && eb) {
      if (!same(ea.value, eb.value) || !same(ea.bands, eb.bands)) {
        const citation = same(ea.reference, eb.reference) ? {} : { oldCitation: ea.reference };
        for (const row of valueRows(id, ea, eb))
          out.values.push({ ...base, ...row, change: 'changed', citation: eb.reference, ...citation, lastVerified: eb.last_verified });
      } else {
        if (!same(ea.reference, eb.reference))
          out.meta.push({ id, effective: date, what: 'citation', old: refsText(ea.reference), new: refsText(eb.reference) });
        if (ea.last_verified !== eb.last_verified) out.meta.push({ id, effective: date, what: 'last_verified', old: ea.last_verified, new: eb.last_verified });
        if ((ea.note ?? '') !== (eb.note ?? '')) out.meta.push({ id, effective: date, what: 'note', old: ea.note ?? '—', new: eb.note ?? '—' });
      }
    } else if (eb) {
      // A new dated entry: compare with what was in force on that date before.
      const before = a ? valueAt(a, date) : undefined;
      for (const row of valueRows(id, before, eb)) {
        out.values.push({
          ...base,
          ...row,
          change: 'added',
          ...(before ? { oldEffective: before.effective } : {}),
          citation: eb.reference,
          lastVerified: eb.last_verified,
        });
      }
    } else if (ea) {
      out.values.push({
        ...base,
        id,
        change: 'removed',
        old: entryText(ea),
        new: null,
        difference: null,
        citation: ea.reference,
        lastVerified: ea.last_verified,
      });
    }
  }
}

type Row = Pick<ValueChange, 'id' | 'old' | 'new' | 'difference' | 'oldNumber' | 'newNumber'>;

/** One row for a scalar or band entry; one per changed key for a by_key entry. */
function valueRows(id: string, ea: ParamEntry | undefined, eb: ParamEntry): Row[] {
  if (typeof eb.value === 'number') {
    const o = typeof ea?.value === 'number' ? ea.value : null;
    return [{ id, old: ea ? entryText(ea) : null, new: entryText(eb), oldNumber: o, newNumber: eb.value, difference: o === null ? null : delta(o, eb.value) }];
  }
  if (eb.value && typeof eb.value === 'object') {
    const ov = ea?.value && typeof ea.value === 'object' ? ea.value : {};
    const rows: Row[] = [];
    for (const k of union(Object.keys(ov), Object.keys(eb.value))) {
      const o = ov[k],
        n = eb.value[k];
      if (o === n) continue;
      rows.push({
        id: `${id}[${k}]`,
        old: o === undefined ? null : num(o),
        new: n === undefined ? null : num(n),
        oldNumber: o ?? null,
        newNumber: n ?? null,
        difference: o === undefined || n === undefined ? null : delta(o, n),
      });
    }
    return rows;
  }
  return [{ id, old: ea ? entryText(ea) : null, new: entryText(eb), difference: null }];
}

function compareCounties(a: StateDef, b: StateDef, out: RuleChanges): void {
  // The hub has no counties file.
  const id = b.countiesId ?? a.countiesId ?? `${b.code.toLowerCase()}.counties`;
  const ma = a.countiesMeta,
    mb = b.countiesMeta;
  if (ma && mb) {
    if (!same(ma.reference, mb.reference)) out.meta.push({ id, effective: null, what: 'citation', old: refsText(ma.reference), new: refsText(mb.reference) });
    if (ma.last_verified !== mb.last_verified) out.meta.push({ id, effective: null, what: 'last_verified', old: ma.last_verified, new: mb.last_verified });
    if (ma.description !== mb.description) out.meta.push({ id, effective: null, what: 'description', old: ma.description, new: mb.description });
  }
  for (const slug of union(
    a.counties.map((c) => c.slug),
    b.counties.map((c) => c.slug),
  )) {
    const ca = a.counties.find((c) => c.slug === slug);
    const cb = b.counties.find((c) => c.slug === slug);
    const c = (cb ?? ca)!;
    const cid = `${id}:${slug}`;
    if (ca && cb) {
      if (ca.name !== cb.name) out.meta.push({ id: cid, effective: null, what: 'name', old: ca.name, new: cb.name });
      if (!same(ca.flags, cb.flags))
        out.meta.push({ id: cid, effective: null, what: 'flags', old: ca.flags.join(', ') || '—', new: cb.flags.join(', ') || '—' });
      if (ca.fips !== cb.fips) out.meta.push({ id: cid, effective: null, what: 'fips', old: ca.fips, new: cb.fips });
    }
    const dates = union(
      (ca?.rates ?? []).map((r) => r.effective),
      (cb?.rates ?? []).map((r) => r.effective),
    );
    for (const date of dates) {
      const ra = ca?.rates.find((r) => r.effective === date);
      const rb = cb?.rates.find((r) => r.effective === date);
      if (ra && rb && ra.value === rb.value) continue;
      const before = !ra && rb && ca ? valueAt({ values: ca.rates as ParamEntry[] }, date) : undefined;
      const o = ra?.value ?? (before?.value as number | undefined) ?? null;
      const n = rb?.value ?? null;
      out.counties.push({
        id: cid,
        label: c.name,
        unit: 'percent',
        file: (mb ?? ma)?.file ?? '',
        effective: date,
        change: ra && rb ? 'changed' : rb ? 'added' : 'removed',
        old: o === null ? null : num(o),
        new: n === null ? null : num(n),
        ...(before ? { oldEffective: before.effective } : {}),
        oldNumber: o,
        newNumber: n,
        difference: o === null || n === null ? null : delta(o, n),
        citation: (rb ? mb : ma)?.reference ?? [],
        lastVerified: (rb ? mb : ma)?.last_verified ?? null,
      });
    }
  }
}

const cond = (c: Condition | undefined) => (c ? describeCondition(c) : '—');

/** A step as one line: its formula, its condition, or its cases in order. */
export function stepText(s: ProgramDef['steps'][number]): string {
  if (s.formula) return s.formula.src;
  if (s.condition) return `true when ${describeCondition(s.condition)}`;
  return (s.cases ?? []).map((c) => `${c.when ? `if ${describeCondition(c.when)}: ` : 'otherwise: '}${c.formula ? c.formula.src : c.value}`).join('; ');
}

function compareProgram(a: ProgramDef, b: ProgramDef, out: DefinitionChange[]): void {
  const id = a.id;
  const push = (part: string, old: string | null, nu: string | null) => {
    if (old === nu) return;
    out.push({ id, part, change: old === null ? 'added' : nu === null ? 'removed' : 'changed', old, new: nu });
  };
  push('years', a.years.join(', '), b.years.join(', '));
  push('period', `${a.period.start}${a.period.fiscal ? ' (fiscal)' : ''}`, `${b.period.start}${b.period.fiscal ? ' (fiscal)' : ''}`);
  push('file', a.file, b.file);
  for (const alias of union(Object.keys(a.parameters), Object.keys(b.parameters)))
    push(`parameter ${alias}`, a.parameters[alias] ?? null, b.parameters[alias] ?? null);
  const vText = (v: ProgramDef['validations'][number] | undefined) => (v ? `when ${cond(v.when)}: ${v.message.en}` : null);
  for (const code of union(
    a.validations.map((v) => v.code),
    b.validations.map((v) => v.code),
  )) {
    push(`validation ${code}`, vText(a.validations.find((v) => v.code === code)), vText(b.validations.find((v) => v.code === code)));
  }
  const steps = (p: ProgramDef) => new Map(p.steps.map((s) => [s.id, s]));
  const sa = steps(a),
    sb = steps(b);
  // Steps in the head's order, then the removed ones.
  for (const sid of [...new Set([...sb.keys(), ...sa.keys()])]) {
    const x = sa.get(sid),
      y = sb.get(sid);
    push(`step ${sid}`, x ? stepText(x) : null, y ? stepText(y) : null);
    if (x && y && x.label.en !== y.label.en) push(`step ${sid} label`, x.label.en, y.label.en);
  }
  const order = (p: ProgramDef) =>
    p.steps
      .map((s) => s.id)
      .filter((s) => sa.has(s) && sb.has(s))
      .join(', ');
  if (order(a) !== order(b)) push('step order', order(a), order(b));
  const notes = (p: ProgramDef) => new Map(p.notes.map((n) => [n.text.en, cond(n.when)]));
  const na = notes(a),
    nb = notes(b);
  for (const text of [...new Set([...nb.keys(), ...na.keys()])])
    push(`note "${text}"`, na.has(text) ? `when ${na.get(text)}` : null, nb.has(text) ? `when ${nb.get(text)}` : null);
  const ra = resultLeaves(a.result),
    rb = resultLeaves(b.result);
  for (const path of [...new Set([...rb.keys(), ...ra.keys()])]) push(`result ${path}`, ra.get(path) ?? null, rb.get(path) ?? null);
}

function resultLeaves(g: ResultGroup, prefix = '', out = new Map<string, string>()): Map<string, string> {
  for (const [k, v] of Object.entries(g)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if ('formula' in v && typeof (v as { formula: unknown }).formula === 'object') {
      const leaf = v as { formula: { src: string }; unit: string };
      out.set(path, `${leaf.formula.src}${leaf.unit === 'usd' ? '' : ` (${leaf.unit})`}`);
    } else resultLeaves(v as ResultGroup, path, out);
  }
  return out;
}

function compareState(a: StateDef, b: StateDef, out: DefinitionChange[]): void {
  const id = `state ${a.code}`;
  const push = (part: string, old: string | null, nu: string | null) => {
    if (old === nu) return;
    out.push({ id, part, change: old === null ? 'added' : nu === null ? 'removed' : 'changed', old, new: nu });
  };
  const programs = (s: StateDef) => s.programs.map((p) => `${p.when ? `when ${describeCondition(p.when)}: ` : 'otherwise: '}${p.program}`).join('; ');
  push('programs', programs(a), programs(b));
  const aliases = (s: StateDef) => new Map(s.aliases.map((x) => [x.name, x.program]));
  const aa = aliases(a),
    ab = aliases(b);
  for (const name of union([...aa.keys()], [...ab.keys()])) push(`alias ${name}`, aa.get(name) ?? null, ab.get(name) ?? null);
  push('counties file', a.countiesId ?? null, b.countiesId ?? null);
  push('name', a.name.en, b.name.en);
  const calcs = (s: StateDef) => new Map((s.calculators ?? []).map((k) => [k.name, k.program ?? `compare years ${k.compare?.years.join(' and ')}`]));
  const ka = calcs(a),
    kb = calcs(b);
  for (const name of union([...ka.keys()], [...kb.keys()])) push(`calculator ${name}`, ka.get(name) ?? null, kb.get(name) ?? null);
  // The edition's profile (tax system, exemptions, stats, due dates, deadlines), key by key.
  const pa = (a.profile ?? {}) as Record<string, unknown>,
    pb = (b.profile ?? {}) as Record<string, unknown>;
  for (const k of union(Object.keys(pa), Object.keys(pb))) {
    const x = pa[k] === undefined ? null : JSON.stringify(pa[k]),
      y = pb[k] === undefined ? null : JSON.stringify(pb[k]);
    push(`profile ${k}`, x, y);
  }
}
