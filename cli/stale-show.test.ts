/**
 * `ptax validate --stale <date>` and `ptax rules show` on a rule set of our own: a copy
 * of the built CLI (dist/cli, dist/engine) next to a copy of the committed NY rules, the
 * hub and the Texas counties file (git HEAD), so the CLI's root is this folder and other
 * engineers' work in progress cannot move the figures. Changed for the tests:
 * - ny.nyc.tax_rate, entry of 2024-07-01: last_verified 2026-11-21 → 2025-01-15;
 * - Albany County gets a second rate, 2.0 from 2024-01-01 (after 1.8937 from 2023-01-01);
 * - a stand-in Texas state file (it borrows the NY outside program: a test scaffold, not
 *   Texas law) and a Texas parameter with two dated values, so `show` is seen to work for
 *   a second state.
 * Every other value keeps its last_verified: 2026-11-21, or 2026-11-26 for the entries
 * checked then (docs/verification.md).
 */
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REAL = resolve('.');
const root = mkdtempSync(join(tmpdir(), 'ptax-stale-'));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}
function ptax(...args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile('node', [join(root, 'dist/cli/main.js'), ...args], { cwd: root }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
      done({ code, stdout, stderr });
    });
  });
}
const edit = (file: string, from: string | RegExp, to: string) => {
  const p = join(root, file);
  const text = readFileSync(p, 'utf8');
  const next = text.replace(from, to);
  expect(next, `${file}: ${String(from)} not found`).not.toBe(text);
  writeFileSync(p, next);
};
/** 1-based line of the first line matching. */
const lineOf = (file: string, re: RegExp) =>
  readFileSync(join(root, file), 'utf8')
    .split('\n')
    .findIndex((l) => re.test(l)) + 1;

const TX_STATE = `# yaml-language-server: $schema=../../schemas/state.schema.json
kind: state
code: TX
name: {en: Texas test stand-in, es: Texas de prueba}
description: A stand-in state file for the tests of rules show and validate --stale.
counties: tx.counties
programs:
  - program: ny.outside
`;
const TX_PARAMS = `# yaml-language-server: $schema=../../schemas/parameters.schema.json
kind: parameters
module: tx.test
parameters:
  homestead_amount:
    description: A test parameter with two dated values, for the history shown by rules show.
    label: {en: Test homestead amount, es: Monto de prueba}
    unit: usd
    type: scalar
    values:
      - effective: 2024-01-01
        value: 100000
        reference:
          - title: "Test citation, 2024"
            href: https://example.com/2024
        last_verified: 2026-11-21
      - effective: 2025-01-01
        value: 140000
        reference:
          - title: "Test citation, 2025"
            href: https://example.com/2025
        last_verified: 2026-11-21
        note: the November 2025 amendment, for the test
`;

beforeAll(() => {
  expect(readdirSync(join(REAL, 'dist/cli')), 'build first: npm run build').toContain('main.js');
  execFileSync('bash', ['-c', `git -C "${REAL}" archive HEAD rules/ny rules/hub rules/shared rules/tx/counties.yaml schemas | tar -x -C "${root}"`]);
  mkdirSync(join(root, 'dist'));
  cpSync(join(REAL, 'dist/cli'), join(root, 'dist/cli'), { recursive: true });
  cpSync(join(REAL, 'dist/engine'), join(root, 'dist/engine'), { recursive: true });
  writeFileSync(join(root, 'package.json'), '{"type": "module"}\n');
  symlinkSync(join(REAL, 'node_modules'), join(root, 'node_modules'));
  // The first entry of the class table file is ny.nyc.tax_rate's 2024-07-01 entry.
  edit('rules/ny/nyc/class-table.yaml', 'last_verified: 2026-11-21', 'last_verified: 2025-01-15');
  edit(
    'rules/ny/counties.yaml',
    'rates: [{effective: 2023-01-01, value: 1.8937}]',
    'rates: [{effective: 2023-01-01, value: 1.8937}, {effective: 2024-01-01, value: 2.0}]',
  );
  writeFileSync(join(root, 'rules/tx/state.yaml'), TX_STATE);
  writeFileSync(join(root, 'rules/tx/test.yaml'), TX_PARAMS);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Every parameter entry whose last_verified is before 2026-11-22, plus each counties file (NY, TX) last verified before then. */
function allEntries(): number {
  let n = 0;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/^kind: parameters$/m.test(readFileSync(p, 'utf8')))
        n += readFileSync(p, 'utf8')
          .split('\n')
          .filter((l) => /^\s+last_verified: /.test(l) && l.trim().slice('last_verified: '.length) < '2026-11-22').length;
    }
  };
  walk(join(root, 'rules'));
  // The counties files (NY, TX): one entry each when their own date is before 2026-11-22.
  for (const f of ['rules/ny/counties.yaml', 'rules/tx/counties.yaml'])
    if ((/^last_verified: (\S+)/m.exec(readFileSync(join(root, f), 'utf8'))?.[1] ?? '') < '2026-11-22') n++;
  return n;
}

