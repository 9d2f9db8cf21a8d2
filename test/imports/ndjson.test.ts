import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTestSession, json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { contactRows } from './helpers';

const { h, env } = useHarness({ config: { IMPORTD_MAX_BODY: '4kb' } });

const counts = async () => ({
  imports: (await h.sql('SELECT count(*) AS n FROM imports'))[0]!.n,
  rows: (await h.sql('SELECT count(*) AS n FROM import_rows'))[0]!.n,
});

/** Sends an NDJSON body as a stream of the given pieces (so it arrives in chunks, as over a socket). */
function postNdjson(pieces: string[], headers: Record<string, string> = { Authorization: `Bearer ${env.secretKey}` }) {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
  return h.app.request('/v1/imports', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-ndjson', ...headers },
    body,
    duplex: 'half',
  } as RequestInit);
}

const header = JSON.stringify({ meta: { schemaKey: 'streamed', file: { name: 'big.ndjson' } }, originalSchema: { key: 'streamed' } });

describe('POST /v1/imports with application/x-ndjson', () => {
  it('stores every row exactly, in order, however the lines are split into chunks, beyond the JSON body limit', async () => {
    const rows = [...contactRows(5000), { __proto__: 1, constructor: 'x', 'a,b': null, z: true }].map((row) => JSON.parse(JSON.stringify(row)));
    rows[5000] = JSON.parse('{"__proto__":1,"constructor":"x","a,b":null,"z":true}');
    const text = `${header}\n${rows.map((row) => JSON.stringify(row)).join('\r\n')}\n`;
    const pieces = [];
    for (let i = 0; i < text.length; i += 997) pieces.push(text.slice(i, i + 997));
    const response = await postNdjson(pieces);
    assert.equal(response.status, 201, await response.clone().text());
    const created = await json(response);
    assert.equal(created.rowCount, 5001);
    const stored = (await h.sql<{ data: string }>('SELECT data FROM import_rows WHERE import_id = ? ORDER BY row_index', created.id)).map((row) => row.data);
    assert.deepEqual(stored, rows.map((row) => JSON.stringify(row)));
    assert.deepEqual(Object.keys(JSON.parse(stored[5000]!)), ['__proto__', 'constructor', 'a,b', 'z']);
    assert.equal(created.meta.file.name, 'big.ndjson');
  });

  it('accepts a session-bound SDK import and takes the end-user from the session', async () => {
    const session = await createTestSession(h, env, { endUserId: 'streamer', endUserEmail: 's@example.com' });
    const response = await postNdjson([`${header}\n{"a":1}\n`], {
      Authorization: `Bearer ${env.publicKey}`,
      Origin: env.origin,
      'X-Session-Token': session.sessionToken,
    });
    assert.equal(response.status, 201, await response.clone().text());
    const created = await json(response);
    assert.equal(created.endUserId, 'streamer');
    assert.equal(created.importedFrom, env.origin);
  });

  const failures: [string, string[], number, string, RegExp][] = [
    ['bad JSON on a row line', [`${header}\n{"a":1}\n{"a":2}\n{"a":\n{"a":4}\n`], 400, 'invalid_json', /line 4/],
    ['a first line that is not JSON', ['meta please\n{"a":1}\n'], 400, 'invalid_json', /line 1/],
    ['a first line that is not an object', ['[1,2]\n{"a":1}\n'], 400, 'validation_failed', /first line/],
    // No header line: the first row would be taken for it and lost (a session naming the template needs no meta).
    ['a first line that is a row', ['{"email":"first@example.com"}\n{"email":"second@example.com"}\n'], 400, 'validation_failed', /first line must be \{ meta, originalSchema \}.*"path":"email"/],
    ['a row that is not an object', [`${header}\n{"a":1}\n[1]\n`], 400, 'validation_failed', /rows\.1/],
    ['a cell that is an object', [`${header}\n${'{"a":1}\n'.repeat(4500)}{"a":{"b":1}}\n`], 400, 'validation_failed', /rows\.4500\.a/],
  ];
  for (const [label, pieces, status, code, pattern] of failures) {
    it(`rejects ${label} and leaves nothing stored`, async () => {
      const before = await counts();
      const response = await postNdjson(pieces);
      const body = await json(response);
      assert.equal(response.status, status, JSON.stringify(body));
      assert.equal(body.error.code, code);
      assert.match(JSON.stringify(body.error), pattern);
      assert.deepEqual(await counts(), before);
    });
  }

  it('rejects bytes that are not UTF-8 with invalid_json', async () => {
    const before = await counts();
    const bytes = new Uint8Array([...new TextEncoder().encode(`${header}\n{"a":"`), 0xff, 0xfe, ...new TextEncoder().encode('"}\n')]);
    const response = await h.app.request('/v1/imports', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-ndjson', Authorization: `Bearer ${env.secretKey}` },
      body: bytes,
    });
    assert.equal(response.status, 400);
    assert.equal((await json(response)).error.code, 'invalid_json');
    assert.deepEqual(await counts(), before);
  });
});
