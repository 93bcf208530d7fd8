import type { Database, Statement } from 'better-sqlite3';
import type { Language } from '../http/messages.js';
import type { LinkBuilder } from '../mail/links.js';
import type { Outbox } from '../mail/outbox.js';
import { confirmationMail, deletionMail, type ListName } from '../mail/templates.js';
import { hashToken, isTokenShaped, newToken } from '../mail/tokens.js';
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

/** What a sign-up did. The API answers the same whatever it is. */
export interface SignupResult {
  id: number;
  /** A new row (else an existing one, left unchanged until its owner confirms). */
  created: boolean;
  /** A confirmation mail was queued in the same transaction. */
  mailQueued: boolean;
}

/** How the mail flows behave (config.ts has the defaults). */
export interface MailPolicy {
  links: LinkBuilder;
  outbox: Outbox;
  /** Confirmation and deletion links stop working after this. */
  tokenTtlMs: number;
  /** Pending sign-ups never confirmed are deleted after this many days (said in the mail). */
  pendingDays: number;
  /** Most mails queued for one address per hour: a form must not be a way to flood someone's mailbox. */
  mailsPerAddressPerHour: number;
}

export type ConfirmOutcome = { ok: true; list: ListName; state: StateCode | ''; language: Language } | { ok: false };

export interface UnsubscribeTarget {
  list: ListName;
  state: StateCode | '';
  language: Language;
  email: string;
}

/** Rows a purge deleted, by table. */
export interface PurgeCounts {
  subscribers: number;
  notifyRequests: number;
  contactMessages: number;
  tokens: number;
  mails: number;
}

interface ListRow {
  id: number;
  email: string;
  state: StateCode | '';
  language: Language;
  status: 'pending' | 'confirmed' | 'unsubscribed';
  tags?: string;
}

interface TokenRow {
  hash: string;
  purpose: 'confirm' | 'unsubscribe' | 'delete';
  list: ListName | null;
  row_id: number | null;
  email: string;
  changes: string | null;
  expires_at: string | null;
  used_at: string | null;
}

/** What a repeat sign-up asks for; applied only when its confirmation link is followed. */
interface PendingChanges {
  language: Language;
  tags?: string[];
  firstName?: string | null;
  source?: 'banner' | 'popup';
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * The site's data access. Every write goes through the group-commit writer, so its promise
 * settles after the row is durably committed; a mail is queued in the same transaction as the
 * row it is about. Reads run directly (WAL readers never block).
 */
export class Store {
  private readonly sql: ReturnType<typeof prepare>;

  constructor(
    private readonly db: Database,
    private readonly writer: GroupCommitWriter,
    private readonly mail: MailPolicy,
  ) {
    this.sql = prepare(db);
  }

  /**
   * Newsletter sign-up. A new address + state is stored `pending` with a confirmation mail. An
   * existing row is not changed (whoever posts an address is not its owner): the new first
   * name, language and tags go into a new confirmation link and are applied when it is
   * followed. An unsubscribed row goes back to `pending`, with a confirmation mail.
   */
  subscribe(input: SubscriptionInput): Promise<SignupResult> {
    return this.writer.write(() => {
      const now = new Date();
      const existing = this.sql.findSubscriber.get(input.email, input.state);
      const changes: PendingChanges = { language: input.language, tags: [...input.tags], firstName: input.firstName ?? null, source: input.source };
      if (existing === undefined) {
        const { lastInsertRowid } = this.sql.insertSubscriber.run({
          ...input,
          firstName: input.firstName ?? null,
          tags: JSON.stringify(mergeTags([], input.tags)),
          now: now.toISOString(),
        });
        const id = Number(lastInsertRowid);
        return { id, created: true, mailQueued: this.queueConfirmation('newsletter', id, input.email, input.state, input.language, null, now) };
      }
      if (!this.withinMailBudget(input.email, now)) return { id: existing.id, created: false, mailQueued: false };
      if (existing.status === 'unsubscribed') this.sql.repend.subscribers.run({ id: existing.id, now: now.toISOString() });
      return {
        id: existing.id,
        created: false,
        mailQueued: this.queueConfirmation('newsletter', existing.id, input.email, input.state, input.language, changes, now),
      };
    });
  }