describe('ptax validate --stale', () => {
  it('before every last_verified (2025-01-01): nothing listed, exit 0', async () => {
    const r = await ptax('validate', '--stale', '2025-01-01');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ok: \d+ parameters, \d+ programs, 3 state\(s\)\nno value last verified before 2025-01-01\n$/);
  });

  it('2026-11-21: only the value verified 2025-01-15 (strictly before), with file:line:col; exit 1', async () => {
    const r = await ptax('validate', '--stale', '2026-11-21');
    expect(r.code).toBe(1);
    const line = lineOf('rules/ny/nyc/class-table.yaml', /last_verified: 2025-01-15/);
    expect(r.stdout.split('\n').slice(1)).toEqual([
      `rules/ny/nyc/class-table.yaml:${line}:9: ny.nyc.tax_rate effective 2024-07-01, last verified 2025-01-15`,
      '1 value(s) last verified before 2026-11-21',
      '',
    ]);
  });

  it('2026-11-22: every parameter entry not checked since, and both counties files; exit 1', async () => {
    const r = await ptax('validate', '--stale', '2026-11-22');
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n').slice(1);
    const n = allEntries();
    expect(lines.at(-1)).toBe(`${n} value(s) last verified before 2026-11-22`);
    expect(lines.length - 1).toBe(n);
    // NY: 62 counties, Albany with two rates → 63 rates.
    expect(lines).toContain(
      `rules/ny/counties.yaml:${lineOf('rules/ny/counties.yaml', /^last_verified:/)}:1: ny.counties (63 county rates) effective 2023-01-01, 2024-01-01, last verified 2026-11-21`,
    );
    expect(lines).toContain(
      `rules/tx/test.yaml:${lineOf('rules/tx/test.yaml', /last_verified/)}:9: tx.test.homestead_amount effective 2024-01-01, last verified 2026-11-21`,
    );
  });

  it('paths limit the list to those files', async () => {
    const r = await ptax('validate', 'rules/ny/nyc', '--stale', '2026-11-22');
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n').slice(1, -1);
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).toMatch(/^rules\/ny\/nyc\//);
  });

  it.each(['2026-02-30', '2026-1-5', 'tomorrow', ''])('a bad date (%j): one line, exit 2', async (d) => {
    const r = await ptax('validate', '--stale', d);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`ptax: --stale takes a date written YYYY-MM-DD, like 2026-01-31 (got "${d}")\n`);
  });
});

