import assert from 'node:assert/strict';
import { chmodSync, chownSync, closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cacheFolders, ensureFile, installAddon, sha256 } from '../../src/executable/addon-cache';

const uid = process.getuid!();
const bytes = new TextEncoder().encode('pretend this is an ELF shared object');
const hash = sha256(bytes);
const fileName = `better_sqlite3-${hash}.node`;
const readBack = (file: string) => readFileSync(file, 'utf8');

describe('cacheFolders', () => {
  const base = { homedir: '/home/u', tmpdir: '/tmp', uid: 1000 };
  const cases: { name: string; env: Record<string, string | undefined>; expected: string[] }[] = [
    {
      name: 'every source, in order',
      env: { IMPORTD_CACHE_DIR: '/srv/cache', XDG_CACHE_HOME: '/xdg', TMPDIR: '/scratch' },
      expected: ['/srv/cache', '/xdg/importd', '/home/u/.cache/importd', '/scratch/importd-1000'],
    },
    { name: 'unset and empty variables skipped', env: { IMPORTD_CACHE_DIR: '', XDG_CACHE_HOME: '' }, expected: ['/home/u/.cache/importd', '/tmp/importd-1000'] },
    { name: 'duplicates kept once', env: { IMPORTD_CACHE_DIR: '/home/u/.cache/importd' }, expected: ['/home/u/.cache/importd', '/tmp/importd-1000'] },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(cacheFolders({ ...base, env: c.env }), c.expected));
  }

  it('skips the home folder when there is none', () => {
    assert.deepEqual(cacheFolders({ ...base, homedir: '', env: {} }), ['/tmp/importd-1000']);
  });
});

describe('installAddon', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(path.join(tmpdir(), 'importd-addon-cache-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));
  const fresh = (name: string) => path.join(root, name);
  const identity = (file: string) => file;

  it('writes the addon under its hash into a private folder and loads it from there', () => {
    const folder = fresh('a/nested/cache');
    const loaded = installAddon(bytes, [folder], uid, (file) => ({ content: readBack(file) }));
    assert.equal(loaded.file, path.join(folder, fileName));
    assert.equal(loaded.exports.content, readBack(loaded.file));
    assert.equal(statSync(folder).mode & 0o777, 0o700);
    assert.deepEqual(readdirSync(folder), [fileName]);
  });

  it('reuses a copy whose hash matches without rewriting it', () => {
    const folder = fresh('reuse');
    const first = installAddon(bytes, [folder], uid, identity);
    const before = statSync(first.file);
    const second = installAddon(bytes, [folder], uid, identity);
    assert.equal(second.file, first.file);
    assert.equal(statSync(second.file).ino, before.ino);
  });

  it('replaces an altered copy by an atomic rename, never in place', () => {
    const folder = fresh('altered');
    mkdirSync(folder, { mode: 0o700 });
    const target = path.join(folder, fileName);
    writeFileSync(target, 'truncated');
    const reader = openSync(target, 'r');
    try {
      installAddon(bytes, [folder], uid, identity);
      assert.equal(readBack(target), new TextDecoder().decode(bytes));
      // A process that had the old file open still sees it whole: the new one came in by rename.
      const old = Buffer.alloc(9);
      readSync(reader, old, 0, 9, 0);
      assert.equal(old.toString(), 'truncated');
    } finally {
      closeSync(reader);
    }
    assert.deepEqual(readdirSync(folder), [fileName]);
  });

  const unusable: { name: string; prepare: (folder: string) => void }[] = [
    { name: 'cannot be created (a file is in the way)', prepare: (folder) => writeFileSync(folder, 'file') },
    { name: 'is writable by other users', prepare: (folder) => (mkdirSync(folder), chmodSync(folder, 0o777)) },
    // chown needs root, which is what these machines and CI run as.
    { name: 'belongs to another user', prepare: (folder) => (mkdirSync(folder), chownSync(folder, uid + 1, -1)) },
    { name: 'is a symbolic link', prepare: (folder) => (mkdirSync(`${folder}-real`), symlinkSync(`${folder}-real`, folder)) },
  ];
  for (const c of unusable) {
    it(`skips a folder that ${c.name} for the next one`, () => {
      const bad = fresh(`bad-${c.name.replace(/\W+/g, '-')}`);
      const good = fresh(`good-${c.name.replace(/\W+/g, '-')}`);
      c.prepare(bad);
      const loaded = installAddon(bytes, [bad, good], uid, (file) => {
        if (!file.startsWith(good)) throw new Error('loaded from the wrong folder');
        return file;
      });
      assert.equal(loaded.file, path.join(good, fileName));
    });
  }

  it('tries the next folder when loading fails (a noexec mount)', () => {
    const noexec = fresh('noexec');
    const good = fresh('exec');
    const loaded = installAddon(bytes, [noexec, good], uid, (file) => {
      if (file.startsWith(noexec)) throw new Error('failed to map segment from shared object');
      return 'loaded';
    });
    assert.equal(loaded.exports, 'loaded');
    assert.equal(loaded.file, path.join(good, fileName));
  });

  it('names every folder and its reason when none works', () => {
    const blocked = fresh('blocked');
    writeFileSync(blocked, 'file');
    assert.throws(
      () => installAddon(bytes, [blocked, fresh('noexec-only')], uid, () => {
        throw new Error('failed to map segment');
      }),
      (error: Error) => /IMPORTD_CACHE_DIR/.test(error.message) && error.message.includes(blocked) && /failed to map segment/.test(error.message),
    );
  });
});

describe('ensureFile', () => {
  it('leaves no temporary file behind', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'importd-ensure-'));
    try {
      ensureFile(folder, fileName, bytes, hash);
      ensureFile(folder, fileName, bytes, hash);
      assert.deepEqual(readdirSync(folder), [fileName]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
