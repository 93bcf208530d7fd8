/** The directory's search matches county names as the CLI does (engine countyKey). */
import { describe, expect, it } from 'vitest';
import { statePackage } from '../../test/edition.js';
import { toBundle } from '../../lib/stateData.js';
import { makeEdition } from '../../lib/model.js';
import { filterCounties } from './CountyDirectory.js';
import { rankOf, typicalOf } from '../ResultContext.js';

const names = (code: string, q: string) => filterCounties(makeEdition(toBundle(statePackage(code))).counties, q, 'name').map((c) => c.name);

describe('county directory search', () => {
  it('Saint/St., hyphens, spaces, periods and apostrophes do not matter', () => {
    expect(names('FL', 'Saint Lucie')).toEqual(['St. Lucie County']);
    expect(names('FL', 'st lucie')).toEqual(['St. Lucie County']);
    expect(names('FL', 'miami dade')).toEqual(['Miami-Dade County']);
    expect(names('TX', 'De Witt')).toEqual(['DeWitt County']);
  });
  it('a Spanish "Condado de" in front is the county', () => {
    expect(names('TX', 'Condado de Fort Bend')).toEqual(['Fort Bend County']);
  });
  it('no match: an empty list (the page then says so)', () => {
    expect(names('TX', 'Atlantis')).toEqual([]);
    expect(names('CA', '')).toHaveLength(58);
  });
});

describe('county facts (issue 24)', () => {
  const tx = makeEdition(toBundle(statePackage('TX')));
  it('population from Census Vintage 2023 (SOURCES.md §4 spot checks: Harris 4,835,125; Loving 43), sorted largest first', () => {
    expect(tx.county('Harris County')!.population).toBe(4835125);
    expect(tx.county('Loving County')!.population).toBe(43);
    const byPop = filterCounties(tx.counties, '', 'population');
    expect(byPop[0]!.name).toBe('Harris County');
    expect(byPop[byPop.length - 1]!.name).toBe('Loving County');
  });
  it('median tax paid (Harris: 4,382 in the ACS row) and the national median rate of 3,133 counties (0.8371 %, the middle one)', () => {
    expect(tx.county('Harris County')!.medianTax).toBe(4382);
    expect(tx.facts!.national).toEqual({ medianRate: 0.8371, counties: 3133 });
  });
  it('rank in the state by typical rate, highest first: as many counties above Harris (Census 1.7184 %) as rankOf says', () => {
    const r = rankOf(tx, 'Harris County')!;
    const own = typicalOf(tx.county('Harris County')!)!;
    const rated = tx.counties.filter((c) => typicalOf(c) !== null);
    expect(own).toBe(1.7184);
    expect(r).toEqual({ rank: rated.filter((c) => typicalOf(c)! > own).length + 1, count: rated.length });
  });
});
