import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHarness, createTestEnvironment, DEFAULT_LIMITS, testClock, type Harness, type TestEnvironment } from '../helpers/harness';
import { joinNode, type Node } from '../helpers/nodes';
import { testEngine } from '../helpers/test-database';
import { contactRows } from './helpers';
import { beginImport, cleanAbandonedImports, prepareImportHeader, RowChecker, type ImportWriter } from '../../src/services/imports';
import { removeHiddenImport, removerOf } from '../../src/services/imports/remove-import';
import type { ServiceContext } from '../../src/services/context';

const LEASE_MS = 30_000;
// Rows node A has sent before node B takes its import over. On PostgreSQL they sit in A's open COPY, whose
// transaction B's removal waits for (A is alive here, in this process): the takeover of a dead writer's
// import, rows in flight included, is tested with real nodes in test/nodes/.
const ROWS_IN_FLIGHT = testEngine === 'sqlite' ? 2500 : 0;

// Two nodes on one database file, each with its own clock: node A writes, node B cleans up.
describe('unfinished imports are held by a lease, never by process id', () => {
  const clockA = testClock();
  const clockB = testClock();
  let h: Harness;
  let env: TestEnvironment;
  let b: Node;
  before(async () => {
    h = await createHarness({ clock: clockA });
    env = await createTestEnvironment(h);
    b = await joinNode(h, { clock: clockB });
  });
  after(async () => {
    await b.close();
    await h.close();
  });

  const begin = async (ctx: ServiceContext, rows = 10): Promise<ImportWriter> => {
    const header = await prepareImportHeader(ctx, { accountId: env.accountId, environmentId: env.environmentId, importedFrom: 'api' }, { meta: { schemaKey: 'c' } });
    const writer = await beginImport(ctx, header);
    await writer.append(new RowChecker(DEFAULT_LIMITS.rowBytes).check(contactRows(rows)));
    return writer;
  };
  const stats = () => new RowChecker(DEFAULT_LIMITS.rowBytes).stats();
  const owner = async (id: string) => (await h.sql<{ node: string | null; lease: string | null }>('SELECT writer_node AS node, lease_until AS lease FROM imports WHERE id = ?', id))[0];
  const count = async (table: 'imports' | 'import_rows', id: string) =>
    (await h.sql<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE ${table === 'imports' ? 'id' : 'import_id'} = ?`, id))[0]!.n;

  it('each node has its own id, recorded on the imports it writes with a lease of IMPORTD_LEASE_SECONDS', async () => {
    assert.notEqual(h.ctx.store.nodeId, b.ctx.store.nodeId);
    const writer = await begin(h.ctx);
    assert.deepEqual(await owner(writer.importId), { node: h.ctx.store.nodeId, lease: new Date(clockA().getTime() + LEASE_MS).toISOString() });
    await writer.finish(stats());
    assert.deepEqual(await owner(writer.importId), { node: null, lease: null });
  });

  it("node B's clean-up never removes an import node A is writing; A completes it", async () => {
    const writer = await begin(h.ctx);
    clockB.set(clockA().toISOString());
    clockB.advance(LEASE_MS - 1);
    assert.equal(await cleanAbandonedImports(b.ctx), 0);
    await writer.append(new RowChecker(DEFAULT_LIMITS.rowBytes).check(contactRows(5)));
    const done = await writer.finish(stats());
    assert.equal(done.rowCount, 15);
    assert.equal(await count('import_rows', writer.importId), 15);
  });

  it("a renewed lease keeps the import A's however long it writes", async () => {
    const writer = await begin(h.ctx);
    clockA.advance(LEASE_MS - 1000);
    assert.equal(await h.ctx.store.imports.renewLease(writer.importId, h.ctx.store.nodeId, new Date(clockA().getTime() + LEASE_MS).toISOString()), true);
    clockB.set(clockA().toISOString());
    clockB.advance(LEASE_MS - 1);
    assert.equal(await cleanAbandonedImports(b.ctx), 0);
    assert.equal((await writer.finish(stats())).status, 'complete');
  });

  it("once A's lease has run out, B's clean-up removes the import with its rows; A can neither renew nor complete it", async () => {
    const writer = await begin(h.ctx, ROWS_IN_FLIGHT);
    clockB.set(clockA().toISOString());
    clockB.advance(LEASE_MS);
    assert.equal(await cleanAbandonedImports(b.ctx), 1);
    assert.equal(await count('imports', writer.importId), 0);
    assert.equal(await count('import_rows', writer.importId), 0);
    assert.equal(await h.ctx.store.imports.renewLease(writer.importId, h.ctx.store.nodeId, clockA().toISOString()), false);
    await assert.rejects(writer.finish(stats()), { code: 'conflict' });
  });

  it('complete succeeds only for the owner node', async () => {
    const writer = await begin(h.ctx);
    const values = { rowCount: 10, cellStats: '{}', createdAt: clockA().toISOString(), updatedAt: clockA().toISOString() };
    assert.equal(await b.ctx.store.imports.complete(writer.importId, b.ctx.store.nodeId, values), false);
    assert.deepEqual(await h.ctx.store.imports.complete(writer.importId, h.ctx.store.nodeId, values), { changes: null });
    assert.equal(await h.ctx.store.imports.complete(writer.importId, h.ctx.store.nodeId, values), false, 'only once');
  });

  it('a removal held by one node is not taken by another until that lease ends; a stopped removal gives its lease up', async () => {
    const writer = await begin(h.ctx, ROWS_IN_FLIGHT);
    clockB.set(clockA().toISOString());
    clockB.advance(LEASE_MS);
    const claimed = await b.ctx.store.imports.claimAbandoned(removerOf(b.ctx), clockB().toISOString(), new Date(clockB().getTime() + LEASE_MS).toISOString(), 10);
    assert.deepEqual(claimed, [writer.importId]);
    clockA.set(clockB().toISOString());
    assert.equal(await removeHiddenImport(h.ctx, writer.importId), 0, "B holds it: A leaves it to B");
    assert.equal(await count('import_rows', writer.importId), ROWS_IN_FLIGHT);
    const stop = new AbortController();
    stop.abort();
    assert.equal(await removeHiddenImport(b.ctx, writer.importId, stop.signal), 0);
    assert.equal((await owner(writer.importId))!.lease, clockB().toISOString(), 'the lease ended when B stopped');
    assert.equal(await cleanAbandonedImports(h.ctx), 1, 'A finishes the removal at once');
    assert.equal(await count('import_rows', writer.importId), 0);
  });

  it('a writer whose import was taken over and removed is refused its next slice with conflict', async () => {
    const writer = await begin(h.ctx, ROWS_IN_FLIGHT);
    clockB.set(clockA().toISOString());
    clockB.advance(LEASE_MS);
    assert.equal(await cleanAbandonedImports(b.ctx), 1);
    // SQLite refuses the slice itself; PostgreSQL's COPY reports the refusal by the completion at the latest.
    const written = (async () => {
      await writer.append(new RowChecker(DEFAULT_LIMITS.rowBytes).check(contactRows(1)));
      await writer.finish(stats());
    })();
    await assert.rejects(written, { code: 'conflict' });
    await writer.abort();
    assert.equal(await count('import_rows', writer.importId), 0);
  });

  it('an erasure of the end-user on the node writing the import takes it from the writer, which can neither renew nor complete it', async () => {
    const session = {
      jti: 'jti-erased', endUserId: 'erased-user', accountId: env.accountId, environmentId: env.environmentId, templateId: null,
      endUserEmail: null, endUserIp: null, metadata: {}, expiresAt: '2999-01-01T00:00:00.000Z',
    };
    const header = await prepareImportHeader(h.ctx, { accountId: env.accountId, environmentId: env.environmentId, importedFrom: 'api', session }, { meta: { schemaKey: 'c' } });
    const writer = await beginImport(h.ctx, header);
    await writer.append(new RowChecker(DEFAULT_LIMITS.rowBytes).check(contactRows(10)));
    // The erasure hides the import, and its removal takes it and is stopped before it deletes anything: the
    // moment a removal of many rows spends deleting them while the writer goes on.
    assert.deepEqual((await h.ctx.store.compliance.hideEndUser(env.accountId, 'erased-user')).hidden, [writer.importId]);
    const stop = new AbortController();
    stop.abort();
    await removeHiddenImport(h.ctx, writer.importId, stop.signal);
    assert.equal(await h.ctx.store.imports.renewLease(writer.importId, h.ctx.store.nodeId, new Date(clockA().getTime() + LEASE_MS).toISOString()), false);
    await assert.rejects(writer.finish(stats()), { code: 'conflict' });
    assert.equal(await h.ctx.store.imports.find(env.accountId, writer.importId), undefined, 'never visible again');
    await writer.abort();
    assert.equal(await count('imports', writer.importId), 0);
    assert.equal(await count('import_rows', writer.importId), 0);
  });
});
