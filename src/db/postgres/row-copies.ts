import { once } from 'node:events';
import type pg from 'pg';
import { from as copyFrom, type CopyStreamQuery } from 'pg-copy-streams';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { PgExecutor } from './open-database';
import { countRows, type RowTexts } from '../store/row-texts';
import { BINARY_COPY_HEADER, BINARY_COPY_TRAILER, encodeRows } from './binary-rows';
import { COPY_READ_TIMEOUT_MS } from './pools';
import * as schema from './schema';

/** A batch of one import's rows on their way in: a transaction on a writer connection with one COPY open in it. */
interface OpenCopy {
  client: pg.PoolClient;
  importId: Buffer;
  stream: CopyStreamQuery;
  openedAt: number;
  /** The server's refusal, once it has answered one (a constraint, a trigger, a lost connection). */
  failed?: Error;
}

/** One import being written by this process: its open batch, if any, and what became of the batches before. */
interface Writing {
  copy?: OpenCopy;
  /** Armed after each slice, cleared by the next one: fires when the upload pauses. */
  idle?: NodeJS.Timeout;
  /** The batch being committed after a pause, which whatever comes next waits for. */
  committing: Promise<void>;
  /** Why a batch committed after a pause failed: the import's next append or completion throws it. */
  failed?: Error;
}

/** Why a batch of an import removed meanwhile is dropped (or never opened). */
const removedWhileWritten = () => new Error('the import was removed while it was written');

/**
 * A batch whose import sends nothing more for this long is committed and its connection handed back: the
 * upload is waiting for its client, and a slow client must not hold one of the few writer connections.
 */
const IDLE_MS = 200;
/** A batch open this long is committed after its next slice when other imports wait for a connection. */
const HOLD_MS = 1_000;

/**
 * An import's rows go in through `COPY ... FROM STDIN` (binary) inside a transaction, the completion
 * committing with the last batch. While its slices keep coming and no other import waits for a writer
 * connection, that is ONE COPY from the first slice to the completion: a slice costs what its bytes cost, not
 * a statement and a round trip of its own. A batch is committed and its connection handed back when the
 * upload pauses (IDLE_MS) or, while other imports wait, after HOLD_MS, so slow or long uploads share the
 * writer pool instead of holding it: the next slice opens a new batch. Rows committed in batches stay invisible
 * until the completion flips the import to 'complete', as on SQLite (which commits every slice); a failed
 * import's committed rows are removed with it, and a process that dies leaves them to the clean-up of
 * abandoned imports (a batch in progress rolls back with its connection).
 */
