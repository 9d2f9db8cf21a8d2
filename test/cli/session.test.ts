import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config/config';
import { openStore } from '../../src/db/open-store';
import { resolveAccount } from '../../src/services/accounts';
import { verifySession } from '../../src/services/auth';
import { createServiceContext } from '../../src/services/create-context';
import { resolveEnvironment } from '../../src/services/environments';
import { createTemplate } from '../../src/services/templates';
import { createCliHarness, type CliHarness } from '../helpers/cli';

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

describe('importd session issue (in-process)', () => {
  let cli: CliHarness;
  let templateId: string;
  /** Runs `work` on the CLI's database, as the server would see it. */
  const onDatabase = async <T>(work: (ctx: Awaited<ReturnType<typeof createServiceContext>>) => T | Promise<T>): Promise<T> => {
    const storage = await openStore(cli.dbPath);
    try {
      return await work(await createServiceContext(storage.store, loadConfig({}, { IMPORTD_DB: cli.dbPath })));
    } finally {
      await storage.close();
    }
  };
  const verify = (token: string, envName = 'ci') =>
    onDatabase(async (ctx) => {
      const account = await resolveAccount(ctx);
      return verifySession(ctx, token, { accountId: account.id, environmentId: (await resolveEnvironment(ctx, account.id, envName)).id });
    });

  before(async () => {
    cli = await createCliHarness();
    assert.equal((await cli.run('env', 'create', 'ci')).code, 0);
    assert.equal((await cli.run('env', 'create', 'other')).code, 0);
    templateId = await onDatabase(async (ctx) => (await createTemplate(ctx, (await resolveAccount(ctx)).id, { schema: { key: 'contacts' } })).id);
  });
  after(() => cli.close());

  it('prints only the bare token, which verifies for the environment and no other', async () => {
    const { code, stdout, stderr } = await cli.run('session', 'issue', '--env', 'ci', '--end-user', 'user-42');
    assert.equal(code, 0, stderr);
    assert.equal(stderr, '');
    assert.match(stdout, /^[^\n]+\n$/);
    const token = stdout.trim();
    assert.match(token, JWT);
    assert.equal((await verify(token)).endUserId, 'user-42');
    await assert.rejects(verify(token, 'other'), { code: 'invalid_session' });
  });

  it('prints { sessionToken, expiresAt } with --json and passes every option to the service', async () => {
    const { code, stdout, stderr } = await cli.run(
      'session', 'issue', '--env', 'ci', '--end-user', 'user-7', '--email', 'u7@example.com', '--ip', '10.1.2.3',
      '--template', templateId, '--expires-in', '60', '--metadata', '{"plan":"pro"}', '--json',
    );
    assert.equal(code, 0, stderr);
    const body = JSON.parse(stdout);
    assert.deepEqual(Object.keys(body).sort(), ['expiresAt', 'sessionToken']);
    const claims = await verify(body.sessionToken);
    assert.deepEqual(
      [claims.endUserId, claims.endUserEmail, claims.endUserIp, claims.templateId, claims.metadata, claims.expiresAt],
      ['user-7', 'u7@example.com', '10.1.2.3', templateId, { plan: 'pro' }, body.expiresAt],
    );
    const lifetime = new Date(body.expiresAt).getTime() - Date.now();
    assert.ok(lifetime > 50_000 && lifetime <= 60_000, String(lifetime));
  });

  const rejected: [string, string[], string][] = [
    ['expires-in 59', ['--expires-in', '59'], 'expiresIn'],
    ['expires-in 86401', ['--expires-in', '86401'], 'expiresIn'],
    ['expires-in not an integer', ['--expires-in', '60.5'], 'expiresIn'],
    ['expires-in not a number', ['--expires-in', 'soon'], 'expiresIn'],
    ['a bad e-mail', ['--email', 'not-an-email'], 'endUserEmail'],
    ['a bad IP', ['--ip', '1.2.3'], 'endUserIp'],
    ['a template that is not a uuid', ['--template', 'contacts'], 'templateId'],
    ['metadata that is not JSON', ['--metadata', '{plan'], 'metadata'],
    ['metadata that is not an object', ['--metadata', '[1]'], 'metadata'],
    ['an end-user id of 256 characters', ['--end-user', 'u'.repeat(256)], 'endUserId'],
  ];
  for (const [name, args, path] of rejected) {
    it(`rejects ${name}: exit 2, "error [validation_failed]" and the path on stderr, nothing on stdout`, async () => {
      const { code, stdout, stderr } = await cli.run('session', 'issue', '--env', 'ci', '--end-user', 'u', ...args);
      assert.equal(code, 2);
      assert.equal(stdout, '');
      assert.match(stderr, /^error \[validation_failed\]: /);
      assert.match(stderr, new RegExp(`\\b${path}\\b`));
    });
  }

  for (const [name, args] of [
    ['an unknown environment', ['--env', 'nope', '--end-user', 'u']],
    ['an unknown template', ['--env', 'ci', '--end-user', 'u', '--template', '0190a000-0000-7000-8000-000000000000']],
  ]) {
    it(`answers ${name} with exit 3 and error [not_found]`, async () => {
      const { code, stdout, stderr } = await cli.run('session', 'issue', ...args!);
      assert.equal(code, 3);
      assert.equal(stdout, '');
      assert.match(stderr, /^error \[not_found\]: /);
    });
  }

  it('requires --env and --end-user', async () => {
    const { code, stderr } = await cli.run('session', 'issue', '--env', 'ci');
    assert.notEqual(code, 0);
    assert.match(stderr, /--end-user/);
  });
});

describe('importd templates list (in-process)', () => {
  let cli: CliHarness;
  before(async () => {
    cli = await createCliHarness();
    const storage = await openStore(cli.dbPath);
    const ctx = await createServiceContext(storage.store, loadConfig({}, { IMPORTD_DB: cli.dbPath }));
    for (let i = 0; i < 105; i++) await createTemplate(ctx, (await resolveAccount(ctx)).id, { schema: {}, key: `t${i}` });
    await storage.close();
  });
  after(() => cli.close());

  it('lists every template across pages, as JSON and as a table', async () => {
    const { code, stdout } = await cli.run('templates', 'list', '--json');
    assert.equal(code, 0);
    const keys = JSON.parse(stdout).data.map((t: { key: string }) => t.key);
    assert.equal(keys.length, 105);
    assert.equal(new Set(keys).size, 105);
    const table = await cli.run('templates', 'list');
    assert.match(table.stdout, /^KEY\s+ID\s+SOURCE\s+UPDATED\n/);
    assert.equal(table.stdout.trim().split('\n').length, 106);
  });
});
