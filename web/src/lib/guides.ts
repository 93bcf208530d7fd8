/**
 * The edition's guides, FAQ and glossary (web/content, rendered at build time by
 * web/scripts/build-guides.mjs into web/src/generated/guides/<edition>.json, every figure
 * read from the rule files). Loaded as its own chunk, only by the pages that show them.
 */
import type { Label } from '../../../engine/index.js';
import type { Lang } from './format.js';
import type { GuidePaths } from './routes.js';

export interface Crumb {
  label: string;
  path: string;
}
export interface Category {
  id: string;
  label: Label;
}
export interface FaqEntry {
  id: string;
  category: string;
  q: Label;
  a: Label;
}
export interface GlossaryEntry {
  id: string;
  term: string;
  category: string;
  definition: string;
}

export interface GuidePage extends GuidePaths {
  kind: 'guide' | 'glossary' | 'faq';
  topic?: string;
  order?: number;
  title: Label;
  description: Label;
  html: Record<Lang, string>;
  headings?: Record<Lang, Array<{ id: string; text: string }>>;
  breadcrumbs?: Record<Lang, Crumb[]>;
  categories?: Category[];
  /** FAQ: one list with both languages; glossary: a list per language. */
  entries?: FaqEntry[] | Record<Lang, GlossaryEntry[]>;
}

export interface GuideData {
  format: number;
  edition: string;
  pages: GuidePage[];
}

const files = import.meta.glob('../generated/guides/*.*.json', { import: 'default' });

/** The edition's guide data in one language (the build writes a copy per language), or an empty set when it has none. */
export async function loadGuides(edition: string, lang: Lang = 'en'): Promise<GuideData> {
  const load = Object.entries(files).find(([path]) => path.endsWith(`/${edition.toLowerCase()}.${lang}.json`))?.[1];
  if (!load) return { format: 1, edition, pages: [] };
  return (await load()) as GuideData;
}

/** The pages the router knows by path (the FAQ has its fixed path pair). */
export const routedGuides = (data: GuideData | undefined): GuidePage[] => (data?.pages ?? []).filter((p) => p.kind !== 'faq');
export const faqOf = (data: GuideData | undefined): GuidePage | undefined => data?.pages.find((p) => p.kind === 'faq');