export class RowCopies {
  private readonly writing = new Map<string, Writing>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly timing = { idleMs: IDLE_MS, holdMs: HOLD_MS },
  ) {}

  /** Streams rows `first`, `first + 1`, ... into the import's open batch (opening one when there is none). */
  async append(importId: string, first: number, rows: RowTexts): Promise<void> {
    if (countRows(rows) === 0) return;
    let entry = this.writing.get(importId);
    if (!entry) this.writing.set(importId, (entry = { committing: Promise.resolve() }));
    clearTimeout(entry.idle);
    await entry.committing;
    if (entry.failed) throw entry.failed;
    if (!entry.copy) {
      const opened = await this.start(importId);
      // Discarded while the batch was being opened (a removal, a lost lease): no timer, completion or removal
      // would ever end it, and its lock would hold the import's removal off for good.
      if (this.writing.get(importId) !== entry) {
        const removed = removedWhileWritten();
        await this.close(opened, removed);
        throw removed;
      }
      entry.copy = opened;
    }
    const copy = entry.copy;
    if (copy.failed) throw copy.failed;
    // Backpressure: a slow server makes the writer wait here instead of buffering the import in memory.
    // (events.once rejects on 'error' while it waits for 'drain', and leaves no listener behind either way.)
    if (!copy.stream.write(encodeRows(copy.importId, first, rows))) await once(copy.stream, 'drain').catch(() => undefined);
    if (copy.failed) throw copy.failed;
    if (this.pool.waitingCount > 0 && performance.now() - copy.openedAt >= this.timing.holdMs) await this.commit(entry);
    else if (this.writing.get(importId) === entry) entry.idle = setTimeout(() => this.paused(importId, entry), this.timing.idleMs).unref();
  }

  /**
   * Ends the import's batch, runs `finish` in its transaction and commits when `finish` answers true (rolls
   * the batch back otherwise). Without an open batch (no rows, or all committed), `finish` runs on `db`.
   */
  async finish(importId: string, db: PgExecutor, finish: (tx: PgExecutor) => Promise<boolean>): Promise<boolean> {
    const entry = this.writing.get(importId);
    if (!entry) return await finish(db);
    this.writing.delete(importId);
    clearTimeout(entry.idle);
    await entry.committing;
    const copy = entry.copy;
    if (entry.failed) {
      if (copy) await this.close(copy, entry.failed);
      throw entry.failed;
    }
    if (!copy) return await finish(db);
    try {
      await this.end(copy);
      const done = await finish(drizzle({ client: copy.client, schema }));
      await copy.client.query(done ? 'COMMIT' : 'ROLLBACK');
      copy.client.release();
      return done;
    } catch (error) {
      await this.close(copy, error);
      throw copy.failed ?? error;
    }
  }

  /** Rolls back the import's open batch, if this process has one (the import is being removed). */
  async discard(importId: string): Promise<void> {
    const entry = this.writing.get(importId);
    if (!entry) return;
    this.writing.delete(importId);
    clearTimeout(entry.idle);
    await entry.committing;
    if (entry.copy) await this.close(entry.copy, removedWhileWritten());
  }

  /** The upload paused: its batch is committed and the connection handed back (unless a slice came meanwhile). */
  private paused(importId: string, entry: Writing): void {
    if (!entry.copy || this.writing.get(importId) !== entry) return;
    entry.committing = this.commit(entry).catch((error: unknown) => {
      entry.failed ??= error instanceof Error ? error : new Error(String(error));
    });
  }

  private async commit(entry: Writing): Promise<void> {
    const copy = entry.copy!;
    entry.copy = undefined;
    try {
      await this.end(copy);
      await copy.client.query('COMMIT');
      copy.client.release();
    } catch (error) {
      await this.close(copy, error);
      throw copy.failed ?? error;
    }
  }

  private async start(importId: string): Promise<OpenCopy> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // Locked until the batch commits: a removal deletes the import row first, so it waits for the batch and
      // then deletes its rows too; a batch begun after a removal finds no import and commits nothing. The
      // rows have no foreign key (schema.ts): this is what keeps a row from outliving its import.
      const found = await client.query(`SELECT 1 FROM imports WHERE id = $1 AND status = 'writing' FOR KEY SHARE`, [importId]);
      if (found.rowCount === 0) throw removedWhileWritten();
      const copyQuery = copyFrom('COPY import_rows (import_id, row_index, data, errors) FROM STDIN (FORMAT binary)');
      // node-postgres reads a submittable's own query_timeout before the pool's (pools.ts).
      Object.assign(copyQuery, { query_timeout: COPY_READ_TIMEOUT_MS });
      const stream = client.query(copyQuery);
      stream.write(BINARY_COPY_HEADER);
      const copy: OpenCopy = { client, importId: Buffer.from(importId), stream, openedAt: performance.now() };
      stream.on('error', (error: Error) => (copy.failed ??= error));
      return copy;
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
  }

  /** Ends the batch's COPY; rejects with the server's refusal of any of its rows. */
  private async end(copy: OpenCopy): Promise<void> {
    if (copy.failed) throw copy.failed;
    copy.stream.end(BINARY_COPY_TRAILER);
    // events.once rejects on 'error'.
    await once(copy.stream, 'finish');
  }

  /** Ends a batch that will not commit: the connection is dropped, which rolls back whatever it held. */
  private async close(copy: OpenCopy, reason: unknown): Promise<void> {
    copy.failed ??= reason instanceof Error ? reason : new Error(String(reason));
    // A COPY in progress cannot be rolled back by a statement: releasing the client with an error destroys
    // the connection, and the server rolls its transaction back.
    copy.client.release(copy.failed);
  }
}
