import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { siblingWorkerScript } from '../../src/core/worker-script';
import { WAL_LIMIT_PAGES } from '../../src/db/sqlite/checkpoints';
import { openDatabase } from '../../src/db/sqlite/open-database';

const dir = mkdtempSync(path.join(tmpdir(), 'importd-checkpoints-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const checkpointWorker = siblingWorkerScript('checkpoint-worker.cjs');
// Every connection but the serving one checkpoints in its commits every 100 WAL pages (checkpoints.ts).
const autocheckpoint = (storage: ReturnType<typeof openDatabase>) => storage.sqlite.pragma('wal_autocheckpoint', { simple: true });

/** `mib` MiB of setting values (1 KiB each), in commits of 100 KiB, each after the pause a long writer takes. */
async function write(storage: ReturnType<typeof openDatabase>, mib: number, prefix = 'k'): Promise<void> {
  const insert = storage.sqlite.prepare('INSERT INTO settings (key, value) VALUES (?, ?)');
  const value = 'x'.repeat(1024);
  const commit = storage.sqlite.transaction((first: number) => {
    for (let i = first; i < first + 100; i++) insert.run(`${prefix}${i}`, value);
  });
  for (let first = 0; first < mib * 1000; first += 100) {
    await storage.writePause?.();
    commit(first);
  }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 20_000; !condition(); ) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('checkpoints of the serving connection', () => {
  it('run on a thread of their own: no commit checkpoints below the WAL limit, yet the pages reach the database file', async () => {
    const file = path.join(dir, 'thread.db');
    const storage = openDatabase(file, { checkpointWorker });
    try {
      assert.equal(autocheckpoint(storage), 0);
      const before = statSync(file).size;
      await write(storage, 4);
      await until(() => statSync(file).size >= before + 4_000 * 1024, 'the rows checkpointed into the database file');
    } finally {
      await storage.close();
    }
    // The last connection closed checkpointed the rest and removed the WAL; every row is in the file.
    assert.equal(existsSync(`${file}-wal`), false);
    const again = openDatabase(file);
    assert.equal(again.sqlite.prepare("SELECT count(*) FROM settings WHERE key LIKE 'k%'").pluck().get(), 4_000);
    again.close();
  });

  it('keep the WAL bounded while commits follow each other without a pause (a long import)', async () => {
    const file = path.join(dir, 'long.db');
    const storage = openDatabase(file, { checkpointWorker });
    let largest = 0;
    try {
      // 160 MB (2.5 times the limit), in commits of 100 KiB back to back: the thread alone never sees the WAL
      // copied whole, and it grew past 270 MB.
      for (let c = 0; c < 16; c++) {
        await write(storage, 10, `c${c}-`);
        largest = Math.max(largest, statSync(`${file}-wal`).size);
      }
    } finally {
      await storage.close();
    }
    // The limit, plus what the writer adds while the thread copies (fast here, with nothing else to do).
    assert.ok(largest < 2 * WAL_LIMIT_PAGES * 4096, `the WAL grew to ${largest} bytes`);
  });

  it('go back into commits when the thread fails', async () => {
    const storage = openDatabase(path.join(dir, 'failed.db'), { checkpointWorker: { source: 'throw new Error("no checkpoints here")' } });
    try {
      await until(() => autocheckpoint(storage) === 100, 'commit checkpoints restored');
    } finally {
      await storage.close();
    }
  });

  it('stay in commits for every other connection (CLI commands, tests)', () => {
    const storage = openDatabase(path.join(dir, 'plain.db'));
    assert.equal(autocheckpoint(storage), 100);
    storage.close();
  });
});
