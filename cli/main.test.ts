/**
 * The entry point (cli/main.ts → dist/cli/main.js): the Node version check that runs before
 * the command line is imported, and the compile cache it turns on. Build first (npm run build).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve('.');
const MAIN = join(ROOT, 'dist/cli/main.js');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
/** The pinned Node (.node-version: scripts/node-env installs it into .runtime/ and links node_modules/.bin/node to it). */
const PINNED = readFileSync(join(ROOT, '.node-version'), 'utf8').trim();
const SUPPORTED = /const SUPPORTED = '([\d.]+)'/.exec(readFileSync(join(ROOT, 'cli/start.cts'), 'utf8'))?.[1];

/** A Node older than the supported one, as on a fresh machine (Debian's /usr/bin/node is 20 here), if there is one. */
function oldNode(): string | undefined {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    if (!existsSync(candidate)) continue;
    const v = execFileSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
    if (Number(v.split('.')[0]) < Number(SUPPORTED!.split('.')[0])) return candidate;
  }
  return undefined;
}

describe('the entry point', () => {
  it('names the same oldest Node as package.json engines, and the pinned Node meets it', () => {
    expect(SUPPORTED).toBeDefined();
    expect(pkg.engines.node).toBe(`>=${SUPPORTED}`);
    // The pinned Node (.node-version, exact) is the one the tests run on.
    expect(PINNED).toMatch(/^\d+\.\d+\.\d+$/);
    expect(process.versions.node).toBe(PINNED);
  });

  const old = oldNode();
  it.skipIf(!old)(`an older Node (${old ?? 'none on this machine'}) gets one line naming Node ${SUPPORTED}, exit 2`, () => {
    const r = spawnSync(old!, [MAIN, 'calc', '--state', 'NY', '--county', 'Kings', '--class', 'class1', '--value', '800000'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^ptax: Node v[\\d.]+ is too old: ptax needs Node ${SUPPORTED!.replace('.', '\\.')} or later`));
  });

  // As a user types it, with the machine's npm first on PATH (not node_modules/.bin): npx
  // puts node_modules/.bin/node, the pinned Node, first for the `ptax` it starts.
  const npx = ['/usr/bin/npx', '/usr/local/bin/npx'].find((f) => existsSync(f));
  it.skipIf(!npx)('npx ptax --version runs on the pinned Node', () => {
    const r = spawnSync(npx!, ['ptax', '--version'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, PATH: '/usr/bin:/bin:/usr/local/bin' } });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(`0.1.0 (node v${PINNED})`);
  });

  it('writes V8 compile cache entries for the modules it loads', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ptax-cache-'));
    try {
      // No NODE_COMPILE_CACHE (which would turn the cache on by itself): the default folder,
      // node-compile-cache in the temporary folder, is written only if main.js enables it.
      const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: dir };
      delete env.NODE_COMPILE_CACHE;
      delete env.NODE_DISABLE_COMPILE_CACHE;
      const out = execFileSync(process.execPath, [MAIN, 'calc', '--state', 'NY', '--county', 'Kings', '--class', 'class1', '--value', '800000', '--json'], {
        encoding: 'utf8',
        env,
      });
      expect(JSON.parse(out)).toBeTypeOf('object');
      // One folder per Node/V8 version: the caches made after the run (start.cjs
      // requireCached) of the bundle's entry chunk (ptax-<path hash>-calc.bin) and of the
      // generated program of NYC's year (dist/rules/js: ptaxrule-<path hash>-calc.bin); none
      // without the cache. (What a start loads is one chunk, rolldown's runtime helpers
      // inline: scripts/bundle-cli.ts; nothing else goes through Node's own compile cache.)
      const cache = join(dir, 'node-compile-cache');
      expect(existsSync(cache)).toBe(true);
      const entries = readdirSync(cache).flatMap((d) => readdirSync(join(cache, d)));
      expect(entries.length).toBeGreaterThanOrEqual(2);
      expect(entries.filter((e) => /^ptax-[0-9a-f]+-calc\.bin$/.test(e))).toHaveLength(1);
      expect(entries.filter((e) => /^ptaxrule-[0-9a-f]+-calc\.bin$/.test(e))).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps the bundle's code cache made after a run (start.cjs requireCached): written once, used as is, made again for a rebuilt bundle; none without the compile cache", () => {
    const dir = mkdtempSync(join(tmpdir(), 'ptax-cache-'));
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: dir };
      delete env.NODE_COMPILE_CACHE;
      delete env.NODE_DISABLE_COMPILE_CACHE;
      const args = [MAIN, 'calc', '--state', 'TX', '--county', 'Harris', '--value', '400000'];
      const run = (e = env) => execFileSync(process.execPath, args, { encoding: 'utf8', env: e });
      const cacheFiles = () =>
        existsSync(join(dir, 'node-compile-cache'))
          ? readdirSync(join(dir, 'node-compile-cache')).flatMap((d) =>
              readdirSync(join(dir, 'node-compile-cache', d))
                .filter((f) => f.startsWith('ptax-'))
                .map((f) => join(dir, 'node-compile-cache', d, f)),
            )
          : [];
      // Without the compile cache: no file, the same table.
      const plain = run({ ...env, NODE_DISABLE_COMPILE_CACHE: '1' });
      expect(cacheFiles()).toEqual([]);
      // 400,000 × 1.77845% (school 0.8783 + county 0.38096 + city 0.51919) = 7,113.80.
      expect(plain).toContain('$7,113.80');
      // A run that stops at an error writes none (it did not run the calculation); one that succeeds does.
      expect(() => execFileSync(process.execPath, [MAIN, 'calc', '--state', 'TX', '--county', 'Nowhere'], { env, stdio: 'pipe' })).toThrow();
      expect(cacheFiles()).toEqual([]);
      expect(run()).toBe(plain);
      const [file] = cacheFiles();
      expect(file).toMatch(/ptax-[0-9a-f]+-calc\.bin$/);
      const fast = join(ROOT, 'dist/cli/fast/ptax.cjs');
      const { size, mtimeMs } = statSync(fast);
      const first = readFileSync(file!);
      expect(first.subarray(0, 40).toString('latin1').split('\n')[0]).toBe(`ptax ${size} ${mtimeMs}`);
      // Used as is: the same output, the file not written again.
      expect(run()).toBe(plain);
      expect(readFileSync(file!).equals(first)).toBe(true);
      // Made for another bundle (its size and time in the head): made again.
      writeFileSync(file!, Buffer.concat([Buffer.from(`ptax ${size} 1\n`, 'latin1'), first.subarray(first.indexOf(10) + 1)]));
      expect(run()).toBe(plain);
      expect(readFileSync(file!).subarray(0, 40).toString('latin1').split('\n')[0]).toBe(`ptax ${size} ${mtimeMs}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('keeps a code cache made after a run for the generated program too (start.cjs requireCached, ptaxrule-…): written once, then used, the same table', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ptax-cache-'));
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: dir };
      delete env.NODE_COMPILE_CACHE;
      delete env.NODE_DISABLE_COMPILE_CACHE;
      const args = [MAIN, 'calc', '--state', 'TX', '--county', 'Harris', '--value', '400000'];
      const run = (e = env) => execFileSync(process.execPath, args, { encoding: 'utf8', env: e });
      const programCaches = () =>
        readdirSync(join(dir, 'node-compile-cache')).flatMap((d) =>
          readdirSync(join(dir, 'node-compile-cache', d))
            .filter((f) => /^ptaxrule-[0-9a-f]+-calc\.bin$/.test(f))
            .map((f) => join(dir, 'node-compile-cache', d, f)),
        );
      const plain = run({ ...env, NODE_DISABLE_COMPILE_CACHE: '1' });
      // 400,000 × 1.77845% (school 0.8783 + county 0.38096 + city 0.51919) = 7,113.80.
      expect(plain).toContain('$7,113.80');
      expect(run()).toBe(plain);
      const [file] = programCaches();
      expect(programCaches()).toHaveLength(1);
      const rules = join(ROOT, 'dist/rules/js/tx@2025.cjs');
      const { size, mtimeMs } = statSync(rules);
      const first = readFileSync(file!);
      expect(first.subarray(0, 40).toString('latin1').split('\n')[0]).toBe(`ptax ${size} ${mtimeMs}`);
      expect(run()).toBe(plain);
      expect(readFileSync(file!).equals(first)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
