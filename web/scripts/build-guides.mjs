#!/usr/bin/env node
/**
 * Builds the guide pages, FAQ and glossary of every edition from web/content/ and the
 * compiled rules (dist/rules/bundle.json): web/src/generated/guides/<edition>.json.
 *
 * Content never types a figure: a guide writes a placeholder, and the figure is read here
 * from the rule bundle, so a rule change changes the guide (and `ptax rules diff` lists
 * the pages it moves, cli/diff-guides.ts).
 *
 *   {{usd:tx.exemptions.homestead_school}}        $140,000 (the value in force, see below)
 *   {{usd:tx.exemptions.homestead_school;prev}}   $100,000 (the dated value before that one)
 *   {{number:ny.star.exemption[basic]}}           30,000   (one key of a by_key parameter)
 *   {{percent:tx.payment.early_discount@10}}      3%       (a band's value for the input 10)
 *   {{percent:fl.soh_cap}}                        2.9%     (fractions are shown as percents)
 *   {{month:tx.payment.delinquent_month}}         February / febrero
 *   {{year:tx.exemptions.homestead_school}}       2025     (the tax year the value is quoted for)
 *   {{date:deadline.appraisal-protest}}           May 15 / 15 de mayo (state.yaml profile)
 *   {{note:deadline.appraisal-protest}}           the deadline's note, in the page's language
 *   {{date:due.full-payment-due}}                 a profile due date
 *   {{count:stat.county_count}}                   254
 *   {{plain:ca.assessment.base_year}}             1975     (no grouping)
 *   {{rating:ca.exemptions.veteran_full_level}}   100%     (a disability rating held as a count)
 *
 * "In force": the value for the latest year of the programs that use the parameter
 * (their period start, so New York City's fiscal years work), else the latest value.
 * Profile slugs are the kebab case of the entry's English label.
 *
 * Links in the markdown: [text](guide:<id>) and [text](page:<fixed page>) become the
 * page's path in the same language; other links must be absolute https URLs.
 *
 * Fails (exit 1, one message per problem) on an unknown parameter, key, band input or
 * profile entry, a missing Spanish (or English) text, a duplicate path or alias, a link to
 * an unknown page, or a placeholder left in the output.
 *
 * Usage: node web/scripts/build-guides.mjs [bundle.json] [contentDir] [outDir]
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
// The value in force and the band look-up are the engine's own (npm run build compiles them
// before the web's build runs): the guides quote the figures the calculation uses.
import { periodStart, valueAt } from '../../dist/engine/core/params.js';
import { band } from '../../dist/engine/core/walk.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');

export const LANGS = /** @type {const} */ (['en', 'es']);
export const LOCALES = { en: 'en-US', es: 'es-MX' };
/** The editions with content: web/content's folders that hold an edition.yaml, as codes (HUB, NY, TX, …). */
export function editionsIn(contentDir) {
  return existsSync(contentDir)
    ? readdirSync(contentDir)
        .filter((d) => existsSync(join(contentDir, d, 'edition.yaml')))
        .sort()
        .map((d) => d.toUpperCase())
    : [];
}

/** The fixed pages a guide may link to (seed 001 §2 table; web/src/lib/routes.ts holds the same pairs). */
export const FIXED_PAGES = {
  home: ['/', '/es'],
  calculator: ['/calculator', '/es/calculadora'],
  'how-it-works': ['/how-it-works', '/es/como-funciona'],
  'tax-guides': ['/tax-guides', '/es/guias-impuestos'],
  counties: ['/counties', '/es/condados'],
  faq: ['/faq', '/es/preguntas-frecuentes'],
  about: ['/about', '/es/acerca-de'],
  contact: ['/contact', '/es/contacto'],
  disclaimer: ['/disclaimer', '/es/aviso-legal'],
};

/** `{{format:ref}}`: the one placeholder syntax (cli/diff-guides.ts reads the same). */
export const PLACEHOLDER = /\{\{\s*([a-z]+)\s*:\s*([^}\s]+)\s*\}\}/g;
const FORMATS = ['usd', 'number', 'plain', 'percent', 'rating', 'month', 'year', 'date', 'note', 'count'];

