#!/usr/bin/env node
/**
 * Where the pre-render's CPU goes, per phase, in one thread: builds edition PTAX_EDITION's SSR
 * module (default HUB), then renders its first PTAX_PAGES pages (default 1,500, both
 * languages) and measures the CPU (process.cpuUsage) of rendering, gzip -9, brotli 5 and
 * writing the three files, into a temporary folder. Benchmark, not a test: node web/scripts/bench-prerender.mjs
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'vite';

const web = resolve(fileURLToPath(new URL('..', import.meta.url)));
const code = process.env.PTAX_EDITION ?? 'HUB';
const n = Number(process.env.PTAX_PAGES ?? 1500);
process.env.VITE_STATE = code;
process.env.PTAX_DATA_DIR ??= join(web, 'src/generated');
const out = mkdtempSync(join(tmpdir(), 'ptax-bench-prerender-'));
// Inside the repository, so that the module finds node_modules.
const ssrDir = join(web, 'src/generated/.ssr/bench');
await build({
  configFile: join(web, 'vite.config.ts'),
  logLevel: 'error',
  build: {
    ssr: join(web, 'src/prerender.tsx'),
    outDir: ssrDir,
    emptyOutDir: true,
    copyPublicDir: false,
    rollupOptions: { input: join(web, 'src/prerender.tsx'), output: { entryFileNames: 'prerender.mjs' }, onwarn() {} },
  },
});
const { render, pagePaths } = await import(pathToFileURL(join(ssrDir, 'prerender.mjs')).href);
const pages = pagePaths().slice(0, n);
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const t = { render: 0, gzip9: 0, gzip6: 0, br5: 0, br4: 0, write: 0 };
const size = { html: 0, gzip9: 0, gzip6: 0, br5: 0, br4: 0 };
const br = (b, q) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: q, [constants.BROTLI_PARAM_SIZE_HINT]: b.length } });
let c = cpu();
const lap = (k) => {
  const now = cpu();
  t[k] += now - c;
  c = now;
};
let count = 0;
const md5 = createHash('md5');
for (const p of pages) {
  for (const [lang, path] of [
    ['en', p.en],
    ['es', p.es],
  ]) {
    c = cpu();
    const page = render(lang, path);
    lap('render');
    const html = page.html;
    md5.update(`${page.title}\0${page.description}\0${page.status}\0${html}\0`);
    const buf = Buffer.from(html);
    const g9 = gzipSync(buf, { level: 9 });
    lap('gzip9');
    const g6 = gzipSync(buf, { level: 6 });
    lap('gzip6');
    const b5 = br(buf, 5);
    lap('br5');
    const b4 = br(buf, 4);
    lap('br4');
    const file = join(out, 'pages', path === '/' ? 'index.html' : `${path.slice(1)}/index.html`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, buf);
    writeFileSync(`${file}.gz`, g9);
    writeFileSync(`${file}.br`, b5);
    lap('write');
    size.html += buf.length;
    size.gzip9 += g9.length;
    size.gzip6 += g6.length;
    size.br5 += b5.length;
    size.br4 += b4.length;
    count++;
  }
}
rmSync(out, { recursive: true, force: true });
rmSync(ssrDir, { recursive: true, force: true });
console.log(`${code}: ${count} pages, md5 of the rendered pages ${md5.digest('hex')}`);
for (const [k, v] of Object.entries(t)) console.log(`${k.padEnd(8)} ${v.toFixed(2)} s CPU, ${((v / count) * 1000).toFixed(2)} ms a page`);
for (const [k, v] of Object.entries(size)) console.log(`${k.padEnd(8)} ${(v / count / 1024).toFixed(2)} KB a page`);
