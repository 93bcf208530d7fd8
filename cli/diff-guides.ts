/**
 * Which guide pages a rule change moves (`ptax rules diff`, issue 13). The guides in
 * web/content/ never type a figure: they quote parameters and the state profiles' deadlines
 * through placeholders (web/scripts/build-guides.mjs). Reading those placeholders gives, for
 * each parameter id and profile entry, the pages that show it; a changed value, deadline or
 * program year then names the pages to re-read before merging.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import type { Bundle } from '../engine/node.js';
import type { RuleChanges } from './diff-rules.js';

/** The same syntax as web/scripts/build-guides.mjs: `{{format:ref}}`. */
const PLACEHOLDER = /\{\{\s*([a-z]+)\s*:\s*([^}\s]+)\s*\}\}/g;
/** The editions with content: web/content's folders that hold an edition.yaml, as codes (HUB, NY, TX, …). */
const editionsIn = (contentDir: string): string[] =>
  existsSync(contentDir)
    ? readdirSync(contentDir)
        .filter((d) => existsSync(join(contentDir, d, 'edition.yaml')))
        .sort()
        .map((d) => d.toUpperCase())
    : [];
const FAQ_PATHS = { en: '/faq', es: '/es/preguntas-frecuentes' };

export interface GuidePage {
  edition: string;
  id: string;
  kind: 'guide' | 'faq' | 'glossary';
  title: string;
  paths: { en: string; es: string };
  /** The content file, relative to the repository. */
  file: string;
}

/** A page and what moved it: parameter ids, or `<STATE> deadline.<slug>` / `due.<slug>` / `stat.<name>`. */
export interface GuideMove extends GuidePage {
  because: string[];
}

/** The key of a placeholder reference: `param:<id>`, or `<EDITION>:deadline.<slug>` for the edition's profile. */
export function refKey(edition: string, ref: string): string {
  const prof = /^(deadline|due|stat)\.[a-z0-9_-]+$/.exec(ref);
  if (prof) return `${edition}:${ref}`;
  return `param:${ref.replace(/\[.*$/, '').replace(/@.*$/, '').replace(/;.*$/, '')}`;
}

function* strings(x: unknown): Generator<string> {
  if (typeof x === 'string') yield x;
  else if (Array.isArray(x)) for (const v of x) yield* strings(v);
  else if (x && typeof x === 'object') for (const v of Object.values(x)) yield* strings(v);
}

function yamlFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? yamlFiles(p) : f.endsWith('.yaml') ? [p] : [];
    });
}

/** Every page of web/content and the references its texts make: key → pages. */
export function guideIndex(contentDir: string, repo = join(contentDir, '..', '..')): Map<string, GuidePage[]> {
  const index = new Map<string, GuidePage[]>();
  for (const edition of editionsIn(contentDir)) {
    const dir = join(contentDir, edition.toLowerCase());
    if (!existsSync(join(dir, 'edition.yaml'))) continue;
    const files = [...yamlFiles(join(dir, 'guides')), join(dir, 'glossary.yaml'), join(dir, 'faq.yaml')].filter((f) => existsSync(f));
    for (const file of files) {
      const doc = parse(readFileSync(file, 'utf8')) as Record<string, unknown> | null;
      if (!doc) continue;
      const faq = file.endsWith('faq.yaml');
      const kind = faq ? 'faq' : file.endsWith('glossary.yaml') ? 'glossary' : 'guide';
      const title = (doc.title as { en?: string } | undefined)?.en ?? (faq ? 'FAQ' : String(doc.id));
      const page: GuidePage = {
        edition,
        kind,
        title,
        file: relative(repo, file),
        id: String(doc.id ?? (faq ? 'faq' : file)),
        paths: faq ? FAQ_PATHS : (doc.paths as { en: string; es: string }),
      };
      const keys = new Set<string>();
      for (const s of strings(doc)) for (const m of s.matchAll(PLACEHOLDER)) keys.add(refKey(edition, m[2]!));
      for (const k of keys) {
        const list = index.get(k) ?? [];
        list.push(page);
        index.set(k, list);
      }
    }
  }
  return index;
}

