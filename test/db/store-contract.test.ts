import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ApiKeyRow, EnvironmentRow, ImportRow, NewImportRow, Store, TemplateRow } from '../../src/db/store';
import { IMPORT_LIST_COLUMNS, UniqueViolationError } from '../../src/db/store';
import { encodeUtf8Rows } from '../../src/services/imports/utf8-rows';
import { createHarness, type Harness } from '../helpers/harness';
import { testEngine } from '../helpers/test-database';

// What every engine's store must do beyond what the HTTP suites see: the engine-neutral unique error, and
// the atomic methods writing all or nothing.

const at = '2026-01-31T12:00:00.000Z';

function environment(accountId: string, id: string, name: string): EnvironmentRow {
  return { id, accountId, name, createdAt: at, lastUsedAt: null, deletedAt: null, autoCreateTemplates: false };
}

function key(env: EnvironmentRow, id: string, kind: 'secret' | 'public', origins: string[] = []): ApiKeyRow {
  return {
    id, accountId: env.accountId, environmentId: env.id, kind, hash: `hash-${id}`, prefix: `${kind}-${id}`.slice(0, 12),
    active: true, allowedOrigins: origins, createdAt: at, lastUsedAt: null, deactivatedAt: null, expiresAt: null,
  };
}

/** Past `at` (the imports' lease end in these tests). */
const later = '2026-01-31T13:00:00.000Z';

function importRow(accountId: string, id: string, templateId: string): NewImportRow {
  return {
    id, accountId, environmentId: null, templateId, status: 'writing', writerNode: 'node-42', leaseUntil: later, meta: '{}', originalSchema: '{}', file: null, fileId: null,
    endUserId: null, endUserEmail: null, endUserIp: null, importedFrom: null, sessionJti: null, rowCount: 0, cellStats: '{}', createdAt: at, updatedAt: at,
  };
}

const pick = <T extends object>(row: T | undefined, columns: readonly (keyof T)[]) => row && Object.fromEntries(columns.map((column) => [column, row[column]]));

function template(accountId: string, id: string, templateKey: string): TemplateRow {
  return { id, accountId, key: templateKey, schema: '{}', source: 'studio', metadata: '{}', createdAt: at, updatedAt: at };
}

