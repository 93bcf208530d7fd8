import type { Database } from 'better-sqlite3';

/**
 * Group commit: write operations queue up and run together in one transaction, so one WAL
 * fsync (synchronous=FULL) covers many requests. A caller's promise settles only after the
 * COMMIT returned, so an answer sent on resolution is an answer about a durable row.
 *
 * When to flush: with maxDelayMs = 0 the batch is flushed on the next turn of the event loop
 * (setImmediate), i.e. it holds every write whose request was parsed in the same I/O round.
 * That adds no waiting of its own: while one batch commits, the requests arriving meanwhile
 * form the next batch, so batches grow with load. A positive maxDelayMs waits that long for
 * more writes. maxBatch bounds one transaction; maxBatch = 1 turns group commit off.
 */
export interface GroupCommitOptions {
  maxBatch: number;
  maxDelayMs: number;
}

export const DEFAULT_GROUP_COMMIT: GroupCommitOptions = { maxBatch: 256, maxDelayMs: 0 };

interface QueuedWrite {
  run: () => unknown;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

export class WriterClosedError extends Error {
  constructor() {
    super('the database writer is closed');
    this.name = 'WriterClosedError';
  }
}

export class GroupCommitWriter {
  private queue: QueuedWrite[] = [];
  private scheduled: { kind: 'immediate'; handle: NodeJS.Immediate } | { kind: 'timer'; handle: NodeJS.Timeout } | undefined;
  private closed = false;
  /** Counters for tests and diagnostics. */
  readonly stats = { batches: 0, writes: 0 };
  private readonly inSavepoint: (run: () => unknown) => unknown;
  private readonly inTransaction: ((batch: QueuedWrite[]) => Array<{ ok: boolean; value: unknown }>) & {
    immediate: (batch: QueuedWrite[]) => Array<{ ok: boolean; value: unknown }>;
  };

  constructor(
    db: Database,
    private readonly options: GroupCommitOptions = DEFAULT_GROUP_COMMIT,
  ) {
    if (!(options.maxBatch >= 1) || !(options.maxDelayMs >= 0)) throw new RangeError('invalid group commit options');
    // Nested better-sqlite3 transactions are SAVEPOINTs: a failing write rolls back alone and
    // the rest of its batch still commits.
    this.inSavepoint = db.transaction((run: () => unknown) => run());
    this.inTransaction = db.transaction((batch: QueuedWrite[]) =>
      batch.map((write) => {
        try {
          return { ok: true, value: this.inSavepoint(write.run) };
        } catch (error) {
          // Some errors (SQLITE_FULL, I/O errors) make SQLite roll back the whole
          // transaction, not only the savepoint: then nothing of the batch can commit, and
          // every write of it fails with this error (not with "cannot commit").
          if (!db.inTransaction) throw error;
          return { ok: false, value: error };
        }
      }),
    );
  }

  /** Queues a write; resolves with its result once it is committed. */
  write<T>(run: () => T): Promise<T> {
    if (this.closed) return Promise.reject(new WriterClosedError());
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  /** Commits what is queued and refuses further writes. */
  close(): void {
    this.closed = true;
    this.cancelSchedule();
    while (this.queue.length > 0) this.flush();
  }

  private schedule(): void {
    // A full batch does not wait for the delay, but still leaves the caller's stack first.
    const now = this.options.maxDelayMs === 0 || this.queue.length >= this.options.maxBatch;
    if (this.scheduled !== undefined) {
      if (!now || this.scheduled.kind === 'immediate') return;
      this.cancelSchedule();
    }
    this.scheduled = now
      ? { kind: 'immediate', handle: setImmediate(this.flushScheduled) }
      : { kind: 'timer', handle: setTimeout(this.flushScheduled, this.options.maxDelayMs) };
  }

  private cancelSchedule(): void {
    if (this.scheduled?.kind === 'immediate') clearImmediate(this.scheduled.handle);
    if (this.scheduled?.kind === 'timer') clearTimeout(this.scheduled.handle);
    this.scheduled = undefined;
  }

  private readonly flushScheduled = (): void => {
    this.scheduled = undefined;
    this.flush();
    if (this.queue.length > 0) this.schedule();
  };

  private flush(): void {
    const batch = this.queue.splice(0, this.options.maxBatch);
    if (batch.length === 0) return;
    let outcomes: Array<{ ok: boolean; value: unknown }>;
    try {
      // BEGIN IMMEDIATE: the write lock is taken at BEGIN, where SQLite waits for it
      // (busy_timeout) when another process holds it. A plain BEGIN reads first and asks for
      // the lock at the first write, where a lock held by another process (or a snapshot it
      // made stale) fails at once with SQLITE_BUSY, whatever the timeout: with two processes
      // on one file that refused about 6% of the writes (issue 25).
      outcomes = this.inTransaction.immediate(batch);
    } catch (error) {
      // BEGIN or COMMIT failed (disk full, I/O error): nothing of the batch is durable.
      for (const write of batch) write.reject(error);
      return;
    }
    this.stats.batches += 1;
    this.stats.writes += batch.length;
    batch.forEach((write, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) write.resolve(outcome.value);
      else write.reject(outcome?.value);
    });
  }
}
