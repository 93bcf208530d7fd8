/**
 * The stale-figure guard (`ptax validate --stale <date>`): every dated parameter value and
 * every counties file carries `last_verified`; list those verified before a date, with
 * file:line:col, so a figure nobody has checked lately is visible, not silently carried on.
 */
import { readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { PtaxError } from '../engine/node.js';
import { readYaml } from '../engine/node.js';
import type { Bundle } from '../engine/node.js';

export interface StaleEntry {
  file: string;
  line: number;
  col: number;
  /** A parameter id, or a counties file's id. */
  id: string;
  kind: 'parameter' | 'counties';
  /** The entry's effective date; for a counties file, the dates of its rates. */
  effective: string;
  lastVerified: string;
  /** Counties files: how many county rates the one last_verified covers. */
  rates?: number;
}

/** A calendar date written YYYY-MM-DD, or a one-line error. */
export function parseDate(raw: string): string {
  const s = String(raw).trim();
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  const d = m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!)) : undefined;
  if (!m || !d || d.getUTCFullYear() !== +m[1]! || d.getUTCMonth() !== +m[2]! - 1 || d.getUTCDate() !== +m[3]!) {
    throw new PtaxError('INVALID_DATE', `--stale takes a date written YYYY-MM-DD, like 2026-01-31 (got "${raw}")`);
  }
  return s;
}

/**
 * Values whose last_verified is before `before` (ISO dates compare as strings), in file
 * and line order. `only`: files or folders (relative to `root`) to report on.
 */
export function staleEntries(bundle: Bundle, root: string, before: string, only: string[] = []): StaleEntry[] {
  const wanted = only.map((f) => relative(root, resolve(f)).split(sep).join('/'));
  const keep = (file: string) => !wanted.length || wanted.some((w) => file === w || file.startsWith(w + '/') || w === '');
  const out: StaleEntry[] = [];
  const files = new Set(Object.values(bundle.parameters).map((p) => p.file));
  for (const file of [...files].sort()) {
    if (!keep(file)) continue;
    const src = readYaml(file, readFileSync(join(root, file), 'utf8'));
    const d = src.data as { module: string; parameters: Record<string, { values: Array<{ effective: string; last_verified: string }> }> };
    for (const [name, p] of Object.entries(d.parameters)) {
      p.values.forEach((e, i) => {
        if (e.last_verified >= before) return;
        const at = src.position(['parameters', name, 'values', i], 'last_verified');
        out.push({ file, ...at, id: `${d.module}.${name}`, kind: 'parameter', effective: e.effective, lastVerified: e.last_verified });
      });
    }
  }
  for (const state of Object.values(bundle.states)) {
    const meta = state.countiesMeta;
    // The hub has no counties file.
    if (!meta || !state.countiesId || !keep(meta.file) || meta.last_verified >= before) continue;
    const src = readYaml(meta.file, readFileSync(join(root, meta.file), 'utf8'));
    const dates = [...new Set(state.counties.flatMap((c) => c.rates.map((r) => r.effective)))].sort();
    const rates = state.counties.reduce((n, c) => n + c.rates.length, 0);
    out.push({
      file: meta.file,
      ...src.position([], 'last_verified'),
      id: state.countiesId,
      kind: 'counties',
      effective: dates.length > 2 ? `${dates[0]} … ${dates[dates.length - 1]}` : dates.join(', '),
      lastVerified: meta.last_verified,
      rates,
    });
  }
  return out.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

export function formatStale(list: StaleEntry[], before: string): string {
  const lines = list.map(
    (e) =>
      `${e.file}:${e.line}:${e.col}: ${e.id}${e.rates !== undefined ? ` (${e.rates} county rates)` : ''} effective ${e.effective}, last verified ${e.lastVerified}`,
  );
  lines.push(list.length ? `${list.length} value(s) last verified before ${before}` : `no value last verified before ${before}`);
  return lines.join('\n');
}
