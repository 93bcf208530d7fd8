import { randomBytes } from 'node:crypto';
import type { Database, Statement } from 'better-sqlite3';
import type { FastifyBaseLogger } from 'fastify';
import { scrubText } from '../http/logging.js';
import type { MailMessage } from './templates.js';
import type { MailTransport } from './transport.js';

/**
 * The durable outbox: a mail is a row of mail_outbox, inserted in the same transaction as
 * the subscription (or deletion request) it belongs to, so there is never a row without its
 * mail nor a mail about a row that was rolled back. A worker in every server process sends
 * the due rows, up to MailWorker.CONCURRENCY at a time (the SMTP transport keeps a pool of as
 * many connections; the folder transport writes as many files at once):
 *
 * 1. claim: one UPDATE (committed) sets up to as many rows as there are free slots to
 *    `sending` with a lease, counting the attempt; processes sharing the file never claim the
 *    same row;
 * 2. hand the mail to the transport (SMTP relay or .eml file);
 * 3. on success, mark it `sent` and drop its body (it holds live links); a sent row is never
 *    claimed again. The marks of the mails accepted during one turn of the event loop are
 *    committed together at the end of that turn (one transaction, setImmediate), so nothing
 *    but that turn lies between the relay's acceptance and the commit;
 *    on failure, back to `queued` with the next attempt after an exponential backoff
 *    (retryBaseMs × 2^(attempts−1), at most retryMaxMs).
 *
 * A crash after the claim leaves the row `sending`: once its lease runs out (the SMTP
 * timeout plus a margin) any process claims it again. So a mail is never dropped; it goes
 * out twice only if the process dies between the relay's acceptance and the commit of step 3
 * (the rest of that event-loop turn), and then with the same Message-ID (an .eml file is
 * written again under the same name). A mail whose links expired before it
 * could be sent (tokenTtlMs after it was queued) is marked `failed` and logged.
 */
export interface OutboxOptions {
  retryBaseMs: number;
  retryMaxMs: number;
  /** How long a claimed row is left to its claimer: the send timeout and a margin. */
  leaseMs: number;
  /** How often the worker looks for due rows when nothing woke it. */
  pollMs: number;
  /** A mail not sent within this time after it was queued is given up. */
  giveUpAfterMs: number;
  /** The From header (`Name <address>`). */
  from: string;
}

interface OutboxRow {
  id: number;
  kind: string;
  message_id: string;
  message: string | null;
  attempts: number;
  created_at: string;
}

/** Sync insert, to be called inside the transaction that writes the row the mail is about. */
export class Outbox {
  private readonly insert: Statement;
  private readonly recentTo: Statement<[string, string], { n: number }>;

  constructor(
    db: Database,
    private readonly messageIdDomain: string,
  ) {
    this.insert = db.prepare(`
      INSERT INTO mail_outbox (kind, recipient, message_id, message, next_attempt_at, created_at)
      VALUES (@kind, @recipient, @messageId, @message, @now, @now)`);
    this.recentTo = db.prepare('SELECT count(*) AS n FROM mail_outbox WHERE recipient = ? AND created_at > ?');
  }

  enqueue(kind: string, message: MailMessage, now: Date): number {
    const messageId = `<${randomBytes(12).toString('hex')}@${this.messageIdDomain}>`;
    const { lastInsertRowid } = this.insert.run({
      kind,
      recipient: message.to,
      messageId,
      message: JSON.stringify(message),
      now: now.toISOString(),
    });
    return Number(lastInsertRowid);
  }

  /** Mails queued for an address since `since`: the per-address budget. */
  countSince(recipient: string, since: Date): number {
    return this.recentTo.get(recipient, since.toISOString())?.n ?? 0;
  }
}

export class MailWorker {
  /** Most mails in flight at once (and SMTP connections in the pool). */
  static readonly CONCURRENCY = 8;
  private readonly sql: {
    claim: Statement<{ now: string; lease: string; slots: number }, OutboxRow>;
    sent: Statement;
    retry: Statement;
    failed: Statement;
  };
  private readonly markAllSent: (rows: OutboxRow[], now: string) => void;
  /** The marks of this event-loop turn, committed together by setImmediate. */
  private marks: { rows: OutboxRow[]; committed: Promise<void> } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  /** Counters for tests and diagnostics. */
  readonly stats = { sent: 0, failures: 0 };

