#!/usr/bin/env node
/**
 * After `vite build`: renders the page's loading state on the server side of Vite (an SSR
 * build of src/prerender.tsx into web/src/generated/.ssr) and writes it into web/dist/index.html (English)
 * and web/dist/es/index.html (Spanish), and inlines the page's small stylesheet (the CSP
 * allows inline styles, not inline scripts), so the first paint needs no JavaScript and no
 * second request.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';

const web = resolve(fileURLToPath(new URL('..', import.meta.url)));
const dist = join(web, 'dist');
// Under src/generated/, which git ignores.
const ssrDir = join(web, 'src/generated/.ssr');

await build({
  configFile: join(web, 'vite.config.ts'),
  logLevel: 'warn',
  build: {
    ssr: join(web, 'src/prerender.tsx'),
    outDir: ssrDir,
    emptyOutDir: true,
    copyPublicDir: false,
    rollupOptions: {
      input: join(web, 'src/prerender.tsx'),
      output: { entryFileNames: 'prerender.mjs' },
      // The pre-render imports the Spanish text directly; the client keeps it a separate chunk.
      onwarn(warning, warn) {
        if (warning.code !== 'INEFFECTIVE_DYNAMIC_IMPORT' && warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
const { render } = await import(pathToFileURL(join(ssrDir, 'prerender.mjs')).href);

for (const [file, lang, path] of [['index.html', 'en', '/'], ['es/index.html', 'es', '/es']]) {
  const p = join(dist, file);
  if (!existsSync(p)) continue;
  let html = readFileSync(p, 'utf8');
  const page = render(lang, path);
  html = html.replace('<div id="root"></div>', () => `<div id="root">${page.html}</div>`);
  html = html.replace(/<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/g, (_, href) => `<style>${readFileSync(join(dist, href), 'utf8')}</style>`);
  writeFileSync(p, html);
}
rmSync(ssrDir, { recursive: true, force: true });
console.log('web: pre-rendered index.html and es/index.html');
