#!/usr/bin/env node
/**
 * The hub's list of states (issue 26), from the compiled rules (dist/rules/bundle.json):
 * web/src/generated/hub/states.json holds, for every state but the hub itself, its code,
 * names in both languages, slug, tier (edition: a full edition with its own site; county:
 * the shared county-level program on the hub's state pages) and county count, sorted by
 * English name. The hub's home page lists them (search by name in both languages) and the
 * pre-render makes a page for each county-tier state. Each state's own data stays in its
 * own package (build-data.mjs), loaded only on that state's pages.
 *
 * It also writes web/src/generated/editions.json: the editions with their own site (tier
 * edition) and the hub, each with its code, tier, names and the state file's `phrases` in
 * both languages (people, exemptions, authority, offers, where…), which the pages need
 * before a state's data has loaded (titles, the hub's cards).
 *
 * Usage: node web/scripts/build-hub-data.mjs [bundle.json] [out.json] [editions.json]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The summaries of the bundle's states, the hub left out. */
export function hubStates(bundle) {
  return Object.values(bundle.states)
    .filter((s) => (s.tier ?? (s.code === 'HUB' ? 'hub' : 'edition')) !== 'hub' && s.slug)
    .map((s) => ({ code: s.code, slug: s.slug, name: { en: s.name.en, es: s.name.es ?? s.name.en }, tier: s.tier ?? 'edition', counties: s.counties.length }))
    .sort((a, b) => a.name.en.localeCompare(b.name.en, 'en'));
}

/** The editions (tier edition, sorted by English name) and then the hub, with their phrases. */
export function editions(bundle) {
  const tierOf = (s) => s.tier ?? (s.code === 'HUB' ? 'hub' : 'edition');
  const list = Object.values(bundle.states).filter((s) => tierOf(s) !== 'county');
  const rank = (s) => (tierOf(s) === 'hub' ? 1 : 0);
  return list
    .sort((a, b) => rank(a) - rank(b) || a.name.en.localeCompare(b.name.en, 'en'))
    .map((s) => ({ code: s.code, tier: tierOf(s), name: { en: s.name.en, es: s.name.es ?? s.name.en }, phrases: s.phrases ?? {} }));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const bundlePath = resolve(process.argv[2] ?? join(repo, 'dist/rules/bundle.json'));
  const out = resolve(process.argv[3] ?? join(repo, 'web/src/generated/hub/states.json'));
  const editionsOut = resolve(process.argv[4] ?? join(repo, 'web/src/generated/editions.json'));
  const bundle = JSON.parse(readFileSync(bundlePath, 'utf8'));
  const states = hubStates(bundle);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(states)}\n`);
  const eds = editions(bundle);
  writeFileSync(editionsOut, `${JSON.stringify(eds)}\n`);
  console.log(`web editions: ${eds.map((e) => e.code).join(', ')} -> ${editionsOut}`);
  const county = states.filter((s) => s.tier === 'county');
  console.log(`web hub: ${states.length} states (${county.length} county-level, ${county.reduce((n, s) => n + s.counties, 0)} counties) -> ${out}`);
}
