/**
 * The `ptax` command line, started by cli/main.ts (the entry: Node version check, compile
 * cache). `calc` runs on the precompiled rules (dist/rules/bundle.json); validate, test and rules load the YAML themselves and are imported only when asked for.
 * Every error is one line on stderr and exit code 2 (1 for failed checks); with --json
 * an error object is printed on stdout as well. Never a stack trace.
 */
import type { Command, Option, OptionValues } from 'commander';
import { existsSync, lstatSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Calculator, inputFromFlags } from '../engine/node.js';
// The rules compiled ahead of time (dist/rules/js), used by every Calculator while they match the rules.
import '../engine/codegen/node.js';
import { BUNDLE_PATH, readBundle } from '../engine/node.js';
import { PtaxError, isPtaxError } from '../engine/node.js';
import { localized } from '../engine/node.js';
import { declaredInputs, type Bundle, type GeneratedInput, type Lang } from '../engine/node.js';
import { choiceFlags, numericFlags, parseDate, parseYear } from './parse.js';
import { formatCalculator, formatExplanation, formatResult, loadTexts } from './format.js';
import { allWritten, onStdoutError, out, readerStopped } from './stdout.js';
import { INPUTS } from '../engine/node.js';

/** The repository (or installed package) root: dist/cli/main.js → ../.. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * commander, loaded by buildProgram: `ptax calc` of one property does not use it (calcArgs),
 * and its code (a third of the entry chunk) is then neither run nor read (issue 23).
 */
let commander: typeof import('commander') | undefined;

let jsonErrors = false;
/** Set when `ptax calc` of one property has written its result (run: nothing is left to do). */
let calculated = false;
/** The language of messages, as --lang asks (read from the arguments: an error can come before the command's options are parsed). */
let messageLang: Lang = 'en';

function fail(code: string, message: string, exit = 2): never {
  if (jsonErrors) out(JSON.stringify({ error: { code, message } }) + '\n');
  process.stderr.write(`ptax: ${message}\n`);
  process.exit(exit);
}

/**
 * `ptax validate <file>` for a rule file outside rules/ (a copy being edited, a file sent in):
 * it is checked with the rules, as the build would check it (schema, rule language, every
 * cross-reference), in a temporary copy of the repository's layout: in place of
 * rules/<folder>/<name> when the file's folder and name match a rule file (an edited copy of
 * rules/ny/calculation.yaml kept in some ny/ folder), else as a new file beside them. Its
 * `$schema` comment is pointed at the schemas for the check (it was written for where the file
 * lives); lines and columns are the file's own. Prints problems as file:line:col, or ok.
 */
