import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { openChangeStamp } from '../../src/db/sqlite/change-stamp';
import { openDatabase, type Storage } from '../../src/db/sqlite/open-database';
import { createReadCache } from '../../src/db/sqlite/read-cache';

const dir = mkdtempSync(path.join(tmpdir(), 'importd-read-cache-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
const databaseFile = () => path.join(dir, `db${files++}.db`);

function setting(storage: Storage, key: string, value = 'v'): void {
  storage.sqlite.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)').run(key, value);
}

/** A commit by another process, as a CLI command makes. */
function settingFromAnotherProcess(file: string, key: string): void {
  const script = `const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
    const db = new Database(${JSON.stringify(file)});
    db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run(${JSON.stringify(key)}, 'v');
    db.close();`;
  const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
}

function stampOf(file: string): { read(): Buffer; release(): void } {
  const opened = openChangeStamp(file);
  assert.ok(opened, 'a stamp for a WAL database');
  return {
    read() {
      const stamp = opened.stamp();
      assert.ok(stamp, 'the header reads whole');
      return Buffer.from(stamp);
    },
    release: opened.release,
  };
}

/** The descriptors of this process open on `file`. */
function descriptorsOn(file: string): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === file) count++;
    } catch {
      // the listing's own descriptor, closed once listed
    }
  }
  return count;
}

describe('the change stamp of a SQLite database', () => {
  it('stays while nothing is committed and moves with every commit: this connection, another process, a WAL started over', () => {
    const file = databaseFile();
    const storage = openDatabase(file);
    const stamp = stampOf(file);
    const before = stamp.read();
    storage.sqlite.prepare('SELECT count(*) FROM settings').get();
    assert.deepEqual(stamp.read(), before, 'a read changes nothing');

    setting(storage, 'a');
    const afterOwn = stamp.read();
    assert.notDeepEqual(afterOwn, before, 'a commit of this connection');

    settingFromAnotherProcess(file, 'b');
    assert.notDeepEqual(stamp.read(), afterOwn, 'a commit of another process');

    // The same commit after the WAL starts over ends at the same frame: the new salts still tell them apart.
    storage.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    setting(storage, 'c');
    const first = stamp.read();
    storage.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    setting(storage, 'c', 'w');
    assert.notDeepEqual(stamp.read(), first, 'a commit into a WAL started over');
    stamp.release();
    storage.close();
  });

  it('is refused while the header is being written or not yet built, and absent without a -shm file', () => {
    const file = path.join(dir, 'fake.db');
    const header = Buffer.alloc(136);
    header[12] = 1;
    header.writeUInt32LE(7, 16);
    header.copy(header, 48, 0, 48);
    writeFileSync(`${file}-shm`, header);
    const opened = openChangeStamp(file)!;
    assert.equal(Buffer.from(opened.stamp()!).readUInt32LE(16), 7);
    header.writeUInt32LE(8, 16);
    writeFileSync(`${file}-shm`, header);
    assert.equal(opened.stamp(), undefined, 'the first copy written, not the second');
    header.copy(header, 48, 0, 48);
    header[12] = header[60] = 0;
    writeFileSync(`${file}-shm`, header);
    assert.equal(opened.stamp(), undefined, 'isInit 0');
    opened.release();
    assert.equal(openChangeStamp(path.join(dir, 'missing.db')), undefined);
  });

  it('keeps one descriptor of the -shm file per process, closed after the last connection, never before', () => {
    const file = databaseFile();
    const shm = `${file}-shm`;
    const first = openDatabase(file);
    const sqliteOwn = descriptorsOn(shm) - 1;
    const second = openDatabase(file);
    assert.equal(descriptorsOn(shm), sqliteOwn + 1, 'one descriptor for both connections');
    first.close();
    // Closing it would drop the locks SQLite holds on the file for the second connection.
    assert.equal(descriptorsOn(shm), sqliteOwn + 1);
    let loads = 0;
    second.readCache.read('k', () => ++loads);
    second.readCache.read('k', () => ++loads);
    assert.equal(loads, 1, 'the second connection still reads its stamp');
    second.close();
    assert.equal(descriptorsOn(shm), 0);
  });
});

describe('the read cache', () => {
  it('answers from memory until anything commits', () => {
    const file = databaseFile();
    const storage = openDatabase(file);
    let loads = 0;
    const read = (key: string) => storage.readCache.read(key, () => ({ load: ++loads }));
    const value = read('a');
    assert.equal(read('a'), value, 'the same value, not read again');
    assert.deepEqual(read('b'), { load: 2 });
    setting(storage, 'x');
    assert.deepEqual(read('a'), { load: 3 }, 'read again after a commit of this connection');
    assert.equal(read('a'), read('a'));
    settingFromAnotherProcess(file, 'y');
    assert.deepEqual(read('a'), { load: 4 }, 'read again after a commit of another process');
    assert.deepEqual(read('b'), { load: 5 }, 'every entry forgotten');
    storage.close();
  });

  it('keeps nothing without a -shm file', () => {
    const storage = openDatabase(':memory:');
    let loads = 0;
    storage.readCache.read('a', () => ++loads);
    storage.readCache.read('a', () => ++loads);
    assert.equal(loads, 2);
    storage.close();
  });

  it('is bounded in entries and bytes, and keeps no value over a sixteenth of its bytes', () => {
    const file = databaseFile();
    const storage = openDatabase(file);
    const stamp = openChangeStamp(file)!;
    let loads = 0;
    const sized = (cache: ReturnType<typeof createReadCache>, key: string, bytes: number) =>
      cache.read(
        key,
        () => ++loads,
        () => bytes,
      );

    const byEntries = createReadCache(stamp.stamp, { entries: 2, bytes: 160 });
    for (const key of ['a', 'b', 'a']) sized(byEntries, key, 0);
    assert.equal(loads, 2);
    for (const key of ['c', 'b']) sized(byEntries, key, 0);
    assert.equal(loads, 4, 'full at two entries: all forgotten');
    sized(byEntries, 'big', 11);
    sized(byEntries, 'big', 11);
    assert.equal(loads, 6, 'over 160 / 16 bytes: not kept');

    loads = 0;
    const byBytes = createReadCache(stamp.stamp, { entries: 100, bytes: 160 });
    for (let i = 0; i < 16; i++) sized(byBytes, `p${i}`, 10);
    sized(byBytes, 'p0', 10);
    assert.equal(loads, 16, '160 bytes kept');
    sized(byBytes, 'p16', 10);
    sized(byBytes, 'p0', 10);
    assert.equal(loads, 18, 'past 160 bytes: all forgotten');
    stamp.release();
    storage.close();
  });
});