describe('ptax rules show', () => {
  it('a parameter: every dated value with its citation and last_verified', async () => {
    const r = await ptax('rules', 'show', 'ny.nyc.tax_rate');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      [
        '  history (2 dated values):',
        '    2024-07-01: class1 20.085, class2 12.5, class3 11.181, class4 10.762   (last verified 2025-01-15)',
        '      NYC Department of Finance, Property tax rates (tax year 2025); set by the City Council 2024-10-23 <https://www1.nyc.gov/site/finance/property/property-tax-rates.page>',
        '    2025-07-01: class1 19.843, class2 12.439, class3 11.108, class4 10.848   (last verified 2026-11-21)',
      ].join('\n'),
    );
    expect(r.stdout).toContain('  read by: ny.nyc (as rate)');
  });

  it('a parameter of another state, with its note; --year picks the entry in force', async () => {
    const r = await ptax('rules', 'show', 'tx.test.homestead_amount');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      [
        '    2024-01-01: 100000   (last verified 2026-11-21)',
        '      Test citation, 2024 <https://example.com/2024>',
        '    2025-01-01: 140000   (last verified 2026-11-21)',
        '      Test citation, 2025 <https://example.com/2025>',
        '      note: the November 2025 amendment, for the test',
      ].join('\n'),
    );
    const y = await ptax('rules', 'show', 'tx.test.homestead_amount', '--year', '2025');
    expect(y.stdout).toContain('  2025: no program reads this parameter, so no year applies');
  });

  it('a county: its rate history with the counties file citation and last_verified', async () => {
    const r = await ptax('rules', 'show', 'ny.counties:albany');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'ny.counties:albany — Albany County, New York: County rate (percent)',
        '  fips 36001 · program ny.outside',
        '  file: rules/ny/counties.yaml',
        "  history (2 dated rates; the counties file's citation and last_verified cover them all):",
        '    2023-01-01: 1.8937%   (last verified 2026-11-21)',
        '      US Census Bureau, ACS 2019–2023 five-year table B25103, median real estate taxes paid, by county (the rates as compiled by the Tax Foundation, Property Taxes by State and County 2023) <https://data.census.gov/table/ACSDT5Y2023.B25103>',
        '      US Census Bureau, ACS 2019–2023 five-year table B25077, median value of owner-occupied homes, by county <https://data.census.gov/table/ACSDT5Y2023.B25077>',
        '    2024-01-01: 2%   (last verified 2026-11-21)',
        '      US Census Bureau, ACS 2019–2023 five-year table B25103, median real estate taxes paid, by county (the rates as compiled by the Tax Foundation, Property Taxes by State and County 2023) <https://data.census.gov/table/ACSDT5Y2023.B25103>',
        '      US Census Bureau, ACS 2019–2023 five-year table B25077, median value of owner-occupied homes, by county <https://data.census.gov/table/ACSDT5Y2023.B25077>',
        '',
      ].join('\n'),
    );
  });

  it('a county by state code and full name; --year gives the rate in force on the first day of that year', async () => {
    const a = await ptax('rules', 'show', 'NY:Albany County', '--year', '2023');
    expect(a.stdout).toContain('  2023 (ny.outside, from 2023-01-01): 1.8937% (entry of 2023-01-01)');
    const b = await ptax('rules', 'show', 'ny.counties:albany', '--year', '2025');
    expect(b.stdout).toContain('  2025 (ny.outside, from 2025-01-01): 2% (entry of 2024-01-01)');
  });

  it('a county of another state, and --json', async () => {
    const r = await ptax('rules', 'show', 'tx.counties:anderson', '--json');
    expect(r.code).toBe(0);
    const o = JSON.parse(r.stdout);
    expect(o).toMatchObject({ id: 'tx.counties:anderson', state: 'TX', name: 'Anderson County', fips: '48001', file: 'rules/tx/counties.yaml' });
    // nominal_rates_tx_2025.csv, Anderson County: county 0.493907 + Palestine ISD 1.0378 +
    // Palestine 0.614285 = 2.145992 (Comptroller 2025).
    expect(o.rates).toEqual([
      expect.objectContaining({
        effective: '2025-01-01',
        value: 2.145992,
        parts: { school: 1.0378, county: 0.493907, city: 0.614285, special: 0 },
        units: { school: 'Palestine ISD', city: 'Palestine' },
        reference: expect.arrayContaining([expect.objectContaining({ href: 'https://comptroller.texas.gov/taxes/property-tax/rates/index.php' })]),
      }),
    ]);
  });

  it('an alias, a counties file and a program', async () => {
    expect((await ptax('rules', 'show', 'ny.counties:new-york-city')).stdout).toBe(
      'ny.counties: New York City (NY) is an alias, not a county: program ny.nyc, no county rate\n  The city as a whole; NYC rules apply, no county rate is known.\n',
    );
    const c = await ptax('rules', 'show', 'ny.counties');
    expect(c.stdout).toContain('  62 counties; aliases: New York City; last verified 2026-11-21');
    const p = await ptax('rules', 'show', 'ny.nyc');
    expect(p.stdout).toContain('  years: 2025, 2026 (fiscal years starting 07-01)');
    expect(p.stdout).toContain('    rate = ny.nyc.tax_rate');
  });

  it('an unknown county or rule: one line, exit 2', async () => {
    const r = await ptax('rules', 'show', 'ny.counties:albny');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('ptax: Unknown county "albny" in NY. Did you mean Albany? (see: ptax counties --state NY)\n');
    const u = await ptax('rules', 'show', 'ny.nyc.tax_rat');
    expect(u.code).toBe(2);
    expect(u.stderr.split('\n')).toHaveLength(2);
    expect(u.stderr).toMatch(/^ptax: No rule "ny\.nyc\.tax_rat"\. Did you mean ny\.nyc\.tax_rate\b/);
  });
});
