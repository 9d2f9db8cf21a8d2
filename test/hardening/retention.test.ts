import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { purgeExpiredImports, scheduleRetention } from '../../src/services/compliance';
import { RETENTION_LOCK } from '../../src/services/compliance/purge-expired';
import { joinNode } from '../helpers/nodes';
import { startServe } from '../helpers/process';
import { createHarness, createTestEnvironment, testClock } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { dumpData, insertImport } from '../helpers/imports-fixture';
import { waitFor } from '../helpers/live-server';

const DAY = 86_400_000;

describe('retention (IMPORTD_RETENTION_DAYS)', () => {
  const clock = testClock('2026-03-01T00:00:00.000Z');
  const { h, env, other } = useHarness({ clock, config: { IMPORTD_RETENTION_DAYS: '30' }, environments: { other: { account: 'other-co' } } });
  const daysAgo = (days: number) => new Date(clock().getTime() - days * DAY).toISOString();

  it('deletes imports older than the retention, in every account, and keeps newer ones', async () => {
    const old = [await insertImport(h, env, { createdAt: daysAgo(31), rows: 4 }), await insertImport(h, other, { createdAt: daysAgo(400), rows: 2 })];
    const kept = [
      await insertImport(h, env, { createdAt: daysAgo(29), rows: 3 }),
      await insertImport(h, env, { createdAt: new Date(clock().getTime() - 30 * DAY + 1).toISOString(), rows: 1 }),
    ];
    const before = await dumpData(h);
    assert.deepEqual(await purgeExpiredImports(h.ctx), { imports: 2, rows: 6 });
    const afterwards = await dumpData(h);
    assert.deepEqual(afterwards.imports.map((i) => i.id).sort(), kept.sort());
    assert.deepEqual(afterwards.rows, before.rows.filter((r) => !old.includes(r.import_id)));
    assert.deepEqual(afterwards.sessions, before.sessions);
    assert.deepEqual(await purgeExpiredImports(h.ctx), { imports: 0, rows: 0 });
  });

  it('purges a big import in small transactions, never showing it partly deleted', async () => {
    const big = await insertImport(h, env, { createdAt: daysAgo(60), rows: 12_345 });
    // One statement reads both, so both describe one moment on either engine.
    const observe = async () =>
      (
        await h.sql<{ visible: number | null; stored: number }>(
          "SELECT (SELECT row_count FROM imports WHERE id = ? AND status = 'complete') AS visible, (SELECT count(*) FROM import_rows WHERE import_id = ?) AS stored",
          big,
          big,
        )
      )[0]!;
    let done = false;
    let partialSeen = 0;
    // Runs between the purge's transactions, as request handlers would.
    const observer = (async () => {
      while (!done) {
        const { visible: rowCount, stored } = await observe();
        if (rowCount !== null) assert.equal(stored, rowCount, 'a visible import lost rows');
        else if (stored > 0) partialSeen++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const result = await purgeExpiredImports(h.ctx);
    done = true;
    await observer;
    assert.deepEqual(result, { imports: 1, rows: 12_345 });
    assert.ok(partialSeen >= 2, `the purge ran in ${partialSeen} observable steps`);
    assert.equal((await observe()).stored, 0);
  });

  it('does nothing when retention is unset', async () => {
    const unset = await createHarness({ clock });
    try {
      const id = await insertImport(unset, await createTestEnvironment(unset), { createdAt: daysAgo(9999) });
      assert.deepEqual(await purgeExpiredImports(unset.ctx), { imports: 0, rows: 0 });
      assert.equal((await dumpData(unset)).imports[0]!.id, id);
    } finally {
      unset.close();
    }
  });

  it('the schedule runs at once, then on its interval, until stop()', async () => {
    const results: { imports: number }[] = [];
    await insertImport(h, env, { createdAt: daysAgo(90) });
    const schedule = scheduleRetention(h.ctx, { purged: (r) => results.push(r), failed: (e) => assert.fail(String(e)) }, 20);
    await waitFor(() => results.length >= 1);
    assert.equal(results[0]!.imports, 1);
    await insertImport(h, env, { createdAt: daysAgo(90) });
    await waitFor(() => results.some((r, i) => i > 0 && r.imports === 1));
    await schedule.stop();
    const count = results.length;
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.equal(results.length, count, 'ran after stop()');
  });
});

describe('retention with several nodes on one database: one node purges at a time', () => {
  it("a node finding another's purge lease leaves the purge to it, and takes over once that lease has run out", async () => {
    const clockA = testClock('2026-03-01T00:00:00.000Z');
    const clockB = testClock('2026-03-01T00:00:00.000Z');
    const config = { IMPORTD_RETENTION_DAYS: '30' };
    const h = await createHarness({ clock: clockA, config });
    const b = await joinNode(h, { clock: clockB, config });
    try {
      const env = await createTestEnvironment(h);
      const expired = await insertImport(h, env, { createdAt: new Date(clockA().getTime() - 40 * DAY).toISOString(), rows: 3 });
      // Node B is purging (it took the lease and has not finished).
      assert.equal(await b.ctx.store.locks.tryAcquire(RETENTION_LOCK, b.ctx.store.nodeId, clockB().toISOString(), new Date(clockB().getTime() + 30_000).toISOString()), true);
      assert.equal(await purgeExpiredImports(h.ctx), undefined, 'A does nothing while B holds the purge');
      assert.equal((await dumpData(h)).imports.length, 1);
      clockA.advance(30_000);
      assert.deepEqual(await purgeExpiredImports(h.ctx), { imports: 1, rows: 3 }, "B's lease ran out: A purges");
      assert.deepEqual((await dumpData(h)).imports.map((i) => i.id).includes(expired), false);
      // A gave the lease up when done: B purges next time without waiting.
      assert.deepEqual(await purgeExpiredImports(b.ctx), { imports: 0, rows: 0 });
    } finally {
      await b.close();
      await h.close();
    }
  });
});

describe('importd serve applies retention at start', () => {
  it('deletes expired imports when the server starts and logs what it purged', async () => {
    const h = await createHarness();
    try {
      const env = await createTestEnvironment(h);
      const expired = await insertImport(h, env, { createdAt: new Date(Date.now() - 10 * DAY).toISOString(), rows: 5 });
      const fresh = await insertImport(h, env, { rows: 2 });
      const server = await startServe(h.dbPath, { IMPORTD_RETENTION_DAYS: '7' });
      try {
        await waitFor(() => server.output().includes('"msg":"retention purge"'));
        assert.match(server.output(), /"msg":"retention purge","retentionDays":7,"imports":1,"rows":5/);
        assert.deepEqual((await dumpData(h)).imports.map((i) => i.id), [fresh]);
        assert.notEqual(expired, fresh);
      } finally {
        assert.equal(await server.stop(), 0);
      }
    } finally {
      h.close();
    }
  });
});
