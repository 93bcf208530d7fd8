/** The directory's search matches county names as the CLI does (engine countyKey). */
import { describe, expect, it } from 'vitest';
import { statePackage } from '../../test/edition.js';
import { toBundle } from '../../lib/stateData.js';
import { makeEdition } from '../../lib/model.js';
import { filterCounties } from './CountyDirectory.js';

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