  /** "Tell me when the rates are out": one row per email and state, double opt-in as the newsletter. */
  requestNotification(input: NotifyInput): Promise<SignupResult> {
    return this.writer.write(() => {
      const now = new Date();
      const state = input.state ?? '';
      const existing = this.sql.findNotify.get(input.email, state);
      if (existing === undefined) {
        const { lastInsertRowid } = this.sql.insertNotify.run({ ...input, state, now: now.toISOString() });
        const id = Number(lastInsertRowid);
        return { id, created: true, mailQueued: this.queueConfirmation('notify', id, input.email, state, input.language, null, now) };
      }
      if (!this.withinMailBudget(input.email, now)) return { id: existing.id, created: false, mailQueued: false };
      if (existing.status === 'unsubscribed') this.sql.repend.notify.run({ id: existing.id, now: now.toISOString() });
      const changes: PendingChanges = { language: input.language };
      return { id: existing.id, created: false, mailQueued: this.queueConfirmation('notify', existing.id, input.email, state, input.language, changes, now) };
    });
  }

  saveContactMessage(input: ContactInput): Promise<{ id: number }> {
    return this.writer.write(() => {
      const { lastInsertRowid } = this.sql.insertContact.run({ ...input, state: input.state ?? null, now: new Date().toISOString() });
      return { id: Number(lastInsertRowid) };
    });
  }

  /**
   * A deletion request: when the address is known (any subscription, notify request or
   * contact message) and within its mail budget, a mail with a deletion link is queued; else
   * nothing is kept. The caller answers the same either way, and so that the time taken does
   * not tell either (issue 25), the work is the same: the same statements in the same order,
   * the token and the mail written in both cases and, for an unknown address, deleted again in
   * the same transaction (so both commits write, and wait for, the WAL; nothing about the
   * unknown address is committed).
   */
  requestDeletion(email: string, language: Language): Promise<{ mailQueued: boolean }> {
    return this.writer.write(() => {
      const now = new Date();
      const known = this.sql.isKnown.get(email, email, email) !== undefined;
      const withinBudget = this.withinMailBudget(email, now);
      const token = this.insertToken('delete', null, null, email, { language }, now);
      const message = deletionMail({
        language,
        email,
        confirmUrl: this.mail.links.link('deleteConfirm', language, null, token),
        tokenDays: Math.round(this.mail.tokenTtlMs / DAY_MS),
      });
      const mailId = this.mail.outbox.enqueue('delete_request', message, now);
      const drop = known && withinBudget ? 0 : 1;
      this.sql.dropToken.run({ hash: hashToken(token), drop });
      this.sql.dropMail.run({ id: mailId, drop });
      return { mailQueued: drop === 0 };
    });
  }

  /**
   * What a confirmation link is about, in the language it will confirm in (a read: the page
   * with the button changes nothing; link scanners and HEAD requests open links).
   */
  confirmTarget(token: string): UnsubscribeTarget | undefined {
    const found = this.liveToken(token, 'confirm', new Date());
    if (found?.list == null || found.row_id === null) return undefined;
    const row = (found.list === 'newsletter' ? this.sql.subscriberById : this.sql.notifyById).get(found.row_id);
    if (row === undefined || row.email !== found.email) return undefined;
    const changes = found.changes === null ? undefined : (JSON.parse(found.changes) as PendingChanges);
    return { list: found.list, state: row.state, language: changes?.language ?? row.language, email: row.email };
  }