  constructor(
    db: Database,
    private readonly transport: MailTransport,
    private readonly options: OutboxOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.sql = {
      // The oldest due rows, as many as there are free slots: queued and due, or claimed by
      // someone whose lease ran out.
      claim: db.prepare(`
        UPDATE mail_outbox SET status = 'sending', lease_until = @lease, attempts = attempts + 1
        WHERE id IN (
          SELECT id FROM mail_outbox
          WHERE (status = 'queued' AND next_attempt_at <= @now) OR (status = 'sending' AND lease_until <= @now)
          ORDER BY id LIMIT @slots)
        RETURNING id, kind, message_id, message, attempts, created_at`),
      sent: db.prepare(`UPDATE mail_outbox SET status = 'sent', sent_at = @now, message = NULL, lease_until = NULL, last_error = NULL WHERE id = @id`),
      retry: db.prepare(`UPDATE mail_outbox SET status = 'queued', next_attempt_at = @next, lease_until = NULL, last_error = @error WHERE id = @id`),
      failed: db.prepare(`UPDATE mail_outbox SET status = 'failed', message = NULL, lease_until = NULL, last_error = @error WHERE id = @id`),
    };
    this.markAllSent = db.transaction((rows: OutboxRow[], now: string) => {
      for (const row of rows) this.sql.sent.run({ id: row.id, now });
    });
  }

  start(): void {
    this.stopped = false;
    this.wake();
  }

  /**
   * Looks for due mail (called after a commit that queued one): on the next turn of the event
   * loop, so that the request that woke it is answered first and does no work of the worker's.
   */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.drain())
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.wake();
        } else {
          this.timer = setTimeout(() => this.wake(), this.options.pollMs);
          this.timer.unref();
        }
      });
  }

  /** Stops looking for mail; a send in progress is left to finish or to its lease. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Sends every due row, CONCURRENCY at a time, until none is due and none is in flight. */
  private async drain(): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    for (;;) {
      const slots = MailWorker.CONCURRENCY - inFlight.size;
      let rows: OutboxRow[] = [];
      if (!this.stopped && slots > 0) {
        const now = new Date();
        try {
          rows = this.sql.claim.all({ now: now.toISOString(), lease: new Date(now.getTime() + this.options.leaseMs).toISOString(), slots });
        } catch (error) {
          this.log.error({ err: error }, 'mail outbox: could not claim mail');
        }
      }
      for (const row of rows.sort((a, b) => a.id - b.id)) {
        const sending: Promise<void> = this.sendOne(row).finally(() => inFlight.delete(sending));
        inFlight.add(sending);
      }
      if (inFlight.size === 0) return;
      await Promise.race(inFlight);
    }
  }

  private async sendOne(row: OutboxRow): Promise<void> {
    const now = () => new Date();
    if (row.message === null) {
      this.sql.failed.run({ id: row.id, error: 'no message body' });
      return;
    }
    if (now().getTime() - Date.parse(row.created_at) > this.options.giveUpAfterMs) {
      this.sql.failed.run({ id: row.id, error: 'its links expired before it could be sent' });
      this.log.error({ mailId: row.id, kind: row.kind, attempts: row.attempts }, 'mail given up: its links expired before it could be sent');
      return;
    }
    try {
      await this.transport.send(row.id, row.message_id, this.options.from, JSON.parse(row.message) as MailMessage);
    } catch (error) {
      const delay = Math.min(this.options.retryMaxMs, this.options.retryBaseMs * 2 ** Math.min(30, row.attempts - 1));
      const message = scrubText(error instanceof Error ? error.message : String(error)).slice(0, 500);
      this.stats.failures += 1;
      try {
        this.sql.retry.run({ id: row.id, next: new Date(now().getTime() + delay).toISOString(), error: message });
      } catch (writeError) {
        this.log.error({ err: writeError }, 'mail outbox: could not record a failed attempt (the lease will retry it)');
      }
      this.log.warn({ mailId: row.id, kind: row.kind, attempts: row.attempts, retryInMs: delay, error: message }, 'mail not sent, will retry');
      return;
    }
    await this.markSent(row);
  }

  /** Marks a mail sent, with the others accepted in this event-loop turn; settles once committed. */
  private markSent(row: OutboxRow): Promise<void> {
    if (this.marks === undefined) {
      const rows: OutboxRow[] = [];
      const committed = new Promise<void>((resolve) =>
        setImmediate(() => {
          this.marks = undefined;
          this.commitMarks(rows);
          resolve();
        }),
      );
      this.marks = { rows, committed };
    }
    this.marks.rows.push(row);
    return this.marks.committed;
  }

  private commitMarks(rows: OutboxRow[]): void {
    try {
      this.markAllSent(rows, new Date().toISOString());
    } catch (error) {
      for (const row of rows) this.log.error({ err: error, mailId: row.id }, 'mail sent but not marked sent: it may go out again with the same Message-ID');
      return;
    }
    for (const row of rows) {
      this.stats.sent += 1;
      this.log.info({ mailId: row.id, kind: row.kind, attempts: row.attempts }, 'mail sent');
    }
  }
}
