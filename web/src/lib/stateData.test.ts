/** The edition's data package loads by code; when it fails, the Texas package is loaded (seed 000 §1). */
import { describe, expect, it, vi } from 'vitest';
import { defaultLoaders, FALLBACK_STATE, loadStateData, toBundle } from './stateData.js';
import { fullBundle, statePackage } from '../test/edition.js';

const ny = statePackage('NY');
// A stand-in Texas package (the bundle may not have Texas yet): the NY package relabelled.
const tx = { ...ny, code: 'TX', state: { ...ny.state, code: 'TX', name: { en: 'Texas', es: 'Texas' } } };

describe('state data loading', () => {
  it("each county of each state reaches the engine as the rules have it (a slug the package leaves out is its name's), FIPS codes aside", () => {
    for (const code of Object.keys(fullBundle.states)) {
      const counties = fullBundle.states[code]!.counties.map(({ fips: _fips, ...c }) => c);
      expect(toBundle(statePackage(code)).states[code]!.counties, code).toEqual(counties);
    }
    expect(statePackage('TX').state.counties.find((c) => c.name === 'Harris County')).not.toHaveProperty('slug');
    expect(toBundle(statePackage('TX')).states.TX!.counties.find((c) => c.name === 'Harris County')!.slug).toBe('harris');
  });

  it('the build writes a package per state, NY included, and only what NY uses', () => {
    expect(Object.keys(defaultLoaders)).toContain('NY');
    expect(Object.keys(ny.programs).sort()).toEqual(['ny.nyc', 'ny.outside']);
    expect(Object.keys(ny.parameters).every((id) => id.startsWith('ny.'))).toBe(true);
    expect(ny.state.counties).toHaveLength(62);
    expect(Object.keys(toBundle(ny).states)).toEqual(['NY']);
  });

  it('loads the requested state', async () => {
    const loaders = { NY: vi.fn(async () => ny), TX: vi.fn(async () => tx) };
    const r = await loadStateData('NY', loaders);
    expect(r.fellBack).toBe(false);
    expect(r.pkg.state.code).toBe('NY');
    expect(loaders.TX).not.toHaveBeenCalled();
  });

  it('falls back to Texas when the import fails', async () => {
    const loaders = {
      NY: vi.fn(async () => {
        throw new Error('chunk failed');
      }),
      TX: vi.fn(async () => tx),
    };
    const r = await loadStateData('NY', loaders);
    expect(FALLBACK_STATE).toBe('TX');
    expect(r.fellBack).toBe(true);
    expect(r.requested).toBe('NY');
    expect(r.pkg.state.code).toBe('TX');
  });

  it('falls back to Texas when the package is missing or malformed', async () => {
    expect((await loadStateData('CA', { TX: async () => tx })).pkg.state.code).toBe('TX');
    expect((await loadStateData('NY', { NY: async () => ({}), TX: async () => tx })).fellBack).toBe(true);
  });

  it('fails when Texas fails too', async () => {
    await expect(
      loadStateData('NY', {
        NY: async () => {
          throw new Error('x');
        },
      }),
    ).rejects.toThrow(/TX/);
  });
});
