/** The fetch wrapper's rules (seed 001 §7): when api_error and network_error are reported, and what they carry. */
import { describe, expect, it, vi } from 'vitest';
import { installFetchWrapper, isAdUrl, isApiError, isAssetUrl, isNetworkError, reportableUrl, wrapFetch } from './fetchWrapper.js';

const answering = (status: number) => vi.fn(async () => new Response('{}', { status }));
const throwing = (e: unknown) =>
  vi.fn(async () => {
    throw e;
  });

describe('api_error', () => {
  it.each([[400], [403], [409], [429]])('a %d answer is reported with its path, method and status', async (status) => {
    const report = vi.fn();
    const f = wrapFetch(answering(status) as unknown as typeof fetch, report);
    const res = await f('/api/newsletter/subscribe?email=a@b.c', { method: 'post' });
    expect(res.status).toBe(status);
    expect(report.mock.calls).toEqual([['api_error', { url: '/api/newsletter/subscribe', method: 'POST', status }]]);
  });

  it('a 404, a 5xx and an OK answer are not api_error', () => {
    expect(isApiError('/api/x', 404, false)).toBe(false);
    expect(isApiError('/api/x', 500, false)).toBe(false);
    expect(isApiError('/api/x', 503, false)).toBe(false);
    expect(isApiError('/api/x', 200, true)).toBe(false);
    expect(isApiError('/api/x', 400, false)).toBe(true);
  });

  it('ad and asset URLs are not api_error', () => {
    expect(isApiError('https://securepubads.g.doubleclick.net/gampad/ads?x=1', 403, false)).toBe(false);
    expect(isApiError('https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js', 400, false)).toBe(false);
    expect(isApiError('/assets/index-abc123.js', 403, false)).toBe(false);
    expect(isApiError('/logo.png?v=2', 401, false)).toBe(false);
    expect(isApiError('/fonts/inter.woff2', 410, false)).toBe(false);
    expect(isAdUrl('/api/contact')).toBe(false);
    expect(isAssetUrl('/api/contact')).toBe(false);
  });
});

describe('network_error', () => {
  it('a thrown fetch is reported and the same exception reaches the caller', async () => {
    const report = vi.fn();
    const boom = new TypeError('Failed to fetch');
    const f = wrapFetch(throwing(boom) as unknown as typeof fetch, report, { base: 'https://tx.example.com/es/contacto' });
    await expect(f('https://tx.example.com/api/contact')).rejects.toBe(boom);
    expect(report.mock.calls).toEqual([['network_error', { url: '/api/contact', method: 'GET', error_type: 'TypeError' }]]);
  });

  it('not for ad URLs nor the indexing-notification path', () => {
    const e = new TypeError('Failed to fetch');
    expect(isNetworkError('https://googleads.g.doubleclick.net/pagead/id', e)).toBe(false);
    expect(isNetworkError('/api/indexnow', e)).toBe(false);
    expect(isNetworkError('https://api.indexnow.org/indexnow?url=x', e)).toBe(false);
    expect(isNetworkError('/api/newsletter/subscribe', e)).toBe(true);
  });

  it('not for an abort the page asked for', () => {
    expect(isNetworkError('/api/contact', new DOMException('aborted', 'AbortError'))).toBe(false);
  });

  it('URLs of another origin keep their origin, never their query or fragment', () => {
    expect(reportableUrl('https://api.example.org/v1/x?zip=10001#a', 'https://ny.example.com/')).toBe('https://api.example.org/v1/x');
    expect(reportableUrl('/api/x?value=350000')).toBe('/api/x');
  });

  it('ignored URLs (the error-reporting endpoint) are never reported', async () => {
    const report = vi.fn();
    const f = wrapFetch(answering(429) as unknown as typeof fetch, report, { ignore: (u) => u.includes('ingest.sentry.io') });
    await f('https://o1.ingest.sentry.io/api/1/envelope/');
    expect(report).not.toHaveBeenCalled();
  });

  it('a reporter that throws changes nothing for the caller', async () => {
    const f = wrapFetch(answering(400) as unknown as typeof fetch, () => {
      throw new Error('x');
    });
    expect((await f('/api/x')).status).toBe(400);
  });
});

describe('installing on a window', () => {
  it('replaces fetch once, calls the original with the window as this, and can be removed', async () => {
    const calls: unknown[] = [];
    const win = {
      location: { href: 'https://fl.example.com/' },
      fetch: function (this: unknown, _u: string) {
        calls.push(this);
        return Promise.resolve(new Response('', { status: 400 }));
      },
    } as unknown as Window;
    const original = win.fetch;
    const report = vi.fn();
    const off = installFetchWrapper(win, report);
    const offAgain = installFetchWrapper(win, report); // no double wrapping
    await win.fetch('/api/x');
    expect(calls).toEqual([win]);
    expect(report).toHaveBeenCalledTimes(1);
    offAgain();
    off();
    expect(win.fetch).toBe(original);
  });
});
