import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { call, json, type Harness } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { issueSession } from '../../src/services/sessions';
import { createImportOk, postImport } from './helpers';

const templateOf = async (h: Harness, id: string) =>
  (await h.sql<{ key: string; source: string; schema: string; account_id: string }>('SELECT * FROM templates WHERE id = ?', id))[0]!;
const templateCount = async (h: Harness, accountId: string) =>
  (await h.sql<{ n: number }>('SELECT count(*) AS n FROM templates WHERE account_id = ?', accountId))[0]!.n;

describe('POST /v1/imports: template resolution', () => {
  const { h, env, other } = useHarness({ environments: { other: { account: 'other' } } });

  it('auto-creates a template from originalSchema with source "import" when the key is unknown', async () => {
    const originalSchema = { key: 'leads', fields: [{ key: 'name' }] };
    const created = await createImportOk(h, env, { meta: {}, originalSchema, rows: [{ name: 'a' }] });
    const template = await templateOf(h, created.templateId);
    assert.deepEqual(
      { key: template.key, source: template.source, schema: JSON.parse(template.schema), account: template.account_id },
      { key: 'leads', source: 'import', schema: originalSchema, account: env.accountId },
    );
  });

  it('finds the template by key (meta.schemaKey before originalSchema.key) without creating another', async () => {
    const first = await createImportOk(h, env, { meta: { schemaKey: 'orders' }, rows: [] });
    const before = await templateCount(h, env.accountId);
    const byMetaKey = await createImportOk(h, env, { meta: { schemaKey: 'orders' }, originalSchema: { key: 'leads' }, rows: [] });
    const bySchemaKey = await createImportOk(h, env, { meta: {}, originalSchema: { key: 'orders' }, rows: [] });
    assert.equal(byMetaKey.templateId, first.templateId);
    assert.equal(bySchemaKey.templateId, first.templateId);
    assert.equal(await templateCount(h, env.accountId), before);
  });

  it('finds the template by id (meta.schemaId, then originalSchema.id) before the key', async () => {
    const target = await createImportOk(h, env, { meta: { schemaKey: 'invoices' }, rows: [] });
    const byMetaId = await createImportOk(h, env, { meta: { schemaId: target.templateId, schemaKey: 'orders' }, rows: [] });
    const bySchemaId = await createImportOk(h, env, { meta: {}, originalSchema: { id: target.templateId, key: 'orders' }, rows: [] });
    assert.equal(byMetaId.templateId, target.templateId);
    assert.equal(bySchemaId.templateId, target.templateId);
  });

  it('falls back to the key when the id is unknown, and never uses another account’s template', async () => {
    const orders = await createImportOk(h, env, { meta: { schemaKey: 'orders' }, rows: [] });
    const foreign = await createImportOk(h, other, { meta: { schemaKey: 'orders' }, rows: [] });
    const unknownId = await createImportOk(h, env, { meta: { schemaId: '01900000-0000-7000-8000-000000000000', schemaKey: 'orders' }, rows: [] });
    const foreignId = await createImportOk(h, env, { meta: { schemaId: foreign.templateId, schemaKey: 'orders' }, rows: [] });
    assert.equal(unknownId.templateId, orders.templateId);
    assert.equal(foreignId.templateId, orders.templateId);
    assert.notEqual(foreign.templateId, orders.templateId);
  });

  it('uses a template made elsewhere (source studio) by id', async () => {
    const id = '01900000-0000-7000-8000-00000000abcd';
    const at = '2026-01-01T00:00:00.000Z';
    await h.ctx.store.templates.insert({ id, accountId: env.accountId, key: 'studio-made', schema: '{}', source: 'studio', metadata: '{}', createdAt: at, updatedAt: at });
    const created = await createImportOk(h, env, { meta: { schemaId: id }, rows: [] });
    assert.equal(created.templateId, id);
  });

  it('derives a key from originalSchema when none is given: the same schema shares one template', async () => {
    const originalSchema = { fields: [{ key: 'sku' }, { key: 'qty' }] };
    const a = await createImportOk(h, env, { meta: {}, originalSchema, rows: [] });
    const b = await createImportOk(h, env, { meta: {}, originalSchema, rows: [] });
    assert.equal(a.templateId, b.templateId);
    assert.match((await templateOf(h, a.templateId)).key, /^import-[0-9a-f]{16}$/);
  });

  it('rejects an import that names no template and has no originalSchema to create one from', async () => {
    const response = await postImport(h, env, { meta: {}, rows: [] });
    assert.equal(response.status, 400);
    assert.equal((await json(response)).error.details[0].path, 'meta.schemaKey');
  });

  it('survives concurrent auto-creation of one key: one template, every import stored', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, () => createImportOk(h, env, { meta: { schemaKey: 'racing' }, rows: [{ a: 1 }] })),
    );
    assert.equal(new Set(results.map((r) => r.templateId)).size, 1);
    const n = (await h.sql<{ n: number }>("SELECT count(*) AS n FROM templates WHERE key = 'racing'"))[0]!;
    assert.equal(n.n, 1);
  });
});

