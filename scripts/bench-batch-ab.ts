/**
 * npm run bench:batch-ab -- <other-dist> : two builds of the batch path compared in one
 * process, on this 2-core shared machine whose speed moves more from minute to minute than
 * most changes do (the same build's 1M-row batch took 5.2–6.7 s of CPU in six runs in a row;
 * see the README, issue 27, eighth session). `npm run bench:batch` runs each build in a
 * process of its own minutes apart, so only a change above ~10% shows there. Here both
 * builds' engines are loaded side by side and the same seeded roll (scripts/gen-batch.ts, the
 * bench:batch roll) is read whole by each in turn, alternating which goes first, and the CPU
 * time of each run is paired with the other build's run next to it: the ratio of a pair is
 * taken seconds apart, under the same conditions.
 *
 * `other-dist` is another build's dist/ folder (e.g. `git stash; npm run build:code; cp -a
 * dist node_modules/.cache/before; git stash pop; npm run build:code`). Keep it inside the
 * repository, as in that example, so that its imports find node_modules. It is "A", this
 * build's dist/ is "B". Each build reads the roll once first, A then B, and the two
 * outputs' md5 must be equal (those two runs are printed but compare nothing: B's runs in
 * a heap A has used, and the CLI's cold start is bench:batch's to measure); then
 * BENCH_AB_PAIRS pairs (default 6) of warm runs, each with a new reader (every place found
 * again, by code that has run before). In process, as ptax calc --batch reads a file: 256 KiB chunks through
 * engine/batch/reader.ts, output taken and dropped, stack traces off (cli/batch.ts).
 * BENCH_BATCH_ROWS (default 1,000,000). Pinned to one core with taskset when it is there
 * (BENCH_BATCH_CORE, default 0). Not a test: prints the figures and the median ratio B/A.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BATCH_SEED, writeRoll } from './gen-batch.js';

const DIST = join(dirname(fileURLToPath(import.meta.url)), '..');
const other = process.argv[2];
if (!other || !existsSync(join(other, 'engine', 'node.js'))) {
  process.stderr.write("usage: npm run bench:batch-ab -- <other-dist>   (another build's dist/ folder, kept inside the repository)\n");
  process.exit(2);
}
const core = process.env.BENCH_BATCH_CORE ?? '0';
if (process.env.PTAX_AB_PINNED !== '1' && spawnSync('taskset', ['--version']).status === 0) {
  // Again, pinned: the builds share one core as bench:batch's runs do.
  const r = spawnSync('taskset', ['-c', core, process.execPath, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, PTAX_AB_PINNED: '1' },
  });
  process.exit(r.status ?? 1);
}

const ROWS = Number(process.env.BENCH_BATCH_ROWS ?? 1_000_000);
const PAIRS = Number(process.env.BENCH_AB_PAIRS ?? 6);
const SEED = BATCH_SEED;
Error.stackTraceLimit = 0;

interface Build {
  name: string;
  dir: string;
  // The engine's module of that build (engine/node.js), loaded from its own folder.
  E: typeof import('../engine/node.js');
  calc: InstanceType<(typeof import('../engine/node.js'))['Calculator']>;
}
async function load(name: string, dir: string): Promise<Build> {
  const abs = resolve(dir);
  await import(pathToFileURL(join(abs, 'engine', 'codegen', 'node.js')).href); // its generated programs, as ptax calc loads them
  const E = (await import(pathToFileURL(join(abs, 'engine', 'node.js')).href)) as typeof import('../engine/node.js');
  return { name, dir: abs, E, calc: new E.Calculator(E.readBundle(join(abs, 'rules', 'bundle.json'))) };
}

const builds = [await load('A', other), await load('B', DIST)];
const tmp = mkdtempSync(join(tmpdir(), 'ptax-bench-ab-'));
const file = join(tmp, 'roll.csv');
await writeRoll(file, ROWS, builds[1]!.calc.bundle, SEED); // B's bundle, already read
const bytes = readFileSync(file);
rmSync(tmp, { recursive: true, force: true });

/** One whole read of the roll by a new reader of `b`: CPU seconds, and the output's md5 when asked. */
function run(b: Build, hash: boolean): { cpu: number; md5?: string } {
  const reader = new b.E.BatchReader(b.calc, {});
  const md5 = hash ? createHash('md5') : undefined;
  const c0 = process.cpuUsage();
  for (let p = 0; p < bytes.length; p += 1 << 18) {
    reader.push(bytes.subarray(p, p + (1 << 18)));
    for (const chunk of reader.out.take()) md5?.update(chunk);
  }
  reader.end();
  for (const chunk of reader.out.take()) md5?.update(chunk);
  const c = process.cpuUsage(c0);
  return { cpu: (c.user + c.system) / 1e6, ...(md5 ? { md5: md5.digest('hex') } : {}) };
}

const fmt = (x: number) => x.toFixed(2);
const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
console.log(`bench:batch-ab: ${ROWS.toLocaleString('en-US')} rows (seed ${SEED}); A = ${builds[0]!.dir}, B = ${builds[1]!.dir}`);
console.log(
  `load average before: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}; ${process.env.PTAX_AB_PINNED === '1' ? `pinned to core ${core}` : 'not pinned'}`,
);
const cold = builds.map((b) => run(b, true));
console.log(`first runs (A, then B: not a comparison): A ${fmt(cold[0]!.cpu)} s, B ${fmt(cold[1]!.cpu)} s CPU`);
if (cold[0]!.md5 !== cold[1]!.md5) {
  console.log(`the outputs differ: A md5 ${cold[0]!.md5}, B md5 ${cold[1]!.md5}`);
  process.exit(1);
}
console.log(`output md5 ${cold[0]!.md5} (the same for both)`);
const cpu: number[][] = [[], []];
for (let i = 0; i < PAIRS; i++) for (const k of i % 2 ? [1, 0] : [0, 1]) cpu[k]!.push(run(builds[k]!, false).cpu);
const ratios = cpu[0]!.map((a, i) => cpu[1]![i]! / a);
console.log(`warm, ${PAIRS} pairs, CPU s: A ${cpu[0]!.map(fmt).join(' ')} (median ${fmt(median(cpu[0]!))})`);
console.log(`                          B ${cpu[1]!.map(fmt).join(' ')} (median ${fmt(median(cpu[1]!))})`);
console.log(`B/A per pair: ${ratios.map(fmt).join(' ')}; median ${median(ratios).toFixed(3)} (below 1: B is faster)`);
console.log(
  `load average after: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
