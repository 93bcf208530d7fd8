/**
 * How the real parameter files are written (rules/README.md, issue 16): a `by_key` table
 * one key per line, so that a changed class rate is a one-line diff. The loader reads a
 * flow map (`value: {class1: 20.085, class2: 12.5}`) the same way, so only the layout of
 * the files can show it; this test reads that layout with the YAML parser's positions.
 */
import { readFileSync } from 'node:fs';
import { isMap, isSeq, LineCounter, parseDocument, type YAMLMap } from 'yaml';
import { describe, expect, it } from 'vitest';
import { listYaml } from './load.js';

/** `file:line` of every `by_key` value written as a flow map or with two keys on one line. */
function crowdedTables(file: string, text: string): string[] {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const params = doc.get('parameters');
  if (doc.get('kind') !== 'parameters' || !isMap(params)) return [];
  const out: string[] = [];
  for (const pair of params.items) {
    const p = pair.value;
    if (!isMap(p) || p.get('type') !== 'by_key') continue;
    const values = p.get('values');
    if (!isSeq(values)) continue;
    for (const entry of values.items) {
      const value = isMap(entry) ? entry.get('value', true) : undefined;
      if (!isMap(value)) continue;
      const keyLines = (value as YAMLMap).items.map((i) => lines.linePos((i.key as { range: [number] }).range[0]).line);
      if (value.flow || new Set(keyLines).size !== keyLines.length) out.push(`${file}:${lines.linePos(value.range![0]).line}`);
    }
  }
  return out;
}

describe('rule file layout', () => {
  it('every by_key table of the real rules is written one key per line', () => {
    const files = listYaml('rules').filter((f) => !f.endsWith('counties.yaml'));
    const tables = files.flatMap((f) => {
      const text = readFileSync(f, 'utf8');
      return text.includes('type: by_key') ? [f] : [];
    });
    // The NYC class tables, STAR, the levy splits: at least these files hold tables.
    expect(tables).toEqual(expect.arrayContaining(['rules/ny/nyc/class-table.yaml', 'rules/ny/star.yaml', 'rules/ny/split.yaml']));
    expect(files.flatMap((f) => crowdedTables(f, readFileSync(f, 'utf8')))).toEqual([]);
  });

  it('a flow-map table, or two keys on one line, is found with its file and line', () => {
    const head = 'kind: parameters\nmodule: t\nparameters:\n  rate:\n    type: by_key\n    values:\n      - effective: 2024-01-01\n';
    expect(crowdedTables('t.yaml', head + '        value: {class1: 1.5, class2: 2.5}\n')).toEqual(['t.yaml:8']);
    expect(crowdedTables('t.yaml', head + '        value:\n          class1: 1.5\n          class2: 2.5\n')).toEqual([]);
    // A scalar parameter is not a table.
    expect(crowdedTables('t.yaml', head.replace('by_key', 'scalar') + '        value: 1.5\n')).toEqual([]);
  });
});
