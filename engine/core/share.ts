/**
 * A calculation's inputs in an address (`?county=kings&value=800000&class=class1&homestead=true`):
 * the share links of the web calculator, read the same way by the web page that opens one
 * and by the site server that describes it to link previews. Names are the batch columns of
 * rules/inputs.yaml; only inputs of the state's main calculator are read; a value that is
 * not valid for its input is left out (the page then shows its default).
 */
import { INPUTS } from '../generated/inputs.js';
import { parseMoney } from './money.js';

export type ShareValue = boolean | number | string;

/** The state's inputs read from the address, by input id (`value`, `propertyClass`, `homestead`, …), and the county slug. */
export function inputsFromQuery(query: URLSearchParams, state: string): { county: string; inputs: Record<string, ShareValue> } | null {
  const county = query.get('county')?.trim().toLowerCase() ?? '';
  if (!/^[a-z0-9-]+$/.test(county)) return null;
  const inputs: Record<string, ShareValue> = {};
  for (const d of INPUTS) {
    const column = 'column' in d ? d.column : undefined;
    if (!column || !(d.states as readonly string[]).includes(state)) continue;
    const raw = query.get(column);
    if (raw === null) continue;
    const x = readOne(d, raw.trim());
    if (x !== undefined) inputs[d.id] = x;
  }
  if (typeof inputs.value !== 'number' || inputs.value <= 0) return null;
  return { county, inputs };
}

function readOne(d: (typeof INPUTS)[number], raw: string): ShareValue | undefined {
  if (d.type === 'boolean') return raw === 'true' || raw === '1' ? true : raw === 'false' || raw === '0' ? false : undefined;
  if ('values' in d && d.values) {
    const v = (d.values as readonly (string | number)[]).find((x) => String(x) === raw);
    return v;
  }
  if (d.type === 'year' || d.type === 'integer') return /^\d{1,6}$/.test(raw) ? Number(raw) : undefined;
  if (d.type === 'money' || d.type === 'number') {
    const m = parseMoney(raw);
    return m.ok && m.value >= 0 ? m.value : undefined;
  }
  return undefined;
}
