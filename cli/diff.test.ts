/**
 * `ptax rules diff` on a small git repository built here: the committed New York rules,
 * schemas and fixtures of this repository (git HEAD), then commits that change one
 * parameter value and one county rate, then one formula, then break a file.
 *
 * Hand checks (the figures are in the rule files and the fixtures):
 * - ny.nyc.tax_rate class1, entry of 2025-07-01: 19.843 → 20.843 (+1). A class1 house of
 *   800,000 in FY2026 is assessed at 6%: 48,000, so its tax rises by 48,000 × 1 / 100 = 480
 *   (fixture "NYC class1 one-family house, no exemptions, FY2026": 9,524.64 → 10,004.64),
 *   the school part by 480 × 58.4% = 280.32; FY2025 (entry of 2024-07-01) is unchanged.
 * - Albany County's rate 1.8937 → 2.3937 (+0.5): at 300,000 with no exemption the tax is
 *   300,000 × r / 100, so it rises by 300,000 × 0.5 / 100 = 1,500 (fixture "Albany County,
 *   no exemptions, default year": 5,681.10 → 7,181.10).
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { rulesDiff, formatMarkdown, formatText, type DiffReport } from './diff.js';

const ROOT = resolve('.');
const MAIN = join(ROOT, 'dist/cli/main.js');
const repo = mkdtempSync(join(tmpdir(), 'ptax-diff-test-'));
const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' }).trim();
const edit = (file: string, from: string | RegExp, to: string) => {
  const p = join(repo, file);
  const text = readFileSync(p, 'utf8');
  const next = text.replace(from, to);
  expect(next, `${file}: ${String(from)} not found`).not.toBe(text);
  writeFileSync(p, next);
};

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}
function ptax(...args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile('node', [MAIN, ...args], { cwd: repo, maxBuffer: 1 << 26 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
      done({ code, stdout, stderr });
    });
  });
}

const ALBANY_FIXTURE = 'fixtures/ny/ny-outside.yaml: Albany County, no exemptions, default year';
const QUEENS_2026 = 'fixtures/ny/nyc-classes.yaml: NYC class1 one-family house, no exemptions, FY2026';
const QUEENS_2025 = 'fixtures/ny/nyc-classes.yaml: NYC class1 one-family house, no exemptions, FY2025';

let values: DiffReport;

beforeAll(async () => {
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'test@example.com');
  git('config', 'user.name', 'test');
  git('config', 'commit.gpgsign', 'false');
  execFileSync('bash', ['-c', `git -C "${ROOT}" archive HEAD rules/ny rules/shared schemas fixtures/ny | tar -x -C "${repo}"`]);
  git('add', '-A');
  git('commit', '-q', '-m', 'base');
  git('tag', 'base');
  edit('rules/ny/nyc/class-table.yaml', 'class1: 19.843\n', 'class1: 20.843\n');
  edit('rules/ny/counties.yaml', /(name: "Albany County"\n(?:.*\n){2}\s+rates: \[\{effective: 2023-01-01, value: )1\.8937/, '$12.3937');
  git('commit', '-q', '-a', '-m', 'values');
  git('tag', 'values');
  edit('rules/ny/nyc/calculation.yaml', 'formula: assessedValue * classRate / 100', 'formula: assessedValue * classRate / 100 + 0');
  git('commit', '-q', '-a', '-m', 'formula');
  git('tag', 'formula');
  edit('rules/ny/split.yaml', 'school: 0.5\n', 'school: 0.6\n');
  git('commit', '-q', '-a', '-m', 'broken: shares sum to 1.1');
  git('tag', 'broken');
  git('checkout', '-q', 'formula');
  values = await rulesDiff('base', 'values', { cwd: repo });
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe('rules diff: the rule changes', () => {
  it('lists exactly the changed parameter value, with old, new, date and citation', () => {
    expect(values.rules.values).toHaveLength(1);
    const v = values.rules.values[0]!;
    expect(v).toMatchObject({
      id: 'ny.nyc.tax_rate[class1]',
      change: 'changed',
      effective: '2025-07-01',
      old: '19.843',
      new: '20.843',
      difference: 1,
      file: 'rules/ny/nyc/class-table.yaml',
      lastVerified: '2026-11-21',
    });
    expect(v.citation[0]).toEqual({
      title: 'NYC Department of Finance, Property tax rates (the class rates of each tax year; FY2026 rates set by the City Council 2025-10-29)',
      href: 'https://www1.nyc.gov/site/finance/property/property-tax-rates.page',
    });
    expect(v.oldCitation).toBeUndefined(); // the citation itself did not change
  });

  it('lists exactly the changed county rate', () => {
    expect(values.rules.counties).toHaveLength(1);
    expect(values.rules.counties[0]).toMatchObject({
      id: 'ny.counties:albany',
      label: 'Albany County',
      effective: '2023-01-01',
      old: '1.8937',
      new: '2.3937',
      difference: 0.5,
    });
    expect(values.rules.counties[0]!.citation[0]!.href).toBe('https://data.census.gov/table/ACSDT5Y2023.B25103');
  });

  it('nothing else changed: no other entry, program, parameter or state', () => {
    const r = values.rules;
    expect([r.meta, r.definitions, r.parametersAdded, r.parametersRemoved, r.programsAdded, r.programsRemoved, r.statesAdded, r.statesRemoved]).toEqual([
      [],
      [],
      [],
      [],
      [],
      [],
      [],
      [],
    ]);
  });

  it('a formula change names the step, with the old and new source, and moves no figure', async () => {
    const r = await rulesDiff('values', 'formula', { cwd: repo });
    expect(r.rules.values).toEqual([]);
    expect(r.rules.counties).toEqual([]);
    expect(r.rules.definitions).toEqual([
      { id: 'ny.nyc', part: 'step baseTax', change: 'changed', old: 'assessedValue * classRate / 100', new: 'assessedValue * classRate / 100 + 0' },
    ]);
    expect(r.fixtures.changes).toEqual([]);
    expect(r.grid.changes).toEqual([]);
  });

  it('a last_verified date set by a person shows as checked, with the entry and both dates, and moves no figure', async () => {
    git('checkout', '-q', '-b', 'verify', 'base');
    edit('rules/ny/star.yaml', 'last_verified: 2026-11-26', 'last_verified: 2026-12-01');
    git('commit', '-q', '-a', '-m', 'checked ny.star.exemption against its source');
    git('tag', 'verified');
    git('checkout', '-q', 'formula');
    const r = await rulesDiff('base', 'verified', { cwd: repo });
    expect(r.rules.values).toEqual([]);
    expect(r.rules.meta).toEqual([{ id: 'ny.star.exemption', effective: '2024-07-01', what: 'last_verified', old: '2026-11-26', new: '2026-12-01' }]);
    expect(formatText(r)).toContain('Checked against the source (last_verified)\n  ny.star.exemption 2024-07-01: last verified 2026-11-26 → 2026-12-01');
    expect(r.fixtures.changes).toEqual([]);
  });

  it('the same refs give the same report (deterministic), and base = head gives nothing', async () => {
    const again = await rulesDiff('base', 'values', { cwd: repo });
    expect(formatText(again)).toBe(formatText(values));
    const none = await rulesDiff('base', 'base', { cwd: repo });
    expect(none.fixtures.changes.length + none.grid.changes.length + none.rules.values.length).toBe(0);
    expect(formatText(none)).toContain('No rule changes.');
  });
});

describe('rules diff: results under both bundles', () => {
  const field = (label: string, f: string) => values.fixtures.changes.find((c) => c.label === label && c.field === f);

  it('Albany, 300,000, no exemption: annualTax 5,681.10 → 7,181.10 = +300,000 × 0.5 / 100', () => {
    expect(field(ALBANY_FIXTURE, 'annualTax')).toMatchObject({ old: 5681.1, new: 7181.1, difference: 1500, expected: 5681.1 });
    expect(field(ALBANY_FIXTURE, 'effectiveRate')).toMatchObject({ old: 1.8937, new: 2.3937, difference: 0.5 });
  });

  it('Queens class1, 800,000, FY2026: annualTax +48,000 × 1 / 100 = +480, school part +480 × 58.4% = +280.32', () => {
    expect(field(QUEENS_2026, 'annualTax')).toMatchObject({ old: 9524.64, new: 10004.64, difference: 480 });
    expect(field(QUEENS_2026, 'monthlyTax')).toMatchObject({ difference: 40 });
    expect(field(QUEENS_2026, 'countyBreakdown.school')).toMatchObject({ old: 5562.39, new: 5842.71, difference: 280.32 });
  });

  it('FY2025 uses the 2024-07-01 entry, which did not change', () => {
    expect(values.fixtures.changes.filter((c) => c.label === QUEENS_2025)).toEqual([]);
  });

  it('only cases in Albany, or NYC class1 in FY2026, change', () => {
    const labels = [...new Set(values.fixtures.changes.map((c) => c.label))];
    expect(labels.length).toBe(values.fixtures.changedCases);
    expect(labels.length).toBeGreaterThan(2);
    expect(values.fixtures.total).toBeGreaterThan(100);
    const cases = new Map<string, { input: Record<string, unknown>; year?: number }>();
    for (const file of new Set(labels.map((l) => l.split(': ')[0]!))) {
      for (const c of parse(readFileSync(join(repo, file), 'utf8'))) cases.set(`${file}: ${c.name}`, c);
    }
    for (const l of labels) {
      const c = cases.get(l)!;
      const albany = /^albany/i.test(String(c.input.county));
      const nyc2026 = c.input.class === 'class1' && c.year !== 2025;
      expect(albany || nyc2026, l).toBe(true);
    }
  });

  it('the grid: Albany at 100,000 with no exemption rises by 100,000 × 0.5 / 100 = 500', () => {
    const g = values.grid.changes.find((c) => c.label === 'NY Albany County $100,000 no exemption');
    expect(g).toMatchObject({ field: 'annualTax', old: 1893.7, new: 2393.7, difference: 500 });
    // Grid rows report annualTax (and year, program, notes, errors) unless --fields says otherwise.
    expect(new Set(values.grid.changes.map((c) => c.field))).toEqual(new Set(['annualTax']));
    // Every grid row that changed is in Albany or is an NYC class1 property.
    for (const c of values.grid.changes) expect(/Albany| class1 /.test(c.label), c.label).toBe(true);
  });

  it('the grid is generic: counties of each program, flags and the alias, three values', () => {
    const labels = new Set(values.grid.changes.map((c) => c.label.split(' $')[0]));
    expect(labels).toContain('NY New York City class1'); // the alias
    expect(labels).toContain('NY Bronx County class1'); // first NYC county
    expect(labels).toContain('NY Richmond County class1'); // last NYC county
    expect(values.grid.total).toBeGreaterThan(500);
  });
});

describe('rules diff: the command', () => {
  it('text report: exit 0, the value and county lines, the fixture line with what the fixture expects', async () => {
    const r = await ptax('rules', 'diff', 'base', 'values');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(
      '  ny.nyc.tax_rate[class1] — NYC tax rate (percent) · rules/ny/nyc/class-table.yaml\n    changed entry effective 2025-07-01: 19.843 → 20.843 (+1)',
    );
    expect(r.stdout).toContain('    changed entry effective 2023-01-01: 1.8937 → 2.3937 (+0.5)');
    expect(r.stdout).toContain(`  ${ALBANY_FIXTURE}\n    annualTax: 5,681.1 → 7,181.1 (+1,500)   fixture expects 5,681.1 ✗`);
  });

  it('--format markdown: tables with the rows', async () => {
    const r = await ptax('rules', 'diff', 'base', 'values', '--format', 'markdown');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('| rule | effective | change | old | new | difference | citation | last verified |');
    expect(r.stdout).toContain(
      '| `ny.nyc.tax_rate[class1]` NYC tax rate | 2025-07-01 | changed | 19.843 | 20.843 | +1 | [NYC Department of Finance, Property tax rates (the class rates of each tax year; FY2026 rates set by the City Council 2025-10-29)](https://www1.nyc.gov/site/finance/property/property-tax-rates.page)',
    );
    expect(r.stdout).toContain('| `ny.counties:albany` Albany County | 2023-01-01 | changed | 1.8937 | 2.3937 | +0.5 |');
    expect(r.stdout).toContain(`| ${ALBANY_FIXTURE} | \`annualTax\` | 5,681.1 | 7,181.1 | +1,500 | 5,681.1 ✗ |`);
  });

  it('--json: the same report as data; --fields limits the fields', async () => {
    const r = await ptax('rules', 'diff', 'base', 'values', '--json', '--fields', 'annualTax');
    expect(r.code).toBe(0);
    const o = JSON.parse(r.stdout);
    expect(o.rules.values[0].id).toBe('ny.nyc.tax_rate[class1]');
    expect(new Set(o.fixtures.changes.map((c: { field: string }) => c.field))).toEqual(new Set(['annualTax']));
    // Cases whose annual tax moved (a case can move only in other fields, e.g. a fully exempt one).
    expect(o.fixtures.changedCases).toBe(new Set(values.fixtures.changes.filter((c) => c.field === 'annualTax').map((c) => c.label)).size);
  });

  it('default head is the working tree, uncommitted changes included', async () => {
    edit('rules/ny/counties.yaml', /(name: "Albany County"\n(?:.*\n){2}\s+rates: \[\{effective: 2023-01-01, value: )2\.3937/, '$12.8937');
    try {
      const r = await rulesDiff('values', undefined, { cwd: repo });
      expect(r.head.label).toBe('the working tree');
      expect(r.rules.counties).toMatchObject([{ id: 'ny.counties:albany', old: '2.3937', new: '2.8937', difference: 0.5 }]);
      expect(r.rules.definitions.map((d) => d.part)).toEqual(['step baseTax']);
      const t = await ptax('rules', 'diff', 'values');
      expect(t.code).toBe(0);
      expect(t.stdout.split('\n')[0]).toMatch(/^ptax rules diff: values \([0-9a-f]{7}\) → the working tree$/);
    } finally {
      git('checkout', '-q', '--', 'rules/ny/counties.yaml');
    }
  });

  it('a bad ref: exit 1, one line, no stack trace', async () => {
    const r = await ptax('rules', 'diff', 'no-such-ref');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`ptax: unknown git ref "no-such-ref" (a branch, tag or commit of ${git('rev-parse', '--show-toplevel')})\n`);
  });

  it("rules that fail to load: the loader's problems, then one line; exit 1", async () => {
    const r = await ptax('rules', 'diff', 'formula', 'broken');
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^rules\/ny\/split\.yaml:\d+:\d+: .*shares must sum to 1 \(they sum to 1\.1\)$/);
    expect(lines.at(-1)).toMatch(/^ptax: the rules at broken \([0-9a-f]{7}\) do not load: 1 problem\(s\)$/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('outside a git repository: exit 1, one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ptax-nogit-'));
    try {
      const r = await new Promise<Run>((done) =>
        execFile('node', [MAIN, 'rules', 'diff', 'main'], { cwd: dir }, (err, stdout, stderr) =>
          done({ code: err ? (err as { code: number }).code : 0, stdout, stderr }),
        ),
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^ptax: .* is not inside a git repository: rules diff compares git refs\n$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('rules diff: formats on the loaded report', () => {
  it('markdown cuts a long results table at --limit and says how many rows are left', () => {
    const md = formatMarkdown(values, 3);
    const grid = md.slice(md.indexOf('#### Grid results'));
    expect(grid.split('\n').filter((l) => l.startsWith('| NY ')).length).toBe(3);
    expect(grid).toContain(`… ${values.grid.changes.length - 3} more row(s)`);
  });
});
