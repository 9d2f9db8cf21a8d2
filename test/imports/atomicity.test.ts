import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { call, DEFAULT_LIMITS, json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { beginImport, checkInThread, prepareImportHeader, sliceRows, writeRows } from '../../src/services/imports';
import { contactRows, countRows, createImportOk, postImport } from './helpers';
import { injectFailure } from '../helpers/inject-failure';

describe('import atomicity', () => {
  const { h, env } = useHarness();
  before(async () => {
    await createImportOk(h, env, { rows: contactRows(3) });
  });

  const header = async () =>
    await prepareImportHeader(h.ctx, { accountId: env.accountId, environmentId: env.environmentId, importedFrom: 'api' }, { meta: { schemaKey: 'contacts' } });

  it('a bad value in row 3000 (after a first slice was written) leaves no import and no rows', async () => {
    const rows: Record<string, unknown>[] = contactRows(4500);
    rows[3000] = { name: 'x', price: { amount: 1 } };
    const response = await postImport(h, env, { rows });
    assert.equal(response.status, 400);
    assert.deepEqual((await json(response)).error.details, [
      { path: 'rows.3000.price', message: 'must be a string, a finite number, a boolean or null' },
    ]);
    assert.equal(await countRows(h, 'imports'), 1);
    assert.equal(await countRows(h, 'import_rows'), 3);
  });

  it('a row that is not valid JSON, found after a first slice was written, leaves no import and no rows', async () => {
    const rows = contactRows(3000).map((row) => JSON.stringify(row));
    const rawBody = `{"meta":{"schemaKey":"contacts"},"rows":[${rows.join(',')},{"broken":tru}]}`;
    const response = await call(h, 'POST', '/v1/imports', { key: env.secretKey, rawBody });
    assert.equal(response.status, 400);
    assert.equal((await json(response)).error.code, 'invalid_json');
    assert.equal(await countRows(h, 'imports'), 1);
    assert.equal(await countRows(h, 'import_rows'), 3);
  });

  it('a storage failure part-way (injected at row 3000) leaves no import and no rows', async () => {
    const remove = await injectFailure(h, 'fail_row', 'INSERT', 'import_rows', 'NEW.row_index = 3000');
    try {
      const response = await postImport(h, env, { rows: contactRows(5000) });
      assert.equal(response.status, 500);
      const body = await json(response);
      assert.equal(body.error.code, 'internal_error');
      assert.ok(!JSON.stringify(body).includes('injected'), 'no internals in the body');
      assert.ok(h.logs.some((line) => line.includes('injected failure') && line.includes(body.error.requestId)));
    } finally {
      await remove();
    }
    assert.equal(await countRows(h, 'imports'), 1);
    assert.equal(await countRows(h, 'import_rows'), 3);
  });

  it('an import is invisible while written and appears whole when finished; reads keep answering meanwhile', async () => {
    const writer = await beginImport(h.ctx, await header());
    const writing = writeRows(writer, checkInThread(sliceRows(contactRows(20_000)), DEFAULT_LIMITS.rowBytes));
    let finished = false;
    void writing.then(() => (finished = true));
    // writeRows yields between slices: this read runs while the import is still being written.
    const list = await json(await call(h, 'GET', '/v1/imports', { key: env.secretKey }));
    const detail = await call(h, 'GET', `/v1/imports/${writer.importId}`, { key: env.secretKey });
    assert.equal(finished, false, 'the read was answered before the write finished');
    assert.equal(list.pagination.paging.total, 1);
    assert.equal(detail.status, 404);
    await writing;
    const done = await json(await call(h, 'GET', `/v1/imports/${writer.importId}`, { key: env.secretKey }));
    assert.equal(done.cellStats.rowCount, 20_000);
    assert.equal(await countRows(h, 'import_rows', writer.importId), 20_000);
  });
});
