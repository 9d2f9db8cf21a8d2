import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { authFailureSuite } from '../helpers/auth-suite';
import { call, json, type TestEnvironment } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { createImportOk } from './helpers';

// Review before an import counts (issue 43, point 4; docs/templates.md "Review"), through HTTP on either engine.

const REVIEWED = { key: 'reviewed', review: 'required', fields: [{ key: 'name', required: true }] };

describe('imports into a template that requires review', () => {
  const { h, env, other } = useHarness({ config: { IMPORTD_WEBHOOK_ALLOW_PRIVATE: 'true' }, environments: { other: { account: 'other-account' } } });

  const createTemplate = async (e: TestEnvironment, schema: Record<string, unknown>) => {
    const response = await call(h, 'POST', '/v1/templates', { key: e.secretKey, body: { schema } });
    assert.equal(response.status, 201, await response.clone().text());
    return json(response);
  };
  const pending = async (e: TestEnvironment = env, rows: unknown[] = [{ name: 'Ada' }], key = 'reviewed') =>
    createImportOk(h, e, { meta: { schemaKey: key }, rows });
  const decide = (verb: 'approve' | 'reject', id: string, body?: unknown, key = env.secretKey) =>
    call(h, 'POST', `/v1/imports/${id}/${verb}`, body === undefined ? { key } : { key, body });
  /** The outbox: every event written about the import, oldest first. */
  const eventsOf = async (importId: string) =>
    (await h.sql<{ type: string; payload: string }>('SELECT type, payload FROM webhook_events WHERE import_id = ? ORDER BY id', importId)).map((e) => ({
      type: e.type,
      body: JSON.parse(e.payload),
    }));
  const expectError = async (response: Response, status: number, code: string) => {
    const body = await json(response);
    assert.equal(response.status, status, JSON.stringify(body));
    assert.equal(body.error.code, code);
    return body.error;
  };

  before(async () => {
    await createTemplate(env, REVIEWED);
    await createTemplate(other, REVIEWED);
    // Every event is stored only when an endpoint subscribes to it.
    assert.equal((await call(h, 'POST', '/v1/webhooks', { key: env.secretKey, body: { url: 'https://127.0.0.1/hook' } })).status, 201);
  });

  it('stores the import pending review: every answer says so, and no import.completed is sent', async () => {
    const created = await pending(env, [{ name: 'Ada' }, { name: 'Grace' }]);
    assert.equal(created.status, 'pending_review');
    assert.equal(created.rowCount, 2);
    const detail = await json(await call(h, 'GET', `/v1/imports/${created.id}`, { key: env.secretKey }));
    assert.equal(detail.status, 'pending_review');
    assert.equal(detail.reviewedAt, null);
    assert.equal(detail.reviewReason, null);
    const listed = (await json(await call(h, 'GET', '/v1/imports?limit=100', { key: env.secretKey }))).data.find((i: any) => i.id === created.id);
    assert.equal(listed.status, 'pending_review');
    assert.deepEqual(await eventsOf(created.id), []);
    // What a reviewer reads: the rows, their export.
    const rows = await json(await call(h, 'GET', `/v1/imports/${created.id}/rows`, { key: env.secretKey }));
    assert.deepEqual(rows.data.map((r: any) => r.data.name), ['Ada', 'Grace']);
    const exported = await call(h, 'GET', `/v1/imports/${created.id}/export?format=ndjson`, { key: env.secretKey });
    assert.equal(exported.status, 200);
    assert.equal((await exported.text()).trim().split('\n').length, 2);
    assert.equal((await h.sql('SELECT review_status FROM imports WHERE id = ?', created.id))[0]!.review_status, 'pending_review');
  });

  it('reads imports into other templates, and those stored before review existed, as completed', async () => {
    const plain = await createImportOk(h, env, { meta: { schemaKey: 'plain' }, rows: [{ a: 1 }] });
    assert.equal(plain.status, 'completed');
    assert.deepEqual((await eventsOf(plain.id)).map((e) => [e.type, e.body.data.status]), [['import.completed', 'completed']]);
    assert.equal((await json(await call(h, 'GET', `/v1/imports/${plain.id}`, { key: env.secretKey }))).status, 'completed');
  });

  it('approves: completed, applied, import.completed and import.approved sent with the reason; a second decision is 409', async () => {
    const created = await pending();
    const response = await decide('approve', created.id, { reason: 'checked\twith the supplier\nsheet' });
    assert.equal(response.status, 200);
    const approved = await json(response);
    assert.equal(approved.id, created.id);
    assert.equal(approved.status, 'completed');
    assert.equal(approved.reviewReason, 'checked\twith the supplier\nsheet');
    assert.match(approved.reviewedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(approved.updatedAt, approved.reviewedAt);
    assert.equal(approved.createdAt, created.createdAt);
    assert.deepEqual(await json(await call(h, 'GET', `/v1/imports/${created.id}`, { key: env.secretKey })), approved);
    const events = await eventsOf(created.id);
    assert.deepEqual(events.map((e) => e.type), ['import.completed', 'import.approved']);
    for (const { body } of events) {
      assert.equal(body.data.id, created.id);
      assert.equal(body.data.status, 'completed');
      assert.equal(body.data.environment, env.name);
      assert.equal(body.data.rowCount, 1);
    }
    assert.equal(events[1]!.body.data.reason, 'checked\twith the supplier\nsheet');
    assert.equal(events[1]!.body.data.reviewedAt, approved.reviewedAt);
    for (const verb of ['approve', 'reject'] as const) {
      const error = await expectError(await decide(verb, created.id), 409, 'import_not_pending');
      assert.match(error.message, /the import is completed/);
    }
    assert.equal((await eventsOf(created.id)).length, 2, 'a refused decision sends nothing');
  });

  it('rejects: rejected, import.rejected sent with the reason, rows still readable; then neither decision is allowed', async () => {
    const created = await pending();
    const rejected = await json(await decide('reject', created.id, { reason: 'wrong supplier' }));
    assert.equal(rejected.status, 'rejected');
    assert.equal(rejected.reviewReason, 'wrong supplier');
    const events = await eventsOf(created.id);
    assert.deepEqual(events.map((e) => e.type), ['import.rejected']);
    assert.equal(events[0]!.body.data.status, 'rejected');
    assert.equal(events[0]!.body.data.reason, 'wrong supplier');
    assert.equal((await call(h, 'GET', `/v1/imports/${created.id}/rows`, { key: env.secretKey })).status, 200);
    for (const verb of ['approve', 'reject'] as const) {
      assert.match((await expectError(await decide(verb, created.id), 409, 'import_not_pending')).message, /the import is rejected/);
    }
  });

  it('takes no body, an empty object, or a reason; without a reason the decision keeps null', async () => {
    const a = await pending();
    assert.equal((await json(await decide('approve', a.id))).reviewReason, null);
    const b = await pending();
    const rejected = await json(await decide('reject', b.id, {}));
    assert.equal(rejected.reviewReason, null);
    assert.equal((await eventsOf(b.id))[0]!.body.data.reason, null);
  });

  it("counts a pending import in the overview and in the account's stored bytes (its rows are stored), and it stays counted once decided", async () => {
    const overview = async () => (await json(await call(h, 'GET', '/v1/stats/overview', { key: env.secretKey }))).counts.imports;
    const [imports, bytes] = [await overview(), await h.ctx.store.imports.storedBytes(env.accountId)];
    const created = await pending(env, [{ name: 'x'.repeat(1000) }]);
    assert.equal(await overview(), imports + 1);
    const grown = await h.ctx.store.imports.storedBytes(env.accountId);
    assert.ok(grown > bytes + 1000, `${bytes} -> ${grown}`);
    assert.equal((await decide('reject', created.id)).status, 200);
    assert.equal(await overview(), imports + 1);
    assert.equal(await h.ctx.store.imports.storedBytes(env.accountId), grown);
  });

  it('refuses an import that needs no review with 409', async () => {
    const plain = await createImportOk(h, env, { meta: { schemaKey: 'plain' }, rows: [{ a: 1 }] });
    await expectError(await decide('approve', plain.id), 409, 'import_not_pending');
    await expectError(await decide('reject', plain.id), 409, 'import_not_pending');
  });

  it("answers 404 for another account's import, an unknown or malformed id, and one deleted", async () => {
    const foreign = await pending(other);
    for (const verb of ['approve', 'reject'] as const) {
      await expectError(await decide(verb, foreign.id), 404, 'not_found');
      await expectError(await decide(verb, '01a00000-0000-7000-8000-000000000000'), 404, 'not_found');
      await expectError(await decide(verb, 'not-an-id'), 404, 'not_found');
    }
    assert.equal((await json(await call(h, 'GET', `/v1/imports/${foreign.id}`, { key: other.secretKey }))).status, 'pending_review', 'untouched');
    const deleted = await pending();
    assert.equal((await call(h, 'DELETE', `/v1/imports/${deleted.id}`, { key: env.secretKey })).status, 200);
    await expectError(await decide('approve', deleted.id), 404, 'not_found');
  });

  const badBodies: [string, unknown, string][] = [
    ['a reason too long', { reason: 'x'.repeat(1001) }, 'reason'],
    ['an empty reason', { reason: '' }, 'reason'],
    ['a reason with a control character', { reason: 'a\u0000b' }, 'reason'],
    ['a reason that is not text', { reason: 42 }, 'reason'],
    ['an unknown member', { reason: 'ok', approved: true }, 'approved'],
    ['an array', ['ok'], ''],
  ];
  for (const [name, body, path] of badBodies) {
    it(`answers 400 validation_failed for ${name}, and decides nothing`, async () => {
      const created = await pending();
      for (const verb of ['approve', 'reject'] as const) {
        const error = await expectError(await decide(verb, created.id, body), 400, 'validation_failed');
        assert.equal(error.details[0].path, path);
      }
      assert.equal((await json(await call(h, 'GET', `/v1/imports/${created.id}`, { key: env.secretKey }))).status, 'pending_review');
    });
  }

  it('accepts a reason of exactly 1000 characters', async () => {
    const created = await pending();
    assert.equal((await json(await decide('reject', created.id, { reason: 'é'.repeat(1000) }))).reviewReason, 'é'.repeat(1000));
  });

  it('answers 400 invalid_json for a body that is not JSON', async () => {
    const created = await pending();
    const response = await call(h, 'POST', `/v1/imports/${created.id}/approve`, { key: env.secretKey, rawBody: '{"reason":' });
    await expectError(response, 400, 'invalid_json');
  });

  it('records exactly one of two concurrent decisions; the other answers 409 and sends nothing', async () => {
    for (const verbs of [['approve', 'approve'], ['approve', 'reject'], ['reject', 'reject']] as const) {
      const created = await pending();
      const answers = await Promise.all(verbs.map((verb) => decide(verb, created.id, { reason: verb })));
      const statuses = answers.map((a) => a.status).sort();
      assert.deepEqual(statuses, [200, 409], verbs.join(' + '));
      const winner = await json(answers.find((a) => a.status === 200)!);
      await expectError(answers.find((a) => a.status === 409)!, 409, 'import_not_pending');
      const events = await eventsOf(created.id);
      assert.deepEqual(events.map((e) => e.type), winner.status === 'completed' ? ['import.completed', 'import.approved'] : ['import.rejected']);
      assert.equal(events.at(-1)!.body.data.reason, winner.reviewReason);
    }
  });

  it('lists by status with keyset pages, the filter echoed and bound to the cursor', async () => {
    const mine = (await json(await call(h, 'GET', '/v1/imports?status=pending_review&limit=100', { key: env.secretKey }))).data;
    assert.ok(mine.length >= 3);
    assert.ok(mine.every((i: any) => i.status === 'pending_review'));
    const first = await json(await call(h, 'GET', '/v1/imports?status=pending_review&limit=2', { key: env.secretKey }));
    assert.equal(first.pagination.filters.status, 'pending_review');
    assert.equal(first.pagination.paging.total, mine.length);
    const seen = [...first.data];
    for (let page = first; page.pagination.paging.hasNext; ) {
      page = await json(await call(h, 'GET', `/v1/imports?status=pending_review&limit=2&cursor=${page.pagination.paging.nextCursor}`, { key: env.secretKey }));
      seen.push(...page.data);
    }
    assert.deepEqual(seen.map((i) => i.id), mine.map((i: any) => i.id));
    const cursor = first.pagination.paging.nextCursor;
    await expectError(await call(h, 'GET', `/v1/imports?status=rejected&limit=2&cursor=${cursor}`, { key: env.secretKey }), 400, 'validation_failed');
    await expectError(await call(h, 'GET', `/v1/imports?limit=2&cursor=${cursor}`, { key: env.secretKey }), 400, 'validation_failed');
    for (const status of ['completed', 'rejected'] as const) {
      const page = await json(await call(h, 'GET', `/v1/imports?status=${status}&limit=100`, { key: env.secretKey }));
      assert.ok(page.data.length > 0 && page.data.every((i: any) => i.status === status), status);
      assert.equal(page.pagination.paging.total, page.data.length);
    }
    const all = await json(await call(h, 'GET', '/v1/imports?limit=0', { key: env.secretKey }));
    const byStatus = await Promise.all(['completed', 'pending_review', 'rejected'].map(async (s) => (await json(await call(h, 'GET', `/v1/imports?status=${s}&limit=0`, { key: env.secretKey }))).pagination.paging.total));
    assert.equal(byStatus.reduce((a, b) => a + b), all.pagination.paging.total, 'every import is of one status');
    assert.equal((await json(await call(h, 'GET', '/v1/imports?status=pending_review', { key: other.secretKey }))).data.length, 1, "the other account's only");
    for (const bad of ['pending', 'COMPLETED', '', 'writing']) {
      const error = await expectError(await call(h, 'GET', `/v1/imports?status=${bad}`, { key: env.secretKey }), 400, 'validation_failed');
      assert.equal(error.details[0].path, 'status');
    }
  });

  it('takes review from a free-form template and a Table Schema (importd member), and refuses any other value', async () => {
    await createTemplate(env, { key: 'free', review: 'required', columns: ['a'] });
    assert.equal((await pending(env, [{ a: 1 }], 'free')).status, 'pending_review');
    const table = await createTemplate(env, { key: 'table', fields: [{ name: 'a' }], importd: { review: 'required' } });
    assert.equal(table.schema.review, 'required');
    const frictionless = await json(await call(h, 'GET', `/v1/templates/${table.id}?format=frictionless`, { key: env.secretKey }));
    assert.equal(frictionless.schema.importd.review, 'required');
    assert.equal((await pending(env, [{ a: 1 }], 'table')).status, 'pending_review');
    await createTemplate(env, { key: 'none', review: 'none', fields: [{ key: 'a' }] });
    assert.equal((await pending(env, [{ a: 1 }], 'none')).status, 'completed');
    const bad: [Record<string, unknown>, string][] = [
      [{ key: 'b1', review: 'maybe', fields: [{ key: 'a' }] }, 'schema.review'],
      [{ key: 'b2', review: true, columns: ['a'] }, 'schema.review'],
      [{ key: 'b3', review: 'Required' }, 'schema.review'],
      [{ key: 'b4', review: 'required', fields: [{ name: 'a' }] }, 'schema.review'],
    ];
    for (const [schema, path] of bad) {
      const response = await call(h, 'POST', '/v1/templates', { key: env.secretKey, body: { schema } });
      const error = await expectError(response, 400, 'validation_failed');
      assert.equal(error.details[0].path, path, JSON.stringify(schema));
    }
    const reviewed = (await json(await call(h, 'GET', '/v1/templates?limit=100', { key: env.secretKey }))).data.find((t: any) => t.key === 'reviewed');
    const put = await call(h, 'PUT', `/v1/templates/${reviewed.id}`, { key: env.secretKey, body: { schema: { ...REVIEWED, review: 'later' } } });
    assert.equal((await expectError(put, 400, 'validation_failed')).details[0].path, 'schema.review');
  });

  it('stores an end-user import through a session pending too', async () => {
    const template = (await json(await call(h, 'GET', '/v1/templates?limit=100', { key: env.secretKey }))).data.find((t: any) => t.key === 'reviewed');
    const session = await json(await call(h, 'POST', '/v1/sessions', { key: env.secretKey, body: { endUserId: 'user-7', templateId: template.id } }));
    const response = await call(h, 'POST', '/v1/imports', { key: env.publicKey, origin: env.origin, session: session.sessionToken, body: { rows: [{ name: 'Ada' }] } });
    assert.equal(response.status, 201);
    const created = await json(response);
    assert.equal(created.status, 'pending_review');
    assert.equal(created.endUserId, 'user-7');
  });

  for (const verb of ['approve', 'reject'] as const) {
    let target = '';
    before(async () => {
      target = (await pending()).id;
    });
    authFailureSuite({
      name: `POST /v1/imports/{id}/${verb}`,
      harness: () => h,
      env: () => env,
      other: () => other,
      method: 'POST',
      path: () => `/v1/imports/${target}/${verb}`,
      credential: 'secret',
    });
  }

  it('is refused to a Public Key with a session token (403 wrong_key_kind), and the import stays pending', async () => {
    const created = await pending();
    const session = await json(await call(h, 'POST', '/v1/sessions', { key: env.secretKey, body: { endUserId: 'user-8' } }));
    for (const verb of ['approve', 'reject'] as const) {
      const response = await call(h, 'POST', `/v1/imports/${created.id}/${verb}`, { key: env.publicKey, origin: env.origin, session: session.sessionToken });
      await expectError(response, 403, 'wrong_key_kind');
    }
    const response = await call(h, 'POST', `/v1/imports/${created.id}/approve`, { session: session.sessionToken });
    await expectError(response, 401, 'missing_credentials');
    assert.equal((await json(await call(h, 'GET', `/v1/imports/${created.id}`, { key: env.secretKey }))).status, 'pending_review');
  });
});
