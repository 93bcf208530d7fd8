import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badInputCorpus } from './bad-input-corpus.js';
import { PATHS, VALID, postJson, queryRows, send, startTestServer, type TestServer } from './helpers.js';

const corpus = badInputCorpus();

describe('bad-input corpus', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ rateLimitPerMinute: 100_000 });
  });
  afterAll(async () => {
    await server.close();
  });

  it('has at least 200 distinct cases', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(200);
    expect(new Set(corpus.map((c) => c.name)).size).toBe(corpus.length);
  });

  it('answers every case 4xx with a JSON {error, message, status}', async () => {
    const wrong: string[] = [];
    for (const { name, request } of corpus) {
      const res = await send(server.baseUrl, request);
      const body = res.json as { error?: unknown; message?: unknown; status?: unknown } | undefined;
      const ok =
        res.status >= 400 &&
        res.status < 500 &&
        String(res.headers['content-type']).startsWith('application/json') &&
        typeof body?.error === 'string' &&
        typeof body.message === 'string' &&
        body.message.length > 0 &&
        body.status === res.status;
      if (!ok) wrong.push(`${name}: ${res.status} ${res.text.slice(0, 200)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('stored nothing and is still healthy afterwards', async () => {
    expect(
      queryRows(
        server.dbPath,
        'SELECT (SELECT count(*) FROM subscribers) AS s, (SELECT count(*) FROM notify_requests) AS n, (SELECT count(*) FROM contact_messages) AS c',
      ),
    ).toEqual([{ s: 0, n: 0, c: 0 }]);
    expect((await send(server.baseUrl, { path: '/healthz' })).status).toBe(200);
    const res = await postJson(server.baseUrl, PATHS.subscribe, VALID.popup);
    expect(res.status).toBe(200);
    expect(queryRows(server.dbPath, 'SELECT email, first_name FROM subscribers')).toEqual([{ email: 'ann@example.com', first_name: 'Ann' }]);
  });
});
