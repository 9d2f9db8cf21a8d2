import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PARSE_IN_WORKER_BYTES } from '../../src/services/imports';
import { createTestSession } from '../helpers/harness';
import { useLiveHarness } from '../helpers/use-harness';
import { countRows } from '../imports/helpers';

// The caps of DESIGN.md "Limits", tried the way an attacker would, against the real server: every answer
// is the typed 4xx, nothing of a refused import is stored, and the server keeps serving.

const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
/** A JSON import body as text, with `padding` rows to push it to the parse worker. */
const importText = (members: string, rows = '[{"a":1}]') => `{${members}${members ? ',' : ''}"rows":${rows}}`;
// Past the size parsed by the worker: 12 000 rows, each padded to share the threshold.
const PAD = 'x'.repeat(Math.ceil(PARSE_IN_WORKER_BYTES / 12_000));
const largeRows = () => `[${Array.from({ length: 12_000 }, (_, i) => `{"name":"person ${i}","email":"p${i}@example.com","note":"${PAD}"}`).join(',')}]`;

const { h, env, server } = useLiveHarness({ config: { IMPORTD_MAX_IMPORT_BYTES: '8mb' } });

async function send(path: string, init: { method?: string; body?: string | ReadableStream<Uint8Array>; type?: string; headers?: Record<string, string> }) {
  return fetch(`${server.url}${path}`, {
    method: init.method ?? 'POST',
    headers: { Authorization: `Bearer ${env.secretKey}`, 'Content-Type': init.type ?? 'application/json', ...init.headers },
    body: init.body,
    ...(init.body instanceof ReadableStream && { duplex: 'half' }),
  } as RequestInit);
}

async function expectError(response: Response, status: number, code: string, pattern?: RegExp) {
  const text = await response.text();
  assert.equal(response.status, status, text);
  const body = JSON.parse(text);
  assert.equal(body.error.code, code);
  if (pattern) assert.match(JSON.stringify(body.error), pattern);
}

async function expectServing() {
  assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
  assert.equal(await countRows(h, 'imports'), 0, 'nothing of a refused import is stored');
  assert.equal(await countRows(h, 'import_rows'), 0);
}

/** A byte stream of `text` in 64 KiB chunks, sent chunked (no Content-Length). */
function chunked(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + 65_536));
      at += 65_536;
    },
  });
}

describe('limits: nesting', () => {
  for (const member of ['meta', 'meta.file', 'originalSchema']) {
    const members = member === 'meta.file' ? `"meta":{"schemaKey":"c","file":${deep(5000)}}` : `"meta":{"schemaKey":"c"${member === 'meta' ? `,"x":${deep(5000)}` : ''}}${member === 'originalSchema' ? `,"originalSchema":{"x":${deep(5000)}}` : ''}`;
    it(`${member} nested 5 000 deep: 400 validation_failed in a small body, a large body (parse worker) and NDJSON`, async () => {
      await expectError(await send('/v1/imports', { body: importText(members) }), 400, 'validation_failed', /levels deep/);
      const large = importText(members, largeRows());
      assert.ok(large.length > PARSE_IN_WORKER_BYTES);
      await expectError(await send('/v1/imports', { body: large }), 400, 'validation_failed', /levels deep/);
      await expectError(await send('/v1/imports', { body: `{${members}}\n{"a":1}\n`, type: 'application/x-ndjson' }), 400, 'validation_failed', /levels deep/);
      await expectServing();
    });
  }

  it('a body nested past 64 levels is 400 on every JSON route (templates, sessions, themes, map-headers), never 500', async () => {
    const cases: [string, string, string][] = [
      ['POST', '/v1/templates', `{"key":"k","schema":{"x":${deep(5000)}}}`],
      ['POST', '/v1/sessions', `{"endUserId":"u","metadata":{"x":${deep(5000)}}}`],
      ['POST', '/v1/themes', `{"name":${deep(100_000)}}`],
      ['POST', '/v1/intelligence/map-headers', `{"schemaHeaders":${deep(70)},"fileHeaders":[]}`],
      ['POST', '/v1/environments', deep(65)],
    ];
    for (const [method, path, body] of cases) {
      await expectError(await send(path, { method, body }), 400, 'validation_failed', /levels deep/);
    }
    // 64 levels are allowed: the template is created.
    const nested = `{"key":"nested","schema":{"x":${deep(62)}}}`;
    assert.equal((await send('/v1/templates', { body: nested })).status, 201);
  });
});

