/**
 * The search of the FAQ and of the glossary (an island, issue 28): the questions and terms
 * are the build's HTML, which React does not render in the browser; this field filters them
 * where they are. An entry that does not match is taken out of its list and put back in its
 * place when it matches again; a category left without entries is hidden. The count is
 * announced and "nothing matches" said, as before.
 */
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addSiteText } from './siteText.js';

export const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

const SCOPES = {
  faq: {
    scope: '[data-testid="page-faq"]',
    entry: '[data-testid="faq-entry"]',
    section: 'section[aria-labelledby]',
    none: 'site.faq.none',
    empty: 'faq-empty',
    label: 'site.faq.search',
    input: 'faq-search',
  },
  glossary: {
    scope: '[data-testid="glossary"]',
    entry: '[data-testid="glossary-entry"]',
    section: 'section[aria-labelledby]',
    none: 'site.glossary.none',
    empty: 'glossary-empty',
    label: 'site.glossary.search',
    input: 'glossary-search',
  },
} as const;

/** Each list of entries as the build wrote it: its element and its children in order. */
type Lists = Array<{ parent: Element; children: Element[] }>;

/** Keeps the entries that match `q` (folded) in their lists, hides empty categories; returns how many match. */
function filter(scope: Element, kind: keyof typeof SCOPES, lists: Lists, q: string): number {
  const { entry, section } = SCOPES[kind];
  let count = 0;
  for (const { parent, children } of lists) {
    const kept = children.filter((c) => !c.matches(entry) || !q || fold(c.textContent ?? '').includes(q));
    count += kept.filter((c) => c.matches(entry)).length;
    if (kept.length !== parent.children.length || kept.some((c, i) => parent.children[i] !== c)) parent.replaceChildren(...kept);
  }
  for (const s of scope.querySelectorAll<HTMLElement>(section)) s.hidden = !s.querySelector(entry);
  return count;
}

export function StaticSearch({ kind, total }: { kind: keyof typeof SCOPES; total: number }) {
  const { t, i18n } = useTranslation();
  addSiteText(i18n);
  const id = useId();
  const c = SCOPES[kind];
  const input = useRef<HTMLInputElement>(null);
  const lists = useRef<Lists | null>(null);
  const [query, setQuery] = useState('');
  const [count, setCount] = useState(total);
  // Typed before the script ran: kept (the field is pre-rendered).
  useLayoutEffect(() => {
    if (input.current?.value) setQuery(input.current.value);
  }, []);
  useEffect(() => {
    const scope = input.current?.closest(c.scope);
    if (!scope) return;
    lists.current ??= [...new Set([...scope.querySelectorAll(c.entry)].map((e) => e.parentElement!))].map((parent) => ({
      parent,
      children: [...parent.children],
    }));
    setCount(filter(scope, kind, lists.current, fold(query.trim())));
  }, [query, kind, c]);
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-q`}>{t(c.label)}</label>
        <input id={`${id}-q`} ref={input} type="search" value={query} onChange={(e) => setQuery(e.target.value)} data-testid={c.input} />
      </div>
      <p role="status" className="sr-only">
        {t('site.glossary.count', { count })}
      </p>
      {count === 0 && <p data-testid={c.empty}>{t(c.none, { query })}</p>}
    </>
  );
}
