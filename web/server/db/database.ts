import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { migrate } from './migrations.js';

/**
 * Opens (creating if needed) the SQLite file, sets the durability pragmas and migrates it.
 * WAL lets readers (health checks, reports) run beside the writer; synchronous=FULL makes
 * every COMMIT fsync the WAL, so a committed row survives a power cut, not only a crash.
 */
export function openDatabase(path: string): Database {
  mkdirSync(dirname(path), { recursive: true });
  const db = new BetterSqlite3(path);
  try {
    const mode = db.pragma('journal_mode = WAL', { simple: true });
    if (mode !== 'wal') throw new Error(`could not switch ${path} to WAL mode (got ${String(mode)})`);
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000'); // an operator's sqlite3 shell may hold a lock briefly
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
