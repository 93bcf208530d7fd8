/**
 * readYaml's cache between processes (PTAX_YAML_CACHE): a text read without problems leaves
 * one entry; a fresh module (as in a new process) reads the entry instead of parsing; another
 * text is another entry; a text with problems leaves none; Infinity, NaN and -0 come back as
 * they were (v8.serialize, not JSON).
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'ptax-yaml-disk-'));
const before = process.env.PTAX_YAML_CACHE;
beforeAll(() => {
  process.env.PTAX_YAML_CACHE = dir;
});
afterAll(() => {
  if (before === undefined) delete process.env.PTAX_YAML_CACHE;
  else process.env.PTAX_YAML_CACHE = before;
  rmSync(dir, { recursive: true, force: true });
});

/** yaml-source.ts as a new process would load it: no entry in its memory. */
async function fresh() {
  vi.resetModules();
  return import('./yaml-source.js');
}

describe('readYaml, kept between processes', () => {
  const text = 'kind: counties\ncounties:\n  - name: "Adams County"\n    rates: [{effective: 2023-01-01, value: 0.8273}]\n';

  it('one entry per text read without problems, none for a text with problems', async () => {
    const { readYaml } = await fresh();
    expect(readYaml('a.yaml', text).problems).toEqual([]);
    expect(readdirSync(dir)).toHaveLength(1);
    expect(readYaml('b.yaml', text + '# a comment\n').problems).toEqual([]);
    expect(readdirSync(dir)).toHaveLength(2);
    expect(readYaml('c.yaml', 'a: 1\na: 2\n').problems).toHaveLength(1);
    expect(readdirSync(dir)).toHaveLength(2);
  });

  it('a new process reads the entry, not the text: a doctored entry shows', async () => {
    const { readYaml } = await fresh();
    readYaml('a.yaml', 'kind: state\ncode: ZZ\n');
    expect(readdirSync(dir)).toHaveLength(3);
    // Every entry replaced with other data: the next process gets that data for the same text.
    for (const f of readdirSync(dir)) writeFileSync(join(dir, f), serialize({ kind: 'from the cache' }));
    const again = await fresh();
    const src = again.readYaml('a.yaml', 'kind: state\ncode: ZZ\n');
    expect(src.data).toEqual({ kind: 'from the cache' });
    // Positions still come from the text itself (parsed when asked for).
    expect(src.position(['code'])).toEqual({ line: 2, col: 7 });
    // A text not read before is parsed.
    expect(again.readYaml('d.yaml', 'kind: state\ncode: YY\n').data).toEqual({ kind: 'state', code: 'YY' });
  });

  it('Infinity, NaN and -0 come back as they were', async () => {
    const yaml = 'a: .inf\nb: .nan\nc: -0.0\n';
    (await fresh()).readYaml('a.yaml', yaml);
    const data = (await fresh()).readYaml('a.yaml', yaml).data as { a: number; b: number; c: number };
    expect(data.a).toBe(Infinity);
    expect(data.b).toBeNaN();
    expect(Object.is(data.c, -0)).toBe(true);
  });
});
