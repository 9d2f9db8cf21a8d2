import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { BIN, runBin, startServe } from '../helpers/process';

const dir = mkdtempSync(path.join(tmpdir(), 'importd-dbfile-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const mode = (file: string) => (statSync(file).mode & 0o777).toString(8);

/** Runs the real binary in `cwd` (the default database is relative to it), with a guard against a hang. */
function runIn(cwd: string, args: string[]) {
  const result = spawnSync(BIN, args, { cwd, encoding: 'utf8', timeout: 30_000 });
  return { code: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
}

describe('the database file', () => {
  const readCommands = [
    ['env', 'list'],
    ['account', 'list'],
    ['imports', 'list'],
    ['templates', 'list'],
    ['env', 'create', 'production'],
    ['session', 'issue', '--env', 'production', '--end-user', 'u1'],
    ['backup', 'copy.db'],
  ];
  for (const args of readCommands) {
    it(`\`importd ${args.join(' ')}\` in a folder without a database creates nothing and names the resolved path`, () => {
      const cwd = mkdtempSync(path.join(dir, 'empty-'));
      const result = runIn(cwd, args);
      assert.equal(result.code, 3, result.stderr);
      const expected = path.join(cwd, 'data', 'importd.db');
      assert.equal(
        result.stderr,
        `error [not_found]: no database at ${expected}: create it with \`importd migrate --db ${expected}\` or start \`importd serve\`\n`,
      );
      assert.deepEqual(readdirSync(cwd), []);
    });
  }

  // Port 1 on 127.0.0.1: nothing listens, the connection is refused at once.
  const postgresUrls: { args: string[]; env?: Record<string, string> }[] = [
    { args: ['serve', '--port', '0', '--db', 'postgres://importd:s3cret@127.0.0.1:1/importd'] },
    { args: ['migrate', '--db', 'postgresql://importd:s3cret@127.0.0.1:1/importd'] },
    { args: ['env', 'list'], env: { IMPORTD_DB: 'postgres://importd:s3cret@127.0.0.1:1/importd' } },
  ];
  for (const c of postgresUrls) {
    it(`a PostgreSQL URL no server answers (${c.args[0]}) is invalid_config naming it without its password, never a file`, () => {
      const cwd = mkdtempSync(path.join(dir, 'pg-'));
      const result = spawnSync(BIN, c.args, { cwd, encoding: 'utf8', timeout: 30_000, env: { ...process.env, ...c.env } });
      assert.equal(result.status, 2, result.stderr);
      assert.match(result.stderr, /^error \[invalid_config\]: invalid setting IMPORTD_DB \(--db\): cannot use postgres(ql)?:\/\/importd:\*\*\*@127\.0\.0\.1:1\/importd as the database: .*ECONNREFUSED/);
      assert.doesNotMatch(result.stderr, /s3cret/);
      assert.deepEqual(readdirSync(cwd), [], 'no file or folder named after the URL');
    });
  }

  it('a mistyped --db is not found, not a new empty database', () => {
    const result = runBin(['env', 'list', '--db', path.join(dir, 'typo', 'importd.db')]);
    assert.equal(result.code, 3);
    assert.match(result.stderr, /no database at .*typo\/importd\.db/);
    assert.equal(existsSync(path.join(dir, 'typo')), false);
  });

  it('migrate creates it (0600 in new 0700 folders) and says so, then says it is up to date', () => {
    const file = path.join(dir, 'new', 'nested', 'importd.db');
    const first = runBin(['migrate', '--db', file]);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, `created database ${file}\n`);
    assert.equal(mode(file), '600');
    assert.equal(mode(path.join(dir, 'new')), '700');
    assert.equal(mode(path.join(dir, 'new', 'nested')), '700');
    const again = runBin(['migrate', '--db', file]);
    assert.equal(again.stdout, `database ${file} is up to date\n`);
    assert.equal(runBin(['env', 'list', '--db', file]).code, 0);
  });

  it('serve creates it, logs that it did, and its -wal and -shm files are 0600 too', async () => {
    const file = path.join(dir, 'served', 'importd.db');
    const server = await startServe(file);
    try {
      assert.equal(mode(file), '600');
      assert.equal(mode(`${file}-wal`), '600');
      assert.equal(mode(`${file}-shm`), '600');
      assert.equal(mode(path.dirname(file)), '700');
    } finally {
      assert.equal(await server.stop(), 0);
    }
    const created = server.output().split('\n').filter(Boolean).map((line) => JSON.parse(line)).find((line) => line.msg === 'database created');
    assert.equal(created?.db, file);
  });

  const unusable = [
    { name: 'a path under /proc (recursive mkdir never returned there)', db: '/proc/nope/x.db', reason: /ENOENT/ },
    { name: 'a path under a regular file', db: path.join(dir, 'plain-file', 'x.db'), reason: /ENOTDIR/ },
    { name: 'a folder', db: dir, reason: /is a folder/ },
    { name: 'a file that is not a database', db: path.join(dir, 'not-a-db.txt'), reason: /not a database/ },
  ];
  writeFileSync(path.join(dir, 'plain-file'), 'x');
  writeFileSync(path.join(dir, 'not-a-db.txt'), 'hello, this is text and not an SQLite database at all............................................');
  for (const c of unusable) {
    it(`migrate on ${c.name} fails at once with the path named`, () => {
      const result = runIn(dir, ['migrate', '--db', c.db]);
      assert.equal(result.signal, null, 'it returned');
      assert.equal(result.code, 2, result.stderr);
      assert.ok(result.stderr.startsWith(`error [invalid_config]: invalid setting IMPORTD_DB (--db): cannot use ${c.db}`), result.stderr);
      assert.match(result.stderr, c.reason);
      assert.equal(result.stderr.split('\n').length, 2, 'one line, no stack trace');
    });
  }

  it('env list on a path under /proc fails at once naming it', () => {
    const result = runIn(dir, ['env', 'list', '--db', '/proc/nope/x.db']);
    assert.equal(result.signal, null);
    assert.equal(result.code, 3);
    assert.match(result.stderr, /no database at \/proc\/nope\/x\.db/);
  });
});
