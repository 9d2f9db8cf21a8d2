import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { call, json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

// POST /imports takes a compact body's rows straight from its text (canonical-rows.ts) and any other body
// through JSON.parse: the same rows sent both ways are stored, counted and refused the same.

// Compact row texts, as JSON.stringify writes them: escapes, unicode, `__proto__` (JSON.parse makes it an own
// member), -0.5, a 14-digit integer, empty and null cells, dates and e-mails for the statistics.
const rowTexts = [
  String.raw`{"id":1,"name":"Ann \"A.\"","note":"multi\nline\ttab \\ slash","city":"Zürich 😀","amount":-0.5,"vip":true,"email":"ann@example.com","day":"2024-02-30","none":null}`,
  String.raw`{"id":2,"name":"","note":"\u0001\u001f","city":"Springfield","amount":1234.25,"vip":false,"email":"not an e-mail","day":"2024-13-01","none":null}`,
  String.raw`{"__proto__":"own","constructor":"x","zip":"01234","big":12345678901234}`,
];

describe('POST /v1/imports: a compact body and the same body spaced out', () => {
  const { h, env } = useHarness();

  const body = `{"meta":{"schemaKey":"same"},"rows":[${rowTexts.join(',')}]}`;
  const post = async (text: string) => call(h, 'POST', '/v1/imports', { key: env.secretKey, rawBody: text });
  const stored = async (importId: string) =>
    (await h.sql<{ data: string }>('SELECT data FROM import_rows WHERE import_id = ? ORDER BY row_index', importId)).map((row) => row.data);

  it('stores the same row texts and cell statistics either way', async () => {
    const compact = await post(body);
    const spaced = await post(JSON.stringify(JSON.parse(body), null, 2));
    assert.equal(compact.status, 201, await compact.clone().text());
    assert.equal(spaced.status, 201, await spaced.clone().text());
    const [a, b] = [await json(compact), await json(spaced)];
    assert.deepEqual(await stored(a.id), rowTexts);
    assert.deepEqual(await stored(b.id), rowTexts);
    const detail = async (id: string) => (await json(await call(h, 'GET', `/v1/imports/${id}`, { key: env.secretKey }))).cellStats;
    assert.deepEqual(await detail(a.id), await detail(b.id));
  });

  it('refuses a bad row with the same error either way', async () => {
    const bad = `{"meta":{"schemaKey":"same"},"rows":[{"a":1},{"a":{"nested":true}},{"a":1e400}]}`;
    for (const text of [bad, JSON.stringify(JSON.parse(bad.replace('1e400', '"x"')), null, 1).replace('"x"', '1e400')]) {
      const response = await post(text);
      assert.equal(response.status, 400);
      assert.deepEqual((await json(response)).error.details, [
        { path: 'rows.1.a', message: 'must be a string, a finite number, a boolean or null' },
        { path: 'rows.2.a', message: 'must be a string, a finite number, a boolean or null' },
      ]);
    }
  });
});
