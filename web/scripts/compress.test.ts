/**
 * The build's compressed copies (web/scripts/compress.mjs): every text file over 1 KB gets a
 * .gz and a .br that decompress to it; pages at brotli 5, everything else at 11 through the
 * cache of copies by content (PTAX_COMPRESS_CACHE), which a full build prunes.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM build script without type declarations
import { PAGE_GZIP_LEVEL, PAGE_QUALITY, compress, compressFile, pruneCache } from './compress.mjs';

const br = (buf: Buffer, quality: number) =>
  brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: buf.length } });

// Text with some variety, so that brotli's qualities give different bytes.
const text = (seed: string, lines: number) =>
  Array.from({ length: lines }, (_, i) => `${seed} line ${i} ${(i * 7919) % 1000} ${'abcdefgh'.repeat(i % 5)}`).join('\n');

let root: string;
let cache: string;
const saved = process.env.PTAX_COMPRESS_CACHE;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ptax-compress-'));
  cache = join(root, 'cache');
  process.env.PTAX_COMPRESS_CACHE = cache;
});
afterEach(() => rmSync(cache, { recursive: true, force: true }));
afterAll(() => {
  if (saved === undefined) delete process.env.PTAX_COMPRESS_CACHE;
  else process.env.PTAX_COMPRESS_CACHE = saved;
  rmSync(root, { recursive: true, force: true });
});

function site(name: string, asset: string) {
  const dir = join(root, name);
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'assets', 'app.js'), asset);
  writeFileSync(join(dir, 'index.html'), `<!doctype html><title>x</title>\n${text('page', 80)}`);
  writeFileSync(join(dir, 'robots.txt'), 'User-agent: *\nAllow: /\n'); // 24 bytes: no copies (1 KB or less)
  return dir;
}

describe('compress', () => {
  it('writes .gz and .br copies that decompress to each file over 1 KB: pages at brotli 5 and gzip 6, assets at 11 and 9', () => {
    const dir = site('one', text('asset', 120));
    compress(dir);
    for (const f of ['index.html', 'assets/app.js']) {
      const raw = readFileSync(join(dir, f));
      expect(gunzipSync(readFileSync(join(dir, `${f}.gz`))).equals(raw)).toBe(true);
      expect(brotliDecompressSync(readFileSync(join(dir, `${f}.br`))).equals(raw)).toBe(true);
    }
    expect(PAGE_QUALITY).toBe(5);
    const page = readFileSync(join(dir, 'index.html'));
    const asset = readFileSync(join(dir, 'assets/app.js'));
    expect(readFileSync(join(dir, 'index.html.br')).equals(br(page, 5))).toBe(true);
    expect(readFileSync(join(dir, 'assets/app.js.br')).equals(br(asset, 11))).toBe(true);
    // gzip: pages at 6, assets at 9 (compress.mjs PAGE_GZIP_LEVEL).
    expect(PAGE_GZIP_LEVEL).toBe(6);
    expect(readFileSync(join(dir, 'index.html.gz')).equals(gzipSync(page, { level: 6 }))).toBe(true);
    expect(readFileSync(join(dir, 'assets/app.js.gz')).equals(gzipSync(asset, { level: 9 }))).toBe(true);
    expect(gzipSync(page, { level: 6 }).equals(gzipSync(page, { level: 9 }))).toBe(false);
    // The qualities differ on these files, so the two checks above tell them apart.
    expect(br(page, 5).equals(br(page, 11))).toBe(false);
    expect(existsSync(join(dir, 'robots.txt.br'))).toBe(false);
    // The cache holds the asset's two copies, not the page's.
    expect(readdirSync(cache).sort()).toHaveLength(2);
  });

  it('takes an asset of the same content from the cache (another edition), and makes a half entry again', () => {
    const asset = text('shared', 100);
    compress(site('a', asset));
    const [brEntry, gzEntry] = readdirSync(cache).sort(); // "<hash>.br" < "<hash>.gz"
    expect(brEntry.endsWith('.br') && gzEntry.endsWith('.gz')).toBe(true);
    // A valid but different .br of the same text in the cache: the next site gets these bytes.
    const marker = br(Buffer.from(asset), 1);
    expect(marker.equals(br(Buffer.from(asset), 11))).toBe(false);
    writeFileSync(join(cache, brEntry), marker);
    const b = site('b', asset);
    compress(b);
    expect(readFileSync(join(b, 'assets/app.js.br')).equals(marker)).toBe(true);
    // Only the .gz left: both made again from the file.
    rmSync(join(cache, brEntry));
    const c = site('c', asset);
    compress(c);
    expect(readFileSync(join(c, 'assets/app.js.br')).equals(br(Buffer.from(asset), 11))).toBe(true);
    expect(readdirSync(cache).sort()).toEqual([brEntry, gzEntry]);
  });

  it('prunes the entries not used since a time; PTAX_COMPRESS_CACHE=off keeps none', () => {
    compress(site('old', text('old', 60)));
    const old = new Date(Date.now() - 3600_000);
    for (const f of readdirSync(cache)) utimesSync(join(cache, f), old, old);
    const since = Date.now() - 60_000;
    compress(site('new', text('new', 60)));
    expect(readdirSync(cache)).toHaveLength(4);
    pruneCache(since);
    const kept = readdirSync(cache);
    expect(kept).toHaveLength(2);
    const d = site('new2', text('new', 60));
    compress(d);
    expect(readdirSync(cache).sort()).toEqual(kept.sort());

    process.env.PTAX_COMPRESS_CACHE = 'off';
    try {
      const e = join(root, 'off.js');
      writeFileSync(e, text('off', 60));
      compressFile(e);
      expect(brotliDecompressSync(readFileSync(`${e}.br`)).toString()).toBe(text('off', 60));
      expect(readdirSync(cache).sort()).toEqual(kept.sort()); // nothing added for off.js
    } finally {
      process.env.PTAX_COMPRESS_CACHE = cache;
    }
  });
});
