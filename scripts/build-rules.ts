/**
 * Validates every rule file and writes dist/rules/bundle.json, the precompiled rules that
 * `ptax calc` reads on its hot path (no YAML parsing or schema work at run time).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { loadRules } from '../engine/load.js';
import { formatProblem } from '../engine/yaml-source.js';
import { BUNDLE_PATH } from '../engine/bundle.js';

const { bundle, problems } = loadRules('rules');
if (!bundle) {
  for (const p of problems) console.error(formatProblem(p));
  console.error(`${problems.length} problem(s) in the rule files; nothing was built`);
  process.exit(1);
}
mkdirSync(dirname(BUNDLE_PATH), { recursive: true });
writeFileSync(BUNDLE_PATH, JSON.stringify(bundle));
const n = Object.keys(bundle.parameters).length;
console.log(`rules: ${n} parameters, ${Object.keys(bundle.programs).length} programs, ${Object.keys(bundle.states).length} state(s) → ${BUNDLE_PATH}`);
