import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openPostgres } from '../../src/db/postgres/open-database';
import { folderMigrationSource, migrationFiles } from '../../src/db/sqlite/migrations';
import {
  CHANGES_AFTER_APPLIED,
  changesBeforeApplied,
  COUNTS_AFTER,
  DATASET_RECORDS_JOINED,
  IMPORT_CHANGES_JOINED,
  IMPORTS_BEFORE_COUNTS,
  migrationsBefore,
  RECORDS_AFTER_IDS,
  RECORDS_BEFORE_IDS,
} from '../helpers/migrations-before';
import { createPgTestDatabase, postgresOnly } from '../helpers/test-database';

describe('PostgreSQL migrations', postgresOnly, () => {
  it('three nodes opening one empty database together all come up; one of them created it', async () => {
    const database = await createPgTestDatabase({ migrated: false });
    try {
      const nodes = await Promise.all([1, 2, 3].map(() => openPostgres(database.url, { poolSize: 2 })));
      try {
        assert.deepEqual(nodes.map((node) => node.created).sort(), [false, false, true]);
        const { rows } = await nodes[0]!.pool.query<{ n: string }>('SELECT count(*) AS n FROM drizzle.__drizzle_migrations');
        assert.equal(Number(rows[0]!.n), migrationFiles(folderMigrationSource(undefined, 'postgres')).length - 1, 'each migration applied once');
        const again = await openPostgres(database.url, { create: false, poolSize: 1 });
        assert.equal(again.created, false);
        await again.close();
      } finally {
        await Promise.all(nodes.map((node) => node.close()));
      }
    } finally {
      await database.drop();
    }
  });

  it('the import counters are filled from the imports already stored, then kept', async () => {
    const database = await createPgTestDatabase({ migrated: false });
    try {
      const old = await openPostgres(database.url, { poolSize: 1, migrations: migrationsBefore(folderMigrationSource(undefined, 'postgres'), 'import_counts') });
      for (const statement of IMPORTS_BEFORE_COUNTS) await old.pool.query(statement);
      await old.close();
      const storage = await openPostgres(database.url, { poolSize: 1 });
      try {
        const counts = async () => (await storage.pool.query('SELECT account_id, complete FROM import_counts ORDER BY account_id')).rows;
        assert.deepEqual(await counts(), COUNTS_AFTER);
        await storage.pool.query("UPDATE imports SET status = 'complete' WHERE id = 'a4'");
        assert.deepEqual(await counts(), [{ account_id: 'a', complete: 4 }, COUNTS_AFTER[1]]);
      } finally {
        await storage.close();
      }
    } finally {
      await database.drop();
    }
  });

  it('reads every import stored before review as completed', async () => {
    const database = await createPgTestDatabase({ migrated: false });
    try {
      const old = await openPostgres(database.url, { poolSize: 1, migrations: migrationsBefore(folderMigrationSource(undefined, 'postgres'), 'import_review') });
      for (const statement of IMPORTS_BEFORE_COUNTS) await old.pool.query(statement);
      await old.close();
      const storage = await openPostgres(database.url, { poolSize: 1 });
      try {
        const { rows } = await storage.pool.query('SELECT DISTINCT review_status, reviewed_at, review_reason FROM imports');
        assert.deepEqual(rows, [{ review_status: 'completed', reviewed_at: null, review_reason: null }]);
        assert.deepEqual((await storage.pool.query('SELECT account_id, complete FROM import_counts ORDER BY account_id')).rows, COUNTS_AFTER);
      } finally {
        await storage.close();
      }
    } finally {
      await database.drop();
    }
  });

  it('gives each dataset a row and an id its records reference, every record and count kept', async () => {
    const database = await createPgTestDatabase({ migrated: false });
    try {
      const old = await openPostgres(database.url, { poolSize: 1, migrations: migrationsBefore(folderMigrationSource(undefined, 'postgres'), 'dataset_ids') });
      for (const statement of RECORDS_BEFORE_IDS) await old.pool.query(statement);
      await old.close();
      const storage = await openPostgres(database.url, { poolSize: 1 });
      try {
        assert.deepEqual((await storage.pool.query(DATASET_RECORDS_JOINED)).rows, RECORDS_AFTER_IDS);
        await storage.pool.query("DELETE FROM templates WHERE id = 'ta'");
        assert.deepEqual((await storage.pool.query('SELECT template_id FROM datasets')).rows, [{ template_id: 'tb' }]);
        assert.deepEqual((await storage.pool.query('SELECT count(*)::int AS n FROM dataset_records')).rows, [{ n: 1 }]);
      } finally {
        await storage.close();
      }
    } finally {
      await database.drop();
    }
  });

  it('gives each applied import an id its changes reference, every change kept', async () => {
    const database = await createPgTestDatabase({ migrated: false });
    try {
      const old = await openPostgres(database.url, { poolSize: 1, migrations: migrationsBefore(folderMigrationSource(undefined, 'postgres'), 'applied_imports') });
      for (const statement of changesBeforeApplied('postgres')) await old.pool.query(statement);
      await old.close();
      const storage = await openPostgres(database.url, { poolSize: 1 });
      try {
        assert.deepEqual((await storage.pool.query(IMPORT_CHANGES_JOINED)).rows, CHANGES_AFTER_APPLIED);
      } finally {
        await storage.close();
      }
    } finally {
      await database.drop();
    }
  });

  it('a read-only open of a database without importd tables is `missing`, and creates nothing', async () => {
    const database = await createPgTestDatabase({ migrated: false });
    try {
      await assert.rejects(openPostgres(database.url, { create: false }), { name: 'DatabaseFileError', kind: 'missing' });
      await assert.rejects(openPostgres(database.url, { create: false }), { kind: 'missing' }, 'still nothing there');
    } finally {
      await database.drop();
    }
  });
});
