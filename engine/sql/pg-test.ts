/**
 * A throw-away PostgreSQL server for a test file's `describe` (engine/sql/pg-server.ts):
 * started before its tests and stopped after them; not under mutation testing (a server
 * start per mutant would dominate the run) nor where there is no PostgreSQL, and then each
 * test that asks for it is skipped with the reason.
 */
import { afterAll, beforeAll, type TestContext } from 'vitest';
import { startPostgres, type Postgres } from './pg-server.js';

export interface TestPostgres {
  /** The server, or undefined after skipping the test `ctx` with the reason (a warning too). */
  serverOr(ctx: TestContext): Postgres | undefined;
}

export function usePostgres(): TestPostgres {
  let server: Postgres | undefined;
  let why = '';
  beforeAll(async () => {
    if (process.env.PTAX_MUTATION) {
      why = 'mutation run';
      return;
    }
    try {
      server = await startPostgres();
    } catch (e) {
      why = (e as Error).message;
    }
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });
  return {
    serverOr(ctx) {
      if (server) return server;
      console.warn(`PostgreSQL: skipped (${why})`);
      ctx.skip();
      return undefined;
    },
  };
}
