#!/usr/bin/env node
/**
 * Writes .gz and .br copies of the production build's text files (web/dist), so a static
 * server that serves precompressed files (@fastify/static `preCompressed: true`) sends the
 * JavaScript at its gzip/brotli size without compressing on every request.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const TEXT = /\.(js|css|html|svg|json|txt)$/;

/** Writes the copies for every text file under `dir`. */
export function compress(dir) {
  walk(dir);
}

function walk(d) {
  for (const name of readdirSync(d)) {
    const p = join(d, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (TEXT.test(name) && statSync(p).size > 1024) {
      const buf = readFileSync(p);
      writeFileSync(`${p}.gz`, gzipSync(buf, { level: 9 }));
      writeFileSync(`${p}.br`, brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: buf.length } }));
    }
  }
}
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  compress(resolve(process.argv[2] ?? fileURLToPath(new URL('../dist', import.meta.url))));
}
