/**
 * The guide pages (web/content → web/scripts/build-guides.mjs): figures come from the rules,
 * both languages are complete, paths follow seed 001 §2 and the build refuses bad content.
 * Figures checked by hand against the rule files named in each test.
 */
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRulesOrThrow } from '../../engine/build/load.js';
// @ts-expect-error plain ESM build script without type declarations
import { buildAll, PLACEHOLDER, renderMarkdown, resolvePlaceholders } from './build-guides.mjs';

type Lang = 'en' | 'es';
type Bi = Record<Lang, string>;
interface Page {
  id: string;
  kind: 'guide' | 'faq' | 'glossary';
  topic: string;
  paths: Bi;
  aliases: string[];
  title: Bi;
  description: Bi;
  html: Bi;
  params: string[];
  facts: string[];
  sources: { title: string; href: string }[];
  breadcrumbs: Record<Lang, { label: string; path: string }[]>;
  entries?: unknown;
  categories?: { id: string; label: Bi }[];
}
interface Edition {
  edition: string;
  pages: Page[];
}

const CONTENT = 'web/content';
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let bundle: any;
let editions: Record<string, Edition>;
let problems: string[];

beforeAll(() => {
  bundle = JSON.parse(JSON.stringify(loadRulesOrThrow('rules')));
  ({ editions, problems } = buildAll(bundle, CONTENT));
});

