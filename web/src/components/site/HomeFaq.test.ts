/** The home page's FAQ block: one question of each of the five categories of the edition's FAQ. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { faqOf, type FaqEntry, type GuideData } from '../../lib/guides.js';
import { firstOfEachCategory } from './HomeFaq.js';

describe('home FAQ block', () => {
  it.each(['tx', 'ny', 'ca', 'fl'])('%s: one question per category, the first of each', (code) => {
    const data = JSON.parse(readFileSync(new URL(`../../generated/guides/${code}.json`, import.meta.url), 'utf8')) as GuideData;
    const entries = (faqOf(data)!.entries as FaqEntry[]) ?? [];
    const picked = firstOfEachCategory(entries);
    expect(picked.map((e) => e.category).sort()).toEqual(['appeals', 'calculations', 'exemptions', 'general', 'payments']);
    for (const e of picked) expect(entries.find((x) => x.category === e.category)).toBe(e);
  });
});
