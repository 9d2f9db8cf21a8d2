import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ImportRow } from '../../src/db/store';
import { openPostgres } from '../../src/db/postgres/open-database';
import { createPostgresStore } from '../../src/db/postgres/store';
import { createPgTestDatabase, postgresOnly } from '../helpers/test-database';

const at = '2026-01-01T00:00:00.000Z';

describe('PostgreSQL connections of imports in progress', postgresOnly, () => {
  it('imports being written (one connection each, until they complete) never take the connections other requests need', { timeout: 60_000 }, async () => {
    const database = await createPgTestDatabase();
    const storage = await openPostgres(database.url, { poolSize: 2, writerPoolSize: 3 });
    try {
      const store = createPostgresStore(storage, 'node-a');
      await store.accounts.insertIfMissing({ id: 'acc', name: 'acc', createdAt: at });
      await store.templates.insert({ id: 't', accountId: 'acc', key: 'k', schema: '{}', source: 'studio', metadata: '{}', createdAt: at, updatedAt: at });
      const writing = (id: string): ImportRow => ({
        id, accountId: 'acc', environmentId: null, templateId: 't', status: 'writing', writerNode: 'node-a', leaseUntil: '2999-01-01T00:00:00.000Z',
        meta: '{}', originalSchema: '{}', file: null, fileId: null, endUserId: null, endUserEmail: null, endUserIp: null, importedFrom: 'api',
        sessionJti: null, rowCount: 0, cellStats: '{}', createdAt: at, updatedAt: at,
      });
      // More imports in progress than the query pool has connections: each holds its COPY's connection.
      for (const id of ['i1', 'i2', 'i3']) {
        await store.imports.insert(writing(id));
        await store.rows.append(id, 0, ['{"a":1}']);
      }
      // Before the writers had a pool of their own, these waited for a connection no import would give back.
      assert.deepEqual((await store.accounts.list()).map((a) => a.id), ['acc']);
      assert.equal(await store.imports.find('acc', 'i1'), undefined, 'still being written');
      const values = { rowCount: 1, cellStats: '{}', createdAt: at, updatedAt: at };
      for (const id of ['i1', 'i2', 'i3']) assert.equal(await store.imports.complete(id, 'node-a', values), true);
      assert.equal((await store.imports.find('acc', 'i3'))?.rowCount, 1);
    } finally {
      await storage.close();
      await database.drop();
    }
  });
});
