import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { runBin, startServe } from '../helpers/process';
import { binDatabases } from '../helpers/test-database';

const dir = mkdtempSync(path.join(tmpdir(), 'importd-mappings-'));
const databases = binDatabases(dir);
after(async () => {
  await databases.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('./bin/importd mappings', () => {
  it('lists and forgets what imports of the served API taught, per account and template, with who confirmed it', async () => {
    const db = await databases.create();
    assert.equal(runBin(['migrate', '--db', db]).code, 0);
    assert.equal(runBin(['account', 'create', 'acme', '--db', db]).code, 0);
    const created = runBin(['env', 'create', 'production', '--json', '--db', db]);
    assert.equal(created.code, 0, created.stderr);
    const keys = JSON.parse(created.stdout);
    const server = await startServe(db);
    try {
      const response = await fetch(`${server.url}/v1/imports`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${keys.secretKey.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ meta: { schemaKey: 'contacts', mapping: { email: 'Work mail', segment: 'Bucket X7', phone: 'Tel.\nfake  row\u001b[31m' }, valueMapping: { segment: { 'Gold tier': 'gold' } } }, rows: [{ email: 'a@example.com' }] }),
      });
      assert.equal(response.status, 201, await response.text());
    } finally {
      await server.stop();
    }

    const listed = runBin(['mappings', 'list', '--json', '--db', db]);
    assert.equal(listed.code, 0, listed.stderr);
    const data = JSON.parse(listed.stdout).data;
    type Listed = { templateKey: string; schemaKey: string; fileLabel: string | null; fileValue: string | null; option: string | null; endUsers: number; secretKey: boolean; preferred: boolean };
    assert.deepEqual(data.map((m: Listed) => [m.templateKey, m.schemaKey, m.fileLabel, m.fileValue, m.option, m.endUsers, m.secretKey, m.preferred]), [
      ['contacts', 'email', 'Work mail', null, null, 0, true, true],
      ['contacts', 'phone', 'Tel.\nfake  row\u001b[31m', null, null, 0, true, true],
      ['contacts', 'segment', 'Bucket X7', null, null, 0, true, true],
      ['contacts', 'segment', null, 'Gold tier', 'gold', 0, true, true],
    ]);
    const table = runBin(['mappings', 'list', '--db', db]);
    assert.match(table.stdout, /^TEMPLATE\s+SCHEMA KEY\s+FILE LABEL\s+VALUE\s+OPTION\s+END-USERS\s+SECRET KEY\s+PREFERRED\s+UPDATED\n/);
    assert.match(table.stdout, /contacts\s+segment\s+Bucket X7\s+-\s+-\s+0\s+yes\s+yes\s+\d{4}-/);
    assert.match(table.stdout, /contacts\s+segment\s+-\s+Gold tier\s+gold\s+0\s+yes\s+yes\s+\d{4}-/);
    // A label an end-user typed can neither forge a row nor reach the terminal as an escape sequence.
    assert.match(table.stdout, /\ncontacts\s+phone\s+Tel\.\\u000afake  row\\u001b\[31m\s+-\s+-\s+0\s+yes/);
    assert.equal(table.stdout.split('\n').length, 6);
    assert.deepEqual(JSON.parse(runBin(['mappings', 'list', '--account', 'acme', '--json', '--db', db]).stdout).data, []);
    assert.equal(JSON.parse(runBin(['mappings', 'list', '--template', 'contacts', '--json', '--db', db]).stdout).data.length, 4);
    const unknown = runBin(['mappings', 'list', '--template', 'nope', '--db', db]);
    assert.equal(unknown.code, 3);
    assert.match(unknown.stderr, /error \[not_found\]: template nope not found/);

    const forgot = runBin(['mappings', 'forget', 'email', '--template', 'contacts', '--db', db]);
    assert.equal(forgot.code, 0, forgot.stderr);
    assert.match(forgot.stdout, /forgot 1 learned mapping\n/);
    const again = runBin(['mappings', 'forget', 'email', '--template', 'contacts', '--db', db]);
    assert.equal(again.code, 3);
    assert.match(again.stderr, /error \[not_found\]/);
    const neither = runBin(['mappings', 'forget', 'email', '--db', db]);
    assert.equal(neither.code, 2);
    assert.match(neither.stderr, /error \[validation_failed\]: give either --template \(and optionally a schema key\) or --all/);
    assert.equal(runBin(['mappings', 'forget', 'segment', '--all', '--db', db]).code, 2);
    assert.equal(runBin(['mappings', 'forget', '--all', '--template', 'contacts', '--db', db]).code, 2);
    assert.equal(runBin(['mappings', 'forget', '--all', '--account', 'nope', '--db', db]).code, 3);

    const template = runBin(['mappings', 'forget', '--template', 'contacts', '--json', '--db', db]);
    assert.deepEqual(JSON.parse(template.stdout), { deleted: 3 });
    assert.deepEqual(JSON.parse(runBin(['mappings', 'list', '--json', '--db', db]).stdout).data, []);
    const none = runBin(['mappings', 'forget', '--all', '--db', db]);
    assert.equal(none.code, 3);
    assert.match(none.stderr, /error \[not_found\]: learned mappings of the account not found/);
  });
});
