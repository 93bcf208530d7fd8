/**
 * An in-memory DuckDB database for a test file's `describe` (as engine/sql/pg-test.ts's
 * usePostgres gives a PostgreSQL server): opened before its tests, closed after them.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll } from 'vitest';

export interface TestDuckDb {
  /** The connection (made in beforeAll: read it inside a test, not when the describe is declared). */
  readonly c: DuckDBConnection;
}

export function useDuckDb(): TestDuckDb {
  let db: DuckDBInstance | undefined;
  let connection: DuckDBConnection | undefined;
  beforeAll(async () => {
    db = await DuckDBInstance.create(':memory:');
    connection = await db.connect();
  });
  afterAll(() => {
    connection?.closeSync();
    db?.closeSync();
  });
  return {
    get c() {
      if (!connection) throw new Error('useDuckDb: no connection outside a test (it is made in beforeAll)');
      return connection;
    },
  };
}
