/**
 * The precompiled rules (JSON written by the build), read without YAML or schema work.
 *
 * The build writes the whole bundle (dist/rules/bundle.json, what the web build, the tests
 * and any reader given a path parse) and, for `ptax calc`'s start-up, the same bundle
 * without the counties (and counties metadata) of the county-level states (bundle-core.json)
 * beside one file of them per such state (counties/<CODE>.json). `readBundle()` with no path reads the
 * core and loads a county-level state's counties the first time they are asked for, so the
 * start-up does not grow with the number of states (issue 26 budget; README).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Bundle, StateDef } from '../core/types.js';

/** dist/rules/bundle.json, next to the compiled engine (dist/engine/…). */
export const BUNDLE_PATH = fileURLToPath(new URL('../../rules/bundle.json', import.meta.url));
/** The bundle without the county-level states' counties, read by `readBundle()`. */
export const CORE_BUNDLE_PATH = fileURLToPath(new URL('../../rules/bundle-core.json', import.meta.url));

type CoreBundle = Bundle & { countyFiles?: Record<string, string> };
/** What a county-level state's file holds: its counties and the counties file's metadata. */
type Lazy = Pick<StateDef, 'counties' | 'countiesMeta'>;

export function readBundle(path = BUNDLE_PATH): Bundle {
  if (path === BUNDLE_PATH && coreIsCurrent()) return readCore(CORE_BUNDLE_PATH);
  return JSON.parse(readFileSync(path, 'utf8')) as Bundle;
}

/** The core is used only when written with (or after) the whole bundle it was split from. */
function coreIsCurrent(): boolean {
  if (!existsSync(CORE_BUNDLE_PATH)) return false;
  return !existsSync(BUNDLE_PATH) || statSync(CORE_BUNDLE_PATH).mtimeMs >= statSync(BUNDLE_PATH).mtimeMs;
}

/** The core bundle, each county-level state's `counties` read from its file when first used. */
export function readCore(path: string): Bundle {
  const b = JSON.parse(readFileSync(path, 'utf8')) as CoreBundle;
  const dir = dirname(path);
  for (const [code, file] of Object.entries(b.countyFiles ?? {})) {
    let data: Lazy | undefined;
    const load = () => (data ??= JSON.parse(readFileSync(join(dir, file), 'utf8')) as Lazy);
    for (const key of ['counties', 'countiesMeta'] as const)
      Object.defineProperty(b.states[code]!, key, {
        enumerable: true,
        configurable: true,
        get: () => load()[key],
        set: (v: never) => {
          load()[key] = v;
        },
      });
  }
  delete b.countyFiles;
  return b;
}

/** Writes the whole bundle, the core and the county files (the build: scripts/build-rules.ts). */
export function writeBundle(bundle: Bundle, path = BUNDLE_PATH, corePath = CORE_BUNDLE_PATH): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(bundle));
  const dir = join(dirname(corePath), 'counties');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const countyFiles: Record<string, string> = {};
  const states: Bundle['states'] = {};
  for (const [code, s] of Object.entries(bundle.states)) {
    if (s.tier !== 'county') {
      states[code] = s;
      continue;
    }
    countyFiles[code] = `counties/${code}.json`;
    const { counties, countiesMeta, ...rest } = s;
    writeFileSync(join(dir, `${code}.json`), JSON.stringify({ counties, countiesMeta }));
    states[code] = { ...rest, counties: [] };
  }
  writeFileSync(corePath, JSON.stringify({ ...bundle, states, countyFiles }));
}
