/**
 * `ptax rules show <id>`: a parameter (its value for a year and its full history), a
 * county's rate history (`ny.counties:kings`, or `NY:Kings`), a counties file
 * (`ny.counties`), a program (`ny.nyc`) or one of its steps (`ny.nyc.baseTax`). Works on
 * whatever states the bundle has.
 */
import { PtaxError } from '../engine/node.js';
import { periodStart, valueAt } from '../engine/node.js';
import { describeCondition } from '../engine/node.js';
import { findCounty, suggest } from '../engine/node.js';
import { Calculator } from '../engine/node.js';
import type { Bundle, ParamEntry, ParameterDef, ProgramDef, Reference, StateDef } from '../engine/node.js';

const show = (e: ParamEntry) =>
  e.bands
    ? e.bands.map((b) => `${b.below !== undefined ? `< ${b.below}` : b.at_most !== undefined ? `≤ ${b.at_most}` : 'above'}: ${b.value}`).join('; ')
    : typeof e.value === 'number'
      ? String(e.value)
      : Object.entries(e.value ?? {})
          .map(([k, v]) => `${k} ${v}`)
          .join(', ');

/** A citation; a product convention is marked as one (its link is the site's page, docs/conventions.md). */
const cite = (r: Reference[], indent: string) => r.map((x) => `${indent}${x.title} <${x.href}>${x.convention ? ' (product convention)' : ''}`);

export function showRule(bundle: Bundle, id: string, year: number | undefined, json: boolean): string {
  const p = bundle.parameters[id];
  if (p) return showParameter(bundle, p, year, json);
  const colon = id.indexOf(':');
  const state = findState(bundle, colon < 0 ? id : id.slice(0, colon));
  if (state && colon >= 0) {
    if (!state.countiesMeta) throw new PtaxError('NO_COUNTIES', `${state.code} has no counties`);
    return showCounty(bundle, state, state.countiesMeta, id.slice(colon + 1), year, json);
  }
  if (state?.countiesMeta && id === state.countiesId) return showCounties(state, state.countiesMeta, json);
  const program = bundle.programs[id];
  if (program) return showProgram(bundle, program, json);
  const dot = id.lastIndexOf('.');
  const owner = bundle.programs[id.slice(0, dot)];
  const step = owner?.steps.find((s) => s.id === id.slice(dot + 1));
  if (owner && step) {
    if (json) return JSON.stringify({ program: owner.id, file: owner.file, ...step, id }, null, 2);
    const lines = [`${id} — ${step.label.en}`, `  file: ${owner.file}`];
    if (step.formula) lines.push(`  = ${step.formula.src}`);
    if (step.condition) lines.push(`  true when ${describeCondition(step.condition)}`);
    for (const c of step.cases ?? []) lines.push(`  ${c.when ? `if ${describeCondition(c.when)}` : 'otherwise'}: ${c.formula?.src ?? c.value}`);
    // The statute section the step applies (`reference:` on the step).
    if (step.reference) lines.push('  rule:', ...cite(step.reference, '    '));
    const names = Object.entries(owner.parameters);
    const text = lines.join('\n');
    const used = names.filter(([alias]) => new RegExp(`\\b${alias}\\b`).test(text)).map(([alias, pid]) => `  ${alias} = ${pid}`);
    return [text, ...(used.length ? ['  parameters:', ...used.map((u) => '  ' + u)] : [])].join('\n');
  }
  // Parameters and steps first (a program id is a prefix of its steps and would crowd them out).
  const rules = [...Object.keys(bundle.parameters), ...Object.values(bundle.programs).flatMap((g) => g.steps.map((s) => `${g.id}.${s.id}`))];
  const others = [...Object.keys(bundle.programs), ...Object.values(bundle.states).flatMap((s) => (s.countiesId ? [s.countiesId] : []))];
  const first = suggest(id, rules);
  const near = first.length ? first : suggest(id, others);
  throw new PtaxError(
    'UNKNOWN_RULE',
    `No rule "${id}".${near.length ? ` Did you mean ${near.join(', ')}?` : ''} (a county: <state>.counties:<county>, e.g. ny.counties:kings)`,
  );
}

/** A state by its counties file id (ny.counties) or its code (NY, ny). */
function findState(bundle: Bundle, key: string): StateDef | undefined {
  return Object.values(bundle.states).find((s) => s.countiesId === key || s.code === key.toUpperCase());
}

function showParameter(bundle: Bundle, p: ParameterDef, year: number | undefined, json: boolean): string {
  // The year's start date comes from the programs that read the parameter.
  const users = Object.values(bundle.programs).filter((g) => Object.values(g.parameters).includes(p.id));
  const dates = year === undefined ? [] : users.map((g) => ({ program: g.id, date: periodStart(g.period, year) }));
  const inForce = dates.map((d) => ({ ...d, entry: valueAt(p, d.date) }));
  const readBy = users.map((g) => ({
    program: g.id,
    as: Object.entries(g.parameters)
      .filter(([, pid]) => pid === p.id)
      .map(([a]) => a),
  }));
  if (json) return JSON.stringify({ ...p, readBy, ...(year !== undefined ? { year, inForce } : {}) }, null, 2);
  const lines = [`${p.id} — ${p.label.en} (${p.unit}, ${p.type})`, `  ${p.description}`, `  file: ${p.file}`];
  lines.push(`  read by: ${readBy.length ? readBy.map((r) => `${r.program} (as ${r.as.join(', ')})`).join('; ') : 'no program'}`);
  if (year !== undefined && !users.length) lines.push(`  ${year}: no program reads this parameter, so no year applies`);
  for (const f of inForce) lines.push(`  ${year} (${f.program}, from ${f.date}): ${f.entry ? show(f.entry) : 'no value in force'}`);
  lines.push(`  history (${p.values.length} dated value${p.values.length === 1 ? '' : 's'}):`);
  for (const e of p.values) {
    lines.push(`    ${e.effective}: ${show(e)}   (last verified ${e.last_verified})`);
    lines.push(...cite(e.reference, '      '));
    if (e.note) lines.push(`      note: ${e.note}`);
  }
  return lines.join('\n');
}

