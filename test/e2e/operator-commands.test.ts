import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { validTheme } from '../helpers/fixtures';
import { call, createHarness, createTestEnvironment, createTestSession, json, type Harness, type TestEnvironment } from '../helpers/harness';
import { insertImport } from '../helpers/imports-fixture';
import { BIN, runBin } from '../helpers/process';

// The operator commands over the existing services, on the real binary, checked against what the API
// answers for the same database.
let h: Harness;
let env: TestEnvironment;
let templateId: string;
const ids: string[] = [];
const bin = (...args: string[]) => runBin([...args, '--db', h.dbPath]);
const binJson = (...args: string[]) => {
  const result = bin(...args, '--json');
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout);
};

before(async () => {
  h = await createHarness();
  env = await createTestEnvironment(h);
  const template = await call(h, 'POST', '/v1/templates', { key: env.secretKey, body: { key: 'orders', schema: { key: 'orders', fields: [] } } });
  templateId = (await json(template)).id;
  const days = ['2026-01-01T10:00:00.000Z', '2026-01-05T10:00:00.000Z', '2026-01-10T10:00:00.000Z', '2026-01-20T10:00:00.000Z'];
  const emails = ['ada@example.com', 'BOB@Example.org', null, 'ada_99%@example.com'];
  for (const [i, createdAt] of days.entries()) {
    const id = await insertImport(h, env, { createdAt, endUserId: `user-${i}` });
    await h.sql('UPDATE imports SET end_user_email = ? WHERE id = ?', emails[i] ?? null, id);
    if (i % 2 === 1) await h.sql('UPDATE imports SET template_id = ? WHERE id = ?', templateId, id);
    ids.push(id);
  }
  const other = await createTestEnvironment(h, { name: 'staging' });
  ids.push(await insertImport(h, other, { createdAt: '2026-01-21T10:00:00.000Z' }));
});
after(() => h.close());

describe('importd imports list filters mean what the API filters mean', () => {
  const filters: [string[], string][] = [
    [['--since', '2026-01-05'], 'startDate=2026-01-05'],
    [['--until', '2026-01-10T10:00:00.000Z'], 'endDate=2026-01-10T10:00:00.000Z'],
    [['--since', '2026-01-02', '--until', '2026-01-20'], 'startDate=2026-01-02&endDate=2026-01-20'],
    [['--user-email', 'EXAMPLE.COM'], 'userEmail=EXAMPLE.COM'],
    [['--user-email', '_99%'], 'userEmail=_99%25'],
    [['--template', 'TEMPLATE'], 'templateId=TEMPLATE'],
    [['--environment', 'staging'], 'environment=staging'],
    [['--environment', 'production', '--limit', '2'], 'environment=production&limit=2'],
  ];
  for (const [args, query] of filters) {
    it(`${args.join(' ')} = GET /v1/imports?${query}`, async () => {
      const withTemplate = (list: string[]) => list.map((arg) => arg.replace('TEMPLATE', templateId));
      const cli = binJson('imports', 'list', ...withTemplate(args));
      const api = await json(await call(h, 'GET', `/v1/imports?${query.replace('TEMPLATE', templateId)}`, { key: env.secretKey }));
      assert.ok(api.data.length > 0 && api.data.length < ids.length, 'the filter selects some');
      assert.deepEqual(cli, api);
    });
  }

  it('a bad filter value names the flag', () => {
    const result = bin('imports', 'list', '--since', 'last tuesday');
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^error \[validation_failed\]: --since: /);
  });
});