describe(`the store contract (${testEngine})`, () => {
  let h: Harness;
  let store: Store;
  let accountId: string;
  before(async () => {
    h = await createHarness();
    store = h.ctx.store;
    accountId = (await store.accounts.findByName('default'))!.id;
  });
  after(() => h.close());

  it('has a node id', () => assert.match(store.nodeId, /^[0-9a-f-]{36}$/));

  it('refuses a taken account name with UniqueViolationError, and insertIfMissing leaves the first one', async () => {
    await assert.rejects(store.accounts.insert({ id: 'a-dup', name: 'default', createdAt: at }), UniqueViolationError);
    await store.accounts.insertIfMissing({ id: 'a-other', name: 'default', createdAt: at });
    assert.equal((await store.accounts.findByName('default'))!.id, accountId);
  });

  it('creates an environment with its keys atomically: a taken name writes no key at all', async () => {
    const first = environment(accountId, 'env-1', 'prod');
    await store.environments.create(first, [key(first, 'k1', 'secret'), key(first, 'k2', 'public', ['https://a.example'])], 50);
    // Found by hash as written: flags and origins in their types.
    assert.deepEqual({ ...(await store.environments.findKeyByHash('hash-k2')) }, key(first, 'k2', 'public', ['https://a.example']));
    const second = environment(accountId, 'env-2', 'prod');
    await assert.rejects(store.environments.create(second, [key(second, 'k3', 'secret'), key(second, 'k4', 'public')], 50), UniqueViolationError);
    assert.deepEqual(await store.environments.activeKeysOf(['env-2']), []);
    assert.equal(await store.environments.findKeyByHash('hash-k3'), undefined);
  });

  it('rolls a key in one method: the new public key inherits the origins, the old one is kept until its expiry', async () => {
    const env = (await store.environments.findByName(accountId, 'prod'))!;
    const fresh = key(env, 'k5', 'public');
    const previous = await store.environments.rollKey(fresh, '2026-02-01T00:00:00.000Z');
    assert.equal(previous!.id, 'k2');
    const keys = await store.environments.activeKeysOf([env.id]);
    assert.deepEqual(keys.find((k) => k.id === 'k5')!.allowedOrigins, ['https://a.example']);
    assert.equal(keys.find((k) => k.id === 'k2')!.expiresAt, '2026-02-01T00:00:00.000Z');
  });

  it('rolls nothing for an environment without a current key of that kind', async () => {
    const env = (await store.environments.findByName(accountId, 'prod'))!;
    await store.environments.delete(env.id, at);
    assert.equal(await store.environments.rollKey(key(env, 'k6', 'secret'), null), undefined);
    assert.equal(await store.environments.findKeyByHash('hash-k6'), undefined);
  });

  it('a deleted environment frees its name', async () => {
    const again = environment(accountId, 'env-3', 'prod');
    await store.environments.create(again, [key(again, 'k7', 'secret'), key(again, 'k8', 'public')], 50);
    assert.equal((await store.environments.findByName(accountId, 'prod'))!.id, 'env-3');
  });

  it('templates: a taken key is UniqueViolationError on insert and update; insertIfKeyFree answers the stored one', async () => {
    await store.templates.insert(template(accountId, 't1', 'contacts'));
    await store.templates.insert(template(accountId, 't2', 'orders'));
    await assert.rejects(store.templates.insert(template(accountId, 't3', 'contacts')), UniqueViolationError);
    await assert.rejects(store.templates.update(accountId, 't2', { key: 'contacts' }), UniqueViolationError);
    assert.equal((await store.templates.find(accountId, 't2'))!.key, 'orders', 'the failed update changed nothing');
    assert.equal((await store.templates.insertIfKeyFree(template(accountId, 't4', 'contacts'))).id, 't1');
    assert.equal(await store.templates.update(accountId, 'missing', { key: 'x' }), undefined);
  });

  it('themes: one per account; upsert answers the stored row', async () => {
    const row = { id: 'th1', accountId, name: 'n', description: '', lightColors: '{}', darkColors: '{}', radius: '{}', sizes: '{}', effects: '{}', createdAt: at, updatedAt: at };
    assert.equal(await store.themes.update(accountId, { ...row, name: 'none yet' }), undefined);
    assert.equal((await store.themes.upsert(row)).id, 'th1');
    await assert.rejects(store.themes.insert({ ...row, id: 'th2' }), UniqueViolationError);
    const replaced = await store.themes.upsert({ ...row, id: 'th3', name: 'renamed', updatedAt: '2026-02-01T00:00:00.000Z' });
    assert.deepEqual([replaced.id, replaced.name, replaced.createdAt], ['th1', 'renamed', at]);
  });

  it('settings: modify writes what the change returns, and nothing when it throws', async () => {
    assert.equal(await store.settings.modify('s', (current) => `${current ?? ''}a`), 'a');
    assert.equal(await store.settings.modify('s', (current) => `${current}b`), 'ab');
    await assert.rejects(store.settings.modify('s', () => { throw new Error('no'); }), /no/);
    assert.equal(await store.settings.read('s'), 'ab');
    assert.equal(await store.settings.insertOnce('s', 'other'), 'ab');
  });

  it('sessions: revoking twice keeps the first time', async () => {
    const env = (await store.environments.findByName(accountId, 'prod'))!;
    await store.sessions.insert({
      jti: 'j1', accountId, environmentId: env.id, templateId: null, endUserId: 'u1', endUserEmail: null, endUserIp: null,
      metadata: '{}', createdAt: at, expiresAt: '2026-02-01T00:00:00.000Z', revokedAt: null,
    });
    await store.sessions.revoke('j1', '2026-01-31T13:00:00.000Z');
    await store.sessions.revoke('j1', '2026-01-31T14:00:00.000Z');
    assert.equal((await store.sessions.find('j1'))!.revokedAt, '2026-01-31T13:00:00.000Z');
  });

  it('locks: one owner at a time until its lease ends; the owner extends and releases it', async () => {
    const t = (minute: number) => `2026-01-31T12:${String(minute).padStart(2, '0')}:00.000Z`;
    assert.equal(await store.locks.tryAcquire('job', 'node-a', t(0), t(1)), true);
    assert.equal(await store.locks.tryAcquire('job', 'node-b', t(0), t(1)), false, 'held by A');
    assert.equal(await store.locks.tryAcquire('other', 'node-b', t(0), t(1)), true, 'another name is free');
    assert.equal(await store.locks.tryAcquire('job', 'node-a', t(0), t(2)), true, 'A extends it');
    assert.equal(await store.locks.tryAcquire('job', 'node-b', t(1), t(3)), false, 'still held by A until t(2)');
    assert.equal(await store.locks.tryAcquire('job', 'node-b', t(2), t(3)), true, 'ran out: B takes it');
    assert.equal(await store.locks.tryAcquire('job', 'node-a', t(2), t(3)), false);
    await store.locks.release('job', 'node-a');
    assert.equal(await store.locks.tryAcquire('job', 'node-a', t(2), t(3)), false, "A cannot release B's lock");
    await store.locks.release('job', 'node-b');
    assert.equal(await store.locks.tryAcquire('job', 'node-a', t(2), t(3)), true, 'released: free at once');
  });

  it('rate limits: counts per key and window, a new window starts from one', async () => {
    const minute = 60_000;
    assert.equal(await store.rateLimits.hit('key-1', 0, minute), 1);
    assert.equal(await store.rateLimits.hit('key-1', 0, minute), 2);
    assert.equal(await store.rateLimits.hit('key-2', 0, minute), 1);
    assert.equal(await store.rateLimits.hit('key-1', minute, minute), 1);
  });

  it('change notices reach every subscriber of the topic until it unsubscribes', async () => {
    const seen: string[] = [];
    const stop = await store.notices.subscribe('theme', { notice: (subject) => seen.push(subject), resync: () => seen.push('resync') });
    await store.notices.publish('theme', 'account-1');
    await waitUntil(() => seen.length === 1);
    stop();
    await store.notices.publish('theme', 'account-2');
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(seen, ['account-1']);
  });

  it('imports: hidden while writing, completed only by their writer, then found', async () => {
    await store.imports.insert(importRow(accountId, 'i1', 't1'));
    assert.equal(await store.imports.find(accountId, 'i1'), undefined);
    assert.equal(await store.imports.findView(accountId, 'i1'), undefined);
    assert.equal(await store.imports.claim('i1', 'node-43', at, later), false, "another node cannot take it while its writer's lease runs");
    const values = { rowCount: 0, cellStats: '{"rowCount":0}', createdAt: at, updatedAt: at };
    assert.equal(await store.imports.complete('i1', 'node-43', values), false);
    assert.deepEqual(await store.imports.complete('i1', 'node-42', values), { changes: null });
    const found = (await store.imports.find(accountId, 'i1'))!;
    assert.deepEqual([found.status, found.writerNode, found.leaseUntil, found.cellStats], ['complete', null, null, '{"rowCount":0}']);
    // The view of it: every member but the originalSchema, the same values; only within its account.
    const { originalSchema: _schema, ...view } = found;
    assert.deepEqual({ ...(await store.imports.findView(accountId, 'i1')) }, view);
    assert.equal(await store.imports.findView('another-account', 'i1'), undefined);
    assert.deepEqual(await store.imports.claimAbandoned('node-43', later, later, 10), [], 'a complete import is never claimed');
  });

  it('imports: a list page reads each list member from its own column (both list filters)', async () => {
    const env = environment(accountId, 'env-columns', 'columns');
    await store.environments.create(env, [key(env, 'kc1', 'secret')], 50);
    const row: ImportRow = {
      ...importRow(accountId, 'ic1', 't1'),
      environmentId: env.id, meta: '{"m":1}', file: '{"name":"f.csv"}', fileId: 'file-1', endUserId: 'user-1', endUserEmail: 'u@example.com',
      endUserIp: '192.0.2.1', importedFrom: 'sdk', sessionJti: 'jti-1', reviewStatus: 'pending_review', reviewedAt: null, reviewReason: null,
    };
    await store.imports.insert(row);
    const times = { createdAt: '2027-01-01T00:00:01.000Z', updatedAt: '2027-01-01T00:00:02.000Z' };
    await store.imports.complete('ic1', 'node-42', { rowCount: 7, cellStats: '{}', ...times });
    const expected = pick({ ...row, rowCount: 7, ...times, changes: null }, IMPORT_LIST_COLUMNS);
    const newest = { orderBy: 'createdAt', direction: 'desc', filters: {} } as const;
    assert.deepEqual({ ...(await store.imports.page(accountId, { ...newest, limit: 1 }))[0] }, expected);
    assert.deepEqual({ ...(await store.imports.page(accountId, { ...newest, filters: { userEmail: 'u@' }, limit: 1 }))[0] }, expected);
  });

  const completed = { rowCount: 0, cellStats: '{}', createdAt: at, updatedAt: at };

  it('imports: a review decision changes a pending complete import of the account once, with its events, or nothing', async () => {
    await store.imports.insert({ ...importRow(accountId, 'r1', 't1'), reviewStatus: 'pending_review' });
    const decision = { status: 'completed', at: later, reason: 'ok' } as const;
    const event = (id: string) => ({ id, accountId, environmentId: null, type: 'import.approved', importId: 'r1', endUserId: null, payload: '{}', createdAt: later });
    assert.equal(await store.imports.review(accountId, 'r1', decision, () => []), undefined, 'still being written');
    assert.deepEqual(await store.imports.complete('r1', 'node-42', completed), { changes: null });
    assert.equal(await store.imports.review('another-account', 'r1', decision, () => [event('evt_other')]), undefined, "another account's");
    const decided = await Promise.all([
      store.imports.review(accountId, 'r1', decision, () => [event('evt_first')]),
      store.imports.review(accountId, 'r1', { ...decision, status: 'rejected', reason: 'no' }, () => [event('evt_second')]),
    ]);
    const winners = decided.filter((row) => row !== undefined);
    assert.equal(winners.length, 1, 'exactly one of two concurrent decisions is recorded');
    const won = winners[0]!;
    assert.deepEqual({ reviewedAt: won.reviewedAt, updatedAt: won.updatedAt, createdAt: won.createdAt }, { reviewedAt: later, updatedAt: later, createdAt: at });
    assert.equal(won.reviewReason, won.reviewStatus === 'completed' ? 'ok' : 'no');
    assert.deepEqual(await store.imports.findView(accountId, 'r1'), won);
    assert.equal(await store.imports.review(accountId, 'r1', decision, () => []), undefined, 'decided already');
  });

  it('rows: readable once the import completes, any text kept exactly; chunks in either direction', async () => {
    await store.imports.insert(importRow(accountId, 'i2', 't1'));
    const texts = ['{"a":1}', '{"tab":"a\\tb","slash":"\\\\"}', 'raw\ttab\nnewline\rreturn\\back', '{"é":"✓","😀":"𝄞"}', '{"e":5}'];
    await store.rows.append('i2', 0, texts.slice(0, 2));
    await store.rows.append('i2', 2, texts.slice(2));
    assert.deepEqual(await store.imports.complete('i2', 'node-42', { ...completed, rowCount: 5 }), { changes: null });
    const all = await store.rows.chunk('i2', 'asc', -1, 100, 1 << 20);
    assert.deepEqual(all, texts.map((data, rowIndex) => ({ rowIndex, data })));
    assert.deepEqual((await store.rows.chunk('i2', 'desc', 5, 2, 1 << 20)).map((row) => row.rowIndex), [4, 3]);
    // A first descending page starts past every row index (rows.ts: Number.MAX_SAFE_INTEGER).
    assert.deepEqual((await store.rows.chunk('i2', 'desc', Number.MAX_SAFE_INTEGER, 2, 1 << 20)).map((row) => row.rowIndex), [4, 3]);
    assert.deepEqual((await store.rows.chunk('i2', 'asc', 1, 100, 1 << 20)).map((row) => row.rowIndex), [2, 3, 4]);
  });

  it('rows: taken as strings or as UTF-8 bytes (either engine, either form), stored alike', async () => {
    await store.imports.insert(importRow(accountId, 'i7', 't1'));
    const texts = ['{"a":1}', '{"tab":"a\\tb","nl":"x\\ny"}', '{"é":"✓","😀":"𝄞"}', '{}', '{"e":"Zürich"}'];
    assert.ok(store.rows.textForm === 'strings' || store.rows.textForm === 'utf8');
    await store.rows.append('i7', 0, encodeUtf8Rows(texts.slice(0, 3)));
    await store.rows.append('i7', 3, texts.slice(3));
    await store.rows.append('i7', 5, encodeUtf8Rows([]));
    assert.deepEqual(await store.imports.complete('i7', 'node-42', { ...completed, rowCount: 5 }), { changes: null });
    assert.deepEqual(await store.rows.chunk('i7', 'asc', -1, 100, 1 << 20), texts.map((data, rowIndex) => ({ rowIndex, data })));
  });

  it('rows: a refused row fails its append or the completion; removing the import leaves none of its rows', async () => {
    await store.imports.insert(importRow(accountId, 'i4', 't1'));
    const failed = (async () => {
      await store.rows.append('i4', 0, ['{"a":0}', '{"a":1}']);
      // Row 1 again: refused by the primary key, after rows already sent.
      await store.rows.append('i4', 1, ['{"again":1}']);
      await store.imports.complete('i4', 'node-42', completed);
    })();
    await assert.rejects(failed);
    assert.equal(await store.imports.find(accountId, 'i4'), undefined);
    while ((await store.compliance.deleteRows('i4', 1000)) > 0);
    await store.imports.delete('i4');
    assert.deepEqual(await store.rows.chunk('i4', 'asc', -1, 100, 1 << 20), []);
    assert.ok(!(await store.imports.claimAbandoned('node-43', later, later, 10)).includes('i4'));
  });

  it('rows: an import removed while written (hidden for deletion) never completes, and keeps no rows', async () => {
    await store.imports.insert(importRow(accountId, 'i5', 't1'));
    await store.rows.append('i5', 0, ['{"a":0}']);
    assert.deepEqual((await store.compliance.hideEndUser(accountId, 'nobody')).hidden, []);
    await store.compliance.deleteRows('i5', 1000);
    await store.imports.delete('i5');
    assert.equal(await store.imports.complete('i5', 'node-42', completed), false);
    assert.deepEqual(await store.rows.chunk('i5', 'asc', -1, 100, 1 << 20), []);
  });

  it('rows: a chunk ends one row after its rows hold maxBytes', async () => {
    await store.imports.insert(importRow(accountId, 'i3', 't1'));
    await store.rows.append('i3', 0, Array.from({ length: 6 }, (_, i) => `{"n":"${String(i).repeat(3)}"}`));
    assert.deepEqual(await store.imports.complete('i3', 'node-42', { ...completed, rowCount: 6 }), { changes: null });
    // Each row is 12 characters: after rows 0 and 1 (24 >= 20) one more row is read and the chunk ends.
    assert.deepEqual((await store.rows.chunk('i3', 'asc', -1, 100, 20)).map((row) => row.rowIndex), [0, 1, 2]);
    assert.deepEqual((await store.rows.chunk('i3', 'desc', 6, 100, 20)).map((row) => row.rowIndex), [5, 4, 3]);
    assert.deepEqual((await store.rows.chunk('i3', 'asc', -1, 2, 20)).map((row) => row.rowIndex), [0, 1]);
  });

  it('rows: a chunk with rows over its share of the byte budget (SQLite reads the rest row by row) is the same chunk', async () => {
    await store.imports.insert(importRow(accountId, 'i6', 't1'));
    // A budget of 1 MiB over 10 rows is 104 857 bytes a row: rows 2, 4 and 5 are over it.
    const big = (n: number) => `{"n":"${String(n).repeat(600 * 1024)}"}`;
    const texts = [0, 1, 2, 3, 4, 5, 6].map((n) => ([2, 4, 5].includes(n) ? big(n) : `{"n":${n}}`));
    await store.rows.append('i6', 0, texts);
    assert.deepEqual(await store.imports.complete('i6', 'node-42', { ...completed, rowCount: 7 }), { changes: null });
    const chunk = async (direction: 'asc' | 'desc', from: number, limit: number) =>
      (await store.rows.chunk('i6', direction, from, limit, 1024 * 1024)).map((row) => [row.rowIndex, row.data]);
    // Once the rows read hold 1 MiB (two big rows), one more row ends the chunk.
    assert.deepEqual(await chunk('asc', -1, 10), [0, 1, 2, 3, 4, 5].map((n) => [n, texts[n]]));
    assert.deepEqual(await chunk('desc', 7, 10), [6, 5, 4, 3].map((n) => [n, texts[n]]));
    assert.deepEqual(await chunk('asc', 2, 10), [3, 4, 5, 6].map((n) => [n, texts[n]]));
    // Small rows only, read in one call.
    assert.deepEqual(await chunk('asc', -1, 2), [0, 1].map((n) => [n, texts[n]]));
  });
});

async function waitUntil(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
}
