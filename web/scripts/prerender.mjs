#!/usr/bin/env node
/**
 * After an edition's `vite build`: renders the page's loading state on the server side of
 * Vite (an SSR build of src/prerender.tsx for the same edition, into
 * web/src/generated/.ssr) and writes it into the edition's pages (English and Spanish
 * home and contact pages), with the edition's own title and description, and inlines the
 * page's small stylesheet (the CSP allows inline styles, not inline scripts), so the first
 * paint needs no JavaScript and no second request.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';

const web = resolve(fileURLToPath(new URL('..', import.meta.url)));
// Under src/generated/, which git ignores.
const ssrDir = join(web, 'src/generated/.ssr');

const escapeHtml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The pages written for each edition: [file, lang, path, template]. */
const PAGES = [
  ['index.html', 'en', '/', 'index.html'],
  ['es/index.html', 'es', '/es', 'es/index.html'],
  ['contact/index.html', 'en', '/contact', 'index.html'],
  ['es/contacto/index.html', 'es', '/es/contacto', 'es/index.html'],
];

/** Pre-renders edition `code`'s pages in `dist` (the edition's build folder). */
export async function prerender(code, dist) {
  process.env.VITE_STATE = code;
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
        output: { entryFileNames: `prerender-${code}.mjs` },
        // The pre-render imports the Spanish text directly; the client keeps it a separate chunk.
        onwarn(warning, warn) {
          if (warning.code !== 'INEFFECTIVE_DYNAMIC_IMPORT' && warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
        },
      },
    },
  });
  const { render } = await import(pathToFileURL(join(ssrDir, `prerender-${code}.mjs`)).href);
  const templates = {};
  for (const [, , , t] of PAGES) templates[t] ??= existsSync(join(dist, t)) ? readFileSync(join(dist, t), 'utf8') : undefined;
  for (const [file, lang, path, template] of PAGES) {
    let html = templates[template];
    if (html === undefined) continue;
    const page = render(lang, path);
    html = html.replace('<div id="root"></div>', () => `<div id="root">${page.html}</div>`);
    html = html.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(page.title)}</title>`);
    html = html.replace(/<meta name="description" content="[^"]*"/, () => `<meta name="description" content="${escapeHtml(page.description)}"`);
    html = html.replace(/<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/g, (_, href) => `<style>${readFileSync(join(dist, href), 'utf8')}</style>`);
    mkdirSync(dirname(join(dist, file)), { recursive: true });
    writeFileSync(join(dist, file), html);
  }
  rmSync(ssrDir, { recursive: true, force: true });
}