  /** Follows a confirmation link (its page's button): single use, before it expires. */
  confirm(token: string): Promise<ConfirmOutcome> {
    return this.writer.write((): ConfirmOutcome => {
      const now = new Date();
      const found = this.liveToken(token, 'confirm', now);
      if (found?.list == null || found.row_id === null) return { ok: false };
      const table = found.list === 'newsletter' ? 'subscribers' : 'notify';
      const row = (found.list === 'newsletter' ? this.sql.subscriberById : this.sql.notifyById).get(found.row_id);
      if (row === undefined || row.email !== found.email) return { ok: false };
      const changes = found.changes === null ? undefined : (JSON.parse(found.changes) as PendingChanges);
      const language = changes?.language ?? row.language;
      if (table === 'subscribers') {
        const tags = changes?.tags ? mergeTags(parseTags(row.tags), changes.tags) : parseTags(row.tags);
        this.sql.confirmSubscriber.run({
          id: row.id,
          language,
          tags: JSON.stringify(tags),
          firstName: changes?.firstName ?? null,
          now: now.toISOString(),
        });
      } else {
        this.sql.confirmNotify.run({ id: row.id, language, now: now.toISOString() });
      }
      this.sql.useToken.run({ hash: found.hash, now: now.toISOString() });
      return { ok: true, list: found.list, state: row.state, language };
    });
  }

  /** What an unsubscribe link is about (a read: the page with the button changes nothing). */
  unsubscribeTarget(token: string): UnsubscribeTarget | undefined {
    const found = this.liveToken(token, 'unsubscribe', new Date());
    if (found?.list == null || found.row_id === null) return undefined;
    const row = (found.list === 'newsletter' ? this.sql.subscriberById : this.sql.notifyById).get(found.row_id);
    if (row === undefined || row.email !== found.email) return undefined;
    return { list: found.list, state: row.state, language: row.language, email: row.email };
  }

  /**
   * Unsubscribes the row of an unsubscribe link (the link keeps working: a second use
   * answers the same). Its open confirmation links stop working.
   */
  unsubscribe(token: string): Promise<UnsubscribeTarget | undefined> {
    return this.writer.write(() => {
      const target = this.unsubscribeTarget(token);
      if (target === undefined) return undefined;
      const found = this.liveToken(token, 'unsubscribe', new Date())!;
      const now = new Date().toISOString();
      if (target.list === 'newsletter') this.sql.unsubscribeSubscriber.run({ id: found.row_id, now });
      else this.sql.unsubscribeNotify.run({ id: found.row_id, now });
      this.sql.closeConfirmTokens.run({ list: target.list, rowId: found.row_id, now });
      this.sql.markTokenUsed.run({ hash: found.hash, now });
      return target;
    });
  }

  /** The language a deletion link was asked in, when the link is live (a read). */
  deletionTarget(token: string): { language: Language } | undefined {
    const found = this.liveToken(token, 'delete', new Date());
    if (found === undefined) return undefined;
    const language = (JSON.parse(found.changes ?? '{}') as { language?: Language }).language;
    return { language: language ?? 'en' };
  }

  /** Follows a deletion link: every row about its address goes, the link itself included. */
  deleteData(token: string): Promise<{ ok: boolean; language?: Language }> {
    return this.writer.write(() => {
      const found = this.liveToken(token, 'delete', new Date());
      if (found === undefined) return { ok: false };
      const target = this.deletionTarget(token);
      this.deleteEverythingAbout(found.email);
      return { ok: true, ...(target ? { language: target.language } : {}) };
    });
  }

  /**
   * Retention: pending sign-ups older than pendingDays (never confirmed, or pending again and
   * not confirmed since), contact messages older than retentionDays, tokens that expired or
   * whose row is gone, sent or failed mails older than pendingDays, old rate-limit counters.
   */
  purge(now: Date, retentionDays: number): Promise<PurgeCounts> {
    return this.writer.write(() => {
      const pendingBefore = new Date(now.getTime() - this.mail.pendingDays * DAY_MS).toISOString();
      const contactBefore = new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
      return {
        subscribers: this.sql.purgeSubscribers.run(pendingBefore).changes,
        notifyRequests: this.sql.purgeNotify.run(pendingBefore).changes,
        contactMessages: this.sql.purgeContacts.run(contactBefore).changes,
        tokens: this.sql.purgeTokens.run({ now: now.toISOString() }).changes,
        mails: this.sql.purgeMails.run(pendingBefore).changes,
      };
    });
  }

