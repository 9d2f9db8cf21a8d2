import assert from 'node:assert/strict';
import { after, beforeEach, describe, it } from 'node:test';
import { createRuntime } from '../../src/main';
import { runCli } from '../../src/cli/program';
import { authFailureSuite } from '../helpers/auth-suite';
import { call, createHarness, createTestEnvironment, createTestSession, json, type Harness, type TestEnvironment } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { dumpData, insertImport } from '../helpers/imports-fixture';
import { injectFailure } from '../helpers/inject-failure';

describe('DELETE /v1/end-users/{endUserId}', () => {
  let h: Harness;
  let prod: TestEnvironment;
  let staging: TestEnvironment;
  let other: TestEnvironment;
  beforeEach(async () => {
    h?.close();
    h = await createHarness();
    prod = await createTestEnvironment(h);
    staging = await createTestEnvironment(h, { name: 'staging' });
    other = await createTestEnvironment(h, { account: 'other-co' });
    await insertImport(h, prod, { endUserId: 'alice', rows: 3 });
    await insertImport(h, prod, { endUserId: 'alice', rows: 5 });
    await insertImport(h, staging, { endUserId: 'alice', rows: 2 });
    await insertImport(h, prod, { endUserId: 'alice', rows: 1, status: 'writing' });
    await insertImport(h, prod, { endUserId: 'bob', rows: 4 });
    await insertImport(h, prod, { endUserId: null, rows: 2 });
    await insertImport(h, other, { endUserId: 'alice', rows: 6 });
    for (const [env, endUserId] of [[prod, 'alice'], [staging, 'alice'], [prod, 'bob'], [other, 'alice']] as const) {
      await createTestSession(h, env, { endUserId });
    }
  });
  after(() => h.close());

  /** Everything except what belongs to `endUserId` in `accountId`. */
  const othersOf = (data: Awaited<ReturnType<typeof dumpData>>, accountId: string, endUserId: string) => {
    const gone = new Set(data.imports.filter((i) => i.account_id === accountId && i.end_user_id === endUserId).map((i) => i.id));
    return {
      imports: data.imports.filter((i) => !gone.has(i.id)),
      rows: data.rows.filter((r) => !gone.has(r.import_id)),
      sessions: data.sessions.filter((s) => !(s.account_id === accountId && s.end_user_id === endUserId)),
    };
  };

  it('deletes every import, row and session of the end-user in the account, and nothing else', async () => {
    const before = await dumpData(h);
    const response = await call(h, 'DELETE', '/v1/end-users/alice', { key: prod.secretKey });
    assert.equal(response.status, 200);
    assert.deepEqual(await json(response), { endUserId: 'alice', deleted: { imports: 4, rows: 11, sessions: 2 } });

    const afterwards = await dumpData(h);
    assert.deepEqual(afterwards, othersOf(before, prod.accountId, 'alice'));
    assert.equal(afterwards.imports.filter((i) => i.account_id === prod.accountId && i.end_user_id === 'alice').length, 0);
    assert.equal(afterwards.rows.filter((r) => !afterwards.imports.some((i) => i.id === r.import_id)).length, 0, 'orphan rows');
    // The other account's alice is a different person.
    assert.equal(afterwards.imports.filter((i) => i.account_id === other.accountId && i.end_user_id === 'alice').length, 1);
    if (h.engine === 'sqlite') assert.deepEqual(h.storage.sqlite.pragma('foreign_key_check'), []);
  });

  it('answers zeros for an end-user with nothing stored, and when asked again', async () => {
    await call(h, 'DELETE', '/v1/end-users/alice', { key: prod.secretKey });
    for (const id of ['alice', 'nobody']) {
      const response = await call(h, 'DELETE', `/v1/end-users/${id}`, { key: prod.secretKey });
      assert.equal(response.status, 200);
      assert.deepEqual((await json(response)).deleted, { imports: 0, rows: 0, sessions: 0 });
    }
  });

  it('is atomic: a failure part way leaves everything in place', async () => {
    const before = await dumpData(h);
    // The session delete is the last step; make it fail after the imports have been deleted.
    const remove = await injectFailure(h, 'fail_session_delete', 'DELETE', 'sessions', '1 = 1', 'injected');
    const response = await call(h, 'DELETE', '/v1/end-users/alice', { key: prod.secretKey });
    assert.equal(response.status, 500);
    const body = await json(response);
    assert.equal(body.error.code, 'internal_error');
    assert.doesNotMatch(JSON.stringify(body), /injected|SQLITE|DELETE/);
    assert.deepEqual(await dumpData(h), before);
    await remove();
  });

  it('takes end-user ids with any characters (URL-encoded)', async () => {
    const id = 'user/42 é?#%';
    await insertImport(h, prod, { endUserId: id, rows: 2 });
    const response = await call(h, 'DELETE', `/v1/end-users/${encodeURIComponent(id)}`, { key: prod.secretKey });
    assert.equal(response.status, 200);
    assert.deepEqual(await json(response), { endUserId: id, deleted: { imports: 1, rows: 2, sessions: 0 } });
  });

  it('refuses a too long id, a Public Key and a missing key, deleting nothing', async () => {
    const before = await dumpData(h);
    const cases = [
      { url: `/v1/end-users/${'x'.repeat(256)}`, options: { key: prod.secretKey }, status: 400, code: 'validation_failed' },
      { url: '/v1/end-users/alice', options: { key: prod.publicKey, origin: prod.origin }, status: 403, code: 'wrong_key_kind' },
      { url: '/v1/end-users/alice', options: {}, status: 401, code: 'missing_credentials' },
      { url: '/v1/end-users/alice', options: { key: `sk_${'Q'.repeat(40)}` }, status: 401, code: 'invalid_api_key' },
    ];
    for (const c of cases) {
      const response = await call(h, 'DELETE', c.url, c.options);
      assert.equal(response.status, c.status, c.url);
      assert.equal((await json(response)).error.code, c.code);
    }
    assert.deepEqual(await dumpData(h), before);
  });

  it('importd end-user delete does the same through the CLI', async () => {
    const before = await dumpData(h);
    let out = '';
    const io = { out: (text: string) => void (out += text), err: () => undefined, errIsTTY: false };
    const runtime = createRuntime(io, { IMPORTD_DB: h.dbPath });
    assert.equal(await runCli(runtime, ['end-user', 'delete', 'alice', '--account', 'other-co', '--json']), 0);
    assert.deepEqual(JSON.parse(out), { endUserId: 'alice', deleted: { imports: 1, rows: 6, sessions: 1 } });
    assert.deepEqual(await dumpData(h), othersOf(before, other.accountId, 'alice'));

    out = '';
    assert.equal(await runCli(runtime, ['end-user', 'delete', 'bob']), 0);
    assert.equal(out, 'end-user bob: deleted 1 imports (4 rows) and 1 sessions\n');
  });
});