type CountiesMeta = NonNullable<StateDef['countiesMeta']>;

function showCounty(bundle: Bundle, state: StateDef, meta: CountiesMeta, query: string, year: number | undefined, json: boolean): string {
  const match = findCounty(state, query);
  if (match.alias) {
    const a = match.alias;
    if (json) return JSON.stringify({ state: state.code, alias: a.name, program: a.program, description: a.description ?? null, rates: [] }, null, 2);
    return [
      `${state.countiesId}: ${a.name} (${state.code}) is an alias, not a county: program ${a.program}, no county rate`,
      ...(a.description ? [`  ${a.description}`] : []),
    ].join('\n');
  }
  const c = match.county;
  const id = `${state.countiesId}:${c.slug}`;
  // A county rate is dated like a parameter: a year's rate is the entry in force on the
  // first day of that year for the program that calculates the county.
  const program = bundle.programs[new Calculator(bundle).prepare({ state: state.code, county: c.slug, value: 1 }).compiled.program.id]!;
  const date = year === undefined ? undefined : periodStart(program.period, year);
  const inForce = date === undefined ? undefined : valueAt({ values: c.rates as ParamEntry[] }, date);
  if (json) {
    return JSON.stringify(
      {
        id,
        state: state.code,
        name: c.name,
        slug: c.slug,
        fips: c.fips,
        flags: c.flags,
        unit: 'percent',
        file: meta.file,
        rates: c.rates.map((r) => ({ ...r, reference: meta.reference, last_verified: meta.last_verified })),
        program: program.id,
        ...(year !== undefined ? { year, date, inForce: inForce ?? null } : {}),
      },
      null,
      2,
    );
  }
  const lines = [
    `${id} — ${c.name}, ${state.name.en}: ${meta.label.en} (percent)`,
    `  ${c.fips ? `fips ${c.fips} · ` : ''}program ${program.id}${c.flags.length ? ` · flags: ${c.flags.join(', ')}` : ''}`,
    `  file: ${meta.file}`,
  ];
  if (year !== undefined)
    lines.push(`  ${year} (${program.id}, from ${date}): ${inForce ? `${inForce.value}% (entry of ${inForce.effective})` : 'no rate in force'}`);
  lines.push(`  history (${c.rates.length} dated rate${c.rates.length === 1 ? '' : 's'}; the counties file's citation and last_verified cover them all):`);
  for (const r of c.rates) {
    lines.push(`    ${r.effective}: ${r.value}%   (last verified ${meta.last_verified})`);
    lines.push(...cite(meta.reference, '      '));
  }
  if (!c.rates.length) lines.push('    no rate (the calculation uses the state average)');
  return lines.join('\n');
}

function showCounties(state: StateDef, meta: CountiesMeta, json: boolean): string {
  if (json)
    return JSON.stringify(
      { id: state.countiesId, state: state.code, ...meta, counties: state.counties.length, aliases: state.aliases.map((a) => a.name) },
      null,
      2,
    );
  return [
    `${state.countiesId} — ${meta.label.en}, ${state.name.en} (percent)`,
    `  ${meta.description}`,
    `  file: ${meta.file}`,
    `  ${state.counties.length} counties${state.aliases.length ? `; aliases: ${state.aliases.map((a) => a.name).join(', ')}` : ''}; last verified ${meta.last_verified}`,
    ...cite(meta.reference, '    '),
    `  one county's history: ptax rules show ${state.countiesId}:<county>; all rates: ptax counties --state ${state.code}`,
  ].join('\n');
}

function showProgram(bundle: Bundle, g: ProgramDef, json: boolean): string {
  if (json)
    return JSON.stringify(
      {
        id: g.id,
        file: g.file,
        label: g.label,
        description: g.description,
        period: g.period,
        years: g.years,
        parameters: g.parameters,
        steps: g.steps.map((s) => s.id),
      },
      null,
      2,
    );
  const states = Object.values(bundle.states)
    .filter((s) => s.programs.some((p) => p.program === g.id) || s.aliases.some((a) => a.program === g.id))
    .map((s) => s.code);
  return [
    `${g.id} — ${g.label.en} (program${states.length ? ` of ${states.join(', ')}` : ''})`,
    `  ${g.description}`,
    `  file: ${g.file}`,
    `  years: ${g.years.join(', ')} (${g.period.fiscal ? 'fiscal years starting' : 'years starting'} ${g.period.start})`,
    '  parameters:',
    ...Object.entries(g.parameters).map(([a, pid]) => `    ${a} = ${pid}`),
    `  steps: ${g.steps.map((s) => s.id).join(', ')}`,
    `  one step: ptax rules show ${g.id}.<step>`,
  ].join('\n');
}