  /** Readiness: the schema is the expected one and a write commits (disk not full, file writable). */
  async isHealthy(): Promise<boolean> {
    try {
      if (schemaVersion(this.db) !== LATEST_VERSION) return false;
      await this.writer.write(() => this.sql.health.run(new Date().toISOString()));
      return true;
    } catch {
      return false;
    }
  }

  private deleteEverythingAbout(email: string): void {
    this.sql.deleteSubscribers.run(email);
    this.sql.deleteNotify.run(email);
    this.sql.deleteContacts.run(email);
    this.sql.deleteTokens.run(email);
    this.sql.deleteMails.run(email);
  }

  private withinMailBudget(email: string, now: Date): boolean {
    return this.mail.outbox.countSince(email, new Date(now.getTime() - HOUR_MS)) < this.mail.mailsPerAddressPerHour;
  }

  /** Queues the double opt-in mail of a row (with its confirmation and unsubscribe links), if the address's budget allows. */
  private queueConfirmation(
    list: ListName,
    rowId: number,
    email: string,
    state: StateCode | '',
    language: Language,
    changes: PendingChanges | null,
    now: Date,
  ): boolean {
    if (!this.withinMailBudget(email, now)) return false;
    const confirmToken = this.insertToken('confirm', list, rowId, email, changes, now);
    const unsubscribeToken = this.insertToken('unsubscribe', list, rowId, email, null, now);
    const links = this.mail.links;
    const message = confirmationMail({
      list,
      state,
      language,
      email,
      confirmUrl: links.link('confirm', language, state, confirmToken),
      unsubscribeUrl: links.link('unsubscribe', language, state, unsubscribeToken),
      deleteUrl: links.link('deleteRequest', language, state),
      tokenDays: Math.round(this.mail.tokenTtlMs / DAY_MS),
      pendingDays: this.mail.pendingDays,
    });
    this.mail.outbox.enqueue(`confirm_${list}`, message, now);
    return true;
  }

  private insertToken(purpose: TokenRow['purpose'], list: ListName | null, rowId: number | null, email: string, changes: object | null, now: Date): string {
    const token = newToken();
    this.sql.insertToken.run({
      hash: hashToken(token),
      purpose,
      list,
      rowId,
      email,
      changes: changes === null ? null : JSON.stringify(changes),
      now: now.toISOString(),
      // Unsubscribe links do not expire: they are in mails people keep.
      expires: purpose === 'unsubscribe' ? null : new Date(now.getTime() + this.mail.tokenTtlMs).toISOString(),
    });
    return token;
  }

