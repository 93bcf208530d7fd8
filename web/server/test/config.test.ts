import { describe, expect, it } from 'vitest';
import { DEFAULT_SITES, editionForHost, hostName, optionsFromEnv, parseSites, resolveServerOptions, siteLines } from '../config.js';

describe('editionForHost with the default map', () => {
  it.each([
    ['ny.localhost', 'NY'],
    ['ny.localhost:8080', 'NY'],
    ['TX.LOCALHOST:8080', 'TX'],
    ['ca.localhost.', 'CA'],
    ['fl.localhost:0', 'FL'],
    ['127.0.0.1:8080', 'HUB'],
    ['localhost', 'HUB'],
    ['[::1]:8080', 'HUB'],
    ['example.org', 'HUB'],
    ['ny.localhost.example.org', 'HUB'],
    ['', 'HUB'],
    [undefined, 'HUB'],
  ])('%s -> %s', (host, edition) => {
    expect(editionForHost(host, DEFAULT_SITES)).toBe(edition);
  });

  it('strips the port and a trailing dot, keeps IPv6 brackets', () => {
    expect(hostName('Ny.Localhost:8080')).toBe('ny.localhost');
    expect(hostName('[::1]:8080')).toBe('[::1]');
    expect(hostName('[::1]')).toBe('[::1]');
    expect(hostName('example.org.')).toBe('example.org');
  });
});

describe('parseSites (PTAX_SITES)', () => {
  it('reads host=CODE entries; hosts without case, codes in any case, spaces and a trailing comma ignored', () => {
    const sites = parseSites(' NY.example.org=NY, tx.example.org = tx ,www.example.org=HUB,');
    expect([...sites]).toEqual([
      ['ny.example.org', 'NY'],
      ['tx.example.org', 'TX'],
      ['www.example.org', 'HUB'],
    ]);
    expect(editionForHost('tx.example.org:443', sites)).toBe('TX');
    expect(editionForHost('ny.localhost', sites)).toBe('HUB'); // the default map is replaced
    expect(editionForHost('ca.example.org', sites)).toBe('HUB');
  });

  it('lets several hosts share an edition', () => {
    expect([...parseSites('a.example=FL,b.example=FL')]).toEqual([
      ['a.example', 'FL'],
      ['b.example', 'FL'],
    ]);
  });

  it.each([
    ['ny.example.org', /has no "="/],
    ['ny.example.org=NY,tx.example.org', /"tx.example.org" has no "="/],
    ['ny.example.org=ZZ', /unknown edition "ZZ"/],
    ['ny.example.org=', /unknown edition ""/],
    ['=NY', /"" is not a host name/],
    ['https://ny.example.org=NY', /is not a host name/],
    ['ny.example.org:8080=NY', /is not a host name/],
    ['ny.example.org/x=NY', /is not a host name/],
    ['ny.example.org=NY,NY.example.org=TX', /"ny.example.org" is listed twice/],
    [' , ', /got " , "/],
  ])('refuses %j', (raw, message) => {
    expect(() => parseSites(raw)).toThrow(RangeError);
    expect(() => parseSites(raw)).toThrow(message);
    expect(() => parseSites(raw)).toThrow(/^PTAX_SITES must be host=CODE entries separated by commas, CODE one of NY, TX, CA, FL, HUB/);
  });
});

describe('optionsFromEnv and resolveServerOptions', () => {
  it('uses the default map without PTAX_SITES (or with it empty)', () => {
    expect(optionsFromEnv({}).server.sites).toBeUndefined();
    expect(optionsFromEnv({ PTAX_SITES: '' }).server.sites).toBeUndefined();
    expect(resolveServerOptions({}).sites).toBe(DEFAULT_SITES);
  });

  it('reads PTAX_SITES', () => {
    const { server } = optionsFromEnv({ PTAX_SITES: 'ny.example.org=NY' });
    expect(resolveServerOptions(server).sites).toEqual(new Map([['ny.example.org', 'NY']]));
  });

  it('throws one line on a bad PTAX_SITES (main.ts prints it and exits 1)', () => {
    expect(() => optionsFromEnv({ PTAX_SITES: 'ny.example.org=XX' })).toThrow(/^PTAX_SITES must be [^\n]*unknown edition "XX"$/);
  });
});

describe('siteLines', () => {
  it('lists the default editions on the port the server listens on, the hub at its address', () => {
    expect(siteLines(DEFAULT_SITES, 'http://127.0.0.1:8080')).toEqual([
      'The calculators (Spanish under /es; API under /api; Ctrl-C to stop):',
      '  New York    http://ny.localhost:8080/',
      '  Texas       http://tx.localhost:8080/',
      '  California  http://ca.localhost:8080/',
      '  Florida     http://fl.localhost:8080/',
      '  Hub         http://127.0.0.1:8080/',
    ]);
  });

  it('follows PTAX_SITES: only the hosts it lists, the hub at its own host when it has one', () => {
    expect(siteLines(parseSites('tx.example.org=TX,www.example.org=HUB,ny.example.org=NY'), 'http://[::1]:3000')).toEqual([
      'The calculators (Spanish under /es; API under /api; Ctrl-C to stop):',
      '  New York  http://ny.example.org:3000/',
      '  Texas     http://tx.example.org:3000/',
      '  Hub       http://www.example.org:3000/',
    ]);
    expect(siteLines(parseSites('fl.example.org=FL'), 'http://[::1]:3000').slice(1)).toEqual([
      '  Florida  http://fl.example.org:3000/',
      '  Hub      http://[::1]:3000/',
    ]);
  });
});
