/**
 * CLI start-up benchmark (npm run bench:startup): `ptax calc` on one property against
 * `node -e 0` of the same Node (process.execPath), measured paired: each round runs both,
 * in alternating order, so a burst of load from another process hits both sides alike.
 * Prints the median of each, the ratio of the medians and the median of the per-round
 * ratios; the target (README, issue 23) is a ratio of at most 1.3.
 *
 *   node dist/scripts/bench-startup.js [rounds=40]
 *
 * The compile cache (cli/main.ts: module.enableCompileCache) is warmed by one untimed run
 * first, as on a user's machine after the first `ptax` of the day; NODE_DISABLE_COMPILE_CACHE=1
 * (Node's own switch) measures without it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MAIN = join(ROOT, 'dist', 'cli', 'main.js');
const rounds = Math.max(5, Number(process.argv[2] ?? 40) || 40);

const CALC = [MAIN, 'calc', '--state', 'NY', '--county', 'New York', '--class', 'class2', '--value', '1,000,000', '--homestead'];
const BASE = ['-e', '0'];

/** CPU time (user + system, ms) of this process's waited-for children, from /proc (Linux); NaN elsewhere. */
function childrenCpu(): number {
  if (!existsSync('/proc/self/stat')) return NaN;
  const fields = readFileSync('/proc/self/stat', 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  // After the command name: field 3 is the state, so cutime and cstime (fields 16, 17) are at 13, 14.
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100; // clock ticks of 10 ms (USER_HZ = 100)
}

const cpu = new Map<string[], number[]>();

function time(args: string[]): number {
  const c0 = childrenCpu();
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (!cpu.has(args)) cpu.set(args, []);
  cpu.get(args)!.push(childrenCpu() - c0);
  if (r.status !== 0) {
    process.stderr.write(`bench-startup: ${args.join(' ')} exited ${r.status}: ${String(r.stderr).trim()}\n`);
    process.exit(1);
  }
  return ms;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

// Warm-up: the OS file cache, and the compile cache (written on the first run).
time(BASE);
time(CALC);
time(CALC);

const base: number[] = [];
const calc: number[] = [];
const ratios: number[] = [];
for (let i = 0; i < rounds; i++) {
  let b: number, c: number;
  if (i % 2) {
    c = time(CALC);
    b = time(BASE);
  } else {
    b = time(BASE);
    c = time(CALC);
  }
  base.push(b);
  calc.push(c);
  ratios.push(c / b);
}
const mb = median(base);
const mc = median(calc);
const cache = process.env.NODE_DISABLE_COMPILE_CACHE ? 'off' : 'on';
console.log(`node ${process.version}, ${rounds} paired rounds, compile cache ${cache}`);
console.log(`node -e 0:            median ${mb.toFixed(1)} ms`);
console.log(`ptax calc (1 place):  median ${mc.toFixed(1)} ms`);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const cb = sum(cpu.get(BASE)!.slice(1)) / rounds;
const cc = sum(cpu.get(CALC)!.slice(2)) / rounds;
if (Number.isFinite(cb)) {
  console.log(
    `CPU time (user+sys, mean; less sensitive to other load): node -e 0 ${cb.toFixed(1)} ms, ptax calc ${cc.toFixed(1)} ms, ratio ${(cc / cb).toFixed(2)}`,
  );
}
console.log(`wall: ratio of medians ${(mc / mb).toFixed(2)}, median of paired ratios ${median(ratios).toFixed(2)} (target <= 1.30)`);
