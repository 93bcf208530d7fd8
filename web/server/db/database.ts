import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { LATEST_VERSION, migrate } from './migrations.js';

/**
 * Opens (creating if needed) the SQLite file, sets the durability pragmas and migrates it.
 * WAL lets readers (health checks, reports) run beside the writer; synchronous=FULL makes
 * every COMMIT fsync the WAL, so a committed row survives a power cut, not only a crash.
 *
 * Before anything changes the file:
 * - a new file is created readable by its owner only (0600; SQLite gives the -wal and -shm
 *   files the same mode), in a folder created 0700;
 * - the schema version is read, and a file from a newer schema is refused untouched (not
 *   switched to WAL, not migrated);
 * - the file must be writable: a read-only file (or folder) refuses the start instead of a
 *   server that answers every write with an error.
 */
export function openDatabase(path: string): Database {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  const db = new BetterSqlite3(path);
  try {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > LATEST_VERSION) {
      // A newer server wrote this file; running old code on it could corrupt data.
      throw new Error(`database schema version ${version} is newer than this server knows (${LATEST_VERSION})`);
    }
    db.pragma('busy_timeout = 5000'); // an operator's sqlite3 shell, or another server process, may hold a lock briefly
    const mode = db.pragma('journal_mode = WAL', { simple: true });
    if (mode !== 'wal') throw new Error(`could not switch ${path} to WAL mode (got ${String(mode)}); is the file or its folder read-only?`);
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    migrate(db);
    assertWritable(db, path);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** One real write (and its commit): proves the file, its folder and the disk take writes. */
export function assertWritable(db: Database, path: string): void {
  try {
    db.prepare('INSERT INTO health (id, checked_at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at').run(
      new Date().toISOString(),
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`database ${path} does not accept writes (${message})`, { cause: error });
  }
}