describe('POST /v1/imports: end-user fields', () => {
  const { h, env } = useHarness({ env: { autoCreateTemplates: true } });
  let session: { sessionToken: string };
  let jti: string;
  before(async () => {
    session = await issueSession(h.ctx, env, { endUserId: 'user-42', endUserEmail: 'user42@example.com', endUserIp: '203.0.113.7' });
    jti = (await h.sql<{ jti: string }>('SELECT jti FROM sessions'))[0]!.jti;
  });

  // End-user members smuggled into the body must be ignored: only the verified session counts.
  const smuggled = {
    endUserId: 'attacker',
    endUserEmail: 'attacker@evil.test',
    rows: [{ a: 1 }],
    meta: { schemaKey: 'contacts', endUserId: 'attacker', endUserEmail: 'attacker@evil.test', endUserIp: '6.6.6.6' },
  };

  for (const via of ['header', 'meta.sessionToken'] as const) {
    it(`takes end-user id, e-mail, IP and jti from the session (token in ${via}), never from the body`, async () => {
      const body = via === 'header' ? smuggled : { ...smuggled, meta: { ...smuggled.meta, sessionToken: session.sessionToken } };
      const response = await call(h, 'POST', '/v1/imports', {
        key: env.publicKey,
        origin: env.origin,
        ...(via === 'header' && { session: session.sessionToken }),
        body,
      });
      assert.equal(response.status, 201, await response.clone().text());
      const created = await json(response);
      assert.equal(created.endUserId, 'user-42');
      assert.equal(created.endUserEmail, 'user42@example.com');
      assert.equal(created.importedFrom, env.origin);
      assert.equal(created.meta.sessionToken, undefined, 'the token is not stored');
      const detail = await json(await call(h, 'GET', `/v1/imports/${created.id}`, { key: env.secretKey }));
      assert.equal(detail.endUserIp, '203.0.113.7');
      assert.equal(detail.sessionJti, jti);
      const row = (await h.sql<Record<string, string>>('SELECT end_user_id, environment_id, meta FROM imports WHERE id = ?', created.id))[0]!;
      assert.equal(row.end_user_id, 'user-42');
      assert.equal(row.environment_id, env.environmentId);
      assert.ok(!row.meta!.includes(session.sessionToken));
    });
  }

  it('requires a session with a Public Key', async () => {
    const response = await call(h, 'POST', '/v1/imports', { key: env.publicKey, origin: env.origin, body: { rows: [], meta: { schemaKey: 'x' } } });
    assert.equal(response.status, 401);
    assert.equal((await json(response)).error.code, 'invalid_session');
  });

  it('with a Secret Key: end-user fields are null, or the session’s when a token is sent', async () => {
    const plain = await createImportOk(h, env, smuggled);
    assert.deepEqual([plain.endUserId, plain.endUserEmail, plain.importedFrom], [null, null, 'api']);
    const response = await call(h, 'POST', '/v1/imports', { key: env.secretKey, session: session.sessionToken, body: smuggled });
    const bound = await json(response);
    assert.deepEqual([bound.endUserId, bound.endUserEmail, bound.importedFrom], ['user-42', 'user42@example.com', 'api']);
  });
});