const slugOf = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Profile entries (deadlines, due dates) whose date or note changed, as `deadline.<slug>` keys. */
function profileKeys(part: string, old: string | null, nu: string | null): string[] {
  const kind = part === 'profile deadlines' ? 'deadline' : part === 'profile due_dates' ? 'due' : part === 'profile stats' ? 'stat' : null;
  if (!kind) return [];
  const read = (s: string | null): unknown => {
    try {
      return s === null ? null : JSON.parse(s);
    } catch {
      return null;
    }
  };
  if (kind === 'stat') {
    const a = (read(old) ?? {}) as Record<string, unknown>,
      b = (read(nu) ?? {}) as Record<string, unknown>;
    return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k])).map((k) => `stat.${k}`);
  }
  type Entry = { label: { en: string } };
  const byslug = (v: unknown) => new Map(((v ?? []) as Entry[]).map((e) => [slugOf(e.label.en), JSON.stringify(e)]));
  const a = byslug(read(old)),
    b = byslug(read(nu));
  return [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k)).map((k) => `${kind}.${k}`);
}

/**
 * The guide pages that a set of rule changes moves. `head` (optional) lets a change of a
 * program's years or period count for every parameter the program uses, since guides quote
 * the value in force for the program's latest year.
 */
export function guidesMoved(changes: RuleChanges, contentDir: string, head?: Pick<Bundle, 'programs'>): GuideMove[] {
  if (!existsSync(contentDir)) return [];
  const index = guideIndex(contentDir);
  const moved = new Map<string, GuideMove>();
  const hit = (key: string, because: string) => {
    for (const p of index.get(key) ?? []) {
      const k = `${p.edition} ${p.id}`;
      const m = moved.get(k) ?? { ...p, because: [] };
      if (!m.because.includes(because)) m.because.push(because);
      moved.set(k, m);
    }
  };
  for (const v of changes.values) {
    const id = v.id.replace(/\[.*$/, '');
    hit(`param:${id}`, id);
  }
  for (const id of [...changes.parametersAdded, ...changes.parametersRemoved]) hit(`param:${id}`, id);
  for (const d of changes.definitions) {
    const state = /^state ([A-Z]+)$/.exec(d.id);
    if (state) {
      for (const key of profileKeys(d.part, d.old, d.new)) hit(`${state[1]}:${key}`, `${state[1]} ${key}`);
      continue;
    }
    if ((d.part === 'years' || d.part === 'period') && head?.programs[d.id]) {
      for (const id of Object.values(head.programs[d.id]!.parameters)) hit(`param:${id}`, `${id} (program ${d.id} ${d.part})`);
    }
  }
  return [...moved.values()].sort((a, b) => a.edition.localeCompare(b.edition) || a.paths.en.localeCompare(b.paths.en));
}

/** The text report's section (nothing when no page moved). */
export function guidesText(moves: GuideMove[] | undefined): string[] {
  if (!moves?.length) return [];
  return [
    '',
    `Guide pages moved (${moves.length}; re-read them, figures come from the rules)`,
    ...moves.map((m) => `  ${m.edition} ${m.paths.en} (${m.id}, ${m.file}): ${m.because.join(', ')}`),
  ];
}

/** The markdown report's section. */
export function guidesMarkdown(moves: GuideMove[] | undefined): string[] {
  if (!moves?.length) return [];
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  return [
    '',
    `#### Guide pages moved (${moves.length})`,
    '',
    '| edition | page | Spanish | because |',
    '|---|---|---|---|',
    ...moves.map((m) => `| ${m.edition} | \`${m.paths.en}\` ${cell(m.title)} | \`${m.paths.es}\` | ${cell(m.because.map((b) => `\`${b}\``).join(', '))} |`),
  ];
}
