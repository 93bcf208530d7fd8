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
import { readFileSync, rmSync } from 'node:fs';
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
export const EDITIONS = editionsOf(JSON.parse(readFileSync(join(web, '..', 'dist', 'rules', 'bundle.json'), 'utf8')));
const dist = join(web, 'dist');
const only = process.env.VITE_STATE?.trim().toUpperCase();
if (only && !EDITIONS.includes(only)) {
  console.error(`web: VITE_STATE must be one of ${EDITIONS.join(', ')}, got "${process.env.VITE_STATE}"`);
  process.exit(2);
}
const editions = only ? [only] : EDITIONS;
if (!only) rmSync(dist, { recursive: true, force: true });

for (const code of editions) {
  const outDir = join(dist, code.toLowerCase());
  // import.meta.env.VITE_STATE of this build (Vite reads VITE_* from the environment).
  process.env.VITE_STATE = code;
  await build({ configFile: join(web, 'vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  await prerender(code, outDir);
  compress(outDir);
}
if (only) process.env.VITE_STATE = only;
console.log(`web: built ${editions.join(', ')} -> ${dist}/<edition>`);
