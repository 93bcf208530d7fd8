import { describe, expect, it } from 'vitest';
import { DEFAULT_SITES, editionForHost, hostName, optionsFromEnv, parseSites, parseTrustProxy, resolveServerOptions, siteLines } from '../config.js';

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
    expect(() => parseSites(raw)).toThrow(/^PTAX_SITES must be host=CODE entries separated by commas, CODE one of CA, FL, NY, TX, HUB/);
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
      '  California  http://ca.localhost:8080/',
      '  Florida     http://fl.localhost:8080/',
      '  New York    http://ny.localhost:8080/',
      '  Texas       http://tx.localhost:8080/',
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

describe('the mail, proxy and timeout settings', () => {
  it('reads every variable, with the defaults for those not set', () => {
    const { server, shutdownGraceMs } = optionsFromEnv({
      PTAX_SMTP_URL: 'smtp://user:pw@mail.example.org:587',
      PTAX_MAIL_DIR: '/var/mail/ptax',
      PTAX_MAIL_FROM: 'News <news@example.org>',
      PTAX_PUBLIC_URL: 'https://www.example.org/',
      PTAX_TOKEN_DAYS: '3',
      PTAX_PENDING_DAYS: '14',
      PTAX_RETENTION_DAYS: '180',
      PTAX_MAILS_PER_ADDRESS_PER_HOUR: '2',
      PTAX_MAIL_RETRY_MS: '1000',
      PTAX_MAIL_RETRY_MAX_MS: '60000',
      PTAX_MAIL_TIMEOUT_MS: '5000',
      PTAX_MAIL_POLL_MS: '2000',
      PTAX_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
      PTAX_REQUEST_TIMEOUT_MS: '8000',
      PTAX_HEADERS_TIMEOUT_MS: '4000',
      PTAX_KEEPALIVE_TIMEOUT_MS: '3000',
      PTAX_SOCKET_TIMEOUT_MS: '9000',
      PTAX_SHUTDOWN_GRACE_MS: '6000',
    });
    expect(server).toMatchObject({
      smtpUrl: 'smtp://user:pw@mail.example.org:587',
      mailDir: '/var/mail/ptax',
      mailFrom: 'News <news@example.org>',
      publicUrl: 'https://www.example.org',
      tokenDays: 3,
      pendingDays: 14,
      retentionDays: 180,
      mailsPerAddressPerHour: 2,
      mailRetryBaseMs: 1000,
      mailRetryMaxMs: 60000,
      mailTimeoutMs: 5000,
      mailPollMs: 2000,
      trustProxy: ['10.0.0.0/8', '127.0.0.1'],
      requestTimeoutMs: 8000,
      headersTimeoutMs: 4000,
      keepAliveTimeoutMs: 3000,
      socketTimeoutMs: 9000,
    });
    expect(shutdownGraceMs).toBe(6000);
    const defaults = resolveServerOptions({ dbPath: '/srv/ptax/db.sqlite' }, '/repo');
    expect(defaults).toMatchObject({
      mailDir: '/srv/ptax/mail', // next to the database: ./data/mail with the default PTAX_DB
      tokenDays: 7,
      pendingDays: 30,
      retentionDays: 365,
      trustProxy: false,
      requestTimeoutMs: 10_000,
      headersTimeoutMs: 5_000,
    });
    expect(defaults.smtpUrl).toBeUndefined();
    expect(resolveServerOptions({}, '/repo').mailDir).toBe('/repo/data/mail');
    expect(optionsFromEnv({}).shutdownGraceMs).toBe(10_000);
  });

  it.each([
    ['', false],
    ['off', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['loopback', ['loopback']],
    ['127.0.0.1', ['127.0.0.1']],
    ['::1, fd00::/8', ['::1', 'fd00::/8']],
  ])('PTAX_TRUST_PROXY=%j -> %j', (raw, expected) => {
    expect(parseTrustProxy(raw)).toEqual(expected);
  });

  it.each([
    [{ PTAX_TRUST_PROXY: 'yes' }, /PTAX_TRUST_PROXY must be off, a hop count or a list/],
    [{ PTAX_TRUST_PROXY: '11' }, /hop count of at most 10/],
    [{ PTAX_TRUST_PROXY: 'proxy.example.org' }, /"proxy.example.org" is none of these/],
    [{ PTAX_PUBLIC_URL: 'www.example.org' }, /PTAX_PUBLIC_URL must be an http/],
    [{ PTAX_PUBLIC_URL: 'https://www.example.org/path' }, /PTAX_PUBLIC_URL must be an http/],
    [{ PTAX_PUBLIC_URL: 'ftp://www.example.org' }, /PTAX_PUBLIC_URL must be an http/],
    [{ PTAX_TOKEN_DAYS: '0' }, /PTAX_TOKEN_DAYS must be an integer between 1 and 365/],
    [{ PTAX_RETENTION_DAYS: 'forever' }, /PTAX_RETENTION_DAYS must be an integer/],
    [{ PTAX_REQUEST_TIMEOUT_MS: '-1' }, /PTAX_REQUEST_TIMEOUT_MS must be an integer/],
    [{ PTAX_SHUTDOWN_GRACE_MS: '10' }, /PTAX_SHUTDOWN_GRACE_MS must be an integer between 1000/],
  ])('refuses %j', (env, message) => {
    expect(() => optionsFromEnv(env)).toThrow(message);
  });
});