describe('limits: sizes', () => {
  it('meta over 64 KiB: 400 at meta, nothing stored (small and large bodies, NDJSON)', async () => {
    const meta = `"meta":{"schemaKey":"c","blob":"${'x'.repeat(70_000)}"}`;
    await expectError(await send('/v1/imports', { body: importText(meta) }), 400, 'validation_failed', /"path":"meta"/);
    await expectError(await send('/v1/imports', { body: importText(meta, largeRows()) }), 400, 'validation_failed', /"path":"meta"/);
    await expectError(await send('/v1/imports', { body: `{${meta}}\n{"a":1}\n`, type: 'application/x-ndjson' }), 400, 'validation_failed', /"path":"meta"/);
    await expectServing();
  });

  it('originalSchema over 2 000 fields or 1 MiB through an import: 400 (413 for an NDJSON first line over every cap), no template auto-created', async () => {
    const templatesBefore = await h.sql('SELECT count(*) AS n FROM templates');
    const objects = `"originalSchema":{"key":"wide","fields":${JSON.stringify(Array.from({ length: 100_000 }, (_, i) => ({ key: `f${i}` })))}}`;
    const names = `"originalSchema":{"key":"wide","columns":${JSON.stringify(Array.from({ length: 100_000 }, (_, i) => `f${i}`))}}`;
    const big = `"originalSchema":{"key":"big","fields":[{"key":"a"}],"notes":"${'x'.repeat(1_100_000)}"}`;
    for (const members of [objects, names, big]) {
      await expectError(await send('/v1/imports', { body: importText(members) }), 400, 'validation_failed', /originalSchema/);
    }
    await expectError(await send('/v1/imports', { body: `{${names}}\n{"a":1}\n`, type: 'application/x-ndjson' }), 400, 'validation_failed', /2000 fields/);
    await expectError(await send('/v1/imports', { body: `{${big}}\n{"a":1}\n`, type: 'application/x-ndjson' }), 400, 'validation_failed', /originalSchema/);
    await expectError(await send('/v1/imports', { body: `{${objects}}\n{"a":1}\n`, type: 'application/x-ndjson' }), 413, 'payload_too_large', /line 1/);
    assert.deepEqual(await h.sql('SELECT count(*) AS n FROM templates'), templatesBefore);
    await expectServing();
  });

  it('a template schema of 2 001 fields is refused by POST and PUT; 2 000 are accepted', async () => {
    const schema = (n: number) => ({ fields: Array.from({ length: n }, (_, i) => ({ key: `f${i}` })) });
    await expectError(await send('/v1/templates', { body: JSON.stringify({ key: 'wide', schema: schema(2001) }) }), 400, 'validation_failed', /2000 fields/);
    const created = await send('/v1/templates', { body: JSON.stringify({ key: 'wide', schema: schema(2000) }) });
    assert.equal(created.status, 201);
    const { id } = (await created.json()) as { id: string };
    await expectError(await send(`/v1/templates/${id}`, { method: 'PUT', body: JSON.stringify({ schema: schema(2001) }) }), 400, 'validation_failed', /2000 fields/);
  });

  it('a row over 1 MiB: 400 naming the row (JSON body, NDJSON line); an NDJSON line past any row or header: 413', async () => {
    const row = `{"a":"${'x'.repeat(1_100_000)}"}`;
    await expectError(await send('/v1/imports', { body: importText('"meta":{"schemaKey":"c"}', `[{"a":1},${row}]`) }), 400, 'validation_failed', /rows\.1/);
    await expectError(await send('/v1/imports', { body: `{"meta":{"schemaKey":"c"}}\n{"a":1}\n${row}\n`, type: 'application/x-ndjson' }), 400, 'validation_failed', /rows\.1/);
    const line = `{"a":"${'x'.repeat(3_000_000)}"}`;
    await expectError(await send('/v1/imports', { body: chunked(`{"meta":{"schemaKey":"c"}}\n${line}\n`), type: 'application/x-ndjson' }), 413, 'payload_too_large', /line 2/);
    await expectServing();
  });

  it('rows holding more than 16 384 distinct column keys: 400 (JSON body, parse worker, NDJSON); 16 384 are accepted', async () => {
    // 200 rows of 82 new keys each: 16 400 keys, the cap passed within the last row.
    const wide = (rows: number, keysPerRow: number, pad = '') =>
      Array.from({ length: rows }, (_, r) => `{${Array.from({ length: keysPerRow }, (_, k) => `"c${r}_${k}":${k}`).join(',')}${pad}}`);
    const over = wide(200, 82);
    await expectError(await send('/v1/imports', { body: importText('"meta":{"schemaKey":"c"}', `[${over.join(',')}]`) }), 400, 'validation_failed', /16384 distinct column keys/);
    const padded = wide(200, 82, `,"pad":"${'x'.repeat(Math.ceil(PARSE_IN_WORKER_BYTES / 200))}"`);
    const large = importText('"meta":{"schemaKey":"c"}', `[${padded.join(',')}]`);
    assert.ok(large.length > PARSE_IN_WORKER_BYTES);
    await expectError(await send('/v1/imports', { body: large }), 400, 'validation_failed', /16384 distinct column keys/);
    await expectError(await send('/v1/imports', { body: `{"meta":{"schemaKey":"c"}}\n${over.join('\n')}\n`, type: 'application/x-ndjson' }), 400, 'validation_failed', /16384 distinct column keys/);
    await expectServing();
    const exact = await send('/v1/imports', { body: importText('"meta":{"schemaKey":"c"}', `[${wide(128, 128).join(',')}]`) });
    assert.equal(exact.status, 201, await exact.clone().text());
    await h.sql('DELETE FROM import_rows');
    await h.sql('DELETE FROM imports');
  });

  it('IMPORTD_MAX_IMPORT_BYTES bounds one import in every format, from every credential: 413, nothing stored', async () => {
    const rows = Array.from({ length: 250_000 }, (_, i) => `{"name":"person ${i}","email":"p${i}@example.com"}`);
    const ndjson = `{"meta":{"schemaKey":"c"}}\n${rows.join('\n')}\n`;
    assert.ok(ndjson.length > 8 * 1024 ** 2);
    const session = await createTestSession(h, env);
    const sdk = { Authorization: `Bearer ${env.publicKey}`, Origin: env.origin, 'X-Session-Token': session.sessionToken };
    // Streamed (chunked): counted as it is read, after thousands of rows were already written.
    await expectError(await send('/v1/imports', { body: chunked(ndjson), type: 'application/x-ndjson' }), 413, 'payload_too_large');
    await expectError(await send('/v1/imports', { body: chunked(ndjson), type: 'application/x-ndjson', headers: sdk }), 413, 'payload_too_large');
    // Declared length: refused before the body is read.
    await expectError(await send('/v1/imports', { body: ndjson, type: 'application/x-ndjson', headers: sdk }), 413, 'payload_too_large');
    await expectError(await send('/v1/imports', { body: importText('"meta":{"schemaKey":"c"}', `[${rows.join(',')}]`) }), 413, 'payload_too_large');
    await expectServing();
  });
});
