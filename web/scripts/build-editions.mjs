#!/usr/bin/env node
/**
 * Builds the editions of the web app: one Vite build per edition (NY, TX, CA, FL and the
 * hub), each into web/dist/<code>/ (lower case) with its English and Spanish pages, then
 * pre-renders each edition's pages and writes .br/.gz copies. The site server picks the
 * edition's folder by host name (web/server/README.md).
 *
 * `VITE_STATE=TX` builds that edition only (development); the others in web/dist stay.
 * Usage: node web/scripts/build-editions.mjs
 */
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { prerender } from './prerender.mjs';
import { compress } from './compress.mjs';

const web = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** The editions: the states of the rules with a site of their own (tier edition), then the hub (dist/rules/bundle.json). */
export function editionsOf(bundle) {
  const states = Object.values(bundle.states);
  return [...states.filter((s) => s.tier === 'edition'), ...states.filter((s) => s.tier === 'hub')].map((s) => s.code);
}
const bundle = JSON.parse(readFileSync(join(web, '..', 'dist', 'rules', 'bundle.json'), 'utf8'));
export const EDITIONS = editionsOf(bundle);
const dist = join(web, 'dist');
const only = process.env.VITE_STATE?.trim().toUpperCase();
if (only && !EDITIONS.includes(only)) {
  console.error(`web: VITE_STATE must be one of ${EDITIONS.join(', ')}, got "${process.env.VITE_STATE}"`);
  process.exit(2);
}
const editions = only ? [only] : EDITIONS;
if (!only) rmSync(dist, { recursive: true, force: true });

/** The state whose package an edition loads when its own fails (web/src/lib/stateData.ts FALLBACK_STATE). */
const FALLBACK = /FALLBACK_STATE = '([A-Z]+)'/.exec(readFileSync(join(web, 'src/lib/stateData.ts'), 'utf8'))[1];
const generated = join(web, 'src', 'generated');
/**
 * The data an edition's build holds (web/vite.config.ts `@ptax-data/`): its own state's
 * package and program chunk and the fallback state's, hard-linked into a folder of its own;
 * the hub's build holds every state's (its state pages).
 */
function dataDirOf(code) {
  if (bundle.states[code]?.tier === 'hub') return generated;
  const dir = join(generated, 'editions', code);
  rmSync(dir, { recursive: true, force: true });
  for (const [kind, ext] of [
    ['states', 'json'],
    ['programs', 'js'],
  ]) {
    mkdirSync(join(dir, kind), { recursive: true });
    for (const c of new Set([code, FALLBACK])) {
      const from = join(generated, kind, `${c}.${ext}`);
      if (existsSync(from)) linkSync(from, join(dir, kind, `${c}.${ext}`));
    }
  }
  return dir;
}

for (const code of editions) {
  const outDir = join(dist, code.toLowerCase());
  process.env.PTAX_DATA_DIR = dataDirOf(code);
  // import.meta.env.VITE_STATE of this build (Vite reads VITE_* from the environment).
  process.env.VITE_STATE = code;
  await build({ configFile: join(web, 'vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  await prerender(code, outDir);
  compress(outDir);
}
if (only) process.env.VITE_STATE = only;
console.log(`web: built ${editions.join(', ')} -> ${dist}/<edition>`);
