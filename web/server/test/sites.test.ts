import { afterEach, describe, expect, it } from 'vitest';
import { parseSites } from '../config.js';
import { startTestServer, type TestServer } from './helpers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("GET /api/sites (the hub's links)", () => {
  it('gives each edition its default *.localhost host with the port of the request', async () => {
    server = await startTestServer();
    const res = await server.app.inject({ method: 'GET', url: '/api/sites', headers: { host: '127.0.0.1:8080' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      sites: { NY: 'http://ny.localhost:8080/', TX: 'http://tx.localhost:8080/', CA: 'http://ca.localhost:8080/', FL: 'http://fl.localhost:8080/' },
    });
  });

  it('follows PTAX_SITES: the first host of each edition, no port when the request has none; unmapped editions are left out', async () => {
    server = await startTestServer({ sites: parseSites('www.example.org=HUB,tx.example.org=TX,texas.example.org=TX,florida.example.org=FL') });
    const res = await server.app.inject({ method: 'GET', url: '/api/sites', headers: { host: 'www.example.org' } });
    expect(res.json()).toEqual({ sites: { TX: 'http://tx.example.org/', FL: 'http://florida.example.org/', HUB: 'http://www.example.org/' } });
  });
});
