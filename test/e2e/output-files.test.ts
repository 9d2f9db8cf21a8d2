import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runBin } from '../helpers/process';

// `importd export --out` and `importd backup` on the real binary: owner-only files, never over the live
// database, never through a planted link, never over an existing file without --force, clean errors.
const dir = mkdtempSync(path.join(tmpdir(), 'importd-out-'));
const db = path.join(dir, 'importd.db');
const bin = (...args: string[]) => runBin([...args, '--db', db]);
const mode = (file: string) => (statSync(file).mode & 0o777).toString(8);
let importId: string;

before(() => {
  assert.equal(bin('migrate').code, 0);
  assert.equal(bin('env', 'create', 'production').code, 0);
  writeFileSync(path.join(dir, 'rows.csv'), 'name,email\nAda,ada@example.com\nBob,bob@example.com\n');
  const loaded = bin('import', path.join(dir, 'rows.csv'), '--env', 'production', '--template', 'contacts', '--json');
  assert.equal(loaded.code, 0, loaded.stderr);
  importId = JSON.parse(loaded.stdout).id;
});
after(() => rmSync(dir, { recursive: true, force: true }));

const expectedCsv = 'name,email\r\nAda,ada@example.com\r\nBob,bob@example.com\r\n';

describe('export --out', () => {
  it('writes an owner-only file, refuses to replace it without --force, replaces it with --force', () => {
    const file = path.join(dir, 'out.csv');
    assert.equal(bin('export', importId, '--out', file).code, 0);
    assert.equal(readFileSync(file, 'utf8'), expectedCsv);
    assert.equal(mode(file), '600');
    writeFileSync(file, 'keep me');
    const again = bin('export', importId, '--out', file);
    assert.equal(again.code, 4);
    assert.equal(again.stderr, `error [conflict]: ${file} already exists; pass --force to replace it\n`);
    assert.equal(readFileSync(file, 'utf8'), 'keep me');
    assert.equal(bin('export', importId, '--out', file, '--force').code, 0);
    assert.equal(readFileSync(file, 'utf8'), expectedCsv);
  });

  it('never writes over the live database or its -wal/-shm, by any path, even with --force', () => {
    symlinkSync(db, path.join(dir, 'link-to-db'));
    const before = readFileSync(db);
    const targets = [db, `${db}-wal`, `${db}-shm`, path.join(dir, 'link-to-db'), path.join(dir, 'sub', '..', 'importd.db')];
    mkdirSync(path.join(dir, 'sub'));
    for (const target of targets) {
      for (const force of [[], ['--force']]) {
        const result = bin('export', importId, '--out', target, ...force);
        assert.equal(result.code, 2, `${target}: ${result.stderr}`);
        assert.match(result.stderr, /^error \[validation_failed\]: --out: .* is the database itself/);
      }
    }
    assert.ok(readFileSync(db).equals(before));
    assert.equal(bin('env', 'list').code, 0);
  });

  it('never follows a symbolic link planted at FILE.partial', () => {
    const victim = path.join(dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    const file = path.join(dir, 'planted.csv');
    symlinkSync(victim, `${file}.partial`);
    const refused = bin('export', importId, '--out', file);
    assert.equal(refused.code, 4);
    assert.match(refused.stderr, /^error \[conflict\]: .*planted\.csv\.partial already exists/);
    assert.equal(readFileSync(victim, 'utf8'), 'precious');
    // --force removes the link itself (never what it points to) and writes a file of its own.
    assert.equal(bin('export', importId, '--out', file, '--force').code, 0);
    assert.equal(readFileSync(victim, 'utf8'), 'precious');
    assert.equal(readFileSync(file, 'utf8'), expectedCsv);
    assert.equal(existsSync(`${file}.partial`), false);
    assert.ok(!lstatSync(file).isSymbolicLink());
  });

  const bad = [
    { name: 'a missing folder', out: () => path.join(dir, 'missing-dir', 'x.csv'), message: /--out: .*missing-dir\/x\.csv is in a folder that does not exist/ },
    { name: 'a folder', out: () => path.join(dir, 'sub'), message: /--out: .*sub is a folder; give a file name/ },
  ];
  for (const c of bad) {
    it(`refuses ${c.name} with one clean line (no stack trace, no internal_error)`, () => {
      const result = bin('export', importId, '--out', c.out());
      assert.equal(result.code, 2);
      assert.match(result.stderr, c.message);
      assert.equal(result.stderr.split('\n').length, 2);
      assert.doesNotMatch(result.stderr, /internal_error|    at /);
    });
  }
});

describe('backup', () => {
  it('writes an owner-only copy and refuses the database -wal as a target', () => {
    const file = path.join(dir, 'backup.db');
    const result = bin('backup', file);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(mode(file), '600');
    const wal = bin('backup', `${db}-wal`, '--force');
    assert.equal(wal.code, 2);
    assert.match(wal.stderr, /is the database itself/);
  });
});
