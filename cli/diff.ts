/**
 * `ptax rules diff <base> [<head>]`: what a rule change does, before it is merged.
 *
 * Each side's rules/ and schemas/ are read at that git ref (`git archive`, into a
 * temporary folder) or, for the default head, from the working tree; each side is loaded
 * and checked by the loader exactly as `ptax validate` would. Both bundles then run on the
 * current engine (this ptax), so the report shows what the rules change, not the code.
 *
 * Golden fixtures are read from the head only: the report answers "what does this change
 * do to the cases the merged tree will test"; a change that adds a state brings its
 * fixtures along; and since the very same input runs under both bundles, an edited
 * fixture input cannot pass for a rule change. Each changed figure shows what the head's
 * fixture expects, so a reviewer sees whether the fixtures were updated with the rules.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Calculator } from '../engine/node.js';
import { PtaxError } from '../engine/node.js';
import type { Bundle, Reference } from '../engine/node.js';
import { compareBundles, type RuleChanges, type ValueChange } from './diff-rules.js';
import { buildGrid, GRID_DESCRIPTION } from './diff-grid.js';
import { diffFixtures, diffGrid, type FieldChange, type FixtureFile, type Leaf, type ResultDiff } from './diff-results.js';
import { guidesMarkdown, guidesMoved, guidesText, type GuideMove } from './diff-guides.js';

/** The grid reports these fields unless --fields says otherwise (errors always). */
export const GRID_FIELDS = ['annualTax', 'year', 'program', 'notes'];

export interface Side {
  ref: string;
  commit: string | null;
  label: string;
}
export interface DiffReport {
  base: Side;
  head: Side;
  fixturesFrom: string;
  rules: RuleChanges;
  fixtures: ResultDiff;
  grid: ResultDiff & { fields: string[] | 'all' };
  warnings: string[];
  /** Guide pages (web/content of the working tree) that quote a changed figure. */
  guides?: GuideMove[];
}

export interface DiffOptions {
  /** The folder inside the git repository to work in (default: the current directory). */
  cwd?: string;
  /** Report only these result fields (fixtures and grid); default every field for fixtures, GRID_FIELDS for the grid; 'all': every field for both. */
  fields?: string[] | 'all';
}

/** An error of the diff: one line (`message`), and the loader's problems when rules fail to load. */
export class DiffError extends PtaxError {
  constructor(
    message: string,
    readonly lines: string[] = [],
  ) {
    super('DIFF', message);
  }
}

function git(repo: string, args: string[]): string {
  try {
    return execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    const first =
      String(err.stderr ?? '')
        .trim()
        .split('\n')[0] || err.message.split('\n')[0];
    throw new DiffError(`git ${args[0]} failed: ${first}`);
  }
}

