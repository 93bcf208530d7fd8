/**
 * CLI start-up benchmark (npm run bench:startup): `ptax calc` on one property against
 * `node -e 0` of the same Node (process.execPath), measured paired: each round runs every
 * command once, in an order that rotates round by round, so a burst of load from another
 * process hits all sides alike. Prints, for each command, the median wall time, the median
 * of its per-round ratio to `node -e 0`, and its mean CPU time (user + system of the child,
 * from /proc: much less sensitive to the other load on a shared machine) with that ratio.
 * The target (README, issue 23) is a ratio of at most 1.3.
 *
 *   node dist/scripts/bench-startup.js [rounds=30] [--no-scale] [--npx]
 *
 * The commands:
 *  - the bin: `node dist/cli/start.cjs calc …`, as `ptax`, `npx ptax` and `npm run ptax`
 *    start it (package.json bin, CommonJS): the bundle in dist/cli/fast (scripts/bundle-cli.ts);
 *  - `node dist/cli/main.js calc …`: the ES module entry that hands over to start.cjs;
 *  - unbundled: the same with PTAX_NO_BUNDLE=1 (dist/cli/ptax.js and its ~60 modules);
 *  - +3,200 counties: the fast path on a copy of dist/ whose rule bundle has 47 more
 *    states of 68 counties each (TX's, renamed), as the states of issue 26 will add: does
 *    start-up grow with the number of states? (--no-scale leaves it out);
 *  - with --npx: `npx ptax calc …` too, a few rounds (npm's own start-up, ~1 s, dominates it).
 * The compile cache (cli/start.cts: module.enableCompileCache, and the bundle's code cache
 * made after the first run that succeeds, requireCached) is warmed by untimed runs first, as on
 * a user's machine after the first `ptax` of the day.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { programHash, writeSplit } from '../engine/node.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'dist', 'cli', 'start.cjs');
const MAIN = join(ROOT, 'dist', 'cli', 'main.js');
const args = process.argv.slice(2);
const rounds = Math.max(5, Number(args.find((a) => /^\d+$/.test(a)) ?? 30));
const CALC = ['calc', '--state', 'TX', '--county', 'Harris', '--value', '400000'];

/** CPU time (user + system, ms) of this process's waited-for children, from /proc (Linux); NaN elsewhere. */
function childrenCpu(): number {
  if (!existsSync('/proc/self/stat')) return NaN;
  const fields = readFileSync('/proc/self/stat', 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  // After the command name: field 3 is the state, so cutime and cstime (fields 16, 17) are at 13, 14.
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100; // clock ticks of 10 ms (USER_HZ = 100)
}

type Cmd = { name: string; file: string; args: string[]; env?: NodeJS.ProcessEnv; wall: number[]; cpu: number[]; output?: string };

function time(c: Cmd): number {
  const c0 = childrenCpu();
  const t0 = process.hrtime.bigint();
  const r = spawnSync(c.file, c.args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...c.env } });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  // Thrown, not exit(): the copy with 3,200 counties is removed on the way out.
  if (r.status !== 0) throw new Error(`bench-startup: ${c.name} exited ${r.status}: ${String(r.stderr).trim()}`);
  c.wall.push(ms);
  c.cpu.push(childrenCpu() - c0);
  c.output = String(r.stdout);
  return ms;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** A copy of dist/ (what `calc` reads: the CLI, its bundle, the compiled rules) whose rule bundle has `states` more states of `per` counties. */
function scaledCopy(states: number, per: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'ptax-bench-startup-'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  for (const d of ['cli', 'engine', 'rules']) cpSync(join(ROOT, 'dist', d), join(dir, 'dist', d), { recursive: true, preserveTimestamps: true });
  // rules/ too, with a folder per added state (TX's files): `ptax calc` looks at every rule
  // file's time to know whether the built bundle is still up to date (cli/ptax.ts rulesNewerThan).
  cpSync(join(ROOT, 'rules'), join(dir, 'rules'), { recursive: true, preserveTimestamps: true });
  const bundle = JSON.parse(readFileSync(join(ROOT, 'dist', 'rules', 'bundle.json'), 'utf8'));
  const tx = bundle.states.TX;
  const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  // Two-letter codes the bundle does not have yet: AA, AB, …
  const codes = [...A].flatMap((x) => [...A].map((y) => x + y)).filter((c) => !bundle.states[c]);
  for (let i = 0; i < states; i++) {
    const code = codes[i]!;
    const counties = Array.from({ length: per }, (_, j) => {
      const c = tx.counties[j % tx.counties.length];
      return { ...c, name: `${c.name} ${code}${j}`, slug: `${c.slug}-${code.toLowerCase()}${j}`, fips: `${90000 + i * 100 + j}` };
    });
    bundle.states[code] = { ...tx, code, name: `State ${code}`, counties };
    cpSync(join(ROOT, 'rules', 'tx'), join(dir, 'rules', code.toLowerCase()), { recursive: true, preserveTimestamps: true });
  }
  const text = JSON.stringify(bundle);
  writeFileSync(join(dir, 'dist', 'rules', 'bundle.json'), text);
  writeSplit(join(dir, 'dist', 'rules', 'bundle.json'), programHash); // as npm run build does (scripts/bundle-cli.ts)
  console.log(
    `+${states * per} counties: ${Object.keys(bundle.states).length} states, bundle.json ${(text.length / 1e6).toFixed(2)} MB (was ${(readFileSync(join(ROOT, 'dist', 'rules', 'bundle.json')).length / 1e6).toFixed(2)} MB)`,
  );
  return dir;
}

