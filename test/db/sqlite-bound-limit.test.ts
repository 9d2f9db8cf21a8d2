import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { call, createHarness, createTestEnvironment, type Harness, type TestEnvironment } from '../helpers/harness';
import { sqliteOnly } from '../helpers/test-database';
import { createImportOk } from '../imports/helpers';

// SQLite (3.53) reads a bare `LIMIT ?`'s value when it plans a statement and expires the statement whenever that
// parameter is bound again, so a statement kept prepared was prepared anew on every run (BOUND_LIMIT in
// src/db/sqlite/prepared.ts). better-sqlite3 does not expose the re-prepare count: this checks what the reads
// prepare instead.
describe('SQLite statements kept prepared: no bare LIMIT ?', sqliteOnly, () => {
  let h: Harness;
  let env: TestEnvironment;
  let importId: string;
  const prepared: string[] = [];
  const original = Database.prototype.prepare;
  before(async () => {
    // From the start: the row statements are prepared together, by the import's first write.
    Database.prototype.prepare = function (this: Database.Database, source: string) {
      prepared.push(source);
      return original.call(this, source);
    } as typeof original;
    h = await createHarness();
    env = await createTestEnvironment(h);
    importId = (await createImportOk(h, env, { rows: [{ a: 1 }, { a: 2 }, { a: 3 }] })).id;
  });
  after(() => {
    Database.prototype.prepare = original;
    h?.close();
  });

  it('the rows pages (both directions, and past a cursor) and the list page', async () => {
    for (const path of [`/v1/imports/${importId}/rows?limit=2`, `/v1/imports/${importId}/rows?limit=2&direction=desc`, '/v1/imports?limit=2']) {
      const first = await call(h, 'GET', path, { key: env.secretKey });
      assert.equal(first.status, 200);
      const next = ((await first.json()) as { pagination: { paging: { nextCursor: string | null } } }).pagination.paging.nextCursor;
      if (next) assert.equal((await call(h, 'GET', `${path}&cursor=${next}`, { key: env.secretKey })).status, 200);
    }
    const limited = prepared.filter((source) => /\blimit\b/i.test(source));
    assert.ok(limited.length >= 3, `the reads prepared their statements here: ${prepared.join('\n')}`);
    for (const source of limited) assert.doesNotMatch(source, /\blimit (\?|[@:$]\w+)(?!\w)(?!\s*\+ 0)/i);
  });
});