describe('operator commands', () => {
  it('account list shows every account', () => {
    assert.equal(bin('account', 'create', 'acme').code, 0);
    const listed = binJson('account', 'list');
    assert.deepEqual(
      listed.data.map((a: { name: string }) => a.name),
      ['default', 'acme'],
    );
    assert.match(bin('account', 'list').stdout, /^NAME\s+ID\s+CREATED\s+USED\s+QUOTA\ndefault\s/);
  });

  it('session revoke refuses the token from then on, and repeating it is harmless', async () => {
    const { sessionToken } = await createTestSession(h, env);
    const jti = JSON.parse(Buffer.from(sessionToken.split('.')[1]!, 'base64url').toString()).jti as string;
    const first = binJson('session', 'revoke', jti);
    assert.equal(first.jti, jti);
    assert.deepEqual(binJson('session', 'revoke', jti), first);
    const refused = await call(h, 'GET', '/v1/templates/00000000-0000-7000-8000-000000000000', {
      key: env.publicKey,
      origin: env.origin,
      session: sessionToken,
    });
    assert.equal(refused.status, 401);
    assert.equal(bin('session', 'revoke', 'no-such-jti').code, 3);
  });

  it('imports delete removes the import and its rows; a second delete is not found', async () => {
    const id = ids[0]!;
    assert.deepEqual(binJson('imports', 'delete', id), { id, deleted: true, rows: 3 });
    assert.equal((await call(h, 'GET', `/v1/imports/${id}`, { key: env.secretKey })).status, 404);
    const again = bin('imports', 'delete', id);
    assert.equal(again.code, 3);
    assert.equal(again.stderr, 'error [not_found]: import not found\n');
  });

  it('templates show prints the template with its schema (--json: the API body)', async () => {
    const api = await json(await call(h, 'GET', `/v1/templates/${templateId}`, { key: env.secretKey }));
    assert.deepEqual(binJson('templates', 'show', templateId), api);
    const human = bin('templates', 'show', templateId);
    assert.match(human.stdout, /^id:\s+[\w-]+\nkey:\s+orders\n/);
    assert.match(human.stdout, /schema:\n\{\n  "key": "orders"/);
    assert.equal(bin('templates', 'show', 'not-a-template').code, 3);
  });

  it('themes show is not found before a theme exists; themes set creates it from a file, then replaces it from stdin', async () => {
    const none = bin('themes', 'show');
    assert.equal(none.code, 3);
    assert.equal(none.stderr, 'error [not_found]: theme not found\n');

    const file = path.join(h.dir, 'theme.json');
    writeFileSync(file, JSON.stringify(validTheme({ name: 'Acme' })));
    const created = bin('themes', 'set', file);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /^theme Acme created \(id [\w-]+\)\n$/);

    const replaced = spawnSync(BIN, ['themes', 'set', '-', '--json', '--db', h.dbPath], {
      input: JSON.stringify(validTheme({ name: 'Acme dark' })),
      encoding: 'utf8',
    });
    assert.equal(replaced.status, 0, replaced.stderr);
    const shown = binJson('themes', 'show');
    assert.equal(shown.name, 'Acme dark');
    assert.deepEqual(shown, JSON.parse(replaced.stdout));
    assert.deepEqual(shown, await json(await call(h, 'GET', '/v1/themes', { key: env.secretKey })));
  });

  const badThemes: [string, string | Buffer, number, RegExp][] = [
    ['not JSON', '{"name":', 2, /^error \[invalid_json\]: stdin is not valid JSON/],
    ['an invalid color', JSON.stringify(validTheme({ lightColors: { ...validTheme().lightColors, primary: 'red' } })), 2, /^error \[validation_failed\]: lightColors\.primary/],
    ['an array', '[]', 2, /^error \[validation_failed\]/],
    ['more than 1 MiB', Buffer.alloc(1024 * 1024 + 1, 0x20), 2, /^error \[validation_failed\]: file: stdin is larger than/],
  ];
  for (const [name, input, code, message] of badThemes) {
    it(`themes set refuses ${name} and keeps the theme`, () => {
      const before = bin('themes', 'show').stdout;
      const result = spawnSync(BIN, ['themes', 'set', '-', '--db', h.dbPath], { input, encoding: 'utf8' });
      assert.equal(result.status, code, result.stderr);
      assert.match(result.stderr, message);
      assert.equal(result.stderr.split('\n').length, 2);
      assert.equal(bin('themes', 'show').stdout, before);
    });
  }

  it('themes set of a missing file is not found', () => {
    const result = bin('themes', 'set', path.join(h.dir, 'nope.json'));
    assert.equal(result.code, 3);
    assert.match(result.stderr, /^error \[not_found\]: file .*nope\.json not found\n$/);
  });
});
