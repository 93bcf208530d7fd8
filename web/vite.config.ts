/**
 * Vite configuration of the web calculator. Root is web/, the production build goes to
 * web/dist (served by web/server), and in development /api is proxied to the site server.
 * Vite 8 transforms TSX itself with Oxc: the automatic React JSX runtime is set here, so no
 * React plugin is needed.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
/**
 * `@ptax-data/`: the generated state data packages (states/*.json) and program chunks
 * (programs/*.js) this build holds. An edition's build gets a folder with its own state's
 * and the fallback state's only (web/scripts/build-editions.mjs sets PTAX_DATA_DIR), so it
 * does not carry a chunk per state of the country; the hub's build (and development) gets
 * every state's (web/src/generated).
 */
export const dataDir = process.env.PTAX_DATA_DIR ?? fileURLToPath(new URL('src/generated', import.meta.url));

/** The hub's build (build-editions.mjs sets VITE_STATE before each edition's build). */
const fieldsGroup =
  process.env.VITE_STATE?.toUpperCase() === 'HUB'
    ? [
        {
          // A money field and what it reads with (the engine's cell reader, parseMoney, the
          // messages, the inputs' table, the formatters): the hub's state calculator needs
          // these on first load but not the engine, which loads when the visitor calculates
          // (issue 26). Before 'calculator', whose tests also match them. The hub's build only:
          // an edition's calculator loads them with the engine anyway, and as one chunk they are
          // 0.7 KB gzip less on NY's and TX's first load (measured 2026-11-27).
          name: 'fields',
          test: /engine[\\/](core[\\/](cells|money|messages|errors|types)|generated[\\/]inputs)\.ts|web[\\/]src[\\/](lib[\\/](format|places|parseValue)\.ts|components[\\/]MoneyInput\.tsx)/,
        },
      ]
    : [];

/**
 * An edition's browser build: es.ts gets the Spanish titles of the sources the edition's data
 * cites (written beside its data by build-editions.mjs) instead of every state's
 * (i18n/citations.es.ts, 7.7 KB gzip, issue 28). Not in the pre-render (its guides cite more)
 * nor in the hub's build, development or tests (no such file in their data folder).
 */
const editionCitations = join(dataDir, 'citations.es.js');
const citationsPlugin: Plugin = {
  name: 'ptax-edition-citations',
  enforce: 'pre',
  resolveId(source, importer, options) {
    if (options?.ssr || source !== './citations.es.js' || !importer || !/[\\/]i18n[\\/]es\.ts$/.test(importer)) return null;
    return existsSync(editionCitations) ? editionCitations : null;
  },
};

export default defineConfig({
  plugins: [citationsPlugin],
  root,
  base: '/',
  envDir: root,
  publicDir: 'public',
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  resolve: {
    alias: [
      { find: /^@ptax-data\//, replacement: `${dataDir}/` },
      // The form library's devtools bus, silent (lib/noDevtools.ts): the site ships no devtools.
      { find: /^@tanstack\/devtools-event-client$/, replacement: fileURLToPath(new URL('src/lib/noDevtools.ts', import.meta.url)) },
    ],
  },
  // The state data packages as `JSON.parse('…')`: V8 parses a JSON string faster than the same
  // object literal (issue 28: the Texas package is 160 KB of JavaScript on the calculator's load).
  json: { stringify: true, namedExports: false },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
  preview: { host: '127.0.0.1', proxy: { '/api': { target: 'http://127.0.0.1:8080' } } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // The state data packages are fetched as JSON files (lib/stateData.ts), never inlined as
    // data: URLs (the pages' CSP allows connect-src 'self' only); other assets as Vite decides.
    assetsInlineLimit: (file: string) => (file.endsWith('.json') ? false : undefined),
    // One small entry: jspdf, Sentry and each state's data are separate chunks loaded on demand.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      // "use client" directives in dependencies mean nothing without server components.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
      output: {
        // What every page loads first (React, i18next and the few small modules of the islands'
        // entry) as one chunk instead of some twenty small ones split out because lazy chunks
        // share them. Issue 28: only what every page runs before its islands; the engine, the
        // forms, the consent banner, the site pages, the calculator, the guides and the state
        // data are their own chunks, loaded by the islands (or the whole-page render) that use them.
        // `codeSplitting` is Rolldown's name for the deprecated `advancedChunks`, with the same
        // groups: the TX build's files (names with their content hashes) were the same after the rename.
        codeSplitting: {
          groups: [
            {
              name: 'first',
              test: /node_modules[\\/](react|react-dom|scheduler|i18next|react-i18next|html-parse-stringify|void-elements)[\\/]|web[\\/]src[\\/](islands|hydrateIslands|lib[\\/](storage|monitoring|config|edition|routes|telemetry[\\/](consent|store|i18n))\.ts|components[\\/](Toaster|ErrorBoundary|ErrorScreens|ConsentBanner|Forms|useSubmit)\.tsx?|i18n[\\/]index\.ts)/,
            },
            ...fieldsGroup,
            {
              // The calculator island and what it needs (the engine, the form, the results): one
              // chunk instead of some fifteen small ones, each a round trip on a slow phone line.
              name: 'calculator',
              test: /node_modules[\\/](@tanstack|use-sync-external-store)[\\/]|engine[\\/](core|index|generated)|web[\\/]src[\\/](lib[\\/](model|format|places|report|shareLink|stateData|generated|parseValue|programChunks)\.ts|components[\\/](CalculatorSection|HomeParts|Calculator|PropertyForm|Fields|calculatorForm|MoneyInput|ResultsCard|Skeletons|StateExtras|RatesTimeline|PlainExplanation|Charts)\.tsx?)/,
            },
          ],
        },
      },
      input: {
        main: fileURLToPath(new URL('index.html', import.meta.url)),
        es: fileURLToPath(new URL('es/index.html', import.meta.url)),
      },
    },
  },
});
