/**
 * The global fetch wrapper (seed 001 §7): reports failures to analytics.
 * - api_error for a non-OK response, except 404, 5xx, and ad or asset URLs (the seed's
 *   exclusions, read literally: 5xx are not reported as api_error).
 * - network_error when fetch throws, except for ad URLs and the search-engine indexing
 *   notification path (IndexNow). An abort the page asked for is not a network error.
 * The wrapper never changes what the caller gets: the response is returned and the
 * exception rethrown. Only the URL's origin and path are reported, never its query.
 */
export type Report = (name: 'api_error' | 'network_error', params: Record<string, unknown>) => void;

const AD_URL =
  /(doubleclick\.net|googlesyndication\.com|googleadservices\.com|adservice\.google\.|amazon-adsystem\.com|adnxs\.com|taboola\.com|outbrain\.com|criteo\.(com|net)|\/ads?\/|adsbygoogle|\/pagead\/)/i;
const ASSET_URL = /\.(js|mjs|css|map|png|jpe?g|gif|webp|avif|svg|ico|woff2?|ttf|otf|eot|mp4|webm|mp3|json)$/i;
const INDEXING_URL = /\/indexnow(\/|$)|\/api\/indexnow/i;

function pathOf(url: string): string {
  try {
    const u = new URL(url, 'http://relative.invalid');
    return u.pathname;
  } catch {
    return url.replace(/[?#].*$/, '');
  }
}

/** The URL as reported: origin and path for another origin, path alone for a relative one. */
export function reportableUrl(url: string, base?: string): string {
  try {
    const u = new URL(url, base ?? 'http://relative.invalid');
    return u.origin === 'http://relative.invalid' || (base && u.origin === new URL(base).origin) ? u.pathname : `${u.origin}${u.pathname}`;
  } catch {
    return url.replace(/[?#].*$/, '');
  }
}

export const isAdUrl = (url: string): boolean => AD_URL.test(url);
export const isAssetUrl = (url: string): boolean => ASSET_URL.test(pathOf(url)) || /\/assets\//.test(pathOf(url));
export const isIndexingUrl = (url: string): boolean => INDEXING_URL.test(pathOf(url));

/** Whether a response is reported as api_error. */
export function isApiError(url: string, status: number, ok: boolean): boolean {
  if (ok || status === 404 || (status >= 500 && status <= 599)) return false;
  return !isAdUrl(url) && !isAssetUrl(url);
}

/** Whether a thrown fetch is reported as network_error. */
export function isNetworkError(url: string, error: unknown): boolean {
  if ((error as { name?: unknown } | null)?.name === 'AbortError') return false;
  return !isAdUrl(url) && !isIndexingUrl(url);
}

function urlOf(input: RequestInfo | URL): string {
  if (typeof input === 'string') return input;
  if (input instanceof URL) return input.href;
  return (input as Request).url;
}

function methodOf(input: RequestInfo | URL, init?: RequestInit): string {
  return (init?.method ?? (typeof input === 'object' && 'method' in input ? input.method : 'GET')).toUpperCase();
}

/** Wraps a fetch function; `ignore` are URLs never reported (the error-reporting endpoint). */
export function wrapFetch(inner: typeof fetch, report: Report, opts: { base?: string; ignore?: (url: string) => boolean } = {}): typeof fetch {
  const wrapped = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = urlOf(input);
    const ignored = opts.ignore?.(url) ?? false;
    let res: Response;
    try {
      res = await inner(input, init);
    } catch (e) {
      if (!ignored && isNetworkError(url, e)) {
        try {
          report('network_error', {
            url: reportableUrl(url, opts.base),
            method: methodOf(input, init),
            error_type: (e as { name?: string } | null)?.name ?? 'Error',
          });
        } catch {
          /* reporting never breaks the request */
        }
      }
      throw e;
    }
    if (!ignored && isApiError(url, res.status, res.ok)) {
      try {
        report('api_error', { url: reportableUrl(url, opts.base), method: methodOf(input, init), status: res.status });
      } catch {
        /* idem */
      }
    }
    return res;
  };
  return wrapped as typeof fetch;
}

const WRAPPED = Symbol.for('ptax.fetchWrapped');

/** Replaces window.fetch once; returns the function that puts the original back. */
export function installFetchWrapper(win: Window, report: Report, opts: { ignore?: (url: string) => boolean } = {}): () => void {
  const current = win.fetch as typeof fetch & { [WRAPPED]?: true };
  if (typeof current !== 'function' || current[WRAPPED]) return () => {};
  const original = current.bind(win);
  const wrapped = wrapFetch(original, report, { base: win.location?.href, ignore: opts.ignore }) as typeof fetch & { [WRAPPED]?: true };
  wrapped[WRAPPED] = true;
  win.fetch = wrapped;
  return () => {
    if (win.fetch === wrapped) win.fetch = current;
  };
}
