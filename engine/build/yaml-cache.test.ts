/** readYaml parses a text once per process: a second read gives equal, separate data, and its positions still work. */
import { describe, expect, it } from 'vitest';
import { readYaml } from './yaml-source.js';

describe('readYaml, the same text read twice', () => {
  const text = 'kind: counties\ncounties:\n  - name: "Adams County"\n    rates: [{effective: 2023-01-01, value: 0.8273}]\n';

  it('gives equal data that the caller may change without changing the next read', () => {
    const a = readYaml('a.yaml', text);
    const b = readYaml('b.yaml', text);
    expect(b.data).toEqual(a.data);
    (b.data as { kind: string }).kind = 'changed';
    expect((readYaml('c.yaml', text).data as { kind: string }).kind).toBe('counties');
    expect(b.problems).toEqual([]);
    expect(b.file).toBe('b.yaml');
  });

  // Line 4 is `    rates: [{effective: 2023-01-01, value: 0.8273}]`: 43 characters before the value, so column 44.
  it('finds positions in the second read too: the rate value on line 4, column 44', () => {
    readYaml('a.yaml', text);
    const again = readYaml('b.yaml', text);
    expect(again.position(['counties', 0, 'rates', 0, 'value'])).toEqual({ line: 4, col: 44 });
    expect(again.raw).toEqual(again.data);
  });

  it('does not keep a text with problems: each read reports them', () => {
    const bad = 'a: 1\na: 2\n';
    expect(readYaml('x.yaml', bad).problems).toHaveLength(1);
    expect(readYaml('y.yaml', bad).problems[0]!.file).toBe('y.yaml');
  });
});