export class GuideError extends Error {}

// ------------------------------------------------------------------ placeholders

/** `tx.a.b[key]@10;prev` → {id, key, at, prev}; `deadline.slug` → {profile, slug}. */
export function parseRef(ref) {
  const prof = /^(deadline|due|stat)\.([a-z0-9_-]+)$/.exec(ref);
  if (prof) return { profile: prof[1], slug: prof[2] };
  const m = /^([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)(?:\[([a-z0-9_]+)\])?(?:@(-?\d+(?:\.\d+)?))?(?:;(prev))?$/.exec(ref);
  if (!m) return null;
  return { id: m[1], key: m[2], at: m[3] === undefined ? undefined : Number(m[3]), prev: m[4] === 'prev' };
}

export const slugOf = (s) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The date and program year a parameter is quoted for: the latest year of the programs that use it. */
export function quoteDate(bundle, id) {
  let best = null;
  for (const p of Object.values(bundle.programs)) {
    if (!Object.values(p.parameters ?? {}).includes(id)) continue;
    const year = Math.max(...p.years);
    const date = periodStart(p.period, year);
    if (!best || date > best.date) best = { date, year, period: p.period };
  }
  return best;
}

/** A band table's value for x, as the calculation looks it up (engine/core/walk.ts); undefined when no band takes x. */
function bandValue(id, bands, x) {
  try {
    return band(id, bands, x);
  } catch {
    return undefined;
  }
}

const nfCache = new Map();
function nf(lang, key, opts) {
  const k = `${lang}:${key}`;
  if (!nfCache.has(k)) nfCache.set(k, new Intl.NumberFormat(LOCALES[lang], opts));
  return nfCache.get(k);
}
export const fmt = {
  usd: (n, lang) => nf(lang, 'usd', { style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol', maximumFractionDigits: 0 }).format(n),
  number: (n, lang) => nf(lang, 'n', { maximumFractionDigits: 3 }).format(n),
  /** `percent` is in percent (1.68 → 1.68%). */
  percent: (percent, lang) => nf(lang, 'pct', { style: 'percent', maximumFractionDigits: 3 }).format(percent / 100),
  month: (m, lang) => new Intl.DateTimeFormat(LOCALES[lang], { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2001, m - 1, 1))),
  /** `MM-DD` → "May 15" / "15 de mayo". */
  date: (mmdd, lang) => {
    const [m, d] = mmdd.split('-').map(Number);
    return new Intl.DateTimeFormat(LOCALES[lang], { month: 'long', day: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(2001, m - 1, d)));
  },
};

/**
 * Resolves every placeholder of `text` for an edition; returns the text and what it used.
 * `state` is the edition's state record of the bundle (for profile references).
 */
export function resolvePlaceholders(text, lang, ctx) {
  const { bundle, state, where } = ctx;
  const used = { params: new Set(), facts: new Set() };
  const out = text.replace(PLACEHOLDER, (whole, format, ref) => {
    const fail = (msg) => {
      throw new GuideError(`${where}: ${whole}: ${msg}`);
    };
    if (!FORMATS.includes(format)) fail(`unknown format "${format}" (one of ${FORMATS.join(', ')})`);
    const r = parseRef(ref);
    if (!r) fail('cannot read the reference (a parameter id like tx.average_rate, optional [key], @input, ;prev; or deadline.<slug>, due.<slug>, stat.<name>)');
    if (r.profile) {
      const profile = state?.profile;
      if (!profile) fail(`the ${ctx.edition} edition has no profile in its state.yaml`);
      if (r.profile === 'stat') {
        const v = profile.stats?.[r.slug];
        if (typeof v !== 'number') fail(`no numeric profile stat "${r.slug}" in ${state.file}`);
        if (format !== 'count' && format !== 'number') fail('a profile stat is shown with count or number');
        used.facts.add(`stat.${r.slug}`);
        return fmt.number(v, lang);
      }
      const list = r.profile === 'deadline' ? (profile.deadlines ?? []) : (profile.due_dates ?? []);
      const entry = list.find((e) => slugOf(e.label.en) === r.slug);
      if (!entry)
        fail(
          `no ${r.profile === 'deadline' ? 'deadlines' : 'due_dates'} entry "${r.slug}" in ${state.file} (known: ${list.map((e) => slugOf(e.label.en)).join(', ') || 'none'})`,
        );
      used.facts.add(`${r.profile}.${r.slug}`);
      if (format === 'date') return fmt.date(entry.date, lang);
      if (format === 'note') {
        if (!entry.note) fail(`the entry "${r.slug}" has no note`);
        return entry.note[lang];
      }
      return fail('a deadline or due date is shown with date or note');
    }
    const p = bundle.parameters[r.id];
    if (!p) fail(`unknown parameter id "${r.id}"`);
    used.params.add(r.id);
    const q = quoteDate(bundle, r.id);
    // The entry in force on the quote's date (engine/core/params.ts valueAt), or the latest.
    let idx = q ? p.values.indexOf(valueAt(p, q.date)) : p.values.length - 1;
    if (idx < 0) fail(`no value of ${r.id} in force on ${q?.date}`);
    if (r.prev) {
      idx -= 1;
      if (idx < 0) fail(`${r.id} has no value before the one in force`);
    }
    const entry = p.values[idx];
    if (format === 'year') {
      // The program year the value is quoted for (the entry before it: the year before the current one took effect).
      if (r.prev) {
        // The last year that starts before the value in force took effect.
        const next = p.values[idx + 1].effective;
        const period = q?.period ?? { start: '01-01', fiscal: false };
        let y = Number(next.slice(0, 4)) + (period.fiscal ? 1 : 0);
        while (periodStart(period, y) >= next) y--;
        return String(y);
      }
      return String(q ? q.year : Number(entry.effective.slice(0, 4)));
    }
    let v;
    if (entry.bands) {
      if (r.at === undefined) fail(`${r.id} is a table of bands: give the input with @, e.g. ${r.id}@10`);
      v = bandValue(r.id, entry.bands, r.at);
    } else if (typeof entry.value === 'number') {
      if (r.key) fail(`${r.id} has no keys`);
      v = entry.value;
    } else {
      if (!r.key) fail(`${r.id} has keys (${Object.keys(entry.value).join(', ')}): name one, e.g. ${r.id}[${Object.keys(entry.value)[0]}]`);
      v = entry.value[r.key];
      if (v === undefined) fail(`${r.id} has no key "${r.key}" (keys: ${Object.keys(entry.value).join(', ')})`);
    }
    if (typeof v !== 'number') fail('no number found');
    switch (format) {
      case 'usd':
        if (p.unit !== 'usd') fail(`${r.id} is in ${p.unit}, not usd`);
        return fmt.usd(v, lang);
      case 'percent':
        if (p.unit === 'percent') return fmt.percent(v, lang);
        if (p.unit === 'fraction') return fmt.percent(v * 100, lang);
        return fail(`${r.id} is in ${p.unit}: percent needs a percent or fraction parameter`);
      case 'rating':
        if (p.unit !== 'count' && p.unit !== 'percent') fail(`${r.id} is in ${p.unit}: a rating is a count or percent of disability`);
        return fmt.percent(v, lang);
      case 'month':
        if (!Number.isInteger(v) || v < 1 || v > 12) fail(`${v} is not a month`);
        return fmt.month(v, lang);
      case 'number':
      case 'count':
        return fmt.number(v, lang);
      case 'plain':
        return String(v);
      default:
        return fail(`the format ${format} does not apply to a parameter`);
    }
  });
  return { text: out, params: used.params, facts: used.facts };
}

// ------------------------------------------------------------------ markdown

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Inline markdown: **bold**, *italic*, [text](href). `link` maps an href to {href, external}. */
function inline(s, link) {
  let h = esc(s);
  h = h.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, text, href) => {
    const l = link(href.replace(/&amp;/g, '&'));
    return l.external ? `<a href="${esc(l.href)}" target="_blank" rel="noopener noreferrer">${text}</a>` : `<a href="${esc(l.href)}">${text}</a>`;
  });
  h = h.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
  h = h.replace(/(^|[^*])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>');
  return h;
}

/**
 * A small markdown subset: ## and ### headings (with ids), paragraphs, - and 1. lists,
 * > notes, | tables |. Returns {html, headings}.
 */
export function renderMarkdown(md, link = (href) => ({ href, external: /^https?:/.test(href) })) {
  const lines = md.replace(/\r\n/g, '\n').split('\n');
  const html = [];
  const headings = [];
  const ids = new Set();
  let i = 0;
  const para = [];
  const flush = () => {
    if (para.length) {
      html.push(`<p>${inline(para.join(' '), link)}</p>`);
      para.length = 0;
    }
  };
  while (i < lines.length) {
    const line = lines[i];
    const t = line.trim();
    if (!t) {
      flush();
      i++;
      continue;
    }
    let m;
    if ((m = /^(#{2,3})\s+(.+)$/.exec(t))) {
      flush();
      const level = m[1].length;
      let id = slugOf(m[2]) || 'section';
      for (let n = 2; ids.has(id); n++) id = `${slugOf(m[2])}-${n}`;
      ids.add(id);
      if (level === 2) headings.push({ id, text: m[2].replace(/\*\*/g, '') });
      html.push(`<h${level} id="${id}">${inline(m[2], link)}</h${level}>`);
      i++;
      continue;
    }
    // A list starts after a blank line, or interrupts a paragraph when it is a bullet list or
    // an ordered list starting at 1 (as CommonMark), so "2026. Next sentence" stays text.
    if (/^[-*]\s+/.test(t) || (/^\d+\.\s+/.test(t) && (!para.length || /^1\.\s/.test(t)))) {
      flush();
      const ordered = /^\d+\./.test(t);
      const items = [];
      while (i < lines.length && lines[i].trim() && (ordered ? /^\d+\.\s+/ : /^[-*]\s+/).test(lines[i].trim())) {
        let item = lines[i].trim().replace(ordered ? /^\d+\.\s+/ : /^[-*]\s+/, '');
        i++;
        // Continuation lines (indented, not a new item).
        while (i < lines.length && /^\s{2,}\S/.test(lines[i]) && !/^\s*([-*]|\d+\.)\s+/.test(lines[i])) item += ` ${lines[i++].trim()}`;
        items.push(`<li>${inline(item, link)}</li>`);
      }
      html.push(`<${ordered ? 'ol' : 'ul'}>${items.join('')}</${ordered ? 'ol' : 'ul'}>`);
      continue;
    }
    if (t.startsWith('>')) {
      flush();
      const q = [];
      while (i < lines.length && lines[i].trim().startsWith('>')) q.push(lines[i++].trim().replace(/^>\s?/, ''));
      html.push(`<aside class="guide-note"><p>${inline(q.join(' '), link)}</p></aside>`);
      continue;
    }
    if (t.startsWith('|')) {
      flush();
      const rows = [];
      while (i < lines.length && lines[i].trim().startsWith('|')) rows.push(lines[i++].trim());
      const cells = (r) =>
        r
          .replace(/^\||\|$/g, '')
          .split('|')
          .map((c) => c.trim());
      const head = cells(rows[0]);
      const body = rows.slice(/^\|[\s:|-]+\|$/.test(rows[1] ?? '') ? 2 : 1).map(cells);
      html.push(
        `<table><thead><tr>${head.map((c) => `<th scope="col">${inline(c, link)}</th>`).join('')}</tr></thead>` +
          `<tbody>${body.map((r) => `<tr>${r.map((c) => `<td>${inline(c, link)}</td>`).join('')}</tr>`).join('')}</tbody></table>`,
      );
      continue;
    }
    para.push(t);
    i++;
  }
  flush();
  return { html: html.join('\n'), headings };
}

// ------------------------------------------------------------------ content

function readYamlFile(file) {
  try {
    return parseYaml(readFileSync(file, 'utf8'), { uniqueKeys: true, prettyErrors: true });
  } catch (e) {
    throw new GuideError(`${file}: ${String(e.message).split('\n')[0]}`);
  }
}

function yamlFiles(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const f of readdirSync(dir).sort()) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) out.push(...yamlFiles(p));
    else if (f.endsWith('.yaml')) out.push(p);
  }
  return out;
}