const node = process.execPath;
const base: Cmd = { name: 'node -e 0', file: node, args: ['-e', '0'], wall: [], cpu: [] };
const cmds: Cmd[] = [
  { name: 'ptax calc (the bin: start.cjs + bundle)', file: node, args: [BIN, ...CALC], wall: [], cpu: [] },
  { name: 'node dist/cli/main.js calc (ES entry)', file: node, args: [MAIN, ...CALC], wall: [], cpu: [] },
  { name: 'ptax calc (unbundled, PTAX_NO_BUNDLE=1)', file: node, args: [BIN, ...CALC], env: { PTAX_NO_BUNDLE: '1' }, wall: [], cpu: [] },
];
let scaled: string | undefined;
if (!args.includes('--no-scale')) {
  scaled = scaledCopy(47, 68);
  cmds.push({ name: 'ptax calc (the bin, +3,200 counties)', file: node, args: [join(scaled, 'dist', 'cli', 'start.cjs'), ...CALC], wall: [], cpu: [] });
}
const all = [base, ...cmds];

try {
  // Warm-up: the OS file cache, and the compile caches (written on the first run).
  for (const c of all) for (let i = 0; i < 2; i++) time(c);
  for (const c of all) c.wall.length = c.cpu.length = 0;
  // The same figures on every path (the bench measures what the tests check).
  const outputs = new Set(cmds.map((c) => c.output));
  if (outputs.size !== 1) throw new Error('the commands printed different results');
  if (!String(cmds[0]!.output).includes('Harris County, TX')) throw new Error('unexpected output: ' + cmds[0]!.output);

  const ratios = new Map<Cmd, number[]>(cmds.map((c) => [c, []]));
  const load0 = loadavg()[0]!;
  for (let i = 0; i < rounds; i++) {
    const order = all.map((_, k) => all[(k + i) % all.length]!);
    for (const c of order) time(c);
    for (const c of cmds) ratios.get(c)!.push(c.wall.at(-1)! / base.wall.at(-1)!);
  }
  console.log(
    `node ${process.version}, ${rounds} rounds (each command once a round, order rotating), load average ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`,
  );
  const cb = mean(base.cpu);
  console.log(`${base.name.padEnd(42)} wall median ${median(base.wall).toFixed(1).padStart(6)} ms   CPU mean ${cb.toFixed(1).padStart(6)} ms`);
  for (const c of cmds) {
    const cc = mean(c.cpu);
    console.log(
      `${c.name.padEnd(42)} wall median ${median(c.wall).toFixed(1).padStart(6)} ms, median paired ratio ${median(ratios.get(c)!).toFixed(2)}   CPU mean ${cc.toFixed(1).padStart(6)} ms, ratio ${(cc / cb).toFixed(2)}`,
    );
  }
  console.log('target: ratio <= 1.30 (issue 23)');
  if (args.includes('--npx')) {
    // npm's own start-up dominates: a few rounds are enough to say how much.
    const npx: Cmd = { name: 'npx ptax calc', file: 'npx', args: ['ptax', ...CALC], wall: [], cpu: [] };
    time(npx);
    npx.wall.length = npx.cpu.length = 0;
    for (let i = 0; i < 5; i++) time(npx);
    console.log(
      `${npx.name.padEnd(42)} wall median ${median(npx.wall).toFixed(1).padStart(6)} ms   CPU mean ${mean(npx.cpu).toFixed(1).padStart(6)} ms (npm itself included)`,
    );
  }
} finally {
  if (scaled && !process.env.PTAX_BENCH_KEEP) rmSync(scaled, { recursive: true, force: true });
  else if (scaled) console.log(`kept: ${scaled}`);
}
