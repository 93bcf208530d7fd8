/** Posts to the site server's API; every answer is JSON {error, message, status} (web/server/README.md). */
export interface ApiAnswer {
  ok: boolean;
  message: string | null;
  error: string | null;
  status: number;
}

export async function postJson(path: string, body: unknown, fetcher: typeof fetch = fetch): Promise<ApiAnswer> {
  let res: Response;
  try {
    res = await fetcher(path, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
  } catch {
    return { ok: false, message: null, error: 'network_error', status: 0 };
  }
  let data: { error?: unknown; message?: unknown } = {};
  try {
    data = (await res.json()) as typeof data;
  } catch {
    /* not JSON: the page shows its default message */
  }
  return {
    ok: res.ok && (data.error === null || data.error === undefined),
    message: typeof data.message === 'string' && data.message ? data.message : null,
    error: typeof data.error === 'string' ? data.error : null,
    status: res.status,
  };
}
