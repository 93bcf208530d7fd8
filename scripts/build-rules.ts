/**
 * Validates every rule file and writes dist/rules/bundle.json, the precompiled rules that
 * `ptax calc` reads on its hot path (no YAML parsing or schema work at run time), and
 * brings engine/generated/ (inputs and result fields, from rules/inputs.yaml and
 * rules/results.yaml) up to date: the source and, as tsc ran before, its compiled copy
 * in dist/.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { loadRules } from '../engine/node.js';
import { formatProblem } from '../engine/node.js';
import { BUNDLE_PATH, programHash, writeBundle } from '../engine/node.js';
import { generatedSources } from '../engine/node.js';
import { generateAll, lowerAll } from '../engine/node.js';

// Arguments (both optional): a rules folder other than rules/ (its schemas beside it, in
// ../schemas, as its files' $schema lines say) and the folder to write bundle.json and js/
// into. Another folder's bundle leaves engine/generated/ alone: the run time reads the
// declarations from the bundle.
const [rulesArg, outArg] = process.argv.slice(2);
const rulesAbs = resolve(rulesArg ?? 'rules');
const own = rulesArg === undefined || rulesAbs === resolve('rules');
const { bundle, problems } = own ? loadRules('rules') : loadRules(basename(rulesAbs), { root: dirname(rulesAbs) });
if (!bundle) {
  for (const p of problems) console.error(formatProblem(p));
  console.error(`${problems.length} problem(s) in the rule files; nothing was built`);
  process.exit(1);
}
const bundlePath = outArg === undefined ? BUNDLE_PATH : join(resolve(outArg), 'bundle.json');
mkdirSync(dirname(bundlePath), { recursive: true });
// The whole bundle, and its split (a file per state and per program, with the programs' hashes) that `ptax calc` reads (engine/build/bundle.ts).
writeBundle(bundle, bundlePath, programHash);
// The states that get a calculator subcommand (`ptax tx payment`, `ptax ny list`): those with
// specialised calculators and the full editions. The CLI reads this small list at start-up
// to declare its commands, instead of a hand list or the whole bundle (issue 26).
const calculatorStates = Object.values(bundle.states)
  .filter((s) => s.calculators.length > 0 || s.tier === 'edition')
  .map((s) => s.code.toLowerCase())
  .sort();
writeFileSync(join(dirname(bundlePath), 'calculator-states.json'), `${JSON.stringify(calculatorStates)}\n`);
const n = Object.keys(bundle.parameters).length;
console.log(`rules: ${n} parameters, ${Object.keys(bundle.programs).length} programs, ${Object.keys(bundle.states).length} state(s) → ${bundlePath}`);

// dist/rules/bundle.json → the repository (or package) root is two folders up.
const root = join(dirname(BUNDLE_PATH), '..', '..');
for (const g of own ? generatedSources(bundle) : []) {
  const src = join(root, g.path);
  if (!existsSync(src) || readFileSync(src, 'utf8') !== g.ts) {
    writeFileSync(src, g.ts);
    console.log(`rules: ${g.path} regenerated from the declarations`);
  }
  const out = join(root, 'dist', g.path.replace(/\.ts$/, '.js'));
  mkdirSync(dirname(out), { recursive: true });
  if (!existsSync(out) || readFileSync(out, 'utf8') !== g.js) writeFileSync(out, g.js);
}

// The rules compiled ahead of time: one JavaScript module per program and year
// (engine/codegen/js.ts), next to the bundle, each with the hash of the rules it was made
// from; the engine uses a module only while that hash matches (engine/codegen/node.ts).
const jsDir = join(dirname(bundlePath), 'js');
rmSync(jsDir, { recursive: true, force: true });
mkdirSync(jsDir, { recursive: true });
const { modules, skipped } = generateAll(bundle);
for (const m of modules) writeFileSync(join(jsDir, m.file), m.source);
for (const s of skipped) console.log(`rules: not generated (the interpreter runs it): ${s}`);
console.log(`rules: ${modules.length} program modules generated → ${jsDir}`);
// The same programs lowered (engine/core/ir.ts), as the generators printed them, for a reviewer to read.
const ir = lowerAll(bundle);
writeFileSync(join(dirname(bundlePath), 'ir.json'), `${JSON.stringify(ir.programs)}\n`);
console.log(`rules: ${ir.programs.length} programs and years lowered → ${join(dirname(bundlePath), 'ir.json')}`);
