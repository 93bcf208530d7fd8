/**
 * County look-up (rules reference §1): slugs, the nearest names an unknown county
 * suggests, and the message that lists them. NY county names from rules/ny/counties.yaml.
 */
import { describe, expect, it } from 'vitest';
import { readBundle } from '../build/bundle.js';
import { countyKey, findCounty, slugOf, suggest } from './counties.js';
import { PtaxError } from './errors.js';
import type { CountyDef, StateDef } from './types.js';

const BUNDLE = readBundle('dist/rules/bundle.json');
const NY = BUNDLE.states.NY!;
const FL = BUNDLE.states.FL!;
const TX = BUNDLE.states.TX!;

function unknown(state: StateDef, query: string): PtaxError {
  try {
    findCounty(state, query);
  } catch (e) {
    expect(e).toBeInstanceOf(PtaxError);
    return e as PtaxError;
  }
  throw new Error(`expected ${query} to be unknown`);
}

describe('slugOf', () => {
  it.each([
    ['Kings County', 'kings'],
    ['Kings  County', 'kings'], //        more than one space before "County"
    ['Kings\tCounty', 'kings'],
    ['"Kings"', 'kings'], //              punctuation at either end is dropped
    ['(St. Lawrence County)', 'st-lawrence-county'], // "County" is not last here
    ['St. Lawrence.', 'st-lawrence'],
    ['Kings County Road', 'kings-county-road'], // only a final " County" is dropped
    ['Countyline', 'countyline'],
    ['County', 'county'],
  ])('%j → %s', (name, slug) => {
    expect(slugOf(name)).toBe(slug);
  });
});

describe('findCounty', () => {
  it('a county or the alias, by name, short name or slug', () => {
    expect(findCounty(NY, 'St. Lawrence County').county!.slug).toBe('st-lawrence');
    expect(findCounty(NY, '"Kings"').county!.name).toBe('Kings County');
    expect(findCounty(NY, 'new york city').alias!.program).toBe('ny.nyc');
    expect(findCounty(NY, 'New York').county!.name).toBe('New York County');
  });

  it('two suggestions are listed with a comma', () => {
    const e = unknown(NY, 'bro');
    expect(e.code).toBe('UNKNOWN_COUNTY');
    // "bro" begins "bronx" and "broome": both count as distance 1.
    expect(e.message).toBe('Unknown county "bro" in NY. Did you mean Bronx, Broome? (see: ptax counties --state NY)');
    expect(e.details).toEqual({ suggestions: ['Bronx', 'Broome'] });
    expect(unknown(NY, 'Ne').message).toBe('Unknown county "Ne" in NY. Did you mean New York, New York City? (see: ptax counties --state NY)');
  });

  it('a query that begins with a county name suggests it: "Kings Borough" → Kings', () => {
    // "kings-borough" is 8 edits from "kings", but begins with it.
    expect(unknown(NY, 'Kings Borough').details).toEqual({ suggestions: ['Kings'] });
    // "borough-of-kings" ends with "kings" but does not begin with it: nothing near.
    expect(unknown(NY, 'Borough of Kings').details).toEqual({ suggestions: [] });
  });

  it('suggestions drop only a final " County" from a county name', () => {
    const county = (name: string, slug: string): CountyDef => ({ name, slug, fips: '00000', rates: [], flags: [] });
    const state = {
      ...NY,
      code: 'ZZ',
      counties: [county('Twin County Lakes County', 'twin-county-lakes'), county('Albany County', 'albany')],
      aliases: [],
    } as StateDef;
    expect(unknown(state, 'Twin County Lake').message).toBe(
      'Unknown county "Twin County Lake" in ZZ. Did you mean Twin County Lakes? (see: ptax counties --state ZZ)',
    );
  });
});

