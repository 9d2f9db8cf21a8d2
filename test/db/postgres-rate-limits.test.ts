import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openPostgres } from '../../src/db/postgres/open-database';
import { createPostgresStore } from '../../src/db/postgres/store';
import { createPgTestDatabase, postgresOnly } from '../helpers/test-database';

describe('PostgreSQL rate-limit windows shared by several nodes', postgresOnly, () => {
  it("a node whose clock runs ahead does not delete the window the others still count in, and windows a whole window old are pruned", async () => {
    const database = await createPgTestDatabase();
    const storage = await openPostgres(database.url, { poolSize: 2, writerPoolSize: 1 });
    try {
      const minute = 60_000;
      const behind = createPostgresStore(storage, 'node-behind');
      const ahead = createPostgresStore(storage, 'node-ahead');
      assert.equal(await behind.rateLimits.hit('key-1', 10 * minute, minute), 1);
      assert.equal(await behind.rateLimits.hit('key-1', 10 * minute, minute), 2);
      // node-ahead's clock has reached the next window: its first count there prunes.
      assert.equal(await ahead.rateLimits.hit('key-2', 11 * minute, minute), 1);
      assert.equal(await behind.rateLimits.hit('key-1', 10 * minute, minute), 3, "node-behind's window was kept");
      assert.equal(await ahead.rateLimits.hit('key-2', 12 * minute, minute), 1);
      const windows = await storage.pool.query<{ w: string }>('SELECT DISTINCT window_start::text AS w FROM rate_limits ORDER BY 1');
      assert.deepEqual(windows.rows.map((row) => Number(row.w)), [11 * minute, 12 * minute]);
    } finally {
      await storage.close();
      await database.drop();
    }
  });
});
