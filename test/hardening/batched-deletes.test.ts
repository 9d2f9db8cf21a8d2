import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { deleteEndUserData } from '../../src/services/compliance';
import { beginImport, cleanAbandonedImports, prepareImportHeader, RowChecker } from '../../src/services/imports';
import { ROWS_PER_DELETE } from '../../src/services/imports/remove-import';
import { createHarness, createTestEnvironment, DEFAULT_LIMITS, json, type Harness, type TestEnvironment } from '../helpers/harness';
import { insertImport } from '../helpers/imports-fixture';
import { startLiveServer, type LiveServer } from '../helpers/live-server';
import { contactRows, countRows } from '../imports/helpers';
import { injectFailure } from '../helpers/inject-failure';

// Deleting a big import, or everything of an end-user, must not hold the server: the import disappears
// from every read at once, then its rows go in small transactions with other requests served in between;
// a failure or a stop midway leaves nothing visible, and the next clean-up (of any node) finishes it.

let h: Harness;
let env: TestEnvironment;
let server: LiveServer;
beforeEach(async () => {
  h = await createHarness();
  env = await createTestEnvironment(h);
  server = await startLiveServer(h);
});
afterEach(async () => {
  await server.close();
  h.close();
});

/** A request to the real server (in this process, so the test can look between its event-loop turns). */
const send = (method: string, path: string) => fetch(`${server.url}${path}`, { method, headers: { Authorization: `Bearer ${env.secretKey}` } });

/**
 * Runs `work` while a reader looks between event-loop turns; returns what it saw: how many rows the import
 * still had each time, and whether the import was ever visible with rows missing.
 */
async function observe(importIds: string[], work: Promise<Response>) {
  let done = false;
  const counts: number[] = [];
  let visibleWithRowsMissing = false;
  void work.finally(() => (done = true));
  while (!done) {
    await new Promise(setImmediate);
    for (const id of importIds) {
      // One statement reads both, so both describe one moment on either engine.
      const { visible, rows } = (await h.sql<{ visible: number | null; rows: number }>(
        "SELECT (SELECT row_count FROM imports WHERE id = ? AND status = 'complete') AS visible, (SELECT count(*) FROM import_rows WHERE import_id = ?) AS rows",
        id,
        id,
      ))[0]!;
      counts.push(rows);
      if (visible !== null && visible !== rows) visibleWithRowsMissing = true;
    }
  }
  return { response: await work, counts, visibleWithRowsMissing };
}

describe('batched deletes', () => {
  it('DELETE /v1/imports/{id}: hidden at once, rows removed in small transactions with reads served between them', async () => {
    // Twenty batches: the reader's own round trips on PostgreSQL under CI's load saw two states of six batches.
    const id = await insertImport(h, env, { rows: 20 * ROWS_PER_DELETE + 10 });
    const seen = await observe([id], send('DELETE', `/v1/imports/${id}`));
    assert.equal(seen.response.status, 200);
    assert.deepEqual(await json(seen.response), { id, deleted: true, rows: 20 * ROWS_PER_DELETE + 10 });
    assert.equal(seen.visibleWithRowsMissing, false);
    const partial = seen.counts.filter((n) => n > 0 && n < 20 * ROWS_PER_DELETE + 10);
    assert.ok(partial.length >= 3, `reads ran between the batches (saw ${JSON.stringify(seen.counts)})`);
    assert.equal(await countRows(h, 'imports', id), 0);
    assert.equal(await countRows(h, 'import_rows', id), 0);
  });

  it('DELETE /v1/end-users/{id}: every import hidden in one transaction, their rows in small ones', async () => {
    const ids = [await insertImport(h, env, { endUserId: 'alice', rows: 3 * ROWS_PER_DELETE }), await insertImport(h, env, { endUserId: 'alice', rows: 2 * ROWS_PER_DELETE })];
    const kept = await insertImport(h, env, { endUserId: 'bob', rows: 10 });
    const seen = await observe(ids, send('DELETE', '/v1/end-users/alice'));
    assert.equal(seen.response.status, 200);
    assert.deepEqual(await json(seen.response), { endUserId: 'alice', deleted: { imports: 2, rows: 5 * ROWS_PER_DELETE, sessions: 0 } });
    assert.equal(seen.visibleWithRowsMissing, false);
    assert.ok(seen.counts.some((n) => n > 0 && n < 3 * ROWS_PER_DELETE), 'reads ran between the batches');
    assert.deepEqual(await Promise.all(ids.map((id) => countRows(h, 'imports', id))), [0, 0]);
    assert.equal(await countRows(h, 'import_rows', kept), 10);
  });

  it('a deletion that fails midway leaves the import hidden, never half-visible; the next clean-up removes the rest', async () => {
    const id = await insertImport(h, env, { rows: 3 * ROWS_PER_DELETE });
    const remove = await injectFailure(h, 'fail_midway', 'DELETE', 'import_rows', `OLD.row_index = ${2 * ROWS_PER_DELETE + 5}`, 'injected');
    const response = await send('DELETE', `/v1/imports/${id}`);
    assert.equal(response.status, 500);
    assert.ok(await countRows(h, 'import_rows', id) > 0, 'some rows are left');
    assert.equal((await send('GET', `/v1/imports/${id}`)).status, 404);
    assert.equal((await json(await send('GET', '/v1/imports'))).pagination.paging.total, 0);
    await remove();
    assert.equal(await cleanAbandonedImports(h.ctx), 1);
    assert.equal(await countRows(h, 'imports', id), 0);
    assert.equal(await countRows(h, 'import_rows', id), 0);
  });

  it("an end-user's import still being written when their data is erased can no longer complete: conflict, nothing kept", async () => {
    const session = {
      jti: 'jti-carol', endUserId: 'carol', accountId: env.accountId, environmentId: env.environmentId,
      templateId: null, endUserEmail: null, endUserIp: null, metadata: {}, expiresAt: '2030-01-01T00:00:00.000Z',
    };
    const origin = { accountId: env.accountId, environmentId: env.environmentId, importedFrom: 'test', session };
    await h.ctx.store.environments.setAutoCreateTemplates(env.environmentId, true);
    const header = await prepareImportHeader(h.ctx, origin, { meta: { schemaKey: 'c' } });
    const writer = await beginImport(h.ctx, header);
    const checker = new RowChecker(DEFAULT_LIMITS.rowBytes);
    await writer.append(checker.check(contactRows(10)));
    const erased = await deleteEndUserData(h.ctx, env.accountId, 'carol');
    assert.equal(erased.deleted.imports, 1);
    await assert.rejects(writer.finish(checker.stats()), (error: Error & { code?: string }) => error.code === 'conflict');
    assert.equal(await countRows(h, 'imports', writer.importId), 0);
  });
});