describe('suggest', () => {
  it('at most three names: the nearest, then by name', () => {
    // All four begin with "bro" (distance 1); the first three by name.
    expect(suggest('bro', ['Broome', 'Bronx', 'Brooklyn', 'Bronxville', 'Albany'])).toEqual(['Bronx', 'Bronxville', 'Brooklyn']);
    // "bronx": 0 from Bronx, 1 from Bronxville (a prefix), 3 from Broome (limit 2).
    expect(suggest('Bronx', ['Broome', 'Bronxville', 'Bronx'])).toEqual(['Bronx', 'Bronxville']);
  });

  it('the limit grows with the query: a third of its length, at least 2', () => {
    // "westchster" (10 letters, limit 3) is 1 from "westchester"; "rensselaer" vs "renselear": 2.
    expect(suggest('Westchster', ['Westchester', 'Albany'])).toEqual(['Westchester']);
    expect(suggest('Renselear', ['Rensselaer'])).toEqual(['Rensselaer']);
    expect(suggest('abc', ['xyz'])).toEqual([]);
    expect(suggest('  ', ['Albany'])).toEqual([]);
  });
});

describe('countyKey: spellings of one name', () => {
  it.each([
    ['Saint Lucie', 'stlucie'],
    ['St Lucie', 'stlucie'],
    ['St. Lucie County', 'stlucie'],
    ['Ste. Lucie', 'stlucie'],
    ['ST.LUCIE', 'stlucie'],
    ['De Witt', 'dewitt'],
    ['DeWitt County', 'dewitt'],
    ['Miami Dade', 'miamidade'],
    ['Miami-Dade', 'miamidade'],
    ["O'Brien", 'obrien'],
    ['O\u2019Brien County', 'obrien'],
    ['Doña Ana', 'donaana'],
    ['Stephens', 'stephens'], // "St" only as a word
    ['Saintly', 'saintly'],
    ['Kings County Road', 'kingscountyroad'], // only a final "County" goes
  ])('%j → %s', (name, key) => {
    expect(countyKey(name)).toBe(key);
  });
});

describe('findCounty with other spellings', () => {
  it.each([
    [FL, 'Saint Lucie', 'St. Lucie County'],
    [FL, 'St Lucie', 'St. Lucie County'],
    [FL, 'Ste Lucie', 'St. Lucie County'],
    [FL, 'saint johns county', 'St. Johns County'],
    [FL, 'Miami Dade', 'Miami-Dade County'],
    [TX, 'De Witt', 'DeWitt County'],
    [TX, 'Dewitt', 'DeWitt County'],
    [NY, 'Saint Lawrence', 'St. Lawrence County'],
  ])('%s %j → %s', (state, query, name) => {
    expect(findCounty(state, query).county?.name).toBe(name);
  });

  it('no two counties or aliases of a state share a key (so no real spelling is ambiguous)', () => {
    for (const state of Object.values(BUNDLE.states)) {
      const keys = [...state.counties.map((c) => countyKey(c.name)), ...state.aliases.map((a) => countyKey(a.name))];
      expect(new Set(keys).size, state.code).toBe(keys.length);
    }
  });

  it('a spelling that fits two places is an error listing both', () => {
    const county = (name: string, slug: string): CountyDef => ({ name, slug, fips: '00000', rates: [], flags: [] });
    const state = { ...NY, code: 'ZZ', counties: [county('St. Mary County', 'st-mary'), county('Saint Mary County', 'saint-mary')], aliases: [] } as StateDef;
    // The exact name (its slug) still finds its own county.
    expect(findCounty(state, 'Saint Mary').county!.slug).toBe('saint-mary');
    let error: PtaxError | undefined;
    try {
      findCounty(state, 'Ste Mary');
    } catch (e) {
      error = e as PtaxError;
    }
    expect(error?.code).toBe('AMBIGUOUS_COUNTY');
    expect(error?.message).toBe('"Ste Mary" could be more than one county in ZZ: Saint Mary, St. Mary. Please write the full name');
    expect(error?.details).toEqual({ candidates: ['Saint Mary', 'St. Mary'] });
  });
});
