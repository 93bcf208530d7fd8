#!/usr/bin/env node
/**
 * After an edition's `vite build`: renders every page of the edition (an SSR build of
 * src/prerender.tsx for the same edition, into web/src/generated/.ssr) into its own HTML
 * file: the fixed pages of seed 001 §2, a page per county, the guides (and their generic
 * aliases), in English and Spanish, plus the 404 pages; each with its title, description,
 * canonical link, hreflang pair and Open Graph tags, the page's small stylesheet inlined
 * (the CSP allows inline styles, not inline scripts). Writes sitemap.xml and robots.txt.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';
import { compressFile } from './compress.mjs';

const web = resolve(fileURLToPath(new URL('..', import.meta.url)));
// Under src/generated/, which git ignores; a folder per edition (ssrDirOf): the editions are
// built side by side (build-editions.mjs), and with one shared folder an edition's SSR build
// (emptyOutDir) or its clean-up removed the hub's module before the hub's workers had imported
// it ("the HUB build failed", 2026-11-27).
const ssrRoot = join(web, 'src/generated/.ssr');
const ssrDirOf = (code) => join(ssrRoot, code.toLowerCase());

const escapeHtml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Where each edition is published, for the canonical links, hreflang pairs, Open Graph URLs
 * and the sitemap, which must be absolute: PTAX_PUBLIC_URLS="NY=https://ny.example.org,…"
 * at build time; by default the local addresses `npm start` serves.
 */
export const DEFAULT_ORIGINS = {
  NY: 'http://ny.localhost:8080',
  TX: 'http://tx.localhost:8080',
  CA: 'http://ca.localhost:8080',
  FL: 'http://fl.localhost:8080',
  HUB: 'http://localhost:8080',
};