describe('DELETE /v1/imports/{importId}', () => {
  const { h, env, other } = useHarness({ environments: { other: { account: 'other-co' } } });

  it('deletes one import with its rows and leaves every other one intact', async () => {
    const target = await insertImport(h, env, { rows: 7 });
    await insertImport(h, env, { rows: 2 });
    await insertImport(h, other, { rows: 3 });
    const before = await dumpData(h);
    const response = await call(h, 'DELETE', `/v1/imports/${target}`, { key: env.secretKey });
    assert.equal(response.status, 200);
    assert.deepEqual(await json(response), { id: target, deleted: true, rows: 7 });
    assert.deepEqual(await dumpData(h), {
      imports: before.imports.filter((i) => i.id !== target),
      rows: before.rows.filter((r) => r.import_id !== target),
      sessions: before.sessions,
    });
    const again = await call(h, 'DELETE', `/v1/imports/${target}`, { key: env.secretKey });
    assert.equal(again.status, 404);
  });

  it("answers 404 for another account's import, one still being written, or an unknown id, deleting nothing", async () => {
    const theirs = await insertImport(h, other, { rows: 3 });
    const writing = await insertImport(h, env, { rows: 1, status: 'writing' });
    const before = await dumpData(h);
    for (const id of [theirs, writing, '01890000-0000-7000-8000-000000000000', 'not-an-id']) {
      const response = await call(h, 'DELETE', `/v1/imports/${id}`, { key: env.secretKey });
      assert.equal(response.status, 404, id);
      assert.equal((await json(response)).error.code, 'not_found');
    }
    assert.deepEqual(await dumpData(h), before);
  });
});

