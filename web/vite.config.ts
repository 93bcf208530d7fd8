/**
 * Vite configuration of the web calculator. Root is web/, the production build goes to
 * web/dist (served by web/server), and in development /api is proxied to the site server.
 * Vite 8 transforms TSX itself with Oxc: the automatic React JSX runtime is set here, so no
 * React plugin is needed.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/',
  envDir: root,
  publicDir: 'public',
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
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
        // What every page loads first (React, i18next and the small shared modules of the page
        // frame) as one chunk instead of some twenty small ones split out because lazy chunks
        // share them: fewer requests and about 5-7 KB gzip less first-load JavaScript on every
        // page type (TX /es 170.5 -> 163.6 KB). Lazy parts (calculator, site pages, guides,
        // state data, PDF, telemetry) stay their own chunks.
        advancedChunks: {
          groups: [
            {
              name: 'first',
              test: /node_modules[\\/](react|react-dom|scheduler|i18next|react-i18next|html-parse-stringify|void-elements)[\\/]|web[\\/]src[\\/](lib[\\/](storage|places|monitoring|config|editionText|routes|shareLink|report|guides)\.ts|components[\\/](Toaster|Skeletons|ErrorBoundary|ErrorScreens|MoneyInput|Forms|useSubmit|ConsentBanner)\.tsx?|i18n[\\/]index\.ts)/,
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
