/**
 * Issue 22: the built guide, FAQ and glossary pages (web/src/generated/guides, written by
 * `npm run build`) must not say a figure the law has replaced, in the context it was said
 * in; and the state profiles' exemption texts quote the parameters instead of typing them.
 * Each pattern below is the old figure next to the words it went with:
 *   - Florida's disabled person exemption: $500 until 2022, $5,000 from the 2023 roll
 *     (Fla. Stat. §196.202(1), ch. 2022-97);
 *   - California's disabled veterans: no whole-value exemption at 100% and nothing from a
 *     10% rating (R&T Code §205.5);
 *   - New York veterans: no 1.5% per 10% of rating and no multiplier by band (RPTL §458-a);
 *   - Enhanced STAR: 107,300 and 86,100 are the 2025-26 figures, not 2024-25's (98,700, 84,000).
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRulesOrThrow } from '../../engine/build/load.js';
// @ts-expect-error plain ESM build script without type declarations
import { resolvePlaceholders } from './build-guides.mjs';

const GUIDES = 'web/src/generated/guides';
const EDITIONS = ['ny', 'tx', 'ca', 'fl', 'hub'] as const;

/** Every page's title, description and body in both languages, tags stripped, one string per page and language. */
function pageTexts(ed: string): Array<{ where: string; text: string }> {
  const file = `${GUIDES}/${ed}.json`;
  if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build first`);
  const data = JSON.parse(readFileSync(file, 'utf8')) as {
    pages: Array<{ id: string; title: Record<string, string>; description: Record<string, string>; html: Record<string, string> }>;
  };
  return data.pages.flatMap((p) =>
    (['en', 'es'] as const).map((lang) => ({
      where: `${ed}:${p.id}:${lang}`,
      text: [p.title[lang], p.description[lang], p.html[lang]]
        .join(' ')
        .replace(/<[^>]+>/g, ' ')
        .replace(/&nbsp;|\u00a0/g, ' ')
        .replace(/\s+/g, ' '),
    })),
  );
}

/** A figure and a word within `gap` characters of each other, in either order. */
const near = (figure: string, words: string, gap = 120) =>
  new RegExp(`(${figure})[^]{0,${gap}}(${words})|(${words})[^]{0,${gap}}(${figure})`, 'i');

const OLD: Array<{ editions: string[]; what: string; pattern: RegExp }> = [
  // "$500" alone (not $5,000, $2,500 or 500,000) next to disability or blindness.
  { editions: ['fl'], what: 'the $500 disabled person exemption', pattern: near('(?<![\\d,.])\\$?\\s?500(?![\\d,])', 'disab|blind|discapac|cieg') },
  { editions: ['ca'], what: "a whole-value exemption for California's disabled veterans", pattern: near('fully exempt|totalmente exent', 'veteran') },
  { editions: ['ca'], what: "California's veterans' exemption from a 10% rating", pattern: /(from|desde) (a|una) (rating|calificación)( of| del?)? 10\s?%/i },
  { editions: ['ny'], what: "New York's 1.5% per 10% of rating", pattern: near('1[.,]5\\s?%', 'veteran|rating|grado') },
  { editions: ['ny'], what: "New York City's veterans' multiplier by band", pattern: near('multiplier|multiplicador', 'veteran') },
  { editions: ['ny'], what: 'a 2025-26 Enhanced STAR figure given for 2024-25', pattern: near('107,300|86,100', '2024-25|2024-2025|2024–25|FY ?2025|año fiscal 2025') },
];

describe('the built pages do not say a figure the law replaced (issue 22)', () => {
  for (const o of OLD) {
    it(`no page says ${o.what}`, () => {
      const hits = o.editions.flatMap((ed) => pageTexts(ed).filter((p) => o.pattern.test(p.text)).map((p) => `${p.where}: …${p.text.match(o.pattern)![0]}…`));
      expect(hits).toEqual([]);
    });
  }

  it('the patterns find the old figures in the old wording (so the test can fail)', () => {
    expect(OLD[0]!.pattern.test('500 off every levy for a blind or totally and permanently disabled person')).toBe(true);
    expect(OLD[0]!.pattern.test('$5,000 off every levy for a blind person')).toBe(false);
    expect(OLD[1]!.pattern.test('treats a veteran rated 100% as fully exempt from 2025')).toBe(true);
    expect(OLD[2]!.pattern.test('it applies the exemption from a rating of 10%')).toBe(true);
    expect(OLD[3]!.pattern.test('1.5% of the value per 10% of the veteran rating')).toBe(true);
    expect(OLD[4]!.pattern.test("the veterans' multiplier by disability band")).toBe(true);
    expect(OLD[5]!.pattern.test('Enhanced STAR: 107,300 or less for 2024-25')).toBe(true);
  });

  it('every page of every edition was read', () => {
    for (const ed of EDITIONS) expect(pageTexts(ed).length).toBeGreaterThan(0);
  });
});

describe('the state profiles quote their exemption figures from the parameters', () => {
  const bundle = loadRulesOrThrow();
  it("Florida's disabled person exemption reads fl.disabled_exemption: $5,000 ($500 until 2022)", () => {
    const d = bundle.states.FL!.profile!.exemptions.find((e) => e.id === 'disabledPerson')!.description!;
    expect(d.en).toContain('{{usd:fl.disabled_exemption}}');
    expect(d.es).toContain('{{usd:fl.disabled_exemption}}');
    const text = resolvePlaceholders(d.en, 'en', { bundle, state: bundle.states.FL, where: 'FL profile', edition: 'FL' }).text as string;
    // The latest entry of fl.disabled_exemption: 5,000 from 2023-01-01 (rules/fl/exemptions.yaml).
    expect(text).toMatch(/^\$5,000 \(\d{4}\) off every levy/);
  });

  it('every profile exemption text resolves (known parameters) in both languages', () => {
    for (const [code, state] of Object.entries(bundle.states))
      for (const e of state.profile?.exemptions ?? [])
        for (const lang of ['en', 'es'] as const)
          if (e.description) expect(() => resolvePlaceholders(e.description![lang], lang, { bundle, state, where: `${code} ${e.id}`, edition: code })).not.toThrow();
  });
});
