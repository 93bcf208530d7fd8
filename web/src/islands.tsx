/**
 * Islands (issue 28): the parts of a pre-rendered page that a visitor can use (the calculator,
 * the state's tools, the forms, the consent banner, the toasts, the hub's links) are each
 * marked `<Island name props>`. The build renders each island's content on its own
 * (`setIslandRenderer`, from prerender.tsx), so the browser can hydrate it as its own React
 * root (main.tsx, `hydrateIslands`) from the serialised `data-props` alone: the rest of the
 * page (header, hero, disclaimer, timeline, guide and FAQ text, county figures, footer) stays
 * the HTML the build wrote, React never renders it on load and its code is never fetched.
 *
 * Rendered in the browser without a pre-render (development, the not-found page, the
 * `?__throw=` test hook), an island is its content in a plain wrapper, in one React tree.
 * The wrapper is `display: contents`, so it adds no box to the page's layout.
 */
import type { ReactElement } from 'react';

/** The islands a page may have; main.tsx has a loader for each. */
export type IslandName =
  'calculator' | 'tools' | 'hub' | 'banner' | 'notify' | 'contact' | 'consent' | 'consent-settings' | 'toasts' | 'search' | 'state-calc' | 'county-table';

/** The build's renderer of an island's content (react-dom/server, given by prerender.tsx so it never reaches the browser's bundle). */
type Renderer = (content: ReactElement, identifierPrefix: string) => string;
let renderer: Renderer | null = null;
let sequence = 0;

/** Pre-render only: render islands on their own from now on; the sequence of `useId` prefixes starts again for each page. */
export function setIslandRenderer(render: Renderer | null): void {
  renderer = render;
  sequence = 0;
}

/** The `useId` prefix of an island root: unique on the page, the same when pre-rendered and hydrated. */
export const islandPrefix = (n: number | string) => `i${n}-`;

const WRAPPER = { display: 'contents' } as const;

/** An island of the page; `as="span"` where a block would break the HTML (inside a paragraph). */
export function Island({
  name,
  props,
  as: Tag = 'div',
  children,
}: {
  name: IslandName;
  props: Record<string, unknown>;
  as?: 'div' | 'span';
  children: ReactElement;
}) {
  const json = JSON.stringify(props);
  if (renderer) {
    const n = sequence++;
    return (
      <Tag data-island={name} data-island-id={n} data-props={json} style={WRAPPER} dangerouslySetInnerHTML={{ __html: renderer(children, islandPrefix(n)) }} />
    );
  }
  return (
    <Tag data-island={name} data-props={json} style={WRAPPER}>
      {children}
    </Tag>
  );
}
