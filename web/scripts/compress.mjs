#!/usr/bin/env node
/**
 * Writes .gz and .br copies of the production build's text files (web/dist), so a static
 * server that serves precompressed files (@fastify/static `preCompressed: true`) sends the
 * JavaScript at its gzip/brotli size without compressing on every request.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const TEXT = /\.(js|css|html|svg|json|txt)$/;

/**
 * Brotli quality of the pages when a site has more than MANY_PAGES of them (the hub with a
 * page per county, issue 26): 11 takes about 30 times longer than 5 on a 30 KB page (~140 ms
 * against ~5 ms here) for a file about 10 % smaller, and 6,400 pages would add some 15
 * minutes to the build. The assets (JavaScript, CSS) always get 11.
 */
export const MANY_PAGES = 1000;
const MANY_PAGES_HTML_QUALITY = 5;

/** Writes the .gz and .br copies of one file (`manyPages`: a page of a site of many pages, at the lower brotli quality). */
export function compressFile(p, buf = readFileSync(p), manyPages = false) {
  if (buf.length <= 1024) return;
  const quality = manyPages && p.endsWith('.html') ? MANY_PAGES_HTML_QUALITY : 11;
  writeFileSync(`${p}.gz`, gzipSync(buf, { level: 9 }));
  writeFileSync(`${p}.br`, brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: buf.length } }));
}

/**
 * Writes the copies for every text file under `dir`; a page that already has its .br copy
 * (written beside it by the pre-render's worker threads, web/scripts/prerender.mjs) is left as it is.
 */
export function compress(dir) {
  const files = [];
  walk(dir, files);
  const pages = files.filter((p) => p.endsWith('.html')).length;
  for (const p of files) {
    if (p.endsWith('.html') && existsSync(`${p}.br`)) continue;
    compressFile(p, readFileSync(p), pages > MANY_PAGES);
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
