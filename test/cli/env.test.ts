import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createCliHarness, type CliHarness } from '../helpers/cli';

let cli: CliHarness;
before(async () => {
  cli = await createCliHarness();
});
after(() => cli.close());

describe('importd env and account commands (in-process)', () => {
  it('creates an environment and prints both keys as JSON', async () => {
    const { code, stdout, stderr } = await cli.run('env', 'create', 'production', '--origin', 'https://app.example.com', '--origin', 'http://localhost:3000', '--json');
    assert.equal(code, 0, stderr);
    const body = JSON.parse(stdout);
    assert.match(body.secretKey.key, /^sk_/);
    assert.match(body.publicKey.key, /^pk_/);
    assert.deepEqual(body.publicKey.allowedOrigins, ['https://app.example.com', 'http://localhost:3000']);
  });

  it('prints keys in human form and warns they are shown once', async () => {
    const { code, stdout } = await cli.run('env', 'create', 'staging');
    assert.equal(code, 0);
    assert.match(stdout, /secret key: sk_/);
    assert.match(stdout, /not shown again/);
  });

  it('lists environments with prefixes only', async () => {
    const { code, stdout } = await cli.run('env', 'list', '--json');
    assert.equal(code, 0);
    const body = JSON.parse(stdout);
    assert.deepEqual(body.data.map((e: { name: string }) => e.name), ['production', 'staging']);
    assert.ok(body.data.every((e: { secretKey: { key?: string } }) => e.secretKey.key === undefined));
    const table = await cli.run('env', 'list');
    assert.match(table.stdout, /^NAME\s+SECRET KEY/);
  });

  it('replaces origins, and empties them with --none', async () => {
    const set = await cli.run('env', 'origins', 'production', '--origin', 'https://*.example.com', '--json');
    assert.equal(set.code, 0, set.stderr);
    assert.deepEqual(JSON.parse(set.stdout).publicKey.allowedOrigins, ['https://*.example.com']);
    const none = await cli.run('env', 'origins', 'production', '--none', '--json');
    assert.deepEqual(JSON.parse(none.stdout).publicKey.allowedOrigins, []);
  });

  const failures: [string, string[], number, RegExp][] = [
    ['a duplicate name', ['env', 'create', 'production'], 4, /error \[conflict\]/],
    ['an invalid origin', ['env', 'create', 'x', '--origin', 'http://example.com'], 2, /^error \[validation_failed\]: allowedOrigins\.0: .*\n$/],
    ['a wildcard over a public suffix', ['env', 'origins', 'production', '--origin', 'https://app.example.com', '--origin', 'https://*.github.io'], 2, /^error \[validation_failed\]: allowedOrigins\.1: "https:\/\/\*\.github\.io" spans the public suffix github\.io/],
    ['a 51-character name', ['env', 'create', 'n'.repeat(51)], 2, /error \[validation_failed\]/],
    ['origins of an unknown environment', ['env', 'origins', 'nope', '--none'], 3, /error \[not_found\]/],
    ['origins with neither --origin nor --none', ['env', 'origins', 'production'], 2, /--none/],
    ['origins with both --origin and --none', ['env', 'origins', 'production', '--none', '--origin', 'https://a.example.com'], 2, /--none/],
    ['an unknown account', ['env', 'list', '--account', 'ghost'], 3, /error \[not_found\]: account ghost/],
    ['an unknown command', ['frobnicate'], 2, /^error \[validation_failed\]: unknown command/],
    ['a missing argument', ['env', 'create'], 2, /^error \[validation_failed\]: missing required argument/],
  ];
  for (const [label, args, expected, pattern] of failures) {
    it(`fails with exit ${expected} on ${label}`, async () => {
      const { code, stderr } = await cli.run(...args);
      assert.equal(code, expected, stderr);
      assert.match(stderr, pattern);
    });
  }

  it('creates accounts whose environments are separate', async () => {
    const created = await cli.run('account', 'create', 'acme', '--json');
    assert.equal(created.code, 0, created.stderr);
    assert.equal(JSON.parse(created.stdout).name, 'acme');
    assert.equal((await cli.run('account', 'create', 'acme')).code, 4);
    assert.equal((await cli.run('account', 'create', 'bad name')).code, 2);
    assert.equal((await cli.run('env', 'create', 'production', '--account', 'acme')).code, 0);
    const list = JSON.parse((await cli.run('env', 'list', '--account', 'acme', '--json')).stdout);
    assert.deepEqual(list.data.map((e: { name: string }) => e.name), ['production']);
  });

  it('prints help and version with exit 0', async () => {
    const help = await cli.run('--help');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Commands:/);
    const version = await cli.run('--version');
    assert.equal(version.code, 0);
    assert.match(version.stdout, /^\d+\.\d+\.\d+/);
  });

  it('fails fast naming a bad setting', async () => {
    const bad = await createCliHarness({ IMPORTD_PORT: 'eighty' });
    try {
      const { code, stderr } = await bad.run('serve');
      assert.equal(code, 2);
      assert.match(stderr, /IMPORTD_PORT/);
    } finally {
      bad.close();
    }
  });
});

describe('importd env: caps and settings of issue 41', () => {
  let capped: CliHarness;
  before(async () => {
    capped = await createCliHarness({ IMPORTD_MAX_ENVIRONMENTS_PER_ACCOUNT: '2' });
  });
  after(() => capped.close());

  it('refuses an environment past IMPORTD_MAX_ENVIRONMENTS_PER_ACCOUNT with one line naming the setting and exit 4', async () => {
    assert.equal((await capped.run('env', 'create', 'one')).code, 0);
    assert.equal((await capped.run('env', 'create', 'two')).code, 0);
    const refused = await capped.run('env', 'create', 'three');
    assert.equal(refused.code, 4);
    assert.match(refused.stderr, /^error \[limit_reached\]: .*IMPORTD_MAX_ENVIRONMENTS_PER_ACCOUNT.*\n$/);
  });

  it('creates an environment with --auto-create-templates and switches it with env set', async () => {
    assert.equal((await capped.run('account', 'create', 'another')).code, 0);
    const created = await capped.run('env', 'create', 'widgets', '--auto-create-templates', '--account', 'another', '--json');
    assert.equal(created.code, 0, created.stderr);
    assert.equal(JSON.parse(created.stdout).autoCreateTemplates, true);
    const off = await capped.run('env', 'set', 'widgets', '--auto-create-templates', 'off', '--account', 'another', '--json');
    assert.equal(off.code, 0, off.stderr);
    assert.equal(JSON.parse(off.stdout).autoCreateTemplates, false);
    const bad = await capped.run('env', 'set', 'widgets', '--auto-create-templates', 'maybe', '--account', 'another');
    assert.equal(bad.code, 2);
    const table = await capped.run('env', 'list', '--account', 'another');
    assert.match(table.stdout, /AUTO-CREATE TEMPLATES/);
  });
});
