import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { assertWritable, openDatabase } from '../db/database.js';
import { GroupCommitWriter, WriterClosedError } from '../db/group-commit.js';
import { LATEST_VERSION, MIGRATIONS, migrate, schemaVersion, type Migration } from '../db/migrations.js';
import { makeTempDir } from './helpers.js';

const dirs: string[] = [];
function tempDbPath(): string {
  const dir = makeTempDir('ptax-db-');
  dirs.push(dir);
  return join(dir, 'nested', 'folder', 'test.sqlite');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('openDatabase', () => {
  it('creates the folder, uses WAL with synchronous=FULL and migrates to the latest version', () => {
    const path = tempDbPath();
    const db = openDatabase(path);
    expect(existsSync(path)).toBe(true);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // 2 = FULL
    expect(schemaVersion(db)).toBe(LATEST_VERSION);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
    expect(tables).toEqual(['contact_messages', 'health', 'mail_outbox', 'notify_requests', 'rate_limits', 'subscribers', 'tokens']);
    db.close();
    // Re-opening an up-to-date file changes nothing.
    const again = openDatabase(path);
    expect(schemaVersion(again)).toBe(LATEST_VERSION);
    again.close();
  });

  it('refuses a database written by a newer schema, and leaves the file untouched (not switched to WAL)', () => {
    const path = tempDbPath();
    mkdirSync(dirname(path), { recursive: true });
    const raw = new BetterSqlite3(path);
    raw.exec('CREATE TABLE future (x)');
    raw.pragma(`user_version = ${LATEST_VERSION + 1}`);
    raw.close();
    const before = readFileSync(path);
    expect(() => openDatabase(path)).toThrow(/newer than this server knows/);
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(existsSync(`${path}-wal`)).toBe(false);
    const check = new BetterSqlite3(path, { readonly: true });
    expect(check.pragma('journal_mode', { simple: true })).toBe('delete');
    check.close();
  });

  it('creates the file readable by its owner only (0600), and its WAL too', () => {
    const path = tempDbPath();
    const db = openDatabase(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(`${path}-wal`).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    db.close();
  });

  it.skipIf(process.getuid?.() === 0)('refuses to start on a read-only file in a writable folder', () => {
    const path = tempDbPath();
    openDatabase(path).close();
    chmodSync(path, 0o400);
    expect(() => openDatabase(path)).toThrow(/read-only|readonly|does not accept writes/);
  });

  it('refuses to start on a database that cannot take writes (the probe write fails)', () => {
    const path = tempDbPath();
    openDatabase(path).close();
    // Root ignores file modes, so read-only is simulated with query_only on the probe's connection.
    const db = new BetterSqlite3(path);
    db.pragma('query_only = ON');
    expect(() => assertWritable(db, path)).toThrow(/does not accept writes \(attempt to write a readonly database\)/);
    db.close();
  });
});

describe('migration 4 (the states are data: no CHECK listing them)', () => {
  it('keeps every row of every table of a version-3 file, ids and indexes included, then takes any state the server accepts', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version <= 3),
    );
    const now = '2026-01-01T00:00:00.000Z';
    db.prepare(
      `INSERT INTO subscribers (id, email, state, first_name, language, tags, source, status, created_at, updated_at, confirmed_at)
      VALUES (4, 'ann@example.com', 'TX', 'Ann', 'es', '["county-harris"]', 'popup', 'confirmed', ?, ?, ?)`,
    ).run(now, now, now);
    db.prepare(
      `INSERT INTO notify_requests (id, email, state, language, status, created_at, updated_at) VALUES (9, 'bob@example.com', '', 'en', 'pending', ?, ?)`,
    ).run(now, now);
    db.prepare(
      `INSERT INTO contact_messages (id, name, email, subject, message, state, language, created_at) VALUES (3, 'Cy', 'cy@example.com', 'Hi', 'Hello', 'HUB', 'en', ?)`,
    ).run(now);
    db.prepare(`INSERT INTO tokens (hash, purpose, list, row_id, email, created_at) VALUES (?, 'unsubscribe', 'newsletter', 4, 'ann@example.com', ?)`).run(
      'a'.repeat(64),
      now,
    );
    db.prepare(
      `INSERT INTO mail_outbox (id, kind, recipient, message_id, message, next_attempt_at, created_at) VALUES (7, 'confirm', 'ann@example.com', 'm1', '{}', ?, ?)`,
    ).run(now, now);
    db.prepare(`INSERT INTO rate_limits (client, minute, count) VALUES ('1.2.3.4', 42, 3)`).run();
    db.prepare(`INSERT INTO health (id, checked_at) VALUES (1, ?)`).run(now);
    const tables = ['subscribers', 'notify_requests', 'contact_messages', 'tokens', 'mail_outbox', 'rate_limits', 'health'];
    const rows = () => Object.fromEntries(tables.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY 1`).all()]));
    const before = rows();
    expect(tables.every((t) => before[t]!.length === 1)).toBe(true);
    // Before: a state the CHECK does not list is refused.
    const insertOhio = () =>
      db
        .prepare(`INSERT INTO subscribers (email, state, language, source, created_at, updated_at) VALUES ('dee@example.com', 'OH', 'en', 'banner', ?, ?)`)
        .run(now, now);
    expect(insertOhio).toThrow(/CHECK constraint/);
    expect(migrate(db)).toEqual({ from: 3, to: LATEST_VERSION });
    expect(rows()).toEqual(before);
    const schema = (db.prepare(`SELECT group_concat(sql, ' ') AS s FROM sqlite_master`).get() as { s: string }).s;
    expect(schema).not.toMatch(/state\s+IN/i);
    expect(schema).toContain('contact_messages_email');
    expect(schema).toContain('UNIQUE (email, state)');
    insertOhio();
    expect(db.prepare(`SELECT state FROM subscribers WHERE email = 'dee@example.com'`).get()).toEqual({ state: 'OH' });
    db.close();
  });
});

describe('migration 3 (tokens, outbox, bounded tags)', () => {
  it('keeps the rows of a version-2 file, drops the plaintext tokens and cuts tag lists to 20', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version <= 2),
    );
    const now = '2025-01-01T00:00:00.000Z';
    const tags = JSON.stringify(Array.from({ length: 25 }, (_, i) => `county-a${String.fromCharCode(97 + i)}`));
    db.prepare(
      `INSERT INTO subscribers (id, email, state, language, tags, source, status, confirm_token, created_at, updated_at)
      VALUES (4, 'ann@example.com', 'TX', 'es', ?, 'popup', 'confirmed', 'plain-token', ?, ?)`,
    ).run(tags, now, now);
    db.prepare(
      `INSERT INTO notify_requests (id, email, state, language, confirm_token, created_at, updated_at)
      VALUES (9, 'bob@example.com', 'FL', 'en', 'tok', ?, ?)`,
    ).run(now, now);
    expect(migrate(db)).toEqual({ from: 2, to: LATEST_VERSION });
    const row = db.prepare('SELECT * FROM subscribers').get() as Record<string, unknown>;
    expect(row).toMatchObject({ id: 4, email: 'ann@example.com', state: 'TX', language: 'es', status: 'confirmed', source: 'popup' });
    expect(JSON.parse(row.tags as string)).toEqual(Array.from({ length: 20 }, (_, i) => `county-a${String.fromCharCode(97 + i)}`));
    expect(row).not.toHaveProperty('confirm_token');
    expect(db.prepare('SELECT id, email, status FROM notify_requests').all()).toEqual([{ id: 9, email: 'bob@example.com', status: 'pending' }]);
    // The bound is a constraint of the table too.
    expect(() => db.prepare('UPDATE subscribers SET tags = ?').run(tags)).toThrow(/CHECK constraint/);
    db.close();
  });
});

describe('migrate', () => {
  const extra: Migration[] = [
    ...MIGRATIONS,
    { version: LATEST_VERSION + 1, name: 'add a column', sql: 'ALTER TABLE subscribers ADD COLUMN note TEXT;' },
    { version: LATEST_VERSION + 2, name: 'broken', sql: 'CREATE TABLE t (x); THIS IS NOT SQL;' },
  ];

  it('applies pending migrations in order, each atomically with its version', () => {
    const db = new BetterSqlite3(':memory:');
    expect(() => migrate(db, extra)).toThrow();
    // The good migrations stay applied; the broken one left neither its table nor its version.
    expect(schemaVersion(db)).toBe(LATEST_VERSION + 1);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 't'").pluck().get()).toBe(0);
    expect(migrate(db, extra.slice(0, -1))).toEqual({ from: LATEST_VERSION + 1, to: LATEST_VERSION + 1 });
    db.close();
  });
});

describe('migration 2 (the hub edition)', () => {
  it('keeps the rows of a version-1 file, ids included, and then accepts HUB', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version === 1),
    );
    const now = '2025-01-01T00:00:00.000Z';
    db.prepare(
      `INSERT INTO subscribers (id, email, state, language, tags, source, confirm_token, created_at, updated_at)
      VALUES (7, 'ann@example.com', 'NY', 'en', '["ny-newsletter"]', 'banner', 'tok1', ?, ?)`,
    ).run(now, now);
    db.prepare(
      `INSERT INTO notify_requests (id, email, state, language, confirm_token, created_at, updated_at)
      VALUES (3, 'bob@example.com', '', 'es', 'tok2', ?, ?)`,
    ).run(now, now);
    db.prepare(
      `INSERT INTO contact_messages (id, name, email, subject, message, state, language, created_at)
      VALUES (5, 'Carla', 'carla@example.com', 'Hi', 'Hello', NULL, 'es', ?)`,
    ).run(now);
    const hub = () =>
      db
        .prepare(
          `INSERT INTO subscribers (email, state, language, source, confirm_token, created_at, updated_at)
        VALUES ('hub@example.com', 'HUB', 'en', 'banner', 'tok3', ?, ?)`,
        )
        .run(now, now);
    expect(hub).toThrow(/CHECK constraint/);

    const upTo2 = MIGRATIONS.filter((m) => m.version <= 2);
    expect(migrate(db, upTo2)).toEqual({ from: 1, to: 2 });
    expect(db.prepare('SELECT id, email, state, tags FROM subscribers').all()).toEqual([
      { id: 7, email: 'ann@example.com', state: 'NY', tags: '["ny-newsletter"]' },
    ]);
    expect(db.prepare('SELECT id, state, language FROM notify_requests').all()).toEqual([{ id: 3, state: '', language: 'es' }]);
    expect(db.prepare('SELECT id, state FROM contact_messages').all()).toEqual([{ id: 5, state: null }]);
    hub();
    db.prepare(
      `INSERT INTO contact_messages (name, email, subject, message, state, language, created_at)
      VALUES ('Hu', 'hu@example.com', 'Hi', 'Hello', 'HUB', 'en', ?)`,
    ).run(now);
    // The constraints came along: unknown states and a second row for one email + state are refused.
    expect(() =>
      db
        .prepare(
          `INSERT INTO notify_requests (email, state, language, confirm_token, created_at, updated_at)
      VALUES ('bob@example.com', 'ZZ', 'en', 'tok4', ?, ?)`,
        )
        .run(now, now),
    ).toThrow(/CHECK constraint/);
    expect(() =>
      db
        .prepare(
          `INSERT INTO notify_requests (email, state, language, confirm_token, created_at, updated_at)
      VALUES ('bob@example.com', '', 'en', 'tok5', ?, ?)`,
        )
        .run(now, now),
    ).toThrow(/UNIQUE constraint/);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
    expect(tables).toEqual(['contact_messages', 'notify_requests', 'subscribers']);
    db.close();
  });
});

describe('GroupCommitWriter', () => {
  function setup(options = { maxBatch: 256, maxDelayMs: 0 }) {
    const db = new BetterSqlite3(':memory:');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE)');
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const writer = new GroupCommitWriter(db, options);
    const write = (v: string) => writer.write(() => Number(insert.run(v).lastInsertRowid));
    const values = () => db.prepare('SELECT v FROM t ORDER BY id').pluck().all();
    return { db, writer, write, values };
  }

  it('commits the writes of one event-loop turn in one transaction', async () => {
    const { writer, write, values } = setup();
    const ids = await Promise.all(Array.from({ length: 100 }, (_, i) => write(`v${i}`)));
    expect(ids).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(values()).toHaveLength(100);
    expect(writer.stats).toEqual({ batches: 1, writes: 100 });
  });

  it('splits batches at maxBatch; maxBatch 1 commits each write alone', async () => {
    const ten = setup({ maxBatch: 10, maxDelayMs: 0 });
    await Promise.all(Array.from({ length: 95 }, (_, i) => ten.write(`v${i}`)));
    expect(ten.writer.stats).toEqual({ batches: 10, writes: 95 });
    const one = setup({ maxBatch: 1, maxDelayMs: 0 });
    await Promise.all(Array.from({ length: 5 }, (_, i) => one.write(`v${i}`)));
    expect(one.writer.stats).toEqual({ batches: 5, writes: 5 });
  });

  it('waits maxDelayMs to gather writes from several turns', async () => {
    const { writer, write } = setup({ maxBatch: 256, maxDelayMs: 20 });
    const first = write('a');
    await new Promise((resolve) => setImmediate(resolve));
    const second = write('b');
    await Promise.all([first, second]);
    expect(writer.stats).toEqual({ batches: 1, writes: 2 });
  });

  it('rolls back a failing write alone; the rest of its batch commits', async () => {
    const { write, values } = setup();
    const results = await Promise.allSettled([write('a'), write('dup'), write('dup'), write('b')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(values()).toEqual(['a', 'dup', 'b']);
  });

  it('rejects the whole batch when the commit itself fails', async () => {
    const { db, writer, write, values } = setup();
    await write('a');
    // A deferred foreign key is checked only at COMMIT: the batch's COMMIT fails.
    db.exec('PRAGMA foreign_keys = ON; CREATE TABLE parent (id INTEGER PRIMARY KEY)');
    db.exec('CREATE TABLE child (p INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)');
    const orphan = db.prepare('INSERT INTO child (p) VALUES (42)');
    const batch = await Promise.allSettled([write('b'), writer.write(() => orphan.run())]);
    expect(batch.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(values()).toEqual(['a']);
    expect(db.inTransaction).toBe(false);
    await expect(write('c')).resolves.toBe(2); // the writer carries on
  });

  it('rejects the whole batch with the cause when a write makes SQLite roll back the transaction (disk full)', async () => {
    const path = tempDbPath();
    mkdirSync(dirname(path), { recursive: true });
    const db = new BetterSqlite3(path);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    const writer = new GroupCommitWriter(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const batch = await Promise.allSettled([writer.write(() => insert.run('small')), writer.write(() => insert.run('x'.repeat(20_000)))]);
    expect(batch.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(batch.map((r) => (r.status === 'rejected' ? (r.reason as { code?: string }).code : ''))).toEqual(['SQLITE_FULL', 'SQLITE_FULL']);
    expect(db.prepare('SELECT count(*) FROM t').pluck().get()).toBe(0);
    db.close();
  });

  it('commits queued writes on close, then refuses new ones', async () => {
    const { writer, write, values } = setup({ maxBatch: 256, maxDelayMs: 1000 });
    const pending = write('queued');
    writer.close();
    await expect(pending).resolves.toBe(1);
    expect(values()).toEqual(['queued']);
    await expect(write('late')).rejects.toBeInstanceOf(WriterClosedError);
  });
});