/** Every text of the content, by edition: {edition, site, guides[], faq, glossary}. */
export function readContent(contentDir) {
  const shared = readYamlFile(join(contentDir, 'shared.yaml'));
  const editions = [];
  for (const code of editionsIn(contentDir)) {
    const dir = join(contentDir, code.toLowerCase());
    if (!existsSync(join(dir, 'edition.yaml'))) continue;
    const site = readYamlFile(join(dir, 'edition.yaml'));
    const guides = yamlFiles(join(dir, 'guides')).map((file) => ({ file, ...readYamlFile(file) }));
    const faqFile = join(dir, 'faq.yaml');
    const glossaryFile = join(dir, 'glossary.yaml');
    editions.push({
      code,
      dir,
      site,
      guides,
      faq: existsSync(faqFile) ? { file: faqFile, ...readYamlFile(faqFile) } : null,
      glossary: existsSync(glossaryFile) ? { file: glossaryFile, ...readYamlFile(glossaryFile) } : null,
    });
  }
  return { shared, editions };
}

/** Both languages present and non-empty, else a problem naming the file and field. */
function bilingual(v, where, problems) {
  for (const l of LANGS) {
    if (!v || typeof v[l] !== 'string' || !v[l].trim()) problems.push(`${where}: missing ${l === 'es' ? 'Spanish' : 'English'} text (${l})`);
  }
  return v;
}

