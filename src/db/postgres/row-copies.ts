import { once } from 'node:events';
import type pg from 'pg';
import { from as copyFrom, type CopyStreamQuery } from 'pg-copy-streams';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { PgExecutor } from './open-database';
import { countRows, type RowTexts } from '../store/row-texts';
import { BINARY_COPY_HEADER, BINARY_COPY_TRAILER, encodeRows } from './binary-rows';
import * as schema from './schema';

/** One import's rows on their way in: a transaction on a client of its own with one COPY open in it. */
interface OpenCopy {
  client: pg.PoolClient;
  importId: Buffer;
  stream: CopyStreamQuery;
  /** The server's refusal, once it has answered one (a constraint, a trigger, a lost connection). */
  failed?: Error;
}

/**
 * The import's rows go into ONE `COPY ... FROM STDIN` inside one transaction, from its first slice to its
 * completion: the rows and the `complete` flip commit together (all or nothing, as the issue asks), and a
 * slice costs what its bytes cost, not a statement and a round trip of its own. The import row itself is
 * inserted beforehand ('writing', committed), so a process that dies leaves it for the start-up clean-up
 * while PostgreSQL rolls the rows back with the connection.
 */
export class RowCopies {
  private readonly open = new Map<string, OpenCopy>();

  constructor(private readonly pool: pg.Pool) {}

  /** Streams rows `first`, `first + 1`, ... into the import's open COPY (started on the first call). */
  async append(importId: string, first: number, rows: RowTexts): Promise<void> {
    if (countRows(rows) === 0) return;
    const copy = this.open.get(importId) ?? (await this.start(importId));
    if (copy.failed) throw copy.failed;
    const piece = encodeRows(copy.importId, first, rows);
    // Backpressure: a slow server makes the writer wait here instead of buffering the import in memory.
    // (events.once rejects on 'error' while it waits for 'drain', and leaves no listener behind either way.)
    if (!copy.stream.write(piece)) await once(copy.stream, 'drain').catch(() => undefined);
    if (copy.failed) throw copy.failed;
  }

  /**
   * Ends the import's COPY, runs `finish` in its transaction and commits when `finish` answers true (rolls
   * back otherwise, its rows gone with it). Without an open COPY (no rows), `finish` runs on `db`.
   */
  async finish(importId: string, db: PgExecutor, finish: (tx: PgExecutor) => Promise<boolean>): Promise<boolean> {
    const copy = this.open.get(importId);
    if (!copy) return await finish(db);
    this.open.delete(importId);
    try {
      if (copy.failed) throw copy.failed;
      copy.stream.end(BINARY_COPY_TRAILER);
      // Rejects with the server's refusal of any row (events.once rejects on 'error').
      await once(copy.stream, 'finish');
      const done = await finish(drizzle({ client: copy.client, schema }));
      await copy.client.query(done ? 'COMMIT' : 'ROLLBACK');
      copy.client.release();
      return done;
    } catch (error) {
      await this.close(copy, error);
      throw copy.failed ?? error;
    }
  }

  /** Rolls back the import's open COPY, if this process has one (the import is being removed). */
  async discard(importId: string): Promise<void> {
    const copy = this.open.get(importId);
    if (!copy) return;
    this.open.delete(importId);
    await this.close(copy, new Error('the import was removed while it was written'));
  }

  private async start(importId: string): Promise<OpenCopy> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const stream = client.query(copyFrom('COPY import_rows (import_id, row_index, data) FROM STDIN (FORMAT binary)'));
      stream.write(BINARY_COPY_HEADER);
      const copy: OpenCopy = { client, importId: Buffer.from(importId), stream };
      stream.on('error', (error: Error) => (copy.failed ??= error));
      this.open.set(importId, copy);
      return copy;
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
  }

  /** Ends a COPY that will not commit: the connection is dropped, which rolls back whatever it held. */
  private async close(copy: OpenCopy, reason: unknown): Promise<void> {
    copy.failed ??= reason instanceof Error ? reason : new Error(String(reason));
    // A COPY in progress cannot be rolled back by a statement: releasing the client with an error destroys
    // the connection, and the server rolls its transaction back.
    copy.client.release(copy.failed);
  }
}
