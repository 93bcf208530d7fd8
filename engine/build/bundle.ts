/** The precompiled rules (JSON written by the build), read without YAML or schema work. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Bundle } from '../core/types.js';

/** dist/rules/bundle.json, next to the compiled engine (dist/engine/…). */
export const BUNDLE_PATH = fileURLToPath(new URL('../../rules/bundle.json', import.meta.url));

export function readBundle(path = BUNDLE_PATH): Bundle {
  return JSON.parse(readFileSync(path, 'utf8')) as Bundle;
}