describe('POST /v1/imports: body checks and storage', () => {
  const { h, env } = useHarness({ config: { IMPORTD_MAX_BODY: '64kb' } });

  const cases: { name: string; raw: string; status: number; code: string; path?: string }[] = [
    { name: 'body is an array', raw: '[]', status: 400, code: 'validation_failed', path: '' },
    { name: 'rows missing', raw: '{"meta":{"schemaKey":"k"}}', status: 400, code: 'validation_failed', path: 'rows' },
    { name: 'rows not an array', raw: '{"rows":{},"meta":{"schemaKey":"k"}}', status: 400, code: 'validation_failed', path: 'rows' },
    { name: 'row is an array', raw: '{"rows":[{"a":1},[1]],"meta":{"schemaKey":"k"}}', status: 400, code: 'validation_failed', path: 'rows.1' },
    { name: 'row is null', raw: '{"rows":[null],"meta":{"schemaKey":"k"}}', status: 400, code: 'validation_failed', path: 'rows.0' },
    { name: 'cell is an object', raw: '{"rows":[{"a":1},{"a":1},{"price":{"x":1}}],"meta":{"schemaKey":"k"}}', status: 400, code: 'validation_failed', path: 'rows.2.price' },
    { name: 'cell is an array', raw: '{"rows":[{"tags":["a"]}],"meta":{"schemaKey":"k"}}', status: 400, code: 'validation_failed', path: 'rows.0.tags' },
    { name: 'cell is infinite', raw: '{"rows":[{"n":1e999}],"meta":{"schemaKey":"k"}}', status: 400, code: 'validation_failed', path: 'rows.0.n' },
    { name: 'meta.file.sizeBytes negative', raw: '{"rows":[],"meta":{"schemaKey":"k","file":{"sizeBytes":-1}}}', status: 400, code: 'validation_failed', path: 'meta.file.sizeBytes' },
    { name: 'meta not an object', raw: '{"rows":[],"meta":"x"}', status: 400, code: 'validation_failed', path: 'meta' },
    { name: 'originalSchema an array', raw: '{"rows":[],"originalSchema":[]}', status: 400, code: 'validation_failed', path: 'originalSchema' },
    { name: 'bad JSON', raw: '{"rows":[', status: 400, code: 'invalid_json' },
  ];
  for (const c of cases) {
    it(`rejects: ${c.name}`, async () => {
      const before = await h.sql('SELECT count(*) AS n FROM imports');
      const response = await call(h, 'POST', '/v1/imports', { key: env.secretKey, rawBody: c.raw });
      assert.equal(response.status, c.status);
      const body = await json(response);
      assert.equal(body.error.code, c.code);
      if (c.path !== undefined) assert.equal(body.error.details[0].path, c.path);
      assert.deepEqual(await h.sql('SELECT count(*) AS n FROM imports'), before);
    });
  }

  it('answers 415 for a non-JSON content type and 413 past the body limit', async () => {
    const wrongType = await call(h, 'POST', '/v1/imports', { key: env.secretKey, rawBody: '{"rows":[]}', contentType: 'text/plain' });
    assert.equal(wrongType.status, 415);
    assert.equal((await json(wrongType)).error.code, 'unsupported_media_type');
    const big = await call(h, 'POST', '/v1/imports', { key: env.secretKey, body: { rows: [{ a: 'x'.repeat(70_000) }], meta: { schemaKey: 'k' } } });
    assert.equal(big.status, 413);
  });

  it('stores rows exactly: key order, __proto__ and constructor keys, every value type', async () => {
    const rowsText = '[{"z":1,"a":"two","__proto__":"p","constructor":null,"m":true,"n":-1.5},{"constructor":"c","b":""}]';
    const response = await call(h, 'POST', '/v1/imports', { key: env.secretKey, rawBody: `{"meta":{"schemaKey":"k"},"rows":${rowsText}}` });
    assert.equal(response.status, 201);
    const { id } = await json(response);
    const page = await (await call(h, 'GET', `/v1/imports/${id}/rows`, { key: env.secretKey })).text();
    assert.ok(page.startsWith(`{"data":[{"rowIndex":0,"data":${JSON.stringify(JSON.parse(rowsText)[0])}}`));
    const stored = await h.sql<{ data: string }>('SELECT data FROM import_rows WHERE import_id = ? ORDER BY row_index', id);
    assert.equal(`[${stored.map((r) => r.data).join(',')}]`, rowsText);
    assert.equal(Object.getPrototypeOf(JSON.parse(stored[0]!.data)), Object.prototype);
  });

  it('computes rowCount and cellStats once, with types in first-seen key order', async () => {
    const rows = [
      { name: 'Ann', email: 'ann@example.com', born: '1990-01-31', n: 1, ok: true, notes: null, mix: 1 },
      { name: 'Bob', email: 'bob@example.com', born: '2001-12-01', n: '2.5', ok: 'false', notes: '', mix: 'text', extra: 'x' },
    ];
    const created = await createImportOk(h, env, { rows });
    assert.equal(created.rowCount, 2);
    const detail = await json(await call(h, 'GET', `/v1/imports/${created.id}`, { key: env.secretKey }));
    assert.deepEqual(detail.cellStats, {
      totalCells: 15,
      rowCount: 2,
      fieldBreakdown: [
        { key: 'name', type: 'string', count: 2 },
        { key: 'email', type: 'email', count: 2 },
        { key: 'born', type: 'date', count: 2 },
        { key: 'n', type: 'number', count: 2 },
        { key: 'ok', type: 'boolean', count: 2 },
        { key: 'notes', type: 'empty', count: 0 },
        { key: 'mix', type: 'mixed', count: 2 },
        { key: 'extra', type: 'string', count: 1 },
      ],
    });
  });

  it('drops the credentials from the stored meta, keeps every other member, and takes file and fileId from meta.file', async () => {
    const meta = { schemaKey: 'k', publicKey: env.publicKey, sdkVersion: '1.2.3', file: { name: 'a.csv', fileId: 'file_1', sizeBytes: 10 }, custom: { x: [1] } };
    const created = await createImportOk(h, env, { meta, rows: [] });
    assert.deepEqual(created.meta, { schemaKey: 'k', sdkVersion: '1.2.3', file: meta.file, custom: { x: [1] } });
    assert.deepEqual(created.file, meta.file);
    assert.equal(created.fileId, 'file_1');
  });
});