const rel = (f) => relative(repo, f);

/** The whole build for one edition: the JSON object written to <edition>.json. */
export function buildEdition(bundle, content, ed) {
  const problems = [];
  const { shared } = content;
  const state = bundle.states[ed.code];
  const pageRef = new Map(); // guide id → paths
  for (const g of ed.guides) if (g.id && g.paths) pageRef.set(g.id, g.paths);
  if (ed.glossary?.id) pageRef.set(ed.glossary.id, ed.glossary.paths);

  const linker = (lang, where) => (href) => {
    let m;
    if ((m = /^guide:([a-z0-9-]+)$/.exec(href))) {
      const p = pageRef.get(m[1]);
      if (!p) {
        problems.push(`${where}: link to unknown guide "${m[1]}"`);
        return { href: '#', external: false };
      }
      return { href: p[lang], external: false };
    }
    if ((m = /^page:([a-z-]+)$/.exec(href))) {
      const p = FIXED_PAGES[m[1]];
      if (!p) {
        problems.push(`${where}: link to unknown page "${m[1]}" (known: ${Object.keys(FIXED_PAGES).join(', ')})`);
        return { href: '#', external: false };
      }
      return { href: p[lang === 'en' ? 0 : 1], external: false };
    }
    if (/^https:\/\/[^\s]+$/.test(href)) return { href, external: true };
    problems.push(`${where}: link "${href}" is neither guide:<id>, page:<name> nor an https URL`);
    return { href: '#', external: false };
  };

  /** Resolves and renders a markdown text in a language; collects what it used. */
  const render = (md, lang, where, used, inlineOnly = false) => {
    try {
      const r = resolvePlaceholders(md, lang, { bundle, state, where, edition: ed.code });
      for (const p of r.params) used.params.add(p);
      for (const f of r.facts) used.facts.add(f);
      if (inlineOnly) return { html: inline(r.text.trim(), linker(lang, where)), headings: [] };
      return renderMarkdown(r.text, linker(lang, where));
    } catch (e) {
      if (e instanceof GuideError) {
        problems.push(e.message);
        return { html: '', headings: [] };
      }
      throw e;
    }
  };
  /** A short text (title, description, question): placeholders, no markdown. */
  const plain = (s, lang, where, used) => {
    try {
      const r = resolvePlaceholders(s, lang, { bundle, state, where, edition: ed.code });
      for (const p of r.params) used.params.add(p);
      for (const f of r.facts) used.facts.add(f);
      return r.text.trim();
    } catch (e) {
      if (e instanceof GuideError) {
        problems.push(e.message);
        return '';
      }
      throw e;
    }
  };
  const sourcesOf = (params) => {
    const list = [];
    for (const id of params) {
      const p = bundle.parameters[id];
      const q = quoteDate(bundle, id);
      const entry = q ? valueAt(p, q.date) : p.values.at(-1);
      for (const r of entry?.reference ?? []) {
        // Public links only, and not the project's own working notes (the seeds, its data files).
        if (!/^https?:\/\//.test(r.href) || /\bseed\b|property_tax_constants|shared\/data|\bptax\b/i.test(r.title)) continue;
        if (list.some((x) => x.href === r.href)) continue;
        list.push({ title: r.title, href: r.href });
      }
    }
    return list;
  };

  bilingual(ed.site.verify, `${rel(ed.dir)}/edition.yaml verify`, problems);
  bilingual(ed.site.name, `${rel(ed.dir)}/edition.yaml name`, problems);
  const crumbsBase = (lang) => [
    { label: shared.breadcrumbs.home[lang], path: FIXED_PAGES.home[lang === 'en' ? 0 : 1] },
    { label: shared.breadcrumbs.guides[lang], path: FIXED_PAGES['tax-guides'][lang === 'en' ? 0 : 1] },
  ];
  const disclaimer = (lang, used, where) =>
    `<aside class="guide-disclaimer"><p>${inline(plain(`${shared.disclaimer[lang]} ${ed.site.verify[lang]}`, lang, where, used), linker(lang, where))}</p></aside>`;

  const pages = [];
  for (const g of ed.guides) {
    const where = rel(g.file);
    for (const k of ['id', 'paths', 'title', 'description', 'body']) if (!g[k]) problems.push(`${where}: missing ${k}`);
    if (!g.id || !g.paths || !g.body) continue;
    bilingual(g.paths, `${where} paths`, problems);
    bilingual(g.title, `${where} title`, problems);
    bilingual(g.description, `${where} description`, problems);
    bilingual(g.body, `${where} body`, problems);
    const used = { params: new Set(), facts: new Set() };
    const page = {
      id: g.id,
      kind: 'guide',
      topic: g.topic ?? g.id,
      order: g.order ?? 100,
      paths: g.paths,
      aliases: g.aliases ?? [],
      title: {},
      description: {},
      html: {},
      headings: {},
      breadcrumbs: {},
    };
    for (const lang of LANGS) {
      page.title[lang] = plain(g.title?.[lang] ?? '', lang, `${where} title.${lang}`, used);
      page.description[lang] = plain(g.description?.[lang] ?? '', lang, `${where} description.${lang}`, used);
      const r = render(g.body?.[lang] ?? '', lang, `${where} body.${lang}`, used);
      page.html[lang] = `${r.html}\n${disclaimer(lang, used, `${where} disclaimer`)}`;
      page.headings[lang] = r.headings;
      page.breadcrumbs[lang] = [...crumbsBase(lang), { label: page.title[lang], path: g.paths[lang] }];
    }
    page.params = [...used.params].sort();
    page.facts = [...used.facts].sort();
    page.sources = sourcesOf(page.params);
    pages.push(page);
  }

  if (ed.glossary) {
    const G = ed.glossary;
    const where = rel(G.file);
    bilingual(G.paths, `${where} paths`, problems);
    bilingual(G.title, `${where} title`, problems);
    bilingual(G.description, `${where} description`, problems);
    const cats = (G.categories ?? []).map((c) => {
      bilingual(c.label, `${where} category ${c.id}`, problems);
      return { id: c.id, label: c.label };
    });
    const used = { params: new Set(), facts: new Set() };
    const entries = { en: [], es: [] };
    for (const e of G.entries ?? []) {
      const w = `${where} entry ${e.id ?? '?'}`;
      if (!e.id) problems.push(`${w}: missing id`);
      if (!cats.some((c) => c.id === e.category)) problems.push(`${w}: unknown category "${e.category}"`);
      bilingual(e.term, `${w} term`, problems);
      bilingual(e.definition, `${w} definition`, problems);
      for (const lang of LANGS) {
        entries[lang].push({
          id: e.id,
          term: e.term?.[lang] ?? '',
          category: e.category,
          definition: render(e.definition?.[lang] ?? '', lang, `${w} definition.${lang}`, used, true).html,
        });
      }
    }
    for (const lang of LANGS) entries[lang].sort((a, b) => a.term.localeCompare(b.term, LOCALES[lang], { sensitivity: 'base' }));
    const page = {
      id: G.id,
      kind: 'glossary',
      topic: 'glossary',
      order: G.order ?? 90,
      paths: G.paths,
      aliases: G.aliases ?? [],
      title: G.title,
      description: G.description,
      html: {},
      headings: { en: [], es: [] },
      breadcrumbs: {},
      categories: cats,
      entries,
    };
    for (const lang of LANGS) {
      page.html[lang] =
        `${G.intro ? render(G.intro[lang] ?? '', lang, `${where} intro.${lang}`, used).html : ''}\n${disclaimer(lang, used, `${where} disclaimer`)}`;
      if (G.intro) bilingual(G.intro, `${where} intro`, problems);
      page.breadcrumbs[lang] = [...crumbsBase(lang), { label: G.title[lang], path: G.paths[lang] }];
    }
    page.params = [...used.params].sort();
    page.facts = [...used.facts].sort();
    page.sources = sourcesOf(page.params);
    pages.push(page);
  }

  if (ed.faq) {
    const F = ed.faq;
    const where = rel(F.file);
    const categories = shared.faq_categories.map((c) => ({ id: c.id, label: c.label }));
    const used = { params: new Set(), facts: new Set() };
    const entries = [];
    for (const e of F.entries ?? []) {
      const w = `${where} entry ${e.id ?? '?'}`;
      if (!e.id) problems.push(`${w}: missing id`);
      if (!categories.some((c) => c.id === e.category))
        problems.push(`${w}: unknown category "${e.category}" (one of ${categories.map((c) => c.id).join(', ')})`);
      bilingual(e.q, `${w} q`, problems);
      bilingual(e.a, `${w} a`, problems);
      const eu = { params: new Set(), facts: new Set() };
      const out = { id: e.id, category: e.category, q: {}, a: {} };
      for (const lang of LANGS) {
        out.q[lang] = plain(e.q?.[lang] ?? '', lang, `${w} q.${lang}`, eu);
        out.a[lang] = render(e.a?.[lang] ?? '', lang, `${w} a.${lang}`, eu).html;
      }
      out.params = [...eu.params].sort();
      for (const p of eu.params) used.params.add(p);
      for (const f of eu.facts) used.facts.add(f);
      entries.push(out);
    }
    for (const c of categories) if (!entries.some((e) => e.category === c.id)) problems.push(`${where}: no entry in the category "${c.id}"`);
    const page = {
      id: F.id ?? 'faq',
      kind: 'faq',
      topic: 'faq',
      order: 1000,
      paths: { en: FIXED_PAGES.faq[0], es: FIXED_PAGES.faq[1] },
      aliases: [],
      title: shared.faq_title,
      description: F.description ?? shared.faq_description,
      html: {},
      headings: { en: [], es: [] },
      breadcrumbs: Object.fromEntries(LANGS.map((l) => [l, [crumbsBase(l)[0], { label: shared.faq_title[l], path: FIXED_PAGES.faq[l === 'en' ? 0 : 1] }]])),
      categories,
      entries,
    };
    for (const lang of LANGS) page.html[lang] = disclaimer(lang, used, `${where} disclaimer`);
    page.params = [...used.params].sort();
    page.facts = [...used.facts].sort();
    page.sources = sourcesOf(page.params);
    pages.push(page);
  }

  // Paths and aliases: unique across the edition's pages and fixed pages, well formed.
  const seen = new Map();
  const claim = (path, owner) => {
    if (seen.has(path) && seen.get(path) !== owner) problems.push(`${ed.code}: the path ${path} belongs to both ${seen.get(path)} and ${owner}`);
    seen.set(path, owner);
  };
  for (const [name, [en, es]] of Object.entries(FIXED_PAGES)) {
    if (name !== 'faq') {
      claim(en, `page:${name}`);
      claim(es, `page:${name}`);
    }
  }
  for (const p of pages) {
    if (!p.paths) continue;
    if (p.kind !== 'faq') {
      if (!/^\/guides\/[a-z0-9-]+$/.test(p.paths.en)) problems.push(`${p.id}: English path ${p.paths.en} is not /guides/<slug>`);
      if (!/^\/es\/(guias|guias-impuestos)\/[a-z0-9-]+$/.test(p.paths.es))
        problems.push(`${p.id}: Spanish path ${p.paths.es} is not under /es/guias/ or /es/guias-impuestos/`);
    }
    claim(p.paths.en, p.id);
    claim(p.paths.es, p.id);
    for (const a of p.aliases) {
      if (!/^\/guides\/[a-z0-9-]+$/.test(a)) problems.push(`${p.id}: alias ${a} is not /guides/<slug>`);
      claim(a, p.id);
    }
  }
  for (const p of pages) for (const l of LANGS) if (/\{\{/.test(p.html?.[l] ?? '')) problems.push(`${p.id}: a placeholder is left in the ${l} html`);

  pages.sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
  return {
    result: {
      format: 1,
      edition: ed.code,
      name: ed.site.name,
      pages,
    },
    problems,
  };
}

export function buildAll(bundle, contentDir) {
  const content = readContent(contentDir);
  const out = {};
  const problems = [];
  for (const ed of content.editions) {
    const r = buildEdition(bundle, content, ed);
    out[ed.code] = r.result;
    problems.push(...r.problems);
  }
  return { editions: out, problems };
}

function main() {
  const bundlePath = resolve(process.argv[2] ?? join(repo, 'dist/rules/bundle.json'));
  const contentDir = resolve(process.argv[3] ?? join(repo, 'web/content'));
  const outDir = resolve(process.argv[4] ?? join(repo, 'web/src/generated/guides'));
  if (!existsSync(bundlePath)) {
    console.error(`build-guides: ${bundlePath} is missing; run the rules build first (npm run build)`);
    process.exit(1);
  }
  const bundle = JSON.parse(readFileSync(bundlePath, 'utf8'));
  let r;
  try {
    r = buildAll(bundle, contentDir);
  } catch (e) {
    if (e instanceof GuideError) {
      console.error(`build-guides: ${e.message}`);
      process.exit(1);
    }
    throw e;
  }
  if (r.problems.length) {
    console.error(`build-guides: ${r.problems.length} problem(s) in ${relative(process.cwd(), contentDir) || '.'}:`);
    for (const p of r.problems) console.error(`  ${p}`);
    process.exit(1);
  }
  mkdirSync(outDir, { recursive: true });
  for (const f of readdirSync(outDir)) if (f.endsWith('.json')) rmSync(join(outDir, f));
  const summary = [];
  for (const [code, data] of Object.entries(r.editions)) {
    writeFileSync(join(outDir, `${code.toLowerCase()}.json`), JSON.stringify(data));
    // The web loads one language's copy (half the size): web/src/lib/guides.ts.
    for (const lang of ['en', 'es']) writeFileSync(join(outDir, `${code.toLowerCase()}.${lang}.json`), JSON.stringify(oneLanguage(data, lang)));
    summary.push(`${code} ${data.pages.length} pages`);
  }
  console.log(`guides: ${summary.join('; ')} -> ${relative(process.cwd(), outDir) || outDir}`);
}

/** An edition's guide data with the texts of one language only (titles and descriptions keep both, for the language switch and the titles of links). */
export function oneLanguage(data, lang) {
  const pick = (x) => (x && typeof x === 'object' && ('en' in x || 'es' in x) ? { [lang]: x[lang] } : x);
  return {
    ...data,
    pages: data.pages.map((p) => ({
      ...p,
      html: pick(p.html),
      headings: pick(p.headings),
      breadcrumbs: pick(p.breadcrumbs),
      entries: Array.isArray(p.entries) ? p.entries.map((e) => ({ ...e, q: pick(e.q), a: pick(e.a) })) : pick(p.entries),
    })),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