async function validateOutside(file: string): Promise<boolean> {
  const { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { listYaml, loadRules } = await import('../engine/node.js');
  const { formatProblem } = await import('../engine/node.js');
  const absolute = resolve(file);
  const rules = listYaml(join(ROOT, 'rules'), ROOT);
  const inPlaceOf = `rules/${basename(dirname(absolute))}/${basename(absolute)}`;
  const target = rules.includes(inPlaceOf) ? inPlaceOf : `rules/checked/${basename(absolute)}`;
  let text = '';
  try {
    text = readFileSync(absolute, 'utf8');
  } catch (e) {
    fail('UNREADABLE', `validate: ${file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const tmp = mkdtempSync(join(tmpdir(), 'ptax-validate-'));
  try {
    symlinkSync(join(ROOT, 'schemas'), join(tmp, 'schemas'), 'dir');
    for (const f of rules) {
      if (f === target) continue;
      mkdirSync(dirname(join(tmp, f)), { recursive: true });
      symlinkSync(join(ROOT, f), join(tmp, f));
    }
    mkdirSync(dirname(join(tmp, target)), { recursive: true });
    const lines = text.split('\n');
    lines[0] = lines[0]!.replace(/^(# yaml-language-server: \$schema=)\S*\/([\w-]+\.schema\.json)(\s*)$/, '$1../../schemas/$2$3');
    writeFileSync(join(tmp, target), lines.join('\n'));
    const { problems, total } = loadRules('rules', { root: tmp });
    for (const p of problems)
      process.stderr.write(formatProblem({ ...p, file: p.file === target ? file : p.file, message: p.message.split(target).join(file) }) + '\n');
    const how = target === inPlaceOf ? `in place of ${inPlaceOf}` : 'as a new file beside rules/';
    if (total > 0) {
      process.stderr.write(`${total} problem(s) (${file} checked with the rules, ${how})\n`);
      return false;
    }
    out(`ok: ${file} (checked with the rules, ${how})\n`);
    return true;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * `--rules <path>` (any command): the rules to use instead of the repository's: a built
 * bundle (a bundle.json file, or a folder holding one, with its generated programs in js/
 * beside it), or a rules folder (its YAML, checked as the build checks it; the schemas are
 * read from the folder beside it, ../schemas, as the files' $schema lines say).
 */
let rulesPath: string | undefined;
let rulesBundle: Bundle | undefined;

/**
 * The rules every command reads: those --rules names, or the repository's. A built bundle
 * is read (engine/build/bundle.ts: a state and a program at a time) unless its rules folder
 * has a rule file newer than it (the repository's rules/ after an edit); else the YAML itself.
 * With `state` (`ptax calc` of one property), the folders of the other states
 * (rules/<two letters>/) are not looked at: their files do not change that state's figures,
 * and looking at every file's time would make start-up grow with the number of states (~21 ms
 * for 47 more states' folders; issue 23).
 */
async function bundle(state?: string): Promise<Bundle> {
  if (rulesPath === undefined) return readRules(BUNDLE_PATH, join(ROOT, 'rules'), state);
  if (rulesBundle) return rulesBundle;
  const abs = resolve(rulesPath);
  if (!existsSync(abs)) fail('UNREADABLE', `--rules: ${rulesPath}: no such file or folder`);
  const file = statSync(abs).isDirectory() ? join(abs, 'bundle.json') : abs;
  return (rulesBundle = await (existsSync(file) ? readRules(file) : readRules(undefined, abs)));
}

/** The bundle `file` (its generated programs in js/ beside it) while no YAML file of `rulesDir` is newer; else `rulesDir`'s YAML. */
async function readRules(file: string | undefined, rulesDir?: string, state?: string): Promise<Bundle> {
  if (file !== undefined && existsSync(file) && (rulesDir === undefined || !rulesNewerThan(rulesDir, statSync(file).mtimeMs, state))) {
    if (file !== BUNDLE_PATH) {
      const js = join(dirname(file), 'js');
      const { nodeProgramSource } = await import('../engine/codegen/node.js');
      const { setProgramSource } = await import('../engine/node.js');
      setProgramSource(existsSync(js) ? nodeProgramSource(js) : undefined);
    }
    return readBundle(file);
  }
  const { loadRulesOrThrow } = await import('../engine/node.js');
  return loadRulesOrThrow(basename(rulesDir!), dirname(rulesDir!));
}

/**
 * The states with a calculator subcommand (`ptax <st> …`), lower case: the list the rules
 * build writes beside the bundle (scripts/build-rules.ts), a few bytes read at start-up.
 * Without a build there is none (`ptax calc` still works from the YAML).
 */
function calculatorStates(): string[] {
  try {
    const list = JSON.parse(readFileSync(join(dirname(BUNDLE_PATH), 'calculator-states.json'), 'utf8')) as unknown;
    return Array.isArray(list) ? list.filter((c): c is string => typeof c === 'string' && /^[a-z]{2,3}$/.test(c)) : [];
  } catch {
    return [];
  }
}

/**
 * Whether a YAML file under `dir` (its folders included, a symbolic link to a folder not
 * followed) is newer than `t`; with `state`, the other states' folders (rules/<two letters>/)
 * are not looked at. Names, then lstat: a listing with file types makes an object per entry
 * (rules/ holds ~60), and path.join normalises each path again; this way costs about a third
 * (~4.5 → ~1.8 M instructions for `ptax calc`'s look; issue 23). A top-level entry named
 * like another state's folder is skipped whatever it is: were it a file, it would not end in
 * .yaml either.
 */
function rulesNewerThan(dir: string, t: number, state?: string): boolean {
  if (!existsSync(dir)) return false;
  const own = typeof state === 'string' ? state.trim().toLowerCase() : undefined;
  const walk = (d: string, top: boolean): boolean => {
    for (const name of readdirSync(d)) {
      if (top && own !== undefined && name !== own && /^[a-z]{2}$/.test(name)) continue;
      const path = d + sep + name;
      const s = lstatSync(path);
      if (s.isDirectory()) {
        if (walk(path, false)) return true;
      } else if (name.endsWith('.yaml') && (s.isSymbolicLink() ? statSync(path) : s).mtimeMs > t) return true;
    }
    return false;
  };
  return walk(normalize(dir), true);
}

type Input = GeneratedInput;

/** An input's commander option, from rules/inputs.yaml: flag, value placeholder by type, help and default. */
function inputOption(x: Input): Option {
  const values = 'values' in x ? (x.values as ReadonlyArray<string | number>) : undefined;
  const arg =
    x.type === 'boolean'
      ? ''
      : x.type === 'date'
        ? ' <yyyy-mm-dd>'
        : x.type === 'choice'
          ? ` <${values!.join('|')}>`
          : values
            ? ` <${values.length > 4 ? [values[0], values[1], '…', values.at(-1)].join('|') : values.join('|')}>`
            : ` <${x.unit === 'usd' ? 'dollars' : x.unit === 'percent' ? 'percent' : x.unit === 'year' ? 'year' : 'n'}>`;
  const shown = 'default' in x && typeof x.default === 'number' && x.id !== 'veteranDisability' ? ` (default ${x.default})` : '';
  // No commander default: an option given is one the user wrote (batch mode refuses those).
  return new commander!.Option(`--${x.flag}${arg}`, `${x.help}${shown}`);
}

/** The declarations the flags are made from: the built-in ones (engine/generated/inputs.ts), or those of the rules --rules names. */
let INPUT_DECLS: readonly Input[] = INPUTS as unknown as readonly Input[];

/**
 * The options of `ptax calc` to define for `argv` (issue 23: making an option costs ~0.1 M
 * instructions, and calc has ~32): when every argument that starts with a dash is one of
 * calc's own long options (`--value` or `--value=…`), only those and --lang (which has a
 * default) are defined. Commander reads the arguments the same way then: an option not
 * named in them sets nothing, and none has a default but --lang. Anything else (help, an
 * unknown or misspelt option, whose message suggests the nearest of all, `-`, `--`): all of
 * them. (An option's value that starts with a dash, `--county --value`, is taken as an option
 * here: defining one more changes nothing.)
 */
function calcOptionsNeeded(options: ReadonlyArray<[string, () => Option]>, argv: readonly string[] | undefined): ReadonlyArray<[string, () => Option]> {
  if (argv === undefined) return options;
  const known = new Set(options.map(([flag]) => flag));
  const named = new Set(['--lang']);
  for (const a of argv.slice(3)) {
    if (!a.startsWith('-')) continue;
    const flag = a.startsWith('--') && a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    if (!known.has(flag)) return options;
    named.add(flag);
  }
  return options.filter(([flag]) => named.has(flag));
}

/** `ptax calc`: what commander's options `o` ask for (one property, or a batch). */
async function calcAction(o: OptionValues): Promise<void> {
  jsonErrors = !!o.json;
  if (
    o.batch !== undefined ||
    o.batchFormat !== undefined ||
    o.out !== undefined ||
    o.strict !== undefined ||
    o.engine !== undefined ||
    o.db !== undefined ||
    o.table !== undefined
  ) {
    const { calcBatch } = await import('./batch.js');
    return calcBatch(o, async () => new Calculator(await bundle()));
  }
  if (o.state === undefined) fail('USAGE', "required option '--state <code>' not specified");
  if (o.county === undefined) fail('USAGE', "required option '--county <name>' not specified");
  const calc = new Calculator(await bundle(o.state));
  const input = inputFromFlags(
    { ...(o as { state: string; county: string }), ...choiceFlags(o, INPUT_DECLS), ...numericFlags(o, INPUT_DECLS) },
    o.year === undefined ? undefined : parseYear(o.year),
    calc.bundle,
  );
  const r = calc.calculate(input, { explain: !!o.explain, lang: o.lang as Lang });
  if (o.json) out(JSON.stringify(r, null, 2) + '\n');
  else {
    if (o.lang !== 'en') await loadTexts(o.lang as Lang);
    out(
      formatResult(
        r,
        input,
        calc.bundle.programs[r.program]?.label[o.lang as Lang],
        calc.bundle.programs[r.program],
        () => calc.bundle.results,
        o.lang as Lang,
      ) + '\n',
    );
    if (o.explain) out(formatExplanation(r, o.lang as Lang, calc.bundle.programs[r.program], o.lang === 'en' ? undefined : calc.bundle.parameters) + '\n');
  }
  calculated = true;
}

/**
 * `ptax calc` of one property without commander (issue 23: defining the program, the
 * command and its options and parsing with commander is ~4 M instructions of a start, and
 * commander's code compiled for it is in the entry chunk's code cache): the options object
 * commander would hand to calc's action for `argv`, when the arguments are of the shape read
 * here, else undefined (then commander reads them, as before: help, a misspelt or unknown
 * option with its suggestion, a missing value, an argument, a batch, `--lang` other than en
 * or es, `-`, `--`, ...). The shape: after `calc`, only calc's own long options for one
 * property (--state, --county, the inputs' flags, --lang, --json, --explain), each as
 * `--flag value` or `--flag=value` (a value not starting with a dash) when it takes a value,
 * or bare when it is a boolean. The object is the one commander builds: --lang's default
 * first, then each option in the order given (a repeated one keeps its first place and its
 * last value), named by commander's camel case of the flag.
 */
export function calcArgs(argv: readonly string[], inputs: readonly Input[] = INPUT_DECLS): Record<string, string | boolean> | undefined {
  if (argv[2] !== 'calc') return undefined;
  /** flag → whether it takes a value */
  const takesValue = new Map<string, boolean>([
    ['--state', true],
    ['--county', true],
    ['--lang', true],
    ['--json', false],
    ['--explain', false],
  ]);
  for (const x of inputs) if (x.states.length > 0) takesValue.set(`--${x.flag}`, x.type !== 'boolean');
  const o: Record<string, string | boolean> = { lang: 'en' };
  for (let i = 3; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf('=');
    const flag = eq === -1 ? a : a.slice(0, eq);
    const value = takesValue.get(flag);
    // (A flag named --no-… would be a negation for commander: none of calc's is read here.)
    if (value === undefined || !flag.startsWith('--') || flag.startsWith('--no-')) return undefined;
    let v: string | boolean = true;
    if (value) {
      v = eq === -1 ? argv[++i]! : a.slice(eq + 1);
      if (v === undefined || v === '' || v.startsWith('-')) return undefined;
    } else if (eq !== -1) return undefined;
    if (flag === '--lang' && v !== 'en' && v !== 'es') return undefined;
    o[
      flag
        .slice(2)
        .split('-')
        .reduce((s, w) => s + w[0]!.toUpperCase() + w.slice(1))
    ] = v;
  }
  return o;
}

/** The commands besides the states' calculators (`ptax tx …`). */
const COMMANDS = ['calc', 'counties', 'states', 'validate', 'test', 'rules'];

/**
 * The command line. With `only` (the command the arguments start with: `ptax calc …`), that
 * command alone is defined: building the others' options (~120, most of them the state
 * calculators') is a large part of a `ptax calc` start (issue 23). Commander reads a
 * command's arguments with that command's options and the program's own, so what it parses,
 * prints and refuses is the same. Without `only` (help, an unknown command, an option before
 * the command), every command is defined.
 */
export async function buildProgram(only?: string, argv?: readonly string[]): Promise<Command> {
  commander ??= await import('commander');
  const { Command, Option } = commander;
  const wanted = (name: string) => only === undefined || only === name;
  /** The inputs of `ptax calc`: those a state's main calculation reads. */
  const CALC_INPUTS = INPUT_DECLS.filter((x) => x.states.length > 0);
  /** States with specialised calculators (named by the inputs they read). */
  const CALCULATOR_STATES = new Set(INPUT_DECLS.flatMap((x) => x.calculators.map((k) => k.split('.')[0]!.toUpperCase())));
  /**
   * The inputs of the calculator subcommands (every state's takes the same): those a
   * calculator reads, and those the main calculation of a state with calculators reads (a
   * comparison runs it; `--year` picks the rules' year).
   */
  const CALCULATOR_INPUTS = INPUT_DECLS.filter((x) => x.calculators.length > 0 || x.states.some((s) => CALCULATOR_STATES.has(s)));
  const program = new Command('ptax')
    .description('Property-tax estimator: rules as data, explained step by step')
    .version(`0.1.0 (node ${process.version})`)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      outputError: (str, write) => {
        // Commander may add a suggestion on a second line: keep it, on the same line.
        const line = str
          .trim()
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean)
          .join(' ')
          .replace(/^error: /, '');
        if (jsonErrors) out(JSON.stringify({ error: { code: 'USAGE', message: line } }) + '\n');
        write(`ptax: ${line}\n`);
      },
    });

  if (wanted('calc')) {
    const calc = program.command('calc').description('estimate the property tax of one property');
    // calc's options in their order, each made when it is defined (below).
    const options: Array<[flag: string, make: () => Option]> = [
      [
        '--state',
        () => new Option('--state <code>', 'the state: its code or name, e.g. TX, OH, "New Jersey" (ptax states lists them; required without --batch)'),
      ],
      ['--county', () => new Option('--county <name>', 'county name, "X County", or slug; "New York City" for NYC (required without --batch)')],
      ...CALC_INPUTS.map((x): [string, () => Option] => [`--${x.flag}`, () => inputOption(x)]),
      ['--lang', () => new Option('--lang <lang>', 'language of labels and messages').choices(['en', 'es']).default('en')],
      ['--json', () => new Option('--json', 'print the result as one JSON object')],
      ['--explain', () => new Option('--explain', 'show each step with its rule and citation')],
      ['--batch', () => new Option('--batch <file>', 'a CSV or NDJSON file (- for standard input): one property per row, columns named like the flags')],
      ['--batch-format', () => new Option('--batch-format <format>', 'the batch format when the file name does not tell').choices(['csv', 'ndjson'])],
      ['--out', () => new Option('--out <file>', 'batch output file (default: standard output)')],
      ['--strict', () => new Option('--strict', 'batch: exit 1 if any row is bad (every row is still written)')],
      [
        '--engine',
        () =>
          new Option('--engine <engine>', 'batch: node (streaming, the default), duckdb (in process, CSV or Parquet, all cores) or postgres (--db)').choices([
            'node',
            'duckdb',
            'postgres',
          ]),
      ],
      ['--db', () => new Option('--db <url>', 'batch with --engine postgres: the connection string (postgres://user@host:port/db)')],
      ['--table', () => new Option('--table <name>', 'batch with --engine postgres: read this table instead of loading the file')],
    ];
    // (`ptax calc …` only: with every command defined, the arguments may not start with calc's.)
    for (const [, make] of calcOptionsNeeded(options, only === 'calc' ? argv : undefined)) calc.addOption(make());
    calc.action(calcAction);
  }

  if (wanted('counties')) {
    program
      .command('counties')
      .description('list the counties of a state with their rates')
      .requiredOption('--state <code>', 'the state: its code or name (ptax states lists them)')
      .addOption(new Option('--lang <lang>', 'language of the last line and of messages').choices(['en', 'es']).default('en'))
      .option('--json', 'print JSON')
      .action(async (o) => {
        jsonErrors = !!o.json;
        const state = new Calculator(await bundle()).state(o.state);
        const rows = state.counties.map((c) => ({ name: c.name, slug: c.slug, fips: c.fips, rate: c.rates.at(-1)?.value ?? null, flags: c.flags }));
        if (o.json) {
          out(JSON.stringify({ state: state.code, counties: rows, aliases: state.aliases.map((a) => a.name) }, null, 2) + '\n');
          return;
        }
        const w = Math.max(...rows.map((r) => r.name.length));
        for (const r of rows)
          out(
            `${r.name.padEnd(w)}  ${r.rate === null ? '   —   ' : r.rate.toFixed(4) + '%'}  ${r.slug}${r.flags.length ? '  [' + r.flags.join(', ') + ']' : ''}\n`,
          );
        out(
          `${(await loadTexts(o.lang as Lang)).counties(
            rows.length,
            state.aliases.map((a) => a.name),
          )}\n`,
        );
      });
  }

  if (wanted('states')) {
    program
      .command('states')
      .description('list every state with its tier (edition, county level, hub) and its number of counties')
      .addOption(new Option('--lang <lang>', 'language of the names').choices(['en', 'es']).default('en'))
      .option('--json', 'print JSON')
      .action(async (o) => {
        jsonErrors = !!o.json;
        const lang = o.lang as Lang;
        const all = Object.values((await bundle()).states);
        // The hub last; the states by code.
        const states = [...all.filter((s) => s.tier !== 'hub').sort((a, b) => a.code.localeCompare(b.code)), ...all.filter((s) => s.tier === 'hub')];
        const rows = states.map((s) => ({ code: s.code, name: s.name[lang], slug: s.slug ?? null, tier: s.tier, counties: s.counties.length }));
        if (o.json) {
          out(JSON.stringify({ states: rows }, null, 2) + '\n');
          return;
        }
        const TIER: Record<string, Record<Lang, string>> = {
          edition: { en: 'edition', es: 'edición' },
          county: { en: 'county level', es: 'nivel de condado' },
          hub: { en: 'hub', es: 'portal' },
        };
        const w = Math.max(...rows.map((r) => r.name.length));
        for (const r of rows) out(`${r.code.padEnd(4)}${r.name.padEnd(w)}  ${TIER[r.tier]![lang].padEnd(16)}${String(r.counties).padStart(4)}\n`);
        const count = (t: string) => rows.filter((r) => r.tier === t).length;
        const n = rows.reduce((a, r) => a + r.counties, 0);
        out(
          lang === 'es'
            ? `${rows.length - count('hub')} estados y territorios (${count('edition')} ediciones, ${count('county')} a nivel de condado) y el portal; ${n} condados\n`
            : `${rows.length - count('hub')} states and territories (${count('edition')} editions, ${count('county')} at county level) and the hub; ${n} counties\n`,
        );
      });
  }

  if (wanted('validate')) {
    program
      .command('validate')
      .description('check rule files against the schemas and the rule language; file:line:col for each problem')
      .argument('[paths...]', 'rule files or folders to report on (all are loaded)')
      .option('--stale <date>', 'also list every value last verified before this date (YYYY-MM-DD); exit 1 if any')
      .option('--strict-sources', 'exit 1 when a citation is not a primary source (docs/sources.md), for CI')
      .action(async (paths: string[], o: { stale?: string; strictSources?: boolean }) => {
        // A path that does not exist, or a folder outside rules/, cannot be validated: say so
        // (exit 2). A file outside rules/ is validated with the rules (validateOutside).
        const outside: string[] = [];
        for (const p of paths) {
          if (!existsSync(p)) fail('NOT_FOUND', `validate: ${p}: no such file or folder`);
          const rel = relative(join(ROOT, 'rules'), resolve(p));
          if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) continue;
          if (statSync(p).isDirectory()) fail('NOT_A_RULE_FILE', `validate: ${p} is a folder outside rules/; give its rule files one by one`);
          outside.push(p);
        }
        if (outside.length) {
          if (outside.length !== paths.length) fail('MIXED_PATHS', 'validate: give rule files under rules/, or files outside it, not both at once');
          if (o.stale !== undefined) fail('STALE_OUTSIDE', 'validate: --stale reads the rules folder; it cannot be used with files outside rules/');
          let failed = false;
          for (const file of outside) failed = !(await validateOutside(file)) || failed;
          process.exit(failed ? 1 : 0);
        }
        const stale = o.stale === undefined ? undefined : await import('./stale.js');
        const before = stale?.parseDate(o.stale!);
        const { loadRules } = await import('../engine/node.js');
        const { formatProblem } = await import('../engine/node.js');
        const loaded = loadRules('rules', { only: paths, root: ROOT });
        const { bundle: b, warnings } = loaded;
        // Descriptions repeating a figure (lint) are problems here, not for rules diff.
        const problems = [...loaded.problems, ...loaded.lint];
        const total = loaded.total + loaded.lint.length;
        for (const p of problems) process.stderr.write(formatProblem(p) + '\n');
        if (problems.length || !b) {
          const elsewhere = total - problems.length;
          process.stderr.write(
            `${problems.length} problem(s)${elsewhere ? `; ${elsewhere} more in other rule files (run ptax validate without paths)` : ''}\n`,
          );
          process.exit(1);
        }
        out(`ok: ${Object.keys(b.parameters).length} parameters, ${Object.keys(b.programs).length} programs, ${Object.keys(b.states).length} state(s)\n`);
        // Citations that are not primary sources: warnings, an error with --strict-sources.
        for (const w of warnings) process.stderr.write(formatProblem(w) + '\n');
        if (warnings.length) process.stderr.write(`${warnings.length} warning(s)${o.strictSources ? '' : ' (--strict-sources makes them errors)'}\n`);
        if (o.strictSources && warnings.length) process.exit(1);
        if (stale && before) {
          const list = stale.staleEntries(b, ROOT, before, paths);
          out(stale.formatStale(list, before) + '\n');
          if (list.length) process.exit(1);
        }
      });
  }

  if (wanted('test')) {
    program
      .command('test')
      .description('run golden fixtures; prints a diff for each failure and "N passed, N failed"')
      .argument('[paths...]', 'fixture files or folders (default: fixtures/)')
      .action(async (paths: string[]) => {
        const { loadRulesOrThrow } = await import('../engine/node.js');
        const { fixtureFiles, readFixtures, runCase } = await import('../engine/node.js');
        const calc = new Calculator(rulesPath !== undefined ? await bundle() : loadRulesOrThrow('rules', ROOT));
        let passed = 0,
          failed = 0;
        for (const file of fixtureFiles(paths, process.cwd())) {
          const { cases, problems } = readFixtures(file, process.cwd());
          for (const p of problems) {
            out(`FAIL ${p}\n`);
            failed++;
          }
          for (const c of cases) {
            const r = runCase(calc, file, c);
            if (r.ok) passed++;
            else {
              failed++;
              out(`FAIL ${file}: ${c.name}\n${r.diffs.map((d) => `  - ${d}`).join('\n')}\n`);
            }
          }
        }
        out(`${passed} passed, ${failed} failed\n`);
        if (failed) process.exit(1);
      });
  }

  // Specialised calculators of each state (`ptax tx payment`, `ptax ca prop13`, `ptax fl tax-shock`, …):
  // the state file lists them; every one takes the same flags and reads those it needs. The
  // states that have a subcommand come from the rules build (calculator-states.json beside the bundle).
  for (const code of (only === undefined || !COMMANDS.includes(only) ? calculatorStates() : []).filter(wanted)) {
    const sub = program
      .command(code)
      .description(`${code.toUpperCase()} calculators (run \`ptax ${code} list\` to see them)`)
      .argument('<calculator>', 'calculator name, or "list"')
      .option('--county <name>', 'county, where the calculator needs one');
    for (const x of CALCULATOR_INPUTS) sub.addOption(inputOption(x));
    sub
      .addOption(new Option('--lang <lang>', 'language of labels and messages').choices(['en', 'es']).default('en'))
      .option('--json', 'print the result as one JSON object')
      .option('--explain', 'show each step with its rule and citation')
      .action(async (name: string, o) => {
        jsonErrors = !!o.json;
        const calc = new Calculator(await bundle());
        const state = calc.state(code);
        const t = await loadTexts(o.lang as Lang);
        if (name === 'list') {
          const list = state.calculators.map((k) => ({
            name: k.name,
            label: k.label[o.lang as Lang],
            description: typeof k.description === 'string' ? k.description : k.description[o.lang as Lang],
            county: k.county,
          }));
          if (o.json) out(JSON.stringify(list, null, 2) + '\n');
          else if (!list.length) out(`${t.noCalculators(state.code)}\n`);
          else out(list.map((k) => `${k.name.padEnd(12)} ${k.label}${k.county ? t.needsCounty : ''}\n    ${k.description}`).join('\n') + '\n');
          return;
        }
        const k = calc.calculatorOf(code, name);
        const today = new Date();
        const date = o.date === undefined ? { year: today.getFullYear(), month: today.getMonth() + 1, day: today.getDate() } : parseDate(o.date);
        const input = inputFromFlags(
          {
            ...o,
            state: code,
            county: o.county ?? '',
            ...numericFlags(o, INPUT_DECLS),
            paymentYear: date.year,
            paymentMonth: date.month,
            paymentDay: date.day,
          },
          o.year === undefined ? undefined : parseYear(o.year),
          calc.bundle,
        );
        const r = calc.run(k.name, input, { explain: !!o.explain, lang: o.lang as Lang });
        if (o.json) out(JSON.stringify(r, null, 2) + '\n');
        else {
          out(formatCalculator(r, calc.bundle.programs[r.program], k.label[o.lang as Lang], calc.bundle.results, o.lang as Lang, k) + '\n');
          if (o.explain && r.explanation)
            out(formatExplanation(r, o.lang as Lang, calc.bundle.programs[r.program], o.lang === 'en' ? undefined : calc.bundle.parameters) + '\n');
        }
      });
  }

  if (wanted('rules')) {
    const rules = program.command('rules').description('read the rules');
    rules
      .command('show')
      .description(
        "show a parameter (its value for a year and every dated value with citation and last_verified), a county's rate history, a counties file, a program or a step",
      )
      .argument('<id>', 'e.g. ny.nyc.tax_rate, ny.counties:kings (or NY:Kings), ny.counties, ny.nyc, ny.nyc.baseTax')
      .option('--year <year>', 'the year whose value to show')
      .option('--json', 'print JSON')
      .action(async (id: string, o) => {
        jsonErrors = !!o.json;
        const { showRule } = await import('./show.js');
        out(showRule(await bundle(), id, o.year === undefined ? undefined : parseYear(o.year), !!o.json) + '\n');
      });
    rules
      .command('sql')
      .description('the rules as one SQL query over a table ptax_input of batch columns, giving the batch output columns')
      .option('--state <code>', 'only this state (default: every state)')
      .option('--year <year>', 'only this rules year')
      .addOption(new Option('--dialect <dialect>', 'SQL dialect').choices(['duckdb', 'postgres']).default('duckdb'))
      .action(async (o) => {
        const { loadSqlGenerator } = await import('../engine/node.js');
        const { generateSql } = await loadSqlGenerator();
        out(generateSql(await bundle(), { state: o.state, year: o.year === undefined ? undefined : parseYear(o.year), dialect: o.dialect }) + ';\n');
      });
    rules
      .command('diff')
      .description(
        'what a rule change does: every changed value with its citation, then the golden fixtures and a grid of sample properties computed under both sides',
      )
      .argument('<base>', 'git ref of the rules before (branch, tag, commit)')
      .argument('[head]', 'git ref of the rules after (default: the working tree)')
      .option('--format <format>', 'text, markdown (tables to paste in a pull request) or json', 'text')
      .option('--json', 'same as --format json')
      .option(
        '--fields <paths>',
        'result fields to report, comma-separated, or "all" (default: every field for fixtures; annualTax, year, program, notes for the grid)',
      )
      .option('--limit <n>', 'at most n rows per results table, 0 for all (default: 0 for text and json, 100 for markdown)')
      .action(async (base: string, head: string | undefined, o) => {
        jsonErrors = !!o.json || o.format === 'json';
        const { diffCommand, DiffError } = await import('./diff.js');
        try {
          out((await diffCommand(base, head, o)) + '\n');
        } catch (e) {
          // Exit 1 on any error of the diff (bad ref, rules that do not load): the loader's problems first, then one line.
          if (e instanceof DiffError) for (const l of e.lines) process.stderr.write(l + '\n');
          fail(isPtaxError(e) ? e.code : 'INTERNAL', (e as Error).message, 1);
        }
      });
  }
  return program;
}

export async function main(argv: string[]): Promise<void> {
  jsonErrors = argv.includes('--json');
  const at = argv.lastIndexOf('--lang');
  messageLang = argv[at + 1] === 'es' || argv.includes('--lang=es') ? 'es' : 'en';
  // --rules <path>, for any command: taken out before commander reads the rest, whose flags
  // are then made from those rules' declarations.
  const r = argv.findIndex((a, i) => i >= 2 && (a === '--rules' || a.startsWith('--rules=')));
  if (r !== -1) {
    const given = argv[r]!.startsWith('--rules=') ? argv[r]!.slice('--rules='.length) : argv[r + 1];
    if (given === undefined || given === '') fail('USAGE', "option '--rules <path>' argument missing");
    argv = [...argv.slice(0, r), ...argv.slice(argv[r]!.startsWith('--rules=') ? r + 1 : r + 2)];
    rulesPath = given;
  }
  try {
    if (rulesPath !== undefined) INPUT_DECLS = declaredInputs(await bundle());
  } catch (e) {
    if (isPtaxError(e)) fail(e.code, `--rules: ${e.message.split('\n')[0]}`, e.code === 'RULES_INVALID' ? 1 : 2);
    throw e;
  }
  const first = argv[2];
  // `ptax calc` of one property, its arguments of the shape calcArgs reads: without commander.
  const fast = rulesPath === undefined ? calcArgs(argv) : undefined;
  const program =
    fast === undefined
      ? await buildProgram(first !== undefined && (COMMANDS.includes(first) || calculatorStates().includes(first)) ? first : undefined, argv)
      : undefined;
  try {
    await (program === undefined ? calcAction(fast!) : program.parseAsync(argv));
  } catch (e) {
    if (commander !== undefined && e instanceof commander.CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') process.exit(0);
      process.exit(e.exitCode === 0 ? 0 : 2);
    }
    if (isPtaxError(e)) {
      const m = localized(e, messageLang);
      fail(m.code, m.message, e.code === 'RULES_INVALID' ? 1 : 2);
    }
    fail('INTERNAL', `internal error: ${(e as Error)?.message ?? String(e)}`, 1);
  }
}

/** The command line as the entry (cli/main.ts) starts it, once the Node version is checked. */
export async function run(): Promise<void> {
  // A reader that stopped early (`ptax counties --state TX | head`): stop too, quietly.
  onStdoutError((e) => {
    if (readerStopped(e)) process.exit(0);
    fail('UNWRITABLE', `Cannot write the output: ${e.message}`, 2);
  });
  await main(process.argv);
  // `ptax calc` of one property: its output is written (synchronously, unless process.stdout
  // was made) and nothing else is pending. Ending here spares the work that would still run
  // as the event loop winds down: a minor garbage collection V8 had scheduled (~2 M
  // instructions, issue 23). The 'exit' handlers run as on any exit.
  if (calculated && allWritten()) process.exit();
}
export { PtaxError };
