import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { call, createHarness, createTestEnvironment, DEFAULT_LIMITS, json, type Harness, type TestEnvironment } from '../helpers/harness';
import { cliOnHarness, createCliHarness } from '../helpers/cli';
import { joinNode } from '../helpers/nodes';
import { createImport } from '../../src/services/imports';

// IMPORTD_ACCOUNT_QUOTA_BYTES: the bytes of an account's stored imports together, read from the database (the
// import_counts counter), refused with 413 quota_exceeded before anything is stored, or as a stream passes it.

const QUOTA = 64 * 1024;

/** A JSON import body of exactly `bytes` bytes (one row whose note pads it), under template `key`. */
function bodyOf(bytes: number, key = 'quota'): string {
  const empty = JSON.stringify({ meta: { schemaKey: key }, rows: [{ note: '' }] });
  const text = JSON.stringify({ meta: { schemaKey: key }, rows: [{ note: 'x'.repeat(bytes - empty.length) }] });
  assert.equal(Buffer.byteLength(text), bytes);
  return text;
}

/** An NDJSON body streamed in 8 KiB chunks with no Content-Length: counted only as it arrives. */
function streamed(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + 8192));
      at += 8192;
    },
  });
}

describe('IMPORTD_ACCOUNT_QUOTA_BYTES', () => {
  let h: Harness;
  let env: TestEnvironment;
  let cli: ReturnType<typeof cliOnHarness>;
  before(async () => {
    h = await createHarness({ config: { IMPORTD_ACCOUNT_QUOTA_BYTES: String(QUOTA) } });
    env = await createTestEnvironment(h);
    cli = cliOnHarness(h);
  });
  after(async () => await h.close());

  const post = async (text: string, type = 'application/json') => await call(h, 'POST', '/v1/imports', { key: env.secretKey, rawBody: text, contentType: type });
  const stored = async () =>
    (await h.sql<{ imports: number; rows: number; templates: number }>(
      'SELECT (SELECT count(*) FROM imports) AS imports, (SELECT count(*) FROM import_rows) AS rows, (SELECT count(*) FROM templates) AS templates',
    ))[0]!;
  const usedBytes = async () => {
    const listed = await cli('account', 'list', '--json');
    assert.equal(listed.code, 0, listed.stderr);
    const account = JSON.parse(listed.stdout).data.find((a: { id: string }) => a.id === env.accountId);
    assert.equal(account.quotaBytes, QUOTA);
    return account.usedBytes as number;
  };
  const expectQuotaExceeded = async (response: Response) => {
    const text = await response.text();
    assert.equal(response.status, 413, text);
    assert.equal(JSON.parse(text).error.code, 'quota_exceeded');
    assert.match(JSON.parse(text).error.message, /65536 bytes \(IMPORTD_ACCOUNT_QUOTA_BYTES\)/);
  };

  let firstId = '';
  it('counts each import by its body bytes, shown by account list (human and --json)', async () => {
    const created = await post(bodyOf(20_000));
    assert.equal(created.status, 201, await created.clone().text());
    firstId = (await json(created)).id;
    assert.equal(await usedBytes(), 20_000);
    const human = await cli('account', 'list');
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /NAME\s+ID\s+CREATED\s+USED\s+QUOTA/);
    assert.match(human.stdout, /20\.0 KB\s+65\.5 KB/);
  });

  it('refuses a JSON body that would pass the quota before anything is stored (no import, rows or template)', async () => {
    const before = await stored();
    await expectQuotaExceeded(await post(bodyOf(QUOTA - 20_000 + 1, 'new-template')));
    assert.deepEqual(await stored(), before);
    assert.equal(await usedBytes(), 20_000);
  });

  it('rolls back a streamed NDJSON import as soon as it passes the quota: nothing of it stays', async () => {
    const before = await stored();
    const lines = Array.from({ length: 2_000 }, (_, i) => JSON.stringify({ n: i, note: 'y'.repeat(40) }));
    const ndjson = `${JSON.stringify({ meta: { schemaKey: 'quota' } })}\n${lines.join('\n')}\n`;
    assert.ok(Buffer.byteLength(ndjson) > QUOTA);
    const response = await h.app.request('/v1/imports', {
      method: 'POST',
      headers: { Authorization: `Bearer ${env.secretKey}`, 'Content-Type': 'application/x-ndjson' },
      body: streamed(ndjson),
      duplex: 'half',
    } as RequestInit);
    await expectQuotaExceeded(response);
    assert.deepEqual(await stored(), before);
    assert.equal(await usedBytes(), 20_000);
  });

  it('accepts an import that fills the quota exactly, then refuses any other at the quota, over HTTP and from the CLI', async () => {
    const filled = await post(bodyOf(QUOTA - 20_000));
    assert.equal(filled.status, 201, await filled.clone().text());
    assert.equal(await usedBytes(), QUOTA);
    const before = await stored();
    await expectQuotaExceeded(await post(bodyOf(100)));
    const file = path.join(h.dir, 'one.ndjson');
    writeFileSync(file, '{"a":1}\n');
    const refused = await cli('import', file, '--env', env.name, '--template', 'cli-new');
    assert.equal(refused.code, 4, refused.stderr);
    assert.match(refused.stderr, /^error \[quota_exceeded\]: .*IMPORTD_ACCOUNT_QUOTA_BYTES.*\n$/);
    assert.equal(refused.stderr.split('\n').length, 2, 'one line');
    // Another node reads the same usage from the database.
    const node = await joinNode(h, { config: { IMPORTD_ACCOUNT_QUOTA_BYTES: String(QUOTA) } });
    try {
      const origin = { accountId: env.accountId, environmentId: env.environmentId, importedFrom: 'api' };
      const body = { meta: { schemaKey: 'quota' }, rows: [[{ a: 1 }]], bytes: { declared: 10, read: () => 10 } };
      await assert.rejects(createImport(node.ctx, origin, body), { code: 'quota_exceeded' });
    } finally {
      await node.close();
    }
    assert.deepEqual(await stored(), before);
  });

  it('gives the bytes back when an import is deleted', async () => {
    const deleted = await call(h, 'DELETE', `/v1/imports/${firstId}`, { key: env.secretKey });
    assert.equal(deleted.status, 200, await deleted.clone().text());
    assert.equal(await usedBytes(), QUOTA - 20_000);
    const created = await post(bodyOf(20_000));
    assert.equal(created.status, 201, await created.clone().text());
    assert.equal(await usedBytes(), QUOTA);
  });
});

describe('IMPORTD_ACCOUNT_QUOTA_BYTES off by default', () => {
  it('is 0 (off): account list shows no quota, and the used bytes still counted', async () => {
    assert.equal(DEFAULT_LIMITS.accountQuotaBytes, 0);
    const cli = await createCliHarness();
    try {
      assert.equal((await cli.run('env', 'create', 'ops')).code, 0);
      const file = path.join(cli.dir, 'rows.ndjson');
      writeFileSync(file, '{"a":1}\n{"a":2}\n');
      const loaded = await cli.run('import', file, '--env', 'ops', '--template', 't');
      assert.equal(loaded.code, 0, loaded.stderr);
      const listed = await cli.run('account', 'list', '--json');
      assert.deepEqual(
        JSON.parse(listed.stdout).data.map((a: { usedBytes: number; quotaBytes: number | null }) => [a.usedBytes, a.quotaBytes]),
        [[16, null]],
      );
      assert.match((await cli.run('account', 'list')).stdout, /16 B\s+off/);
    } finally {
      await cli.close();
    }
  });
});