export function originOf(code, env = process.env.PTAX_PUBLIC_URLS) {
  const origins = { ...DEFAULT_ORIGINS };
  for (const part of (env ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    const m = /^([A-Za-z]+)=(https?:\/\/[^/\s]+)\/?$/.exec(part);
    if (!m || !(m[1].toUpperCase() in origins))
      throw new Error(`PTAX_PUBLIC_URLS: "${part}" is not CODE=https://host (codes: ${Object.keys(origins).join(', ')})`);
    origins[m[1].toUpperCase()] = m[2];
  }
  return origins[code];
}

/** The file a page path is written to: `/` → index.html, `/es/contacto` → es/contacto/index.html. */
export const fileOf = (path) => (path === '/' ? 'index.html' : `${path.replace(/^\//, '')}/index.html`);

/** The head tags of a page: canonical, hreflang pair (+ x-default), Open Graph. */
export function headTags({ origin, lang, en, es, title, description, notFound }) {
  const url = origin + (lang === 'es' ? es : en);
  const tags = notFound
    ? ['<meta name="robots" content="noindex" />']
    : [
        `<link rel="canonical" href="${escapeHtml(url)}" />`,
        `<link rel="alternate" hreflang="en" href="${escapeHtml(origin + en)}" />`,
        `<link rel="alternate" hreflang="es" href="${escapeHtml(origin + es)}" />`,
        `<link rel="alternate" hreflang="x-default" href="${escapeHtml(origin + en)}" />`,
        `<meta property="og:url" content="${escapeHtml(url)}" />`,
      ];
  tags.push(
    '<meta property="og:type" content="website" />',
    `<meta property="og:title" content="${escapeHtml(title)}" />`,
    `<meta property="og:description" content="${escapeHtml(description)}" />`,
    `<meta property="og:locale" content="${lang === 'es' ? 'es_MX' : 'en_US'}" />`,
    '<meta name="twitter:card" content="summary" />',
  );
  return tags.join('\n    ');
}

/** sitemap.xml of an edition: every page in both languages, with its alternates. */
export function sitemap(origin, pages) {
  const entry = (loc, p) =>
    `  <url>\n    <loc>${escapeHtml(origin + loc)}</loc>\n    <xhtml:link rel="alternate" hreflang="en" href="${escapeHtml(origin + p.en)}"/>\n    <xhtml:link rel="alternate" hreflang="es" href="${escapeHtml(origin + p.es)}"/>\n  </url>`;
  const urls = pages.flatMap((p) => [entry(p.en, p), entry(p.es, p)]);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`;
}

/** Pre-renders edition `code`'s pages in `dist` (the edition's build folder). */
export async function prerender(code, dist) {
  const started = performance.now();
  process.env.VITE_STATE = code;
  const ssrDir = ssrDirOf(code);
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
  const built = performance.now();
  const module = join(ssrDir, `prerender-${code}.mjs`);
  const { pagePaths } = await import(pathToFileURL(module).href);
  const pages = pagePaths();
  // The pages in slices, one per core: a site with thousands of pages (the hub, a page per
  // county of the country) renders them in worker threads side by side; a small site in this thread.
  const slices = pages.length > MANY_PAGES ? Math.max(1, Math.min(availableParallelism(), 4)) : 1;
  // The Vite build's two shells, read once before any page is written: the first slice writes
  // the home page over index.html, and a worker that read it after that found no empty root in it
  // (the hub's /ohio was written as the home page with Ohio's title, 2026-11-27).
  const job = { code, dist, module, templates: templatesOf(dist) };
  if (slices === 1) await renderSlice({ ...job, from: 0, to: pages.length, extras: true });
  else {
    const size = Math.ceil(pages.length / slices);
    await Promise.all(
      Array.from({ length: slices }, (_, k) => runWorker({ ...job, from: k * size, to: Math.min(pages.length, (k + 1) * size), extras: k === 0 })),
    );
  }
  const rendered = performance.now();
  writeFileSync(join(dist, 'sitemap.xml'), sitemap(originOf(code), pages));
  writeFileSync(join(dist, 'robots.txt'), `User-agent: *\nAllow: /\nSitemap: ${originOf(code)}/sitemap.xml\n`);
  rmSync(ssrDir, { recursive: true, force: true });
  try {
    rmdirSync(ssrRoot);
  } catch {
    // another edition's module is still there
  }
  const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
  console.log(`web: pre-rendered ${code}: ${pages.length * 2} pages in ${s(rendered - built)} (SSR build ${s(built - started)})`);
}

/** Above this many pages a site is rendered in worker threads (prerender). */
const MANY_PAGES = 500;

/** Runs renderSlice in a worker thread. */
function runWorker(job) {
  return new Promise((ok, fail) => {
    const w = new Worker(fileURLToPath(import.meta.url), { workerData: job });
    w.once('message', ok);
    w.once('error', fail);
    w.once('exit', (c) => (c === 0 ? ok() : fail(new Error(`pre-render worker exited with ${c}`))));
  });
}

/**
 * Writes the pages `from`..`to` of pagePaths() of an edition's SSR module into `dist`; with
 * `extras`, also the guide aliases and the 404 pages.
 */
/** The build's page shells (index.html, es/index.html), each with its empty root. */
function templatesOf(dist) {
  const templates = {
    en: readFileSync(join(dist, 'index.html'), 'utf8'),
    es: existsSync(join(dist, 'es/index.html')) ? readFileSync(join(dist, 'es/index.html'), 'utf8') : readFileSync(join(dist, 'index.html'), 'utf8'),
  };
  for (const [lang, html] of Object.entries(templates)) {
    if (!html.includes('<div id="root"></div>')) throw new Error(`prerender: ${dist} ${lang} shell has no empty <div id="root"> (already pre-rendered?)`);
  }
  return templates;
}

async function renderSlice({ code, dist, module, from, to, extras, templates }) {
  const { render, pagePaths, aliasPaths } = await import(pathToFileURL(module).href);
  const origin = originOf(code);
  const css = new Map();
  const all = pagePaths();
  const write = (file, lang, path, pair) => {
    const page = render(lang, path);
    let html = templates[lang];
    // The path it was rendered for: the client hydrates the page only at that address (the
    // not-found page, rendered once, is rendered afresh for the address asked).
    html = html.replace('<div id="root"></div>', () => `<div id="root" data-rendered-for="${escapeHtml(path)}">${page.html}</div>`);
    html = html.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(page.title)}</title>`);
    html = html.replace(/<meta name="description" content="[^"]*"/, () => `<meta name="description" content="${escapeHtml(page.description)}"`);
    if (page.status === 404) html = html.replace(/\s*<meta name="robots" content="[^"]*" \/>/, '');
    html = html.replace(
      '</head>',
      () => `    ${headTags({ origin, lang, ...pair, title: page.title, description: page.description, notFound: page.status === 404 })}\n  </head>`,
    );
    html = html.replace(/<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/g, (_, href) => {
      if (!css.has(href)) css.set(href, readFileSync(join(dist, href), 'utf8'));
      return `<style>${css.get(href)}</style>`;
    });
    mkdirSync(dirname(join(dist, file)), { recursive: true });
    writeFileSync(join(dist, file), html);
    // In a worker thread, the page's compressed copies too (compress.mjs leaves them), so that
    // compressing the pages of a site of thousands of them is shared between the cores as well.
    if (!isMainThread) compressFile(join(dist, file), Buffer.from(html));
  };
  for (const p of all.slice(from, to)) {
    write(fileOf(p.en), 'en', p.en, p);
    write(fileOf(p.es), 'es', p.es, p);
  }
  if (!extras) return;
  // The generic guide aliases show the guide, with the guide's own address as canonical.
  for (const a of aliasPaths()) write(fileOf(a.alias), 'en', a.alias, { en: a.en, es: a.es });
  // The page-not-found screens, answered with status 404 by the site server.
  write('404.html', 'en', '/404', { en: '/404', es: '/es/404' });
  write('es/404.html', 'es', '/es/404', { en: '/404', es: '/es/404' });
}

if (!isMainThread && workerData?.module) {
  await renderSlice(workerData);
  parentPort.postMessage('done');
}
