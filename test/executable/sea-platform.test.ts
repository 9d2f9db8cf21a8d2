import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openDatabase } from '../../src/db/sqlite/open-database';
import { folderMigrationSource, loadMigrations, migrationFiles } from '../../src/db/sqlite/migrations';
import { checkNodeOptions } from '../../src/executable/node-options';
import { assetMigrationSource, dlopenAddon, type SeaAssets } from '../../src/executable/sea-platform';

/** Stands in for `node:sea`: the assets scripts/package.mjs embeds, read from the source tree. */
function fakeSea(): SeaAssets & { keys: string[] } {
  const keys: string[] = [];
  const read = (key: string) => {
    keys.push(key);
    assert.ok(key.startsWith('migrations/'), `unexpected asset ${key}`);
    return readFileSync(path.join('migrations', key.slice('migrations/'.length)));
  };
  function getAsset(key: string): ArrayBuffer;
  function getAsset(key: string, encoding: string): string;
  function getAsset(key: string, encoding?: string): ArrayBuffer | string {
    const bytes = read(key);
    return encoding ? bytes.toString(encoding as BufferEncoding) : new Uint8Array(bytes).buffer;
  }
  return { getAsset, keys };
}

describe('the executable platform', () => {
  for (const engine of ['sqlite', 'postgres'] as const) {
    it(`reads every ${engine} migration from the assets, as the folder source does`, () => {
      const sea = fakeSea();
      const fromAssets = loadMigrations(assetMigrationSource(sea, engine));
      assert.deepEqual(fromAssets, loadMigrations(folderMigrationSource(undefined, engine)));
      assert.ok(fromAssets.length >= 1);
      assert.deepEqual(
        [...new Set(sea.keys)].sort(),
        migrationFiles(folderMigrationSource(undefined, engine)).map((file) => `migrations/${engine}/${file}`).sort(),
      );
    });
  }

  it('opens and migrates a database with an addon loaded by dlopen and migrations from assets', () => {
    const addon = dlopenAddon(path.resolve('node_modules/better-sqlite3/build/Release/better_sqlite3.node'));
    const storage = openDatabase(':memory:', { nativeBinding: addon, migrations: assetMigrationSource(fakeSea()) });
    try {
      const tables = storage.sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
      assert.ok(tables.includes('environments') && tables.includes('import_rows'), String(tables));
    } finally {
      storage.close();
    }
  });
});

describe('checkNodeOptions', () => {
  const cases = [
    { name: 'unset', env: {}, policy: 'refused', stop: false, message: undefined, left: undefined },
    { name: 'blank', env: { NODE_OPTIONS: '  ' }, policy: 'refused', stop: false, message: undefined, left: '  ' },
    { name: 'set, refused', env: { NODE_OPTIONS: '--require=/tmp/x.js' }, policy: 'refused', stop: true, message: /refuses to start/, left: '--require=/tmp/x.js' },
    { name: 'set, ignored', env: { NODE_OPTIONS: '--inspect' }, policy: 'ignored', stop: false, message: /ignored/, left: undefined },
  ] as const;
  for (const c of cases) {
    it(c.name, () => {
      const env: Record<string, string | undefined> = { ...c.env };
      const result = checkNodeOptions(env, c.policy);
      assert.equal(result.stop, c.stop);
      if (c.message) assert.match(result.message ?? '', c.message);
      else assert.equal(result.message, undefined);
      assert.equal(env.NODE_OPTIONS, c.left);
    });
  }
});
