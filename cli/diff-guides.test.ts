/**
 * `ptax rules diff` names the guide pages a rule change moves (cli/diff-guides.ts): a changed
 * parameter value, a moved profile deadline and a new program year, each against the pages
 * of web/content that quote them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRulesOrThrow } from '../engine/node.js';
import type { Bundle } from '../engine/node.js';
import { compareBundles } from './diff-rules.js';
import { guideIndex, guidesMarkdown, guidesMoved, guidesText } from './diff-guides.js';
// @ts-expect-error plain ESM build script without type declarations
import { buildAll } from '../web/scripts/build-guides.mjs';

const CONTENT = 'web/content';
let base: Bundle;
const copy = (): Bundle => JSON.parse(JSON.stringify(base));
const ids = (moves: { edition: string; id: string }[]) => moves.map((m) => `${m.edition} ${m.id}`);

beforeAll(() => {
  base = JSON.parse(JSON.stringify(loadRulesOrThrow('rules')));
});

describe('guide pages moved by a rule change', () => {
  it('a new school homestead figure moves the Texas pages that quote it, and the hub page comparing states', () => {
    const head = copy();
    const v = head.parameters['tx.exemptions.homestead_school']!.values;
    v[v.length - 1]!.value = 150000;
    const moves = guidesMoved(compareBundles(base, head), CONTENT, head);
    const got = ids(moves);
    for (const want of ['TX tx-exemptions', 'TX tx-saving', 'TX tx-updates-2025', 'TX tx-glossary', 'TX faq', 'HUB hub-exemptions'])
      expect(got).toContain(want);
    expect(got.some((x) => x.startsWith('FL') || x.startsWith('CA') || x.startsWith('NY'))).toBe(false);
    const ex = moves.find((m) => m.id === 'tx-exemptions')!;
    expect(ex.paths).toEqual({ en: '/guides/texas-property-tax-exemptions', es: '/es/guias/exenciones-impuestos-propiedad-texas' });
    expect(ex.because).toEqual(['tx.exemptions.homestead_school']);
    expect(ex.file).toBe('web/content/tx/guides/exemptions.yaml');
  });

  it('one key of a by_key parameter counts for the parameter (NYC class 1 rate)', () => {
    const head = copy();
    const v = head.parameters['ny.nyc.tax_rate']!.values;
    (v[v.length - 1]!.value as Record<string, number>).class1 = 19.5;
    const got = ids(guidesMoved(compareBundles(base, head), CONTENT, head));
    expect(got).toContain('NY ny-updates-2025');
    expect(got).toContain('NY ny-explained');
    expect(got.every((x) => x.startsWith('NY'))).toBe(true);
  });

  it("a moved deadline in a state profile moves only that edition's pages that show it", () => {
    const head = copy();
    head.states.TX!.profile!.deadlines.find((d) => d.label.en === 'Appraisal protest')!.date = '05-20';
    const moves = guidesMoved(compareBundles(base, head), CONTENT, head);
    expect(ids(moves)).toContain('TX tx-appeal');
    expect(ids(moves)).not.toContain('TX tx-payment');
    expect(moves.every((m) => m.edition === 'TX' && m.because.join() === 'TX deadline.appraisal-protest')).toBe(true);
  });

  it("a new program year moves the pages quoting that program's parameters", () => {
    const head = copy();
    head.programs['fl.early_payment']!.years = [2024, 2025, 2026];
    const moves = guidesMoved(compareBundles(base, head), CONTENT, head);
    const fl = moves.find((m) => m.id === 'fl-explained')!;
    expect(fl.because.some((b) => b.startsWith('fl.payment.early_discount (program fl.early_payment years)'))).toBe(true);
  });

  it('no change, no page; the report sections name path, file and cause', () => {
    expect(guidesMoved(compareBundles(base, copy()), CONTENT)).toEqual([]);
    expect(guidesText([])).toEqual([]);
    const head = copy();
    head.parameters['fl.soh_cap']!.values.at(-1)!.value = 0.025;
    const moves = guidesMoved(compareBundles(base, head), CONTENT, head);
    const t = guidesText(moves).join('\n');
    expect(t).toContain('FL /guides/florida-save-our-homes (fl-save-our-homes, web/content/fl/guides/save-our-homes.yaml): fl.soh_cap');
    expect(guidesMarkdown(moves).join('\n')).toContain('| FL | `/guides/florida-save-our-homes`');
  });
});

describe('the index reads the placeholders as the build does', () => {
  it("every page's parameters are indexed to that page, and nothing else", () => {
    const { editions } = buildAll(base, CONTENT) as { editions: Record<string, { pages: { id: string; params: string[]; facts: string[] }[] }> };
    const index = guideIndex(CONTENT);
    const fromIndex = new Map<string, Set<string>>();
    for (const [key, pages] of index)
      for (const p of pages) {
        const k = `${p.edition} ${p.id}`;
        if (!fromIndex.has(k)) fromIndex.set(k, new Set());
        fromIndex.get(k)!.add(key.startsWith('param:') ? key.slice(6) : key.slice(key.indexOf(':') + 1));
      }
    for (const [ed, e] of Object.entries(editions))
      for (const p of e.pages) {
        expect([...(fromIndex.get(`${ed} ${p.id}`) ?? [])].sort(), `${ed} ${p.id}`).toEqual([...p.params, ...p.facts].sort());
      }
  });
});
