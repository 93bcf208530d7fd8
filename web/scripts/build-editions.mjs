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
import { spawn } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { prerender } from './prerender.mjs';
import { compress, pruneCache } from './compress.mjs';

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
/** Spanish titles of the rules' sources (Node strips the module's types). */
const { CITATIONS_ES } = await import('../src/i18n/citations.es.ts');
/**
 * The data an edition's build holds (web/vite.config.ts `@ptax-data/`): its own state's
 * package and program chunk and the fallback state's, hard-linked into a folder of its own,
 * and its own words (editions.json with its entry and the hub's, whose phrases are the
 * fallback of lib/editionText.ts editionVars; issue 28: not the other editions' phrases in
 * every edition's first chunk); the hub's build holds every state's (its state pages, its
 * cards of the editions).
 */
function dataDirOf(code) {
  if (bundle.states[code]?.tier === 'hub') return generated;
  const dir = join(generated, 'editions', code);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const all = JSON.parse(readFileSync(join(generated, 'editions.json'), 'utf8'));
  writeFileSync(join(dir, 'editions.json'), `${JSON.stringify(all.filter((e) => e.code === code || e.tier === 'hub'))}\n`);
  let text = '';
  for (const [kind, ext] of [
    ['states', 'json'],
    ['programs', 'js'],
  ]) {
    mkdirSync(join(dir, kind), { recursive: true });
    for (const c of new Set([code, FALLBACK])) {
      const from = join(generated, kind, `${c}.${ext}`);
      if (!existsSync(from)) continue;
      linkSync(from, join(dir, kind, `${c}.${ext}`));
      if (kind === 'states' && c === code) text = readFileSync(from, 'utf8');
    }
  }
  // The Spanish titles of the sources its own package cites (web/vite.config.ts gives es.ts this
  // module instead of i18n/citations.es.ts in an edition's browser build): the titles of the
  // other states are 6 KB gzip of every Spanish page's first load (issue 28). Where the edition
  // falls back to the Texas package, its titles show in English, marked lang="en" (lib/citations.ts).
  const own = CITATIONS_ES.filter(([title]) => text.includes(JSON.stringify(title)));
  writeFileSync(
    join(dir, 'citations.es.js'),
    `// Written by web/scripts/build-editions.mjs: i18n/citations.es.ts's titles that ${code}'s build cites.\nexport const CITATIONS_ES = ${JSON.stringify(own)};\n`,
  );
  return dir;
}

// Every edition at once (no VITE_STATE): one child process per edition (this script with
// VITE_STATE set), as many at a time as the machine has cores (PTAX_BUILD_JOBS to choose; 1:
// one after the other in this process), the hub first: its ~5,700 pages are the longest. One
// after the other, a core stood idle while each Vite build waited on itself (build 154 s on
// two cores, issue 26's build budget); each child writes only its own web/dist/<edition>
// and web/src/generated/editions/<edition>.
const jobs = Math.min(Number(process.env.PTAX_BUILD_JOBS) || availableParallelism(), editions.length);
const started = Date.now();
if (!only && jobs > 1) {
  const queue = [...editions].sort((a, b) => Number(b === 'HUB') - Number(a === 'HUB'));
  const one = (code) =>
    new Promise((done, failed) => {
      const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], { env: { ...process.env, VITE_STATE: code }, stdio: 'inherit' });
      child.on('error', failed);
      child.on('exit', (rc, signal) => (rc === 0 ? done() : failed(new Error(`web: the ${code} build failed (${signal ?? `exit ${rc}`})`))));
    });
  try {
    await Promise.all(
      Array.from({ length: jobs }, async () => {
        for (let code = queue.shift(); code; code = queue.shift()) await one(code);
      }),
    );
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
  // The compressed copies this build did not use (assets no edition has any more).
  pruneCache(started);
  console.log(`web: built ${editions.join(', ')} -> ${dist}/<edition> (${jobs} at a time)`);
  process.exit(0);
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
else pruneCache(started);
console.log(`web: built ${editions.join(', ')} -> ${dist}/<edition>`);
