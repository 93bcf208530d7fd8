import type { Database } from 'better-sqlite3';

/**
 * Versioned schema migrations. PRAGMA user_version holds the version applied last; each
 * migration runs in its own transaction together with the version bump, so a crash leaves the
 * database at one version or the next, never between. Append new migrations; never edit one
 * that has shipped.
 *
 * Nothing about a property is stored: no value, no tax amount, no county field (a county the
 * visitor chose to follow survives only as a `county-…` newsletter tag).
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'subscribers, notify requests and contact messages',
    sql: `
      CREATE TABLE subscribers (
        id            INTEGER PRIMARY KEY,
        email         TEXT NOT NULL CHECK (length(email) BETWEEN 6 AND 254),
        state         TEXT NOT NULL CHECK (state IN ('NY', 'TX', 'CA', 'FL')),
        first_name    TEXT,
        language      TEXT NOT NULL CHECK (language IN ('en', 'es')),
        tags          TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(tags)), -- sorted JSON array
        source        TEXT NOT NULL CHECK (source IN ('banner', 'popup')),
        status        TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'unsubscribed')),
        confirm_token TEXT NOT NULL UNIQUE,
        created_at    TEXT NOT NULL,
        updated_at    TEXT NOT NULL,
        UNIQUE (email, state)
      ) STRICT;

      -- state is '' when the visitor signed up from a page that is not about one state.
      CREATE TABLE notify_requests (
        id            INTEGER PRIMARY KEY,
        email         TEXT NOT NULL CHECK (length(email) BETWEEN 6 AND 254),
        state         TEXT NOT NULL CHECK (state IN ('', 'NY', 'TX', 'CA', 'FL')),
        language      TEXT NOT NULL CHECK (language IN ('en', 'es')),
        status        TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'unsubscribed')),
        confirm_token TEXT NOT NULL UNIQUE,
        created_at    TEXT NOT NULL,
        updated_at    TEXT NOT NULL,
        UNIQUE (email, state)
      ) STRICT;

      CREATE TABLE contact_messages (
        id         INTEGER PRIMARY KEY,
        name       TEXT NOT NULL,
        email      TEXT NOT NULL CHECK (length(email) BETWEEN 6 AND 254),
        subject    TEXT NOT NULL,
        message    TEXT NOT NULL,
        state      TEXT CHECK (state IN ('NY', 'TX', 'CA', 'FL')),
        language   TEXT NOT NULL CHECK (language IN ('en', 'es')),
        created_at TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    // SQLite cannot change a CHECK constraint in place: each table is rebuilt (create the new
    // one, copy the rows with their ids, drop the old one, rename) inside the migration's
    // transaction. Rows are kept as they are; a notify request stored with state '' (from
    // before the server knew the edition of the page) stays ''.
    version: 2,
    name: 'the hub edition (HUB) as a state',
    sql: `
      CREATE TABLE subscribers_v2 (
        id            INTEGER PRIMARY KEY,
        email         TEXT NOT NULL CHECK (length(email) BETWEEN 6 AND 254),
        state         TEXT NOT NULL CHECK (state IN ('NY', 'TX', 'CA', 'FL', 'HUB')),
        first_name    TEXT,
        language      TEXT NOT NULL CHECK (language IN ('en', 'es')),
        tags          TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(tags)), -- sorted JSON array
        source        TEXT NOT NULL CHECK (source IN ('banner', 'popup')),
        status        TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'unsubscribed')),
        confirm_token TEXT NOT NULL UNIQUE,
        created_at    TEXT NOT NULL,
        updated_at    TEXT NOT NULL,
        UNIQUE (email, state)
      ) STRICT;
      INSERT INTO subscribers_v2 (id, email, state, first_name, language, tags, source, status, confirm_token, created_at, updated_at)
        SELECT id, email, state, first_name, language, tags, source, status, confirm_token, created_at, updated_at FROM subscribers;
      DROP TABLE subscribers;
      ALTER TABLE subscribers_v2 RENAME TO subscribers;

      -- state is the edition of the page the visitor signed up on ('' only in rows from
      -- before version 2, when a request without a state was stored without one).
      CREATE TABLE notify_requests_v2 (
        id            INTEGER PRIMARY KEY,
        email         TEXT NOT NULL CHECK (length(email) BETWEEN 6 AND 254),
        state         TEXT NOT NULL CHECK (state IN ('', 'NY', 'TX', 'CA', 'FL', 'HUB')),
        language      TEXT NOT NULL CHECK (language IN ('en', 'es')),
        status        TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'unsubscribed')),
        confirm_token TEXT NOT NULL UNIQUE,
        created_at    TEXT NOT NULL,
        updated_at    TEXT NOT NULL,
        UNIQUE (email, state)
      ) STRICT;
      INSERT INTO notify_requests_v2 (id, email, state, language, status, confirm_token, created_at, updated_at)
        SELECT id, email, state, language, status, confirm_token, created_at, updated_at FROM notify_requests;
      DROP TABLE notify_requests;
      ALTER TABLE notify_requests_v2 RENAME TO notify_requests;

      CREATE TABLE contact_messages_v2 (
        id         INTEGER PRIMARY KEY,
        name       TEXT NOT NULL,
        email      TEXT NOT NULL CHECK (length(email) BETWEEN 6 AND 254),
        subject    TEXT NOT NULL,
        message    TEXT NOT NULL,
        state      TEXT CHECK (state IN ('NY', 'TX', 'CA', 'FL', 'HUB')),
        language   TEXT NOT NULL CHECK (language IN ('en', 'es')),
        created_at TEXT NOT NULL
      ) STRICT;
      INSERT INTO contact_messages_v2 (id, name, email, subject, message, state, language, created_at)
        SELECT id, name, email, subject, message, state, language, created_at FROM contact_messages;
      DROP TABLE contact_messages;
      ALTER TABLE contact_messages_v2 RENAME TO contact_messages;
    `,
  },
  {
    // Double opt-in, unsubscribe and deletion. Tokens move out of the rows into their own table
    // and are stored hashed (SHA-256): a copy of the file does not hold a working link. A row
    // may have several live tokens (a repeat sign-up, an unsubscribe link per mail). The
    // plaintext tokens of version 2 are dropped: no mail was ever sent with them. Tags are
    // bounded per row (at most 20; a longer list is cut to its first 20 in sort order).
    // mail_outbox is the durable queue of outgoing mail, rate_limits the POST budget shared
    // by every server process on the file, health the row /healthz writes.
    version: 3,
    name: 'hashed tokens, mail outbox, shared rate limit, bounded tags',
    sql: `
      CREATE TABLE subscribers_v3 (
        id            INTEGER PRIMARY KEY,
        email         TEXT NOT NULL CHECK (length(email) BETWEEN 6 AND 254),
        state         TEXT NOT NULL CHECK (state IN ('NY', 'TX', 'CA', 'FL', 'HUB')),
        first_name    TEXT,
        language      TEXT NOT NULL CHECK (language IN ('en', 'es')),
        tags          TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(tags) AND json_array_length(tags) <= 20), -- sorted JSON array
        source        TEXT NOT NULL CHECK (source IN ('banner', 'popup')),
        status        TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'unsubscribed')),
        created_at    TEXT NOT NULL,
        updated_at    TEXT NOT NULL,
        confirmed_at  TEXT,
        UNIQUE (email, state)
      ) STRICT;
      INSERT INTO subscribers_v3 (id, email, state, first_name, language, tags, source, status, created_at, updated_at)
        SELECT id, email, state, first_name, language,
               CASE WHEN json_array_length(tags) <= 20 THEN tags
                    ELSE (SELECT json_group_array(value) FROM (SELECT value FROM json_each(subscribers.tags) ORDER BY value LIMIT 20)) END,
               source, status, created_at, updated_at
        FROM subscribers;
      DROP TABLE subscribers;
      ALTER TABLE subscribers_v3 RENAME TO subscribers;

      CREATE TABLE notify_requests_v3 (
        id            INTEGER PRIMARY KEY,
        email         TEXT NOT NULL CHECK (length(email) BETWEEN 6 AND 254),
        state         TEXT NOT NULL CHECK (state IN ('', 'NY', 'TX', 'CA', 'FL', 'HUB')),
        language      TEXT NOT NULL CHECK (language IN ('en', 'es')),
        status        TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'unsubscribed')),
        created_at    TEXT NOT NULL,
        updated_at    TEXT NOT NULL,
        confirmed_at  TEXT,
        UNIQUE (email, state)
      ) STRICT;
      INSERT INTO notify_requests_v3 (id, email, state, language, status, created_at, updated_at)
        SELECT id, email, state, language, status, created_at, updated_at FROM notify_requests;
      DROP TABLE notify_requests;
      ALTER TABLE notify_requests_v3 RENAME TO notify_requests;

      CREATE INDEX contact_messages_email ON contact_messages (email);
      CREATE INDEX contact_messages_created ON contact_messages (created_at);

      -- hash: SHA-256 (hex) of the token in the link. purpose confirm: changes is the JSON of
      -- a repeat sign-up, applied only when the link is followed. unsubscribe tokens do not
      -- expire (expires_at NULL): the law wants the link in a mail to keep working.
      CREATE TABLE tokens (
        hash       TEXT PRIMARY KEY CHECK (length(hash) = 64),
        purpose    TEXT NOT NULL CHECK (purpose IN ('confirm', 'unsubscribe', 'delete')),
        list       TEXT CHECK (list IN ('newsletter', 'notify')),
        row_id     INTEGER,
        email      TEXT NOT NULL,
        changes    TEXT CHECK (changes IS NULL OR json_valid(changes)),
        created_at TEXT NOT NULL,
        expires_at TEXT,
        used_at    TEXT
      ) STRICT;
      CREATE INDEX tokens_email ON tokens (email);

      -- One row per mail to send. message is the rendered mail (JSON), emptied once sent.
      CREATE TABLE mail_outbox (
        id              INTEGER PRIMARY KEY,
        kind            TEXT NOT NULL,
        recipient       TEXT NOT NULL,
        message_id      TEXT NOT NULL UNIQUE,
        message         TEXT CHECK (message IS NULL OR json_valid(message)),
        status          TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
        attempts        INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT NOT NULL,
        lease_until     TEXT,
        last_error      TEXT,
        created_at      TEXT NOT NULL,
        sent_at         TEXT
      ) STRICT;
      CREATE INDEX mail_outbox_due ON mail_outbox (status, next_attempt_at);
      CREATE INDEX mail_outbox_recipient ON mail_outbox (recipient, created_at);

      CREATE TABLE rate_limits (
        client TEXT NOT NULL,
        minute INTEGER NOT NULL,
        count  INTEGER NOT NULL,
        PRIMARY KEY (client, minute)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE health (
        id         INTEGER PRIMARY KEY CHECK (id = 1),
        checked_at TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    // Issue 26: the states are data (rules/<st>/state.yaml), not the schema's. The three tables
    // that listed them in a CHECK are rebuilt without it, every row and id kept; the server
    // checks a state against the rules bundle it loads (web/server/validation/states.ts).
    version: 4,
    name: 'states checked by the server, not by a CHECK listing them',
    sql: `
      CREATE TABLE subscribers_v4 (
        id            INTEGER PRIMARY KEY,
        email         TEXT NOT NULL CHECK (length(email) BETWEEN 6 AND 254),
        state         TEXT NOT NULL,
        first_name    TEXT,
        language      TEXT NOT NULL CHECK (language IN ('en', 'es')),
        tags          TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(tags) AND json_array_length(tags) <= 20), -- sorted JSON array
        source        TEXT NOT NULL CHECK (source IN ('banner', 'popup')),
        status        TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'unsubscribed')),
        created_at    TEXT NOT NULL,
        updated_at    TEXT NOT NULL,
        confirmed_at  TEXT,
        UNIQUE (email, state)
      ) STRICT;
      INSERT INTO subscribers_v4 (id, email, state, first_name, language, tags, source, status, created_at, updated_at, confirmed_at)
        SELECT id, email, state, first_name, language, tags, source, status, created_at, updated_at, confirmed_at FROM subscribers;
      DROP TABLE subscribers;
      ALTER TABLE subscribers_v4 RENAME TO subscribers;

      CREATE TABLE notify_requests_v4 (
        id            INTEGER PRIMARY KEY,
        email         TEXT NOT NULL CHECK (length(email) BETWEEN 6 AND 254),
        state         TEXT NOT NULL,
        language      TEXT NOT NULL CHECK (language IN ('en', 'es')),
        status        TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'unsubscribed')),
        created_at    TEXT NOT NULL,
        updated_at    TEXT NOT NULL,
        confirmed_at  TEXT,
        UNIQUE (email, state)
      ) STRICT;
      INSERT INTO notify_requests_v4 (id, email, state, language, status, created_at, updated_at, confirmed_at)
        SELECT id, email, state, language, status, created_at, updated_at, confirmed_at FROM notify_requests;
      DROP TABLE notify_requests;
      ALTER TABLE notify_requests_v4 RENAME TO notify_requests;

      CREATE TABLE contact_messages_v4 (
        id         INTEGER PRIMARY KEY,
        name       TEXT NOT NULL,
        email      TEXT NOT NULL CHECK (length(email) BETWEEN 6 AND 254),
        subject    TEXT NOT NULL,
        message    TEXT NOT NULL,
        state      TEXT,
        language   TEXT NOT NULL CHECK (language IN ('en', 'es')),
        created_at TEXT NOT NULL
      ) STRICT;
      INSERT INTO contact_messages_v4 (id, name, email, subject, message, state, language, created_at)
        SELECT id, name, email, subject, message, state, language, created_at FROM contact_messages;
      DROP TABLE contact_messages;
      ALTER TABLE contact_messages_v4 RENAME TO contact_messages;
      CREATE INDEX contact_messages_email ON contact_messages (email);
      CREATE INDEX contact_messages_created ON contact_messages (created_at);
    `,
  },
];

export const LATEST_VERSION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Applies the migrations newer than the database; returns the versions before and after. */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): { from: number; to: number } {
  const from = schemaVersion(db);
  const latest = migrations.reduce((max, m) => Math.max(max, m.version), 0);
  if (from > latest) {
    // A newer server wrote this file; running old code on it could corrupt data.
    throw new Error(`database schema version ${from} is newer than this server knows (${latest})`);
  }
  const pending = [...migrations].filter((m) => m.version > from).sort((a, b) => a.version - b.version);
  for (const migration of pending) {
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${Math.trunc(migration.version)}`);
    })();
  }
  // A migration that rebuilt tables leaves their old pages free: given back to the file (and
  // a full disk stays full, as the hardening tests expect, instead of hiding free pages).
  if (pending.length && (db.pragma('freelist_count', { simple: true }) as number) > 0 && !db.inTransaction) db.exec('VACUUM');
  return { from, to: schemaVersion(db) };
}
