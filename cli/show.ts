/** `ptax rules show <id>`: a parameter's value for a year and its history, or a step. */
import { PtaxError } from '../engine/errors.js';
import { periodStart, valueAt } from '../engine/params.js';
import { describeCondition } from '../engine/compile.js';
import { suggest } from '../engine/counties.js';
import type { Bundle, ParamEntry } from '../engine/types.js';

const show = (e: ParamEntry) =>
  e.bands ? e.bands.map((b) => `${b.below !== undefined ? `< ${b.below}` : b.at_most !== undefined ? `≤ ${b.at_most}` : 'above'}: ${b.value}`).join('; ')
  : typeof e.value === 'number' ? String(e.value) : Object.entries(e.value ?? {}).map(([k, v]) => `${k} ${v}`).join(', ');

export function showRule(bundle: Bundle, id: string, year: number | undefined, json: boolean): string {
  const p = bundle.parameters[id];
  if (p) {
    // The year's start date comes from the programs that read the parameter.
    const users = Object.values(bundle.programs).filter((g) => Object.values(g.parameters).includes(id));
    const dates = year === undefined ? [] : users.map((g) => ({ program: g.id, date: periodStart(g.period, year) }));
    const inForce = dates.map((d) => ({ ...d, entry: valueAt(p, d.date) }));
    if (json) return JSON.stringify({ ...p, ...(year !== undefined ? { year, inForce } : {}) }, null, 2);
    const lines = [`${p.id} — ${p.label.en} (${p.unit}, ${p.type})`, `  ${p.description}`, `  file: ${p.file}`];
    for (const f of inForce) lines.push(`  ${year} (${f.program}, from ${f.date}): ${f.entry ? show(f.entry) : 'no value in force'}`);
    lines.push('  history:');
    for (const e of p.values) {
      lines.push(`    ${e.effective}: ${show(e)}   (verified ${e.last_verified})`);
      for (const r of e.reference) lines.push(`      ${r.title} <${r.href}>`);
    }
    return lines.join('\n');
  }
  const dot = id.lastIndexOf('.');
  const program = bundle.programs[id.slice(0, dot)];
  const step = program?.steps.find((s) => s.id === id.slice(dot + 1));
  if (program && step) {
    if (json) return JSON.stringify({ program: program.id, file: program.file, ...step, id }, null, 2);
    const lines = [`${id} — ${step.label.en}`, `  file: ${program.file}`];
    if (step.formula) lines.push(`  = ${step.formula.src}`);
    if (step.condition) lines.push(`  true when ${describeCondition(step.condition)}`);
    for (const c of step.cases ?? []) lines.push(`  ${c.when ? `if ${describeCondition(c.when)}` : 'otherwise'}: ${c.formula?.src ?? c.value}`);
    const names = Object.entries(program.parameters);
    const text = lines.join('\n');
    const used = names.filter(([alias]) => new RegExp(`\\b${alias}\\b`).test(text)).map(([alias, pid]) => `  ${alias} = ${pid}`);
    return [text, ...(used.length ? ['  parameters:', ...used.map((u) => '  ' + u)] : [])].join('\n');
  }
  const all = [...Object.keys(bundle.parameters), ...Object.values(bundle.programs).flatMap((g) => g.steps.map((s) => `${g.id}.${s.id}`))];
  const near = suggest(id, all);
  throw new PtaxError('UNKNOWN_RULE', `No rule "${id}".${near.length ? ` Did you mean ${near.join(', ')}?` : ''}`);
}