describe('compliance deletion through the imports API', () => {
  const { h, env, other } = useHarness({ environments: { other: { account: 'other-co' } } });

  const postAs = async (target: TestEnvironment, endUserId: string, rows: number) => {
    // The sessions' imports create the template `people`.
    await h.ctx.store.environments.setAutoCreateTemplates(target.environmentId, true);
    const { sessionToken } = await createTestSession(h, target, { endUserId });
    const response = await call(h, 'POST', '/v1/imports', {
      key: target.publicKey,
      origin: target.origin,
      session: sessionToken,
      body: { rows: Array.from({ length: rows }, (_, i) => ({ name: `${endUserId}-${i}` })), meta: { schemaKey: 'people' }, originalSchema: {} },
    });
    assert.equal(response.status, 201, await response.clone().text());
    return (await json(response)).id as string;
  };

  it('leaves nothing of the end-user readable, and everything of others', async () => {
    const carol = [await postAs(env, 'carol', 3), await postAs(env, 'carol', 4)];
    const dave = await postAs(env, 'dave', 2);
    const theirCarol = await postAs(other, 'carol', 5);

    const response = await call(h, 'DELETE', '/v1/end-users/carol', { key: env.secretKey });
    assert.deepEqual(await json(response), { endUserId: 'carol', deleted: { imports: 2, rows: 7, sessions: 2 } });

    for (const id of carol) {
      for (const url of [`/v1/imports/${id}`, `/v1/imports/${id}/rows`, `/v1/imports/${id}/export?format=ndjson`]) {
        assert.equal((await call(h, 'GET', url, { key: env.secretKey })).status, 404, url);
      }
    }
    const listed = await json(await call(h, 'GET', '/v1/imports?limit=100', { key: env.secretKey }));
    assert.deepEqual(listed.data.map((i: { id: string }) => i.id), [dave]);
    const daveRows = await json(await call(h, 'GET', `/v1/imports/${dave}/rows`, { key: env.secretKey }));
    assert.equal(daveRows.data.length, 2);
    const theirs = await json(await call(h, 'GET', `/v1/imports/${theirCarol}/rows?limit=100`, { key: other.secretKey }));
    assert.equal(theirs.data.length, 5);
    const leftover = await h.sql("SELECT count(*) AS n FROM import_rows WHERE data LIKE '%carol%' AND import_id != ?", theirCarol);
    assert.deepEqual(leftover, [{ n: 0 }]);

    const one = await call(h, 'DELETE', `/v1/imports/${dave}`, { key: env.secretKey });
    assert.deepEqual(await json(one), { id: dave, deleted: true, rows: 2 });
    assert.equal((await call(h, 'GET', `/v1/imports/${dave}`, { key: env.secretKey })).status, 404);
  });
});

describe('compliance routes: credentials', () => {
  const { h, env, other } = useHarness({ environments: { other: { account: 'other-co' } } });
  for (const [method, name, path] of [
    ['DELETE', '/v1/end-users/{endUserId}', () => '/v1/end-users/someone'],
    ['DELETE', '/v1/imports/{importId}', () => '/v1/imports/01890000-0000-7000-8000-000000000000'],
  ] as const) {
    authFailureSuite({ name: `${method} ${name}`, harness: () => h, env: () => env, other: () => other, method, path, credential: 'secret' });
  }
});