  /** A token of this purpose that exists, has not expired and (except unsubscribe links) was not used. */
  private liveToken(token: string, purpose: TokenRow['purpose'], now: Date): TokenRow | undefined {
    if (!isTokenShaped(token)) return undefined;
    const found = this.sql.findToken.get(hashToken(token));
    if (found === undefined || found.purpose !== purpose) return undefined;
    if (found.expires_at !== null && found.expires_at <= now.toISOString()) return undefined;
    if (found.used_at !== null && purpose !== 'unsubscribe') return undefined;
    return found;
  }
}

function prepare(db: Database) {
  return {
    findSubscriber: db.prepare('SELECT id, status FROM subscribers WHERE email = ? AND state = ?') as Statement<[string, string], ListRow>,
    subscriberById: db.prepare('SELECT id, email, state, language, status, tags FROM subscribers WHERE id = ?') as Statement<[number], ListRow>,
    insertSubscriber: db.prepare(`
      INSERT INTO subscribers (email, state, first_name, language, tags, source, created_at, updated_at)
      VALUES (@email, @state, @firstName, @language, @tags, @source, @now, @now)`),
    confirmSubscriber: db.prepare(`
      UPDATE subscribers
      SET status = 'confirmed', language = @language, tags = @tags, first_name = coalesce(@firstName, first_name),
          confirmed_at = @now, updated_at = @now
      WHERE id = @id`),
    unsubscribeSubscriber: db.prepare(`UPDATE subscribers SET status = 'unsubscribed', updated_at = @now WHERE id = @id`),
    findNotify: db.prepare('SELECT id, status FROM notify_requests WHERE email = ? AND state = ?') as Statement<[string, string], ListRow>,
    notifyById: db.prepare('SELECT id, email, state, language, status FROM notify_requests WHERE id = ?') as Statement<[number], ListRow>,
    insertNotify: db.prepare(`
      INSERT INTO notify_requests (email, state, language, created_at, updated_at)
      VALUES (@email, @state, @language, @now, @now)`),
    confirmNotify: db.prepare(`
      UPDATE notify_requests SET status = 'confirmed', language = @language, confirmed_at = @now, updated_at = @now WHERE id = @id`),
    unsubscribeNotify: db.prepare(`UPDATE notify_requests SET status = 'unsubscribed', updated_at = @now WHERE id = @id`),
    repend: {
      subscribers: db.prepare(`UPDATE subscribers SET status = 'pending', updated_at = @now WHERE id = @id`),
      notify: db.prepare(`UPDATE notify_requests SET status = 'pending', updated_at = @now WHERE id = @id`),
    },
    insertContact: db.prepare(`
      INSERT INTO contact_messages (name, email, subject, message, state, language, created_at)
      VALUES (@name, @email, @subject, @message, @state, @language, @now)`),
    insertToken: db.prepare(`
      INSERT INTO tokens (hash, purpose, list, row_id, email, changes, created_at, expires_at)
      VALUES (@hash, @purpose, @list, @rowId, @email, @changes, @now, @expires)`),
    findToken: db.prepare('SELECT * FROM tokens WHERE hash = ?') as Statement<[string], TokenRow>,
    useToken: db.prepare('UPDATE tokens SET used_at = @now WHERE hash = @hash'),
    markTokenUsed: db.prepare('UPDATE tokens SET used_at = coalesce(used_at, @now) WHERE hash = @hash'),
    closeConfirmTokens: db.prepare(`
      UPDATE tokens SET used_at = @now WHERE purpose = 'confirm' AND list = @list AND row_id = @rowId AND used_at IS NULL`),
    isKnown: db.prepare(`
      SELECT 1 FROM subscribers WHERE email = ?
      UNION ALL SELECT 1 FROM notify_requests WHERE email = ?
      UNION ALL SELECT 1 FROM contact_messages WHERE email = ? LIMIT 1`),
    dropToken: db.prepare('DELETE FROM tokens WHERE hash = @hash AND @drop = 1'),
    dropMail: db.prepare('DELETE FROM mail_outbox WHERE id = @id AND @drop = 1'),
    deleteSubscribers: db.prepare('DELETE FROM subscribers WHERE email = ?'),
    deleteNotify: db.prepare('DELETE FROM notify_requests WHERE email = ?'),
    deleteContacts: db.prepare('DELETE FROM contact_messages WHERE email = ?'),
    deleteTokens: db.prepare('DELETE FROM tokens WHERE email = ?'),
    deleteMails: db.prepare('DELETE FROM mail_outbox WHERE recipient = ?'),
    purgeSubscribers: db.prepare(`DELETE FROM subscribers WHERE status = 'pending' AND updated_at < ?`),
    purgeNotify: db.prepare(`DELETE FROM notify_requests WHERE status = 'pending' AND updated_at < ?`),
    purgeContacts: db.prepare('DELETE FROM contact_messages WHERE created_at < ?'),
    purgeTokens: db.prepare(`
      DELETE FROM tokens
      WHERE (expires_at IS NOT NULL AND expires_at <= @now)
         OR (list = 'newsletter' AND NOT EXISTS (SELECT 1 FROM subscribers s WHERE s.id = tokens.row_id AND s.email = tokens.email))
         OR (list = 'notify' AND NOT EXISTS (SELECT 1 FROM notify_requests n WHERE n.id = tokens.row_id AND n.email = tokens.email))`),
    purgeMails: db.prepare(`DELETE FROM mail_outbox WHERE status IN ('sent', 'failed') AND created_at < ?`),
    health: db.prepare('INSERT INTO health (id, checked_at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at'),
  };
}

function parseTags(stored: string | undefined): string[] {
  const value: unknown = JSON.parse(stored ?? '[]');
  return Array.isArray(value) ? value.filter((tag): tag is string => typeof tag === 'string') : [];
}
