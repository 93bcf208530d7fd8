/** Test helpers: the edition built from the compiled rules exactly as the app's data package is. */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Bundle } from '../../../engine/index.js';
// The build step's own function, so the test data is the same package the app loads.
// @ts-expect-error plain ES module without types
import { packageOf } from '../../scripts/build-data.mjs';
import { toBundle, type StatePackage } from '../lib/stateData.js';
import { makeEdition, type Edition } from '../lib/model.js';

export const fullBundle: Bundle = JSON.parse(readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../../dist/rules/bundle.json'), 'utf8'));

export function statePackage(code = 'NY'): StatePackage {
  return packageOf(fullBundle, code) as StatePackage;
}

export function nyEdition(): Edition {
  return makeEdition(toBundle(statePackage('NY')));
}