const page = (ed: string, id: string): Page => {
  const p = editions[ed]!.pages.find((x) => x.id === id);
  if (!p) throw new Error(`no page ${id} in ${ed}`);
  return p;
};
/** Visible text: inline tags vanish, block tags separate words. */
const text = (html: string) =>
  html
    .replace(/<\/?(strong|em|a)\b[^>]*>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
const allPages = () => Object.values(editions).flatMap((e) => e.pages.map((p) => ({ ed: e.edition, p })));

describe('the content builds', () => {
  it('with no problem, for every edition', () => {
    expect(problems).toEqual([]);
    expect(Object.keys(editions).sort()).toEqual(['CA', 'FL', 'HUB', 'NY', 'TX']);
  });
});

describe('figures come from the rule bundle', () => {
  it('Texas exemptions: school homestead $140,000 for 2025, $100,000 before (rules/tx/exemptions.yaml)', () => {
    const p = page('TX', 'tx-exemptions');
    expect(p.params).toContain('tx.exemptions.homestead_school');
    expect(text(p.html.en)).toContain('exempt $140,000 of its value from school taxes (it was $100,000 before the 2025 tax year)');
    expect(text(p.html.es)).toContain('eximir $140,000 de su valor');
    // Over-65: 60,000 from 2025, 10,000 before; veterans 5,000 (rating 10–29) to 12,000 (70+).
    expect(text(p.html.en)).toContain('a further $60,000 off the school value (it was $10,000)');
    expect(text(p.html.en)).toContain('from $5,000 to $12,000');
    expect(text(p.html.en)).toContain('usual deadline is April 30');
  });

  it('Texas payment: penalty 6% + 1% in February, 12% from July, attorney fee 20%, discounts 3/2/1% (rules/tx/payment/schedule.yaml)', () => {
    const t = text(page('TX', 'tx-payment').html.en);
    expect(t).toContain('February 6% 1%');
    expect(t).toContain('July and after 12% 1% a month');
    expect(t).toContain('up to 20% of the amount owed');
    expect(t).toContain('3% in October, 2% in November and 1% in December');
    expect(t).toContain('due by January 31');
    expect(text(page('TX', 'tx-payment').html.es)).toContain('vence el 31 de enero');
  });

  it('Florida: homestead $25,000 + $25,722 above $50,000 for 2025, application by March 1 (rules/fl)', () => {
    const t = text(page('FL', 'fl-exemptions').html.en);
    expect(t).toContain('the first $25,000 of assessed value is exempt');
    expect(t).toContain('up to $25,722, applies to the assessed value above $50,000');
    expect(t).toContain('by March 1');
    expect(text(page('FL', 'fl-exemptions').html.es)).toContain('a más tardar el 1 de marzo');
    const u = text(page('FL', 'fl-updates-2025').html.en);
    expect(u).toContain('For 2025 it is $25,722, up from $25,000');
    const s = text(page('FL', 'fl-save-our-homes').html.en);
    expect(s).toContain('For 2025 the cap is 2.9% (3% the year before)');
    expect(text(page('FL', 'fl-explained').html.en)).toContain('Paying in November earns a 4% discount, then 3% in December, 2% in January and 1% in February');
  });

  it('California: 1% base rate, 2% growth cap, 1975 base year, installments Dec 10 / Apr 10 (rules/ca)', () => {
    const t = text(page('CA', 'ca-explained').html.en);
    expect(t).toContain('at most 2% a year');
    expect(t).toContain('The general tax is 1% of assessed value');
    expect(t).toContain('use their 1975 value');
    expect(t).toContain('First installment delinquent after December 10');
    expect(text(page('CA', 'ca-explained').html.es)).toContain('10 de diciembre');
    expect(text(page('CA', 'ca-exemptions').html.en)).toContain('$175,298 for 2025');
    expect(text(page('CA', 'ca-exemptions').html.en)).toContain('for a veteran rated 100% disabled because of service');
    // R&T Code §205.5: the low-income amount and limit (2025: 262,950 and 78,718), no exemption from a lower rating.
    expect(text(page('CA', 'ca-exemptions').html.en)).toContain('or $262,950 when the household income is $78,718 or less');
    expect(text(page('CA', 'ca-exemptions').html.en)).toContain('A lower rating alone gets no exemption');
  });

  it('New York: NYC FY2026 class 1 rate 19.843% against 20.085% in FY2025; STAR 30,000 / 86,100 / 107,300; abatement 28.1% to 17.5% (rules/ny)', () => {
    const u = text(page('NY', 'ny-updates-2025').html.en);
    expect(u).toContain('Fiscal year 2025 Fiscal year 2026');
    expect(u).toContain('Class 1 (one to three families) 20.085% 19.843%');
    const e = text(page('NY', 'ny-exemptions').html.en);
    expect(e).toContain('school tax on $30,000 of value');
    expect(e).toContain('income of $107,300 or less, is worth the school tax on $86,100');
    expect(e).toContain('from 28.1% for the units with the lowest assessed values down to 17.5%');
    expect(text(page('NY', 'ny-appeal').html.en)).toContain('by March 15 for class 1 homes and by March 1 for classes 2 to 4');
  });

  it('a changed parameter changes the guide: homestead 150,000 in a copy of the bundle', () => {
    const copy = JSON.parse(JSON.stringify(bundle));
    const values = copy.parameters['tx.exemptions.homestead_school'].values;
    values[values.length - 1].value = 150000;
    const r = buildAll(copy, CONTENT);
    const html = r.editions.TX.pages.find((p: Page) => p.id === 'tx-exemptions').html.en;
    expect(text(html)).toContain('exempt $150,000 of its value');
    expect(html).not.toContain('$140,000');
  });

  it('a changed deadline changes the guide: the Texas protest date moved in a copy of the bundle', () => {
    const copy = JSON.parse(JSON.stringify(bundle));
    copy.states.TX.profile.deadlines.find((d: { label: Bi }) => d.label.en === 'Appraisal protest').date = '05-20';
    const r = buildAll(copy, CONTENT);
    const html = r.editions.TX.pages.find((p: Page) => p.id === 'tx-appeal').html;
    expect(text(html.en)).toContain('File by May 20.');
    expect(text(html.es)).toContain('el 20 de mayo');
  });

  it('resolves every placeholder form by hand', () => {
    const ctx = { bundle, state: bundle.states.TX, where: 'test', edition: 'TX' };
    const r = (s: string, lang: Lang = 'en') => resolvePlaceholders(s, lang, ctx).text;
    expect(r('{{usd:tx.exemptions.homestead_school}}')).toBe('$140,000');
    expect(r('{{usd:tx.exemptions.homestead_school;prev}}')).toBe('$100,000');
    expect(r('{{year:tx.exemptions.homestead_school;prev}}')).toBe('2024');
    expect(r('{{percent:tx.default_split[school]}}')).toBe('55%');
    expect(r('{{percent:tx.payment.early_discount@11}}')).toBe('2%');
    expect(r('{{month:tx.payment.delinquent_month}}', 'es')).toBe('febrero');
    expect(r('{{number:tx.exemptions.veteran_amount@50}}')).toBe('10,000');
    expect(r('{{count:stat.county_count}}')).toBe('254');
    expect(r('{{date:due.first-half-split-payment}}', 'es')).toBe('30 de noviembre');
    expect(r('{{note:deadline.appraisal-protest}}', 'es')).toMatch(/^O 30 días/);
    const ny = { ...ctx, state: bundle.states.NY, edition: 'NY' };
    expect(resolvePlaceholders('{{year:ny.nyc.tax_rate;prev}}/{{year:ny.nyc.tax_rate}}', 'en', ny).text).toBe('2025/2026');
  });

  it("sources: the public references of the values quoted, without the project's working notes", () => {
    const src = page('TX', 'tx-exemptions').sources;
    expect(src.map((x) => x.href)).toContain('https://comptroller.texas.gov/taxes/property-tax/exemptions/disabledvet-faq.php');
    for (const { p } of allPages())
      for (const x of p.sources) {
        expect(x.href).toMatch(/^https?:\/\//);
        expect(x.title).not.toMatch(/seed|property_tax_constants/i);
      }
  });

  it('every page lists the parameters its placeholders use', () => {
    for (const { p } of allPages()) for (const id of p.params) expect(bundle.parameters[id], `${p.id}: ${id}`).toBeDefined();
    expect(page('FL', 'fl-save-our-homes').params).toEqual(['fl.soh_cap']);
  });
});

describe('the build refuses bad content', () => {
  let dir: string;
  const write = (rel: string, body: string) => {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), body);
  };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ptax-guides-'));
    write('shared.yaml', readFileSync(join(CONTENT, 'shared.yaml'), 'utf8'));
    write('tx/edition.yaml', 'name: {en: Texas, es: Texas}\nverify: {en: Check., es: Verifique.}\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const guide = (body: { en: string; es?: string }, id = 'g') =>
    `id: ${id}\npaths: {en: /guides/${id}, es: /es/guias/${id}}\ntitle: {en: T, es: T}\ndescription: {en: D, es: D}\nbody:\n  en: "${body.en}"\n${body.es === undefined ? '' : `  es: "${body.es}"\n`}`;

  it('names an unknown parameter id', () => {
    write('tx/guides/g.yaml', guide({ en: 'x {{usd:tx.exemptions.no_such}}', es: 'x' }));
    const r = buildAll(bundle, dir);
    expect(r.problems.join('\n')).toContain('unknown parameter id "tx.exemptions.no_such"');
  });

  it('names a missing Spanish text', () => {
    write('tx/guides/g.yaml', guide({ en: 'Only English.' }));
    const r = buildAll(bundle, dir);
    expect(r.problems.join('\n')).toContain('body: missing Spanish text (es)');
  });

  it('names an unknown deadline, a band table without its input and a duplicate path', () => {
    write('tx/guides/g.yaml', guide({ en: '{{date:deadline.no-such}}', es: '{{percent:tx.payment.penalty}}' }));
    write('tx/guides/h.yaml', guide({ en: 'a', es: 'b' }, 'g').replace('id: g', 'id: h'));
    const msgs = buildAll(bundle, dir).problems.join('\n');
    expect(msgs).toContain('no deadlines entry "no-such"');
    expect(msgs).toContain('is a table of bands: give the input with @');
    expect(msgs).toContain('the path /guides/g belongs to both g and h');
    rmSync(join(dir, 'tx/guides/h.yaml'));
  });
});

describe('both languages are complete', () => {
  // Words that would betray English left on a Spanish page (proper names such as Save Our
  // Homes or Board of Assessment Review contain none of them).
  const ENGLISH = /\b(the|and|your|with|you|is|are|this|for|of the|to the)\b/i;

  it('every page has its title, description and html in both languages, different from each other', () => {
    for (const { p } of allPages()) {
      for (const l of ['en', 'es'] as const) {
        expect(p.title[l], `${p.id} title.${l}`).toBeTruthy();
        expect(p.description[l], `${p.id} description.${l}`).toBeTruthy();
        expect(p.html[l], `${p.id} html.${l}`).toBeTruthy();
      }
      expect(p.html.es).not.toBe(p.html.en);
    }
  });

  it('no English left in Spanish text (pages, FAQ answers, glossary)', () => {
    for (const { p } of allPages()) {
      const es = [p.title.es, p.description.es, text(p.html.es)];
      if (p.kind === 'faq') for (const e of p.entries as { q: Bi; a: Bi }[]) es.push(e.q.es, text(e.a.es));
      if (p.kind === 'glossary') for (const e of (p.entries as Record<Lang, { term: string; definition: string }[]>).es) es.push(text(e.definition));
      for (const s of es) expect(s, `${p.id}: ${s}`).not.toMatch(ENGLISH);
    }
  });

  it('FAQ entries cover the five categories, glossary entries have the same ids in both languages', () => {
    for (const e of Object.values(editions)) {
      const faq = e.pages.find((p) => p.kind === 'faq')!;
      const cats = new Set((faq.entries as { category: string }[]).map((x) => x.category));
      expect([...cats].sort()).toEqual(['appeals', 'calculations', 'exemptions', 'general', 'payments']);
      const g = e.pages.find((p) => p.kind === 'glossary');
      if (!g) continue;
      const ent = g.entries as Record<Lang, { id: string; term: string; category: string; definition: string }[]>;
      expect(ent.es.map((x) => x.id).sort()).toEqual(ent.en.map((x) => x.id).sort());
      for (const x of [...ent.en, ...ent.es]) expect(g.categories!.map((c) => c.id)).toContain(x.category);
    }
  });

  it('every page says it is not professional advice and to verify locally; none cites the internal seeds', () => {
    for (const { p } of allPages()) {
      expect(p.html.en).toContain('not professional tax, legal or financial advice');
      expect(p.html.es).toContain('No es asesoría profesional');
      expect(p.html.en + p.html.es).not.toMatch(/seed|semilla/i);
    }
  });
});

describe('paths and aliases (seed 001 §2)', () => {
  const STATES: Record<string, [string, string]> = {
    TX: ['texas', 'texas'],
    FL: ['florida', 'florida'],
    CA: ['california', 'california'],
    NY: ['new-york', 'nueva-york'],
  };
  const GENERIC: Record<string, string> = {
    explained: '/guides/understanding-property-taxes',
    appeal: '/guides/how-to-protest',
    exemptions: '/guides/exemptions-guide',
    saving: '/guides/tax-saving-strategies',
    county: '/guides/county-guide',
  };

  it('each state has the five guides at the §2 English paths, with the generic aliases', () => {
    for (const [code, [st]] of Object.entries(STATES)) {
      const want: Record<string, string> = {
        explained: `/guides/${st}-property-taxes-explained`,
        appeal: `/guides/${st}-property-tax-appeal`,
        exemptions: `/guides/${st}-property-tax-exemptions`,
        saving: `/guides/${st}-tax-saving-strategies`,
        county: `/guides/${st}-county-tax-guide`,
      };
      for (const [topic, path] of Object.entries(want)) {
        const p = editions[code]!.pages.find((x) => x.topic === topic)!;
        expect(p.paths.en).toBe(path);
        expect(p.paths.es).toMatch(topic === 'explained' ? /^\/es\/guias-impuestos\/[a-z0-9-]+$/ : /^\/es\/guias\/[a-z0-9-]+$/);
        expect(p.aliases).toEqual([GENERIC[topic]]);
      }
    }
    expect(page('CA', 'ca-glossary').paths).toEqual({ en: '/guides/california-glossary', es: '/es/guias/glosario-california' });
    for (const code of ['TX', 'FL', 'CA', 'NY', 'HUB']) {
      expect(editions[code]!.pages.find((p) => p.topic === 'mistakes')!.paths).toEqual({ en: '/guides/common-mistakes', es: '/es/guias/errores-comunes' });
    }
  });

  it('the hub serves the generic paths as its own pages', () => {
    for (const [topic, path] of Object.entries(GENERIC)) {
      expect(editions.HUB!.pages.find((p) => p.topic === topic)!.paths.en).toBe(path);
    }
  });

  it('every path and alias is unique within an edition, and every alias resolves to one page', () => {
    for (const e of Object.values(editions)) {
      const seen = new Map<string, string>();
      for (const p of e.pages)
        for (const path of [p.paths.en, p.paths.es, ...p.aliases]) {
          expect(seen.get(path), `${e.edition} ${path}`).toBeUndefined();
          seen.set(path, p.id);
        }
      for (const p of e.pages)
        for (const a of p.aliases) expect(e.pages.filter((q) => q.aliases.includes(a) || q.paths.en === a).map((q) => q.id)).toEqual([p.id]);
    }
  });

  it('every internal link points at a page of the same edition and language', () => {
    const fixed = [
      '/',
      '/es',
      '/calculator',
      '/es/calculadora',
      '/counties',
      '/es/condados',
      '/faq',
      '/es/preguntas-frecuentes',
      '/tax-guides',
      '/es/guias-impuestos',
    ];
    for (const e of Object.values(editions)) {
      const known = new Set([...fixed, ...e.pages.flatMap((p) => [p.paths.en, p.paths.es])]);
      for (const p of e.pages)
        for (const l of ['en', 'es'] as const) {
          const html = [p.html[l], ...(p.kind === 'faq' ? (p.entries as { a: Bi }[]).map((x) => x.a[l]) : [])].join('');
          for (const [, href] of html.matchAll(/href="([^"]+)"/g)) {
            expect(known.has(href!), `${p.id}.${l} → ${href}`).toBe(true);
            if (!href!.startsWith('http')) expect(href!.startsWith('/es') || href === '/es', `${p.id}.${l} → ${href}`).toBe(l === 'es');
          }
        }
    }
  });

  it('breadcrumbs: home, tax guides, the page', () => {
    const b = page('TX', 'tx-appeal').breadcrumbs;
    expect(b.en.map((x) => x.path)).toEqual(['/', '/tax-guides', '/guides/texas-property-tax-appeal']);
    expect(b.es.map((x) => x.label)).toEqual(['Inicio', 'Guías de impuestos', 'Cómo protestar la tasación de su propiedad en Texas']);
  });
});

