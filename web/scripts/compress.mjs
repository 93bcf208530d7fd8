#!/usr/bin/env node
/**
 * Writes .gz and .br copies of the production build's text files (web/dist), so a static
 * server that serves precompressed files (@fastify/static `preCompressed: true`) sends the
 * JavaScript at its gzip/brotli size without compressing on every request.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const TEXT = /\.(js|css|html|svg|json|txt)$/;

/**
 * Brotli quality of the pages (.html): 5. Quality 11 took about 40 ms of CPU for a 25 KB page
 * against about 1 ms at 5, for a file about 10 % smaller (NY's 173 pages: 1,055 KB against
 * 1,167 KB in all, ~0.6 KB a page; issue 23): some 45 s of CPU in every build of the four
 * editions' ~1,100 pages, and 15 minutes for the hub's 11,400 (issue 26). The pages are
 * served no-cache, so their .br is not kept by browsers either way. The assets (JavaScript,
 * CSS, data: hashed names, cached for a year) get 11.
 */
export const PAGE_QUALITY = 5;
/**
 * gzip level of the pages: 6 (zlib's default). Level 9 took about 0.2 ms of CPU more a page (the
 * hub's 33 KB pages: 0.79 against 1.03 ms, interleaved rounds at load 9) for a .gz 0.2 % smaller
 * (8.97 against 8.99 KB a page; NY 7.03 against 7.04 KB): about 2.5 s of CPU of every build's
 * 12,500 pages for 20 bytes a page (issue 23). The assets (cached for a year, compressed once
 * per content) keep 9.
 */
export const PAGE_GZIP_LEVEL = 6;
const ASSET_QUALITY = 11;

/**
 * The folder of the compressed copies of assets already made (PTAX_COMPRESS_CACHE, `off` for
 * none): the editions share many chunks byte for byte (jspdf, html2canvas, the guides, the
 * state packages: 4.6 of their 14.8 MB), and brotli 11 is about 2 s of CPU a megabyte. An
 * entry is named by the SHA-256 of the zlib versions, the quality and the content, written
 * under a temporary name and renamed (the editions are built side by side); a full build
 * removes the entries it did not use (pruneCache).
 */
const cacheDir = () => {
  const dir = process.env.PTAX_COMPRESS_CACHE ?? fileURLToPath(new URL('../../node_modules/.cache/ptax-compress', import.meta.url));
  return dir === 'off' ? undefined : dir;
};
const VERSIONS = `${process.versions.zlib} ${process.versions.brotli} gzip9 br${ASSET_QUALITY}`;

function brotli(buf, quality) {
  return brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: buf.length } });
}

/** The .gz and .br of an asset, from the cache when it has them. */
function assetCopies(buf) {
  const dir = cacheDir();
  if (!dir) return { gz: gzipSync(buf, { level: 9 }), br: brotli(buf, ASSET_QUALITY) };
  const key = join(dir, createHash('sha256').update(VERSIONS).update('\0').update(buf).digest('hex'));
  try {
    const copies = { gz: readFileSync(`${key}.gz`), br: readFileSync(`${key}.br`) };
    const now = new Date();
    utimesSync(`${key}.gz`, now, now);
    utimesSync(`${key}.br`, now, now);
    return copies;
  } catch {
    // not there yet (or half there): made below
  }
  const copies = { gz: gzipSync(buf, { level: 9 }), br: brotli(buf, ASSET_QUALITY) };
  try {
    mkdirSync(dir, { recursive: true });
    for (const ext of ['gz', 'br']) {
      const tmp = `${key}.${ext}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      writeFileSync(tmp, copies[ext]);
      renameSync(tmp, `${key}.${ext}`);
    }
  } catch {
    // a cache that cannot be written only costs time
  }
  return copies;
}

/** Writes the .gz and .br copies of one file (a page: gzip PAGE_GZIP_LEVEL, brotli PAGE_QUALITY; anything else: gzip 9, brotli 11, through the cache). */
export function compressFile(p, buf = readFileSync(p)) {
  if (buf.length <= 1024) return;
  const copies = p.endsWith('.html') ? { gz: gzipSync(buf, { level: PAGE_GZIP_LEVEL }), br: brotli(buf, PAGE_QUALITY) } : assetCopies(buf);
  writeFileSync(`${p}.gz`, copies.gz);
  writeFileSync(`${p}.br`, copies.br);
}

/**
 * Writes the copies for every text file under `dir`; a page that already has its .br copy
 * (written beside it by the pre-render's worker threads, web/scripts/prerender.mjs) is left as it is.
 */
export function compress(dir) {
  const files = [];
  walk(dir, files);
  for (const p of files) {
    if (p.endsWith('.html') && existsSync(`${p}.br`)) continue;
    compressFile(p, readFileSync(p));
  }
}

/** Removes the cache's entries last used before `since` (ms; a full build's start: what that build did not use). */
export function pruneCache(since) {
  const dir = cacheDir();
  if (!dir || !existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    try {
      if (statSync(p).mtimeMs < since) rmSync(p, { force: true });
    } catch {
      // removed by another build meanwhile
    }
  }
}

function walk(d, out) {
  for (const name of readdirSync(d)) {
    const p = join(d, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (TEXT.test(name) && statSync(p).size > 1024) out.push(p);
  }
}
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  compress(resolve(process.argv[2] ?? fileURLToPath(new URL('../dist', import.meta.url))));
}
