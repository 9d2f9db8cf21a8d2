import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type pg from 'pg';
import type { NewImportRow } from '../../src/db/store';
import { openPostgres, type PgStorage } from '../../src/db/postgres/open-database';
import { RowCopies } from '../../src/db/postgres/row-copies';
import { createPostgresStore } from '../../src/db/postgres/store';
import { createPgTestDatabase, postgresOnly } from '../helpers/test-database';

const at = '2026-01-01T00:00:00.000Z';

const writing = (id: string): NewImportRow => ({
  id, accountId: 'acc', environmentId: null, templateId: 't', status: 'writing', writerNode: 'node-a', leaseUntil: '2999-01-01T00:00:00.000Z',
  meta: '{}', originalSchema: '{}', file: null, fileId: null, endUserId: null, endUserEmail: null, endUserIp: null, importedFrom: 'api',
  sessionJti: null, rowCount: 0, cellStats: '{}', createdAt: at, updatedAt: at,
});

/** A test database with the account and template of `writing` imports, and a store of node-a on it. */
async function withStore(sizes: { poolSize: number; writerPoolSize: number }, test: (storage: PgStorage, store: ReturnType<typeof createPostgresStore>) => Promise<void>) {
  const database = await createPgTestDatabase();
  const storage = await openPostgres(database.url, sizes);
  try {
    const store = createPostgresStore(storage, 'node-a');
    await store.accounts.insertIfMissing({ id: 'acc', name: 'acc', createdAt: at });
    await store.templates.insert({ id: 't', accountId: 'acc', key: 'k', schema: '{}', source: 'studio', metadata: '{}', createdAt: at, updatedAt: at });
    await test(storage, store);
  } finally {
    await storage.close();
    await database.drop();
  }
}

const committedRows = async (storage: PgStorage, id: string) =>
  (await storage.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM import_rows WHERE import_id = $1', [id])).rows[0]!.n;

describe('PostgreSQL connections of imports in progress', postgresOnly, () => {
  it('imports being written (one connection each, until they complete) never take the connections other requests need', { timeout: 60_000 }, async () => {
    await withStore({ poolSize: 2, writerPoolSize: 3 }, async (_storage, store) => {
      // More imports in progress than the query pool has connections: each holds its COPY's connection.
      for (const id of ['i1', 'i2', 'i3']) {
        await store.imports.insert(writing(id));
        await store.rows.append(id, 0, ['{"a":1}']);
      }
      // Before the writers had a pool of their own, these waited for a connection no import would give back.
      assert.deepEqual((await store.accounts.list()).map((a) => a.id), ['acc']);
      assert.equal(await store.imports.find('acc', 'i1'), undefined, 'still being written');
      const values = { rowCount: 1, cellStats: '{}', createdAt: at, updatedAt: at };
      for (const id of ['i1', 'i2', 'i3']) assert.deepEqual(await store.imports.complete(id, 'node-a', values), { changes: null });
      assert.equal((await store.imports.find('acc', 'i3'))?.rowCount, 1);
    });
  });

  it('rows of an upload that paused are committed, stay invisible, and go with their import', { timeout: 60_000 }, async () => {
    await withStore({ poolSize: 2, writerPoolSize: 1 }, async (storage, store) => {
      await store.imports.insert(writing('i1'));
      await store.rows.append('i1', 0, ['{"a":1}', '{"a":2}']);
      for (let i = 0; (await committedRows(storage, 'i1')) === 0; i++) {
        assert.ok(i < 500, 'the paused batch was never committed');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(storage.writerPool.idleCount, 1, 'the writer connection was handed back');
      assert.equal(await store.imports.find('acc', 'i1'), undefined, 'still being written');
      // The upload goes on in a batch of its own and completes with both.
      await store.rows.append('i1', 2, ['{"a":3}']);
      assert.deepEqual(await store.imports.complete('i1', 'node-a', { rowCount: 3, cellStats: '{}', createdAt: at, updatedAt: at }), { changes: null });
      assert.deepEqual((await store.rows.chunk('i1', 'asc', -1, 10, 1_000)).map((row) => row.data), ['{"a":1}', '{"a":2}', '{"a":3}']);

      await store.imports.insert(writing('i2'));
      await store.rows.append('i2', 0, ['{"b":1}']);
      await new Promise((resolve) => setTimeout(resolve, 500));
      await store.rows.discard('i2');
      await store.imports.delete('i2');
      assert.equal(await committedRows(storage, 'i2'), 0);
    });
  });

  it('a removal meeting an open batch waits for it and takes its rows too; the import then takes no batch more', { timeout: 60_000 }, async () => {
    await withStore({ poolSize: 2, writerPoolSize: 2 }, async (storage, store) => {
      // The removing node's store; the writing node's batch commits after a pause longer than the removal takes to meet it, shorter than the removal waits (2 s).
      const remover = createPostgresStore(storage, 'node-b');
      const copies = new RowCopies(storage.writerPool, { idleMs: 1_500, holdMs: 1_000 });
      await store.imports.insert(writing('i1'));
      await copies.append('i1', 0, ['{"a":1}']);
      const removed = remover.imports.delete('i1');
      const waiting = async () =>
        (await storage.pool.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'delete from "imports"%'`)).rowCount! > 0;
      for (let i = 0; !(await waiting()); i++) {
        assert.ok(i < 100, 'the removal did not wait for the open batch');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await removed;
      assert.equal(await committedRows(storage, 'i1'), 0, 'no row outlives its import');
      await assert.rejects(copies.append('i1', 1, ['{"a":2}']), /removed/);
      await copies.discard('i1');
      assert.equal(await committedRows(storage, 'i1'), 0);
    });
  });

  it('a batch being opened when its import is discarded is dropped, not left holding a connection and the import locked', { timeout: 60_000 }, async () => {
    await withStore({ poolSize: 2, writerPoolSize: 1 }, async (storage, store) => {
      // The batches' connections, so that one left taken (the defect) is still dropped and the pools can close.
      const taken: pg.PoolClient[] = [];
      const connect = async () => {
        const client = await storage.writerPool.connect();
        taken.push(client);
        return client;
      };
      const copies = new RowCopies(Object.create(storage.writerPool, { connect: { value: connect } }), { idleMs: 60_000, holdMs: 60_000 });
      try {
        await store.imports.insert(writing('i0'));
        await store.imports.insert(writing('i1'));
        // i0 holds the only writer connection: i1's batch waits for it, and i1 is discarded meanwhile (its lease lost).
        await copies.append('i0', 0, ['{"a":0}']);
        const appended = copies.append('i1', 0, ['{"a":1}']);
        for (let i = 0; storage.writerPool.waitingCount === 0; i++) {
          assert.ok(i < 100, 'the batch never waited for a connection');
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        await copies.discard('i1');
        assert.equal(await copies.finish('i0', storage.db, async () => true), true);
        // Before, the batch opened anyway and nothing ever ended it: its connection stayed taken, and the
        // removal timed out on its lock of the import.
        await assert.rejects(appended, /removed/);
        assert.equal(storage.writerPool.idleCount, storage.writerPool.totalCount, 'no connection left taken');
        await store.imports.delete('i1');
        assert.equal(await committedRows(storage, 'i1'), 0);
      } finally {
        for (const client of taken) {
          try {
            client.release(true);
          } catch {
            // Given back already (node-postgres refuses a second release).
          }
        }
      }
    });
  });
});
