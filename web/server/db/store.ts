import { randomBytes } from 'node:crypto';
import type { Database, Statement } from 'better-sqlite3';
import type { Language } from '../http/messages.js';
import type { StateCode } from '../validation/states.js';
import { mergeTags } from '../validation/tags.js';
import type { GroupCommitWriter } from './group-commit.js';
import { LATEST_VERSION, schemaVersion } from './migrations.js';

/** Inputs are already validated and normalised (lower-case email, upper-case state). */
export interface SubscriptionInput {
  email: string;
  state: StateCode;
  language: Language;
  tags: readonly string[];
  firstName?: string | undefined;
  source: 'banner' | 'popup';
}

export interface NotifyInput {
  email: string;
  state?: StateCode | undefined;
  language: Language;
}

export interface ContactInput {
  name: string;
  email: string;
  subject: string;
  message: string;
  state?: StateCode | undefined;
  language: Language;
}

/** What a sign-up did: `created` false means an existing row was updated (merged). */
export interface SignupResult {
  id: number;
  created: boolean;
  /** Still waiting for the address owner to confirm: a confirmation mail is due. */
  pending: boolean;
}

interface ExistingSignup {
  id: number;
  status: string;
  tags?: string;
}

/**
 * The site's data access. Every write goes through the group-commit writer, so its promise
 * settles after the row is durably committed. Reads run directly (WAL readers never block).
 */
export class Store {
  private readonly sql: {
    findSubscriber: Statement<[string, string], ExistingSignup>;
    insertSubscriber: Statement;
    updateSubscriber: Statement;
    findNotify: Statement<[string, string], ExistingSignup>;
    insertNotify: Statement;
    touchNotify: Statement;
    insertContact: Statement;
    ping: Statement<[], { ok: number }>;
  };

  constructor(
    private readonly db: Database,
    private readonly writer: GroupCommitWriter,
  ) {
    this.sql = {
      findSubscriber: db.prepare('SELECT id, status, tags FROM subscribers WHERE email = ? AND state = ?'),
      insertSubscriber: db.prepare(`
        INSERT INTO subscribers (email, state, first_name, language, tags, source, confirm_token, created_at, updated_at)
        VALUES (@email, @state, @firstName, @language, @tags, @source, @token, @now, @now)`),
      updateSubscriber: db.prepare(`
        UPDATE subscribers
        SET tags = @tags, language = @language, first_name = coalesce(@firstName, first_name), updated_at = @now
        WHERE id = @id`),
      findNotify: db.prepare('SELECT id, status FROM notify_requests WHERE email = ? AND state = ?'),
      insertNotify: db.prepare(`
        INSERT INTO notify_requests (email, state, language, confirm_token, created_at, updated_at)
        VALUES (@email, @state, @language, @token, @now, @now)`),
      touchNotify: db.prepare('UPDATE notify_requests SET language = @language, updated_at = @now WHERE id = @id'),
      insertContact: db.prepare(`
        INSERT INTO contact_messages (name, email, subject, message, state, language, created_at)
        VALUES (@name, @email, @subject, @message, @state, @language, @now)`),
      ping: db.prepare('SELECT 1 AS ok'),
    };
  }

  /** Newsletter sign-up; the same email and state again is the same subscriber, tags merged. */
  subscribe(input: SubscriptionInput): Promise<SignupResult> {
    return this.writer.write(() => {
      const now = new Date().toISOString();
      const existing = this.sql.findSubscriber.get(input.email, input.state);
      if (existing === undefined) {
        const row = { ...input, firstName: input.firstName ?? null, tags: JSON.stringify(mergeTags([], input.tags)) };
        const { lastInsertRowid } = this.sql.insertSubscriber.run({ ...row, token: newToken(), now });
        return { id: Number(lastInsertRowid), created: true, pending: true };
      }
      const tags = mergeTags(parseTags(existing.tags), input.tags);
      this.sql.updateSubscriber.run({
        id: existing.id,
        tags: JSON.stringify(tags),
        language: input.language,
        firstName: input.firstName ?? null,
        now,
      });
      return { id: existing.id, created: false, pending: existing.status === 'pending' };
    });
  }

  /** "Tell me when the rates are out"; one request per email and state (none = ''; the routes always give one). */
  requestNotification(input: NotifyInput): Promise<SignupResult> {
    return this.writer.write(() => {
      const now = new Date().toISOString();
      const state = input.state ?? '';
      const existing = this.sql.findNotify.get(input.email, state);
      if (existing === undefined) {
        const { lastInsertRowid } = this.sql.insertNotify.run({ ...input, state, token: newToken(), now });
        return { id: Number(lastInsertRowid), created: true, pending: true };
      }
      this.sql.touchNotify.run({ id: existing.id, language: input.language, now });
      return { id: existing.id, created: false, pending: existing.status === 'pending' };
    });
  }

  saveContactMessage(input: ContactInput): Promise<{ id: number }> {
    return this.writer.write(() => {
      const { lastInsertRowid } = this.sql.insertContact.run({ ...input, state: input.state ?? null, now: new Date().toISOString() });
      return { id: Number(lastInsertRowid) };
    });
  }

  /** Readiness: the file answers a query and carries the schema this code expects. */
  isHealthy(): boolean {
    try {
      return this.sql.ping.get()?.ok === 1 && schemaVersion(this.db) === LATEST_VERSION;
    } catch {
      return false;
    }
  }
}

/** Confirmation token: 192 random bits, URL-safe, to be put in the confirmation link. */
function newToken(): string {
  return randomBytes(24).toString('base64url');
}

function parseTags(stored: string | undefined): string[] {
  const value: unknown = JSON.parse(stored ?? '[]');
  return Array.isArray(value) ? value.filter((tag): tag is string => typeof tag === 'string') : [];
}
