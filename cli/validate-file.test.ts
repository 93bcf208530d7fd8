/**
 * `ptax validate <path>` on paths outside rules/ (compiled CLI, as cli.test.ts runs it):
 * a missing path or a folder is refused in one line (exit 2); a rule file is checked with the
 * rules, its problems reported at its own file:line:col (exit 1).
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const MAIN = join(ROOT, 'dist/cli/main.js');
const tmp = mkdtempSync(join(tmpdir(), 'ptax-validate-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function ptax(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [MAIN, ...args], { cwd: ROOT }, (error, stdout, stderr) => {
      done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('ptax validate on a path outside rules/', () => {
  it('a path that does not exist: one line, exit 2 (not "ok")', async () => {
    const r = await ptax('validate', join(tmp, 'missing.yaml'));
    expect(r).toEqual({ code: 2, stdout: '', stderr: `ptax: validate: ${join(tmp, 'missing.yaml')}: no such file or folder\n` });
  });

  it('a folder outside rules/: one line, exit 2', async () => {
    const r = await ptax('validate', tmp);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`ptax: validate: ${tmp} is a folder outside rules/; give its rule files one by one\n`);
  });

  it('an unchanged copy of a rule file kept in a folder of the same name: checked in its place, ok', async () => {
    mkdirSync(join(tmp, 'ny'), { recursive: true });
    const copy = join(tmp, 'ny', 'hints.yaml');
    copyFileSync(join(ROOT, 'rules/ny/hints.yaml'), copy);
    const r = await ptax('validate', copy);
    expect(r).toEqual({ code: 0, stdout: `ok: ${copy} (checked with the rules, in place of rules/ny/hints.yaml)\n`, stderr: '' });
  });

  it('an edited copy with a schema error: the problem at its own file:line:col, exit 1', async () => {
    const copy = join(tmp, 'ny', 'hints.yaml');
    const lines = readFileSync(join(ROOT, 'rules/ny/hints.yaml'), 'utf8').split('\n');
    const at = lines.findIndex((l) => l === '    type: scalar');
    expect(at).toBeGreaterThan(0);
    lines[at] = '    type: wrong';
    writeFileSync(copy, lines.join('\n'));
    const r = await ptax('validate', copy);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toMatch(new RegExp(`^${copy.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:${at + 1}:11: .*type must be one of`));
    expect(r.stdout).toBe('');
  });

  it('a new file that repeats ids of the rules: both places named, exit 1', async () => {
    const extra = join(tmp, 'extra.yaml');
    copyFileSync(join(ROOT, 'rules/ny/hints.yaml'), extra);
    const r = await ptax('validate', extra);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^rules\/ny\/hints\.yaml:\d+:\d+: duplicate parameter id ny\.state_average_rate \(also in .*extra\.yaml\)$/m);
    expect(r.stderr).toMatch(/problem\(s\) \(.*extra\.yaml checked with the rules, as a new file beside rules\/\)\n$/);
  });
});