describe('prose types no figure', () => {
  // Outside placeholders: no dollar amount, percentage or month-and-day date. (Ages such as 65
  // and years such as 2025 in titles are words of the law, not figures to keep in sync.)
  const MONTHS =
    'January|February|March|April|May|June|July|August|September|October|November|December|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre';
  const FIGURE = new RegExp(`\\$\\s?\\d|\\d\\s?%|\\d+\\s?(percent|por ciento)|\\b(${MONTHS})\\s+\\d{1,2}\\b|\\b\\d{1,2}\\s+de\\s+(${MONTHS})`, 'i');
  function* strings(x: unknown): Generator<string> {
    if (typeof x === 'string') yield x;
    else if (Array.isArray(x)) for (const v of x) yield* strings(v);
    else if (x && typeof x === 'object') for (const v of Object.values(x)) yield* strings(v);
  }
  const files = (d: string): string[] =>
    readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? files(join(d, f)) : f.endsWith('.yaml') ? [join(d, f)] : []));

  it('in any content file', async () => {
    const { parse } = await import('yaml');
    for (const f of files(CONTENT)) {
      for (const s of strings(parse(readFileSync(f, 'utf8')))) {
        const prose = s.replace(PLACEHOLDER, '');
        expect(prose, `${f}: ${prose.match(FIGURE)?.[0]}`).not.toMatch(FIGURE);
      }
    }
  });
});

describe('markdown', () => {
  it('renders headings with ids, lists, tables and links (external in a new tab)', () => {
    const r = renderMarkdown('## Año fiscal\n- a\n- **b**\n\n| x | y |\n|---|---|\n| 1 | 2 |\n\n[t](https://example.org) & <i>');
    expect(r.headings).toEqual([{ id: 'ano-fiscal', text: 'Año fiscal' }]);
    expect(r.html).toContain('<h2 id="ano-fiscal">Año fiscal</h2>');
    expect(r.html).toContain('<ul><li>a</li><li><strong>b</strong></li></ul>');
    expect(r.html).toContain('<tbody><tr><td>1</td><td>2</td></tr></tbody>');
    expect(r.html).toContain('<a href="https://example.org" target="_blank" rel="noopener noreferrer">t</a> &amp; &lt;i&gt;');
  });

  it('a line starting with a number inside a paragraph stays text (a year resolved at the start of a line)', () => {
    expect(renderMarkdown('in fiscal year\n2026. The cap applies.').html).toBe('<p>in fiscal year 2026. The cap applies.</p>');
    expect(renderMarkdown('Steps:\n1. one\n2. two').html).toBe('<p>Steps:</p>\n<ol><li>one</li><li>two</li></ol>');
  });
});
