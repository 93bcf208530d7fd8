import BetterSqlite3, { type Database, type Statement } from 'better-sqlite3';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestLanguage, sendAnswer } from './answers.js';

/**
 * The POST budget per client address, counted in the database file (table rate_limits), so
 * that every server process on the machine shares one budget: fixed windows of one minute,
 * one row per address and minute, incremented and read in one statement.
 *
 * The counters use the side connection (openSideConnection): a counter lost in a power cut
 * costs nothing, and the form writes keep their one fsync per group commit. The address is the
 * one Fastify gives (request.ip): the socket's peer, or with PTAX_TRUST_PROXY the client named
 * by a trusted proxy's X-Forwarded-For.
 */
export class RateLimiter {
  private readonly hit: Statement<{ client: string; minute: number }, { count: number }>;
  private readonly forget: Statement<[number]>;
  private lastPurgedMinute = 0;

  /** `db`: a connection of its own (openSideConnection), not the one of the group commit. */
  constructor(
    private readonly db: Database,
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.hit = this.db.prepare(`
      INSERT INTO rate_limits (client, minute, count) VALUES (@client, @minute, 1)
      ON CONFLICT (client, minute) DO UPDATE SET count = count + 1
      RETURNING count`);
    this.forget = this.db.prepare('DELETE FROM rate_limits WHERE minute < ?');
  }

  /** Counts one request; returns the seconds to wait when the budget is spent, else undefined. */
  take(client: string): number | undefined {
    const now = this.now();
    const minute = Math.floor(now / 60_000);
    if (minute !== this.lastPurgedMinute) {
      this.lastPurgedMinute = minute;
      this.forget.run(minute - 1);
    }
    const count = this.hit.get({ client, minute })?.count ?? 1;
    if (count <= this.perMinute) return undefined;
    return Math.max(1, Math.ceil(((minute + 1) * 60_000 - now) / 1000));
  }

  /** A preHandler-style hook: 429 JSON with Retry-After past the budget. */
  readonly hook = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    let wait: number | undefined;
    try {
      wait = this.take(request.ip);
    } catch (error) {
      // A counter that cannot be written must not take the forms down with it.
      request.log.warn({ err: error }, 'rate limit not counted');
      return undefined;
    }
    if (wait === undefined) return undefined;
    reply.header('retry-after', String(wait));
    return sendAnswer(reply, 429, 'rate_limited', requestLanguage(request));
  };
}

/**
 * A second connection to the database file for the writes that need no fsync of their own:
 * rate-limit counters and the outbox's claims and marks. synchronous=NORMAL: in WAL mode a
 * commit survives the process being killed (it is in the WAL file), only a power cut or an OS
 * crash may lose the last ones, and no commit waits for the disk. The forms' writes keep
 * their own connection with synchronous=FULL and group commit.
 */
export function openSideConnection(dbPath: string): Database {
  const db = new BetterSqlite3(dbPath, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  return db;
}
