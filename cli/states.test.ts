/**
 * `ptax states` and `ptax calc` on the states at county level, run as a child process (build
 * first: npx tsc -p tsconfig.json && node dist/scripts/build-rules.js).
 */
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve('.');
const MAIN = join(ROOT, 'dist/cli/main.js');

function ptax(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile('node', [MAIN, ...args], { cwd: ROOT }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
      done({ code, stdout, stderr });
    });
  });
}

describe('ptax states', () => {
  it('lists the 52 states and territories with tier and county count, then the hub', async () => {
    const r = await ptax('states');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    // 52 rows (50 states, DC, Puerto Rico), the hub, and the total line.
    expect(lines).toHaveLength(54);
    expect(lines.find((l) => l.startsWith('OH '))).toMatch(/^OH {2}Ohio +county level +88$/);
    expect(lines.find((l) => l.startsWith('TX '))).toMatch(/^TX {2}Texas +edition +254$/);
    expect(lines[52]).toMatch(/^HUB /);
    // 3,222 rows in the national table: every county of the 50 states, DC and Puerto Rico (SOURCES.md §5).
    expect(lines[53]).toBe('52 states and territories (4 editions, 48 at county level) and the hub; 3222 counties');
  });

  it('names them in Spanish and as JSON', async () => {
    const es = await ptax('states', '--lang', 'es');
    expect(es.stdout).toMatch(/\nNJ {2}Nueva Jersey +nivel de condado +21\n/);
    const json = JSON.parse((await ptax('states', '--json')).stdout) as {
      states: Array<{ code: string; slug: string | null; tier: string; counties: number }>;
    };
    expect(json.states.find((s) => s.code === 'DC')).toEqual({
      code: 'DC',
      name: 'District of Columbia',
      slug: 'district-of-columbia',
      tier: 'county',
      counties: 1,
    });
  });
});

describe('ptax calc at county level', () => {
  it('Franklin County, OH (the state by name): 300,000 × 1.5469% = 4,640.70; no assessed-value or levy rows', async () => {
    const r = await ptax('calc', '--state', 'Ohio', '--county', 'Franklin', '--value', '300000');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Franklin County, OH · County-level estimate rules, tax year 2025 · value \$300,000\.00\n {2}Annual tax +\$4,640\.70\n/);
    expect(r.stdout).not.toContain('assessed');
    expect(r.stdout).not.toContain('School tax');
  });

  it('a county without a rate: one line, exit 2, no figure', async () => {
    const r = await ptax('calc', '--state', 'SD', '--county', 'Jackson', '--value', '100000');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^ptax: The census data give no property tax rate for this county[^\n]*\n$/);
  });
});
