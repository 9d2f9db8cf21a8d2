import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validTheme } from '../helpers/fixtures';
import { call, json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { createImportOk, postImport } from './helpers';

// U+0000 behaves the same on both engines (npm test and npm run test:pg run this file): kept as sent inside
// stored JSON text (cells, column keys, free meta members), refused with 400 validation_failed in a string
// stored as plain text, which PostgreSQL's text type cannot hold (it used to answer 500 there).
const NUL = '\u0000';

describe('the NUL character (U+0000)', () => {
  const { h, env } = useHarness();

  it('is kept in cells, column keys and free meta members: rows, export and detail return it as sent', async () => {
    const rows = [{ [`a${NUL}b`]: `x${NUL}y`, plain: NUL }, { [`a${NUL}b`]: 'z', plain: `${NUL}${NUL}` }];
    const meta = { schemaKey: 'nul-cells', note: `n${NUL}`, file: { name: `f${NUL}.csv` } };
    const created = await createImportOk(h, env, { meta, rows });
    const page = await json(await call(h, 'GET', `/v1/imports/${created.id}/rows`, { key: env.secretKey }));
    assert.deepEqual(page.data.map((row: { data: unknown }) => row.data), rows);
    const exported = await call(h, 'GET', `/v1/imports/${created.id}/export?format=ndjson`, { key: env.secretKey });
    assert.deepEqual((await exported.text()).trim().split('\n').map((line) => JSON.parse(line)), rows);
    const detail = await json(await call(h, 'GET', `/v1/imports/${created.id}`, { key: env.secretKey }));
    assert.deepEqual(detail.meta, meta);
  });

  const refused: [string, Record<string, unknown>, string][] = [
    ['meta.schemaKey', { meta: { schemaKey: `c${NUL}` } }, 'meta.schemaKey'],
    ['originalSchema.key', { meta: {}, originalSchema: { key: `k${NUL}` } }, 'originalSchema.key'],
    ['meta.file.fileId', { meta: { schemaKey: 'c', file: { fileId: `f${NUL}` } } }, 'meta.file.fileId'],
    ['a meta.mapping label', { meta: { schemaKey: 'c', mapping: { email: `E-mail${NUL}` } } }, 'meta.mapping.email'],
  ];
  for (const [name, body, path] of refused) {
    it(`refuses it in ${name} (stored as plain text) with 400 validation_failed naming the member, storing nothing`, async () => {
      const before = await h.sql<{ n: number }>('SELECT count(*) AS n FROM imports');
      const response = await postImport(h, env, { ...body, rows: [{ a: 'x' }] });
      assert.equal(response.status, 400, await response.clone().text());
      const { error } = await json(response);
      assert.equal(error.code, 'validation_failed');
      assert.ok(
        error.details.some((d: { path: string; message: string }) => d.path.startsWith(path) && /NUL/.test(d.message)),
        JSON.stringify(error.details),
      );
      assert.deepEqual(await h.sql<{ n: number }>('SELECT count(*) AS n FROM imports'), before);
    });
  }

  it('refuses it in a mapping key (a schema key stored as plain text)', async () => {
    const response = await postImport(h, env, { meta: { schemaKey: 'c', mapping: { [`e${NUL}`]: 'E-mail' } }, rows: [{ a: 'x' }] });
    assert.equal(response.status, 400);
    assert.equal((await json(response)).error.code, 'validation_failed');
  });

  it('refuses it in a session end-user id and in a theme name or description', async () => {
    const session = await call(h, 'POST', '/v1/sessions', { key: env.secretKey, body: { endUserId: `u${NUL}` } });
    assert.equal(session.status, 400);
    assert.equal((await json(session)).error.details[0].path, 'endUserId');
    for (const member of ['name', 'description']) {
      const theme = await call(h, 'POST', '/v1/themes', { key: env.secretKey, body: validTheme({ [member]: `t${NUL}` }) });
      assert.equal(theme.status, 400, member);
      assert.equal((await json(theme)).error.details[0].path, member);
    }
  });
});
