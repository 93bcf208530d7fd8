/**
 * The CLI's fast path (issue 23: start-up) gives what the unbundled code gives. `npm run
 * build` bundles the command line into dist/cli/fast/ (scripts/bundle-cli.ts), and the
 * command (dist/cli/start.cjs, which dist/cli/main.js hands over to) requires that bundle
 * while it is not older than dist/cli/ptax.js; PTAX_NO_BUNDLE=1 makes it import
 * dist/cli/ptax.js. For every state of the built rules:
 * `ptax calc` on a few properties (first, middle and last county; a modest and a large
 * value, homestead or not), as a table with its explanation (each path's `main` in one
 * process for all states, and one state as two real runs) and as JSON (through a batch of
 * all of them), prints the same bytes on both paths, errors included. Build first (npm run
 * build): a missing or older bundle fails here rather than passing on the slow path twice.
 * No timings are asserted (scripts/bench-startup.ts measures them).
 */
import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readBundle } from '../engine/node.js';

const ROOT = resolve('.');
const MAIN = join(ROOT, 'dist/cli/main.js');
const FAST = join(ROOT, 'dist/cli/fast/ptax.cjs');
const SLOW = join(ROOT, 'dist/cli/ptax.js');
const bundle = readBundle('dist/rules/bundle.json');
const tmp = mkdtempSync(join(tmpdir(), 'ptax-fast-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Run = { status: number | null; stdout: string; stderr: string };

/** `node <args>` run to its end: its exit status and what it printed. */
function node(args: string[], o: { cwd?: string; env?: Record<string, string> } = {}): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { ...(o.cwd ? { cwd: o.cwd } : {}), env: { ...process.env, ...o.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}
const ptax = (args: string[], env: Record<string, string> = {}) => node([MAIN, ...args], { cwd: ROOT, env });
const slow = (args: string[]) => ptax(args, { PTAX_NO_BUNDLE: '1' });

/** A few properties of every state: the first, middle and last county (none for a state without counties). */
const properties = Object.entries(bundle.states).flatMap(([code, s]) => {
  const names = s.counties.length ? [...new Set([0, s.counties.length >> 1, s.counties.length - 1].map((i) => s.counties[i]!.name))] : ['none'];
  return names.flatMap((county, i) => [
    { state: code, county, value: 185000, homestead: i % 2 === 0, ...(code === 'NY' ? { class: 'class1' } : {}) },
    { state: code, county, value: 1250000, homestead: i % 2 === 1, ...(code === 'NY' ? { class: 'class2' } : {}) },
  ]);
});

/** What the driver below writes after each case's output. */
const CASE_END = '\u0000\n';
/**
 * A driver that runs `ptax calc` for each argument list of a JSON file in one process: the
 * entry given (the bundle dist/cli/fast/ptax.cjs, or dist/cli/ptax.js) is loaded as start.cjs
 * loads it, and its `main` is called with each list as process.argv would hold it; CASE_END
 * after each case's output. `out` writes standard output synchronously (cli/stdout.ts), so
 * the mark follows the case's own bytes.
 */
const CLI_DRIVER = `import { readFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
const [entry, list] = process.argv.slice(2);
const cli = entry.endsWith('.cjs') ? createRequire(import.meta.url)(entry) : await import(entry);
for (const args of JSON.parse(readFileSync(list, 'utf8'))) {
  await cli.main([process.execPath, 'ptax', ...args]);
  writeSync(1, ${JSON.stringify(CASE_END)});
}
`;

/** The bundle is there and not older than dist/cli/ptax.js, so main.js takes it: else both sides below would run the slow path. */
function expectFreshBundle(): void {
  expect(existsSync(FAST), 'dist/cli/fast/ptax.cjs: run npm run build').toBe(true);
  expect(statSync(FAST).mtimeMs, 'dist/cli/fast/ptax.cjs is older than dist/cli/ptax.js: run npm run build').toBeGreaterThanOrEqual(statSync(SLOW).mtimeMs);
}

describe('ptax calc: the bundle (fast path) and the unbundled code (slow path) agree', () => {
  it('the build wrote the bundle, newer than the code it was made from, and main.js loads it (PTAX_NO_BUNDLE=1: not)', async () => {
    expectFreshBundle();
    // Node's own module logs (NODE_DEBUG=module,esm) name each module it loads.
    const fast = await ptax(['--version'], { NODE_DEBUG: 'module,esm' });
    expect(fast.stderr).toContain('dist/cli/fast/ptax.cjs');
    expect(fast.stderr).not.toContain('dist/cli/ptax.js');
    const plain = await ptax(['--version'], { NODE_DEBUG: 'module,esm', PTAX_NO_BUNDLE: '1' });
    expect(plain.stderr).not.toContain('dist/cli/fast/');
    expect(plain.stderr).toContain('dist/cli/ptax.js');
  });

  it(`every state (${Object.keys(bundle.states).join(', ')}): the table and its explanation of its first property with a county rate, byte for byte`, async () => {
    expectFreshBundle();
    // A county with a rate (a county-level state's first county may have none in the data: its answer is an error, compared in the JSON test below).
    const rated = (p: (typeof properties)[number]) => !bundle.states[p.state]!.counties.find((c) => c.name === p.county)?.flags.includes('noRate');
    const cases = Object.keys(bundle.states).map((code) => properties.find((p) => p.state === code && rated(p))!);
    const flags = (p: (typeof properties)[number]) => [
      'calc',
      '--state',
      p.state,
      '--county',
      p.county,
      '--value',
      String(p.value),
      ...(p.homestead ? ['--homestead'] : []),
      ...('class' in p ? ['--class', p.class] : []),
      '--explain',
    ];
    // Every state's property through each path's `main` in one process per path (CLI_DRIVER):
    // one start of each instead of 106 starts of the CLI (~15 s of CPU, most of this file's).
    // What the CLI computes and prints is the same code; the start itself (start.cjs choosing
    // the bundle, its code cache) is what the first test above checks, and one state's property
    // as two real `ptax calc` runs below, as before.
    const driver = join(tmp, 'driver.mjs');
    writeFileSync(driver, CLI_DRIVER);
    const list = join(tmp, 'table-cases.json');
    writeFileSync(list, JSON.stringify(cases.map(flags)));
    const run = (entry: string) => node([driver, entry, list], { cwd: ROOT });
    const [f, s] = await Promise.all([run(FAST), run(SLOW)]);
    expect(f.stderr).toBe('');
    expect(f.status).toBe(0);
    expect(s).toMatchObject({ status: 0, stderr: '' });
    const bundled = f.stdout.split(CASE_END);
    const plain = s.stdout.split(CASE_END);
    // One output per case, then the end of the last.
    expect(bundled).toHaveLength(cases.length + 1);
    expect(plain).toHaveLength(cases.length + 1);
    cases.forEach((p, i) => {
      expect(bundled[i], JSON.stringify(p)).toBe(plain[i]);
      expect(bundled[i], JSON.stringify(p)).toMatch(/Annual tax/);
    });
    // One state as two real runs of `ptax calc`, bundle and unbundled: the same bytes, and the same as in the driver.
    const ny = cases.find((p) => p.state === 'NY')!;
    const [nf, ns] = await Promise.all([ptax(flags(ny)), slow(flags(ny))]);
    expect(nf).toEqual(ns);
    expect(nf).toEqual({ status: 0, stdout: bundled[cases.indexOf(ny)], stderr: '' });
  }, 240_000);

  it(`every state: each property's JSON result (${properties.length} properties), through both paths`, async () => {
    expectFreshBundle();
    const file = join(tmp, 'properties.ndjson');
    writeFileSync(file, properties.map((p) => JSON.stringify(p)).join('\n') + '\n');
    const [f, s] = await Promise.all([ptax(['calc', '--batch', file]), slow(['calc', '--batch', file])]);
    expect(f.status).toBe(0);
    const lines = f.stdout.trim().split('\n');
    expect(lines).toHaveLength(properties.length);
    // Each row carries a result (not an error) where the slow path has one too; the figures are the same bytes.
    expect(f.stdout).toBe(s.stdout);
    expect(f.status).toBe(s.status);
    expect(lines.filter((l) => 'result' in JSON.parse(l)).length).toBeGreaterThan(properties.length / 2);
  });
});

describe('ptax calc after a rule file changed (a built bundle older than the YAML)', () => {
  it("reads the YAML when the state's own rules or the shared ones changed, not for another state's folder", async () => {
    // A copy of what `calc` reads (the built CLI and rules, the YAML, the schemas), times kept.
    const root = join(tmp, 'copy');
    for (const d of ['dist/cli', 'dist/engine', 'dist/rules', 'rules']) cpSync(join(ROOT, d), join(root, d), { recursive: true, preserveTimestamps: true });
    symlinkSync(join(ROOT, 'schemas'), join(root, 'schemas'), 'dir');
    symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
    writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
    const calc = (state: string, county: string) => node([join(root, 'dist/cli/start.cjs'), 'calc', '--state', state, '--county', county, '--value', '400000']);
    const before = await calc('TX', 'Harris');
    expect(before.status).toBe(0);
    // Another state's file broken after the build: Texas is still calculated, from the built rules; California reads its YAML and says so.
    appendFileSync(join(root, 'rules/ca/state.yaml'), '\n: : not yaml [\n');
    expect(await calc('TX', 'Harris')).toEqual(before);
    const ca = await calc('CA', 'Los Angeles');
    expect(ca.status).toBe(1);
    expect(ca.stderr).toMatch(/rules\/ca\/state\.yaml/);
    // Texas's own file: Texas reads the YAML too (as it does for rules/shared and the files at the top of rules/).
    appendFileSync(join(root, 'rules/tx/state.yaml'), '\n: : not yaml [\n');
    expect((await calc('TX', 'Harris')).status).toBe(1);
  });
});

/**
 * What the entry chunk holds: `ptax calc` reads dist/cli/fast/ptax.cjs whole on every start,
 * and what a dynamic import reaches (batch, validate, the YAML loader, the SQL engines) must
 * stay in chunks of their own. A static import from a module `calc` loads once pulled the CSV
 * reader and the YAML loader into this chunk (126 → 234 KB, every start ~9 ms slower), and
 * only a benchmark found it. Module names come from the bundler's `// dist/…` region
 * comments; the classes and functions below are those modules' own definitions.
 */
describe("ptax calc's entry chunk (dist/cli/fast/ptax.cjs)", () => {
  const code = readFileSync(FAST, 'utf8');
  it('holds no module of batch, validate, the YAML loader or the SQL engines', () => {
    const modules = [...code.matchAll(/^\/\/ dist\/(\S+\.js)$/gm)].map((m) => m[1]!);
    expect(modules).toContain('engine/core/calculate.js');
    expect(modules).toContain('cli/ptax.js');
    expect(modules.filter((m) => /^engine\/(batch|sql)\/|^engine\/build\/(load|yaml-source|schema|checks)\.js$|^cli\/(batch|diff|validate)/.test(m))).toEqual(
      [],
    );
    // Each definition is in another chunk of the bundle (so the check below can fail), not in this one.
    const others = readdirSync(dirname(FAST))
      .filter((f) => f.endsWith('.cjs') && f !== 'ptax.cjs')
      .map((f) => readFileSync(join(dirname(FAST), f), 'utf8'))
      .join('\n');
    for (const own of [/\bBatchReader = class\b/, /\bPlaceKeys = class\b/, /\bBatchCalculator = class\b/, /function loadRules\b/, /function runSqlBatch\b/]) {
      expect(others).toMatch(own);
      expect(code).not.toMatch(own);
    }
  });
  it('requires every other chunk lazily (inside a promise), none when it is loaded', () => {
    // Every mention of another chunk's file: `require("./x.cjs")`, or `(… ?? require)(__dirname + "/x.cjs")`.
    const chunks = [...code.matchAll(/"\.?\/[\w-]+\.cjs"/g)];
    expect(chunks.length).toBeGreaterThan(5);
    for (const m of chunks) expect(code.slice(Math.max(0, m.index! - 120), m.index!)).toMatch(/Promise\.resolve\(\)\.then\(\(\) => [^;{}]*$/);
  });
  it('stays under 160 KB (126 KB when this test was written; 234 KB with the reader in it)', () => {
    expect(statSync(FAST).size).toBeLessThan(160_000);
  });
});
