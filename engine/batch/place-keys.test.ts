/**
 * The batch reader's table of places by the bytes of a row's state, county and year
 * cells: every key added is found again with its own place, keys that differ only in
 * where one cell ends and the next begins are different keys, the arena grows, and the
 * table starts again (bounded) past its limit.
 */
import { describe, expect, it } from 'vitest';
import { PlaceKeys } from './reader.js';
import type { Place } from './batch.js';

/** A line "state,county,year" as bytes with the cells' bounds, as fastRow passes them. */
function cells(state: string, county: string, year: string): [Buffer, number, number, number, number, number, number] {
  const b = Buffer.from(`${state},${county},${year}`, 'utf8');
  const cs = state.length + 1;
  const ys = cs + Buffer.byteLength(county) + 1;
  return [b, 0, state.length, cs, cs + Buffer.byteLength(county), ys, b.length];
}
const placeOf = (name: string) => ({ countyName: name }) as unknown as Place;

describe('PlaceKeys', () => {
  it('finds each key it was given, with its own place, and nothing else', () => {
    const keys = new PlaceKeys();
    const rows: Array<[string, string, string]> = [
      ['NY', 'Kings County', ''],
      ['NY', 'Kings', ''],
      ['NY', 'Kings County', '2025'],
      ['TX', 'Harris', '2024'],
      ['CA', 'Los Ángeles', ''],
      ['', '', ''],
      ['FL', '', '2025'],
    ];
    expect(keys.find(...cells('NY', 'Kings County', ''))).toBe(-1);
    rows.forEach(([s, c, y], i) => keys.add(...cells(s, c, y), placeOf(`${i}`)));
    rows.forEach(([s, c, y], i) => {
      const e = keys.find(...cells(s, c, y));
      expect(e).not.toBe(-1);
      expect((keys.places[e] as Place).countyName).toBe(`${i}`);
    });
    for (const [s, c, y] of [
      ['NY', 'Kings Count', ''],
      ['NY', 'Kings County', '2024'],
      ['TX', 'Harris', ''],
      ['CA', 'Los Angeles', ''],
    ]) {
      expect(keys.find(...cells(s!, c!, y!))).toBe(-1);
    }
  });

  it('matches a place whatever the case of the ASCII letters of its state and county, but not an error or null, and never the year', () => {
    const keys = new PlaceKeys();
    keys.add(...cells('NY', 'Kings County', ''), placeOf('kings'));
    keys.add(...cells('TX', 'Harris', '2025'), placeOf('harris'));
    keys.add(...cells('CA', 'Los Ángeles', ''), placeOf('la'));
    const place = (s: string, c: string, y: string) => {
      const e = keys.find(...cells(s, c, y));
      return e === -1 ? undefined : (keys.places[e] as Place).countyName;
    };
    expect(place('ny', 'KINGS COUNTY', '')).toBe('kings');
    expect(place('Ny', 'kings county', '')).toBe('kings');
    expect(place('tx', 'harris', '2025')).toBe('harris');
    expect(place('ca', 'LOS Ángeles', '')).toBe('la');
    // Not the same cells: other letters, another year, a non-ASCII letter in another case, a space.
    expect(place('NY', 'Kings', '')).toBeUndefined();
    expect(place('TX', 'Harris', '2024')).toBeUndefined();
    expect(place('CA', 'Los áNGELES', '')).toBeUndefined();
    expect(place('NY ', 'Kings County', '')).toBeUndefined();
    // An error quotes the cell as written: a cell in another case is another key.
    keys.add(...cells('ZZ', 'Nowhere', ''), new Error('Unknown state "ZZ"') as never);
    keys.add(...cells('OK', 'X', ''), null);
    expect(keys.places[keys.find(...cells('ZZ', 'Nowhere', ''))]).toBeInstanceOf(Error);
    expect(keys.find(...cells('zz', 'Nowhere', ''))).toBe(-1);
    expect(keys.find(...cells('ZZ', 'nowhere', ''))).toBe(-1);
    expect(keys.find(...cells('ok', 'x', ''))).toBe(-1);
    keys.add(...cells('zz', 'Nowhere', ''), new Error('Unknown state "zz"') as never);
    expect((keys.places[keys.find(...cells('zz', 'Nowhere', ''))] as unknown as Error).message).toBe('Unknown state "zz"');
    expect((keys.places[keys.find(...cells('ZZ', 'Nowhere', ''))] as unknown as Error).message).toBe('Unknown state "ZZ"');
  });

  it('tells apart keys whose bytes are the same but split differently between the cells', () => {
    const keys = new PlaceKeys();
    keys.add(...cells('NY', 'Kings', ''), placeOf('a'));
    expect(keys.find(...cells('NYK', 'ings', ''))).toBe(-1);
    expect(keys.find(...cells('NY', 'King', 's'))).toBe(-1);
    expect(keys.find(...cells('', 'NYKings', ''))).toBe(-1);
    keys.add(...cells('NYK', 'ings', ''), placeOf('b'));
    expect((keys.places[keys.find(...cells('NY', 'Kings', ''))] as Place).countyName).toBe('a');
    expect((keys.places[keys.find(...cells('NYK', 'ings', ''))] as Place).countyName).toBe('b');
  });

  it('keeps errors and nulls as places, and finds keys added across a growing arena', () => {
    const keys = new PlaceKeys();
    const long = 'x'.repeat(5000);
    for (let i = 0; i < 40; i++) keys.add(...cells('TX', `${long}${i}`, ''), i % 2 ? null : (new Error(`e${i}`) as never));
    for (let i = 0; i < 40; i++) {
      const p = keys.places[keys.find(...cells('TX', `${long}${i}`, ''))];
      if (i % 2) expect(p).toBeNull();
      else expect((p as unknown as Error).message).toBe(`e${i}`);
    }
  });

  it('starts again past its limit, and still finds what was added since', () => {
    const keys = new PlaceKeys();
    const n = PlaceKeys.MAX_KEYS;
    for (let i = 0; i < n; i++) keys.add(...cells('FL', `c${i}`, ''), placeOf(`${i}`));
    expect((keys.places[keys.find(...cells('FL', 'c0', ''))] as Place).countyName).toBe('0');
    expect((keys.places[keys.find(...cells('FL', `c${n - 1}`, ''))] as Place).countyName).toBe(`${n - 1}`);
    keys.add(...cells('FL', 'one more', ''), placeOf('new'));
    expect(keys.find(...cells('FL', 'c0', ''))).toBe(-1);
    expect(keys.places.length).toBe(1);
    expect((keys.places[keys.find(...cells('FL', 'one more', ''))] as Place).countyName).toBe('new');
  });
});