export function repoRoot(cwd: string): string {
  try {
    return execFileSync('git', ['-C', cwd, 'rev-parse', '--show-toplevel'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch {
    throw new DiffError(`${cwd} is not inside a git repository: rules diff compares git refs`);
  }
}

export function resolveRef(repo: string, ref: string): string {
  try {
    return execFileSync('git', ['-C', repo, 'rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  } catch {
    throw new DiffError(`unknown git ref "${ref}" (a branch, tag or commit of ${repo})`);
  }
}

/** Writes rules/, schemas/ and fixtures/ (those that exist) of a commit into `dir`. */
function extract(repo: string, commit: string, ref: string, dir: string): void {
  const present = git(repo, ['ls-tree', '--name-only', commit, '--', 'rules', 'schemas', 'fixtures']).split('\n').filter(Boolean);
  for (const need of ['rules', 'schemas']) if (!present.includes(need)) throw new DiffError(`${ref} has no ${need}/ folder`);
  const tar = join(dir, '.tree.tar');
  git(repo, ['archive', '--format=tar', '-o', tar, commit, '--', ...present]);
  try {
    execFileSync('tar', ['-xf', tar, '-C', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (e) {
    throw new DiffError(
      `cannot unpack ${ref}: ${
        String((e as { stderr?: string }).stderr ?? '')
          .trim()
          .split('\n')[0]
      }`,
    );
  } finally {
    rmSync(tar, { force: true });
  }
}

async function loadSide(root: string, label: string): Promise<Bundle> {
  const { loadRules } = await import('../engine/node.js');
  const { formatProblem } = await import('../engine/node.js');
  const r = loadRules('rules', { root });
  if (!r.bundle) throw new DiffError(`the rules at ${label} do not load: ${r.total} problem(s)`, r.problems.map(formatProblem));
  return r.bundle;
}

async function readHeadFixtures(root: string, warnings: string[]): Promise<FixtureFile[]> {
  if (!existsSync(join(root, 'fixtures'))) {
    warnings.push('no fixtures/ folder: no fixture is compared');
    return [];
  }
  const { fixtureFiles, readFixtures } = await import('../engine/node.js');
  const out: FixtureFile[] = [];
  for (const file of fixtureFiles(['fixtures'], root)) {
    const { cases, problems } = readFixtures(file, root);
    for (const p of problems) warnings.push(`fixture skipped: ${p}`);
    if (cases.length) out.push({ file, cases });
  }
  return out;
}

/** The whole comparison. `head` undefined: the working tree. Throws DiffError on a bad ref or rules that fail to load. */
export async function rulesDiff(baseRef: string, headRef: string | undefined, options: DiffOptions = {}): Promise<DiffReport> {
  const repo = repoRoot(options.cwd ?? process.cwd());
  const baseCommit = resolveRef(repo, baseRef);
  const headCommit = headRef === undefined ? null : resolveRef(repo, headRef);
  const short = (c: string) => c.slice(0, 7);
  const base: Side = { ref: baseRef, commit: baseCommit, label: `${baseRef} (${short(baseCommit)})` };
  const head: Side =
    headCommit === null
      ? { ref: 'working tree', commit: null, label: 'the working tree' }
      : { ref: headRef!, commit: headCommit, label: `${headRef} (${short(headCommit)})` };
  const tmp = mkdtempSync(join(tmpdir(), 'ptax-diff-'));
  const warnings: string[] = [];
  try {
    const baseDir = join(tmp, 'base');
    execFileSync('mkdir', ['-p', baseDir]);
    extract(repo, baseCommit, baseRef, baseDir);
    let headDir = repo;
    if (headCommit !== null) {
      headDir = join(tmp, 'head');
      execFileSync('mkdir', ['-p', headDir]);
      extract(repo, headCommit, headRef!, headDir);
    } else {
      for (const need of ['rules', 'schemas']) if (!existsSync(join(repo, need))) throw new DiffError(`the working tree has no ${need}/ folder`);
    }
    const baseBundle = await loadSide(baseDir, base.label);
    const headBundle = await loadSide(headDir, head.label);
    const fixtures = await readHeadFixtures(headDir, warnings);
    const report = compareLoaded(baseBundle, headBundle, fixtures, { base, head, warnings, fields: options.fields });
    report.guides = guidesMoved(report.rules, join(repo, 'web', 'content'), headBundle);
    return report;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The comparison of two loaded bundles (no git): rule changes, fixtures and grid. */
export function compareLoaded(
  baseBundle: Bundle,
  headBundle: Bundle,
  fixtures: FixtureFile[],
  meta: { base: Side; head: Side; warnings?: string[]; fields?: string[] | 'all' },
): DiffReport {
  const rules = compareBundles(baseBundle, headBundle);
  const baseCalc = new Calculator(baseBundle),
    headCalc = new Calculator(headBundle);
  const changedCounties = [...new Set(rules.counties.map((c) => c.id))].map((id) => {
    const [countiesId, slug] = id.split(':') as [string, string];
    const state =
      Object.values(headBundle.states).find((s) => s.countiesId === countiesId) ?? Object.values(baseBundle.states).find((s) => s.countiesId === countiesId)!;
    return { state: state.code, slug };
  });
  const only = Array.isArray(meta.fields) ? new Set(meta.fields) : undefined;
  const gridFields = meta.fields ?? GRID_FIELDS;
  return {
    base: meta.base,
    head: meta.head,
    fixturesFrom: meta.head.label,
    rules,
    fixtures: diffFixtures(baseCalc, headCalc, fixtures, only),
    grid: {
      ...diffGrid(baseCalc, headCalc, buildGrid(baseCalc, headCalc, changedCounties), gridFields === 'all' ? undefined : new Set(gridFields)),
      fields: gridFields,
    },
    warnings: meta.warnings ?? [],
  };
}

// ---------------------------------------------------------------- output

const numFmt = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });
export const fmtNumber = (x: number) => numFmt.format(x).replace(/^-/, '-');
const signed = (d: number | null) => (d === null ? '' : d > 0 ? `+${fmtNumber(d)}` : fmtNumber(d));
const leaf = (x: Leaf | undefined) =>
  x === undefined ? '—' : typeof x === 'number' ? fmtNumber(x) : x === null ? 'null' : typeof x === 'string' ? (x === '' ? '""' : x) : String(x);
const refs = (r: Reference[]) => r.map((x) => `${x.title} <${x.href}>`).join('; ');
const mdRefs = (r: Reference[]) => r.map((x) => `[${mdCell(x.title)}](${x.href})`).join('; ');
const mdCell = (s: string) => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const valueOld = (v: ValueChange) => (v.old === null ? '—' : v.oldEffective ? `${v.old} (from ${v.oldEffective})` : v.old);

function expects(c: FieldChange): string {
  if (c.expected === undefined) return '';
  const want = c.expected;
  const ok = typeof want === 'number' && typeof c.new === 'number' ? Math.abs(want - c.new) <= 0.01 + 1e-9 : want === c.new;
  return `${typeof want === 'number' ? fmtNumber(want) : String(want)} ${ok ? '✓' : '✗'}`;
}

function counts(r: DiffReport): string[] {
  const n = r.rules;
  const range = (d: ResultDiff) => {
    const diffs = d.changes.filter((c) => c.field === 'annualTax' && c.difference !== null).map((c) => c.difference!);
    return diffs.length ? ` (annualTax ${signed(Math.min(...diffs))} … ${signed(Math.max(...diffs))})` : '';
  };
  return [
    `parameter values: ${n.values.length} changed or added or removed; county rates: ${n.counties.length}; other entry changes: ${n.meta.length}`,
    `parameters added: ${n.parametersAdded.join(', ') || 'none'}; removed: ${n.parametersRemoved.join(', ') || 'none'}`,
    `programs added: ${n.programsAdded.join(', ') || 'none'}; removed: ${n.programsRemoved.join(', ') || 'none'}; definition changes: ${n.definitions.length}`,
    ...(n.statesAdded.length || n.statesRemoved.length
      ? [`states added: ${n.statesAdded.join(', ') || 'none'}; removed: ${n.statesRemoved.join(', ') || 'none'}`]
      : []),
    `fixtures (read from ${r.fixturesFrom}): ${r.fixtures.changedCases} of ${r.fixtures.total} cases changed${range(r.fixtures)}`,
    `grid: ${r.grid.changedCases} of ${r.grid.total} sample properties changed${range(r.grid)}`,
    `the grid: ${GRID_DESCRIPTION}`,
  ];
}

/** Rows of a results section, at most `limit` (0: all), and how many were left out. */
function limited<T>(rows: T[], limit: number): { rows: T[]; more: number } {
  return !limit || rows.length <= limit ? { rows, more: 0 } : { rows: rows.slice(0, limit), more: rows.length - limit };
}

export function formatText(r: DiffReport, limit = 0): string {
  const L: string[] = [`ptax rules diff: ${r.base.label} → ${r.head.label}`, ...counts(r).map((s) => `  ${s}`)];
  const values = (title: string, list: ValueChange[]) => {
    if (!list.length) return;
    L.push('', title);
    for (const v of list) {
      L.push(`  ${v.id} — ${v.label} (${v.unit}) · ${v.file}`);
      L.push(`    ${v.change} entry effective ${v.effective}: ${valueOld(v)} → ${v.new ?? '—'}${v.difference !== null ? ` (${signed(v.difference)})` : ''}`);
      L.push(`    citation: ${refs(v.citation)}${v.lastVerified ? `; last verified ${v.lastVerified}` : ''}`);
      if (v.oldCitation) L.push(`    was cited: ${refs(v.oldCitation)}`);
    }
  };
  values('Parameter values', r.rules.values);
  values('County rates', r.rules.counties);
  // A last_verified date moves when a person has checked the entry against its source.
  const verified = r.rules.meta.filter((m) => m.what === 'last_verified');
  const other = r.rules.meta.filter((m) => m.what !== 'last_verified');
  if (verified.length) {
    L.push('', 'Checked against the source (last_verified)');
    for (const m of verified) L.push(`  ${m.id}${m.effective ? ` ${m.effective}` : ''}: last verified ${m.old} → ${m.new}`);
  }
  if (other.length) {
    L.push('', 'Other entry changes (same value)');
    for (const m of other) L.push(`  ${m.id}${m.effective ? ` ${m.effective}` : ''} ${m.what}: ${m.old} → ${m.new}`);
  }
  if (r.rules.definitions.length) {
    L.push('', 'Programs and states');
    for (const d of r.rules.definitions) L.push(`  ${d.id} ${d.part} (${d.change}):`, `    - ${d.old ?? '—'}`, `    + ${d.new ?? '—'}`);
  }
  const results = (title: string, d: ResultDiff, withExpected: boolean) => {
    if (!d.changes.length) return;
    L.push('', title);
    const { rows, more } = limited(d.changes, limit);
    let last = '';
    for (const c of rows) {
      if (c.label !== last) {
        L.push(`  ${c.label}`);
        last = c.label;
      }
      const exp = withExpected ? expects(c) : '';
      L.push(
        `    ${c.field}: ${leaf(c.old)} → ${leaf(c.new)}${c.difference !== null ? ` (${signed(c.difference)})` : ''}${exp ? `   fixture expects ${exp}` : ''}`,
      );
    }
    if (more) L.push(`  … ${more} more changed field(s) (--limit 0 shows all, --fields annualTax only the annual tax)`);
  };
  results(`Fixture results (inputs from ${r.fixturesFrom})`, r.fixtures, true);
  results(`Grid results (fields: ${r.grid.fields === 'all' ? 'all' : [...r.grid.fields, 'error'].join(', ')})`, r.grid, false);
  if (
    !r.rules.values.length &&
    !r.rules.counties.length &&
    !r.rules.meta.length &&
    !r.rules.definitions.length &&
    !r.fixtures.changes.length &&
    !r.grid.changes.length
  ) {
    L.push('', 'No rule changes.');
  }
  L.push(...guidesText(r.guides));
  for (const w of r.warnings) L.push(`warning: ${w}`);
  return L.join('\n');
}

export function formatMarkdown(r: DiffReport, limit = 100): string {
  const L: string[] = [`### Rule changes: ${mdCell(r.base.label)} → ${mdCell(r.head.label)}`, '', ...counts(r).map((s) => `- ${mdCell(s)}`)];
  const table = (title: string, head: string[], rows: string[][], more = 0) => {
    if (!rows.length) return;
    L.push('', `#### ${title}`, '', `| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`);
    for (const row of rows) L.push(`| ${row.join(' | ')} |`);
    if (more) L.push('', `… ${more} more row(s): \`--limit 0\` shows all, \`--fields annualTax\` only the annual tax.`);
  };
  const valueRows = (list: ValueChange[]) =>
    list.map((v) => [
      `\`${v.id}\` ${mdCell(v.label)}`,
      v.effective,
      v.change,
      mdCell(valueOld(v)),
      mdCell(v.new ?? '—'),
      signed(v.difference),
      mdRefs(v.citation) + (v.oldCitation ? ` (was: ${mdRefs(v.oldCitation)})` : ''),
      v.lastVerified ?? '',
    ]);
  const vHead = ['rule', 'effective', 'change', 'old', 'new', 'difference', 'citation', 'last verified'];
  table('Parameter values', vHead, valueRows(r.rules.values));
  table('County rates', vHead, valueRows(r.rules.counties));
  table(
    'Other entry changes (same value)',
    ['rule', 'effective', 'what', 'old', 'new'],
    r.rules.meta.map((m) => [`\`${m.id}\``, m.effective ?? '', m.what, mdCell(m.old), mdCell(m.new)]),
  );
  table(
    'Programs and states',
    ['rule', 'part', 'change', 'old', 'new'],
    r.rules.definitions.map((d) => [
      `\`${d.id}\``,
      mdCell(d.part),
      d.change,
      d.old === null ? '—' : `\`${mdCell(d.old)}\``,
      d.new === null ? '—' : `\`${mdCell(d.new)}\``,
    ]),
  );
  const res = (d: ResultDiff, withExpected: boolean) => {
    const { rows, more } = limited(d.changes, limit);
    return {
      rows: rows.map((c) => [
        mdCell(c.label),
        `\`${c.field}\``,
        mdCell(leaf(c.old)),
        mdCell(leaf(c.new)),
        signed(c.difference),
        ...(withExpected ? [expects(c)] : []),
      ]),
      more,
    };
  };
  const f = res(r.fixtures, true);
  table(
    `Fixture results (${r.fixtures.changedCases} of ${r.fixtures.total} cases)`,
    ['case', 'field', 'old', 'new', 'difference', 'fixture expects'],
    f.rows,
    f.more,
  );
  const g = res(r.grid, false);
  table(`Grid results (${r.grid.changedCases} of ${r.grid.total} sample properties)`, ['property', 'field', 'old', 'new', 'difference'], g.rows, g.more);
  L.push(...guidesMarkdown(r.guides));
  if (r.warnings.length) L.push('', ...r.warnings.map((w) => `> warning: ${mdCell(w)}`));
  return L.join('\n');
}

export function formatJson(r: DiffReport): string {
  return JSON.stringify(r, (_, v) => (v === undefined ? null : v), 2);
}

/** The command line's `ptax rules diff`: options as commander gives them; returns the report to print. */
export async function diffCommand(
  base: string,
  head: string | undefined,
  o: { format?: string; json?: boolean; fields?: string; limit?: string },
): Promise<string> {
  const format = o.json ? 'json' : (o.format ?? 'text');
  if (!['text', 'markdown', 'json'].includes(format)) throw new DiffError(`--format must be text, markdown or json (got "${format}")`);
  let limit: number | undefined;
  if (o.limit !== undefined) {
    if (!/^\d+$/.test(o.limit.trim())) throw new DiffError(`--limit takes a whole number of rows, 0 for all (got "${o.limit}")`);
    limit = Number(o.limit);
  }
  const list = o.fields
    ?.split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const fields = list?.length === 1 && list[0] === 'all' ? 'all' : list?.length ? list : undefined;
  const report = await rulesDiff(base, head, { fields });
  return format === 'json' ? formatJson(report) : format === 'markdown' ? formatMarkdown(report, limit ?? 100) : formatText(report, limit ?? 0);
}
