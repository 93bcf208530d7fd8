/**
 * The calculation of a hub state page (issue 26): the state's own data package (its chunk,
 * loaded only here) and the editions' model/engine path (lib/model.ts `calculate`), so the
 * figure is the engine's, the same cents as `ptax calc`. Its own chunk, loaded by the
 * calculator island.
 */
import { defaultLoaders, loadStateData, type PackageLoaders } from '../../lib/stateData.js';
import { calculate, defaultForm, makeEdition, type Edition, type ResultView } from '../../lib/model.js';
import type { Lang } from '../../lib/format.js';

const editions = new Map<string, Promise<Edition>>();

/** The state's edition (its package loaded once); never another state's in its place. */
export function stateEdition(code: string, loaders: PackageLoaders = defaultLoaders): Promise<Edition> {
  let e = editions.get(code);
  if (!e) {
    const load = loaders[code];
    // Only this state's loader: a failure is an error, not Texas's figures (stateData's fallback).
    e = loadStateData(code, load ? { [code]: load } : {}).then((loaded) => makeEdition(loaded.bundle));
    e.catch(() => editions.delete(code));
    editions.set(code, e);
  }
  return e;
}

export interface Estimate {
  view: ResultView;
  /** The county's name as the rules give it, and its slug. */
  county: string;
  slug: string;
  /** The county's median effective rate (percent), a comparison. */
  countyRate: number | null;
}

/** The engine's result for a home of `value` dollars in the county `slug`; a PtaxError (message in `lang`) when the rules give none. */
export async function estimate(code: string, slug: string, value: number, lang: Lang, loaders?: PackageLoaders): Promise<Estimate> {
  const edition = await stateEdition(code, loaders);
  const c = edition.counties.find((x) => x.slug === slug);
  const view = calculate(edition, { ...defaultForm(edition), county: c?.name ?? slug, homeValue: value }, lang);
  return { view, county: c?.name ?? slug, slug, countyRate: c ? (c.typicalRate ?? c.rate) : null };
}
