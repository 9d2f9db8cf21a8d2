import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { createCliHarness, type CliHarness } from '../helpers/cli';

let cli: CliHarness;
const file = (name: string, text: string) => {
  const full = path.join(cli.dir, name);
  writeFileSync(full, text);
  return full;
};
const stored = (importId: string) => {
  const db = new Database(cli.dbPath, { readonly: true });
  try {
    return (db.prepare('SELECT data FROM import_rows WHERE import_id = ? ORDER BY row_index').pluck().all(importId) as string[]).map((t) => JSON.parse(t));
  } finally {
    db.close();
  }
};
const importCount = () => {
  const db = new Database(cli.dbPath, { readonly: true });
  try {
    return db.prepare("SELECT count(*) FROM imports WHERE status = 'complete'").pluck().get();
  } finally {
    db.close();
  }
};

before(async () => {
  cli = createCliHarness();
  assert.equal((await cli.run('env', 'create', 'ops')).code, 0);
});
after(() => cli.close());

describe('importd import FILE', () => {
  it('refuses a CSV row over IMPORTD_MAX_ROW_BYTES naming it, and an NDJSON integer beyond 2^53 is kept exactly', async () => {
    const before = importCount();
    const csv = file('wide.csv', `a,b\r\n1,2\r\n3,${'x'.repeat(1_100_000)}\r\n`);
    const refused = await cli.run('import', csv, '--env', 'ops', '--template', 'wide');
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /validation_failed.*rows\.1/);
    assert.equal(importCount(), before);
    const ndjson = file('big.ndjson', '{"id":12345678901234567890}\n');
    const { code, stdout, stderr } = await cli.run('import', ndjson, '--env', 'ops', '--template', 'exact', '--json');
    assert.equal(code, 0, stderr);
    const db = new Database(cli.dbPath, { readonly: true });
    try {
      assert.equal(db.prepare('SELECT data FROM import_rows WHERE import_id = ?').pluck().get(JSON.parse(stdout).id), '{"id":12345678901234567890}');
    } finally {
      db.close();
    }
  });

  it('loads a CSV with a BOM, quoted commas, quotes and newlines, keyed by the header row', async () => {
    const csv = file('contacts.csv', '\ufeffname,city,note\r\nAnn,"Zürich, CH","said ""hi"""\r\nBob,Berlin,"two\nlines"\r\n\r\n');
    const { code, stdout, stderr } = await cli.run('import', csv, '--env', 'ops', '--template', 'contacts', '--json');
    assert.equal(code, 0, stderr);
    const created = JSON.parse(stdout);
    assert.equal(created.rowCount, 2);
    assert.equal(created.importedFrom, 'cli');
    assert.equal(created.meta.file.name, 'contacts.csv');
    assert.deepEqual(stored(created.id), [
      { name: 'Ann', city: 'Zürich, CH', note: 'said "hi"' },
      { name: 'Bob', city: 'Berlin', note: 'two\nlines' },
    ]);
  });

  it('loads an NDJSON file with typed cells, reusing the template by key', async () => {
    const ndjson = file('rows.ndjson', '{"name":"Ann","age":41,"vip":true}\n{"name":"Bob","age":null,"vip":false}\n');
    const first = JSON.parse((await cli.run('import', ndjson, '--env', 'ops', '--template', 'contacts', '--json')).stdout);
    assert.deepEqual(stored(first.id), [
      { name: 'Ann', age: 41, vip: true },
      { name: 'Bob', age: null, vip: false },
    ]);
    const again = await cli.run('import', ndjson, '--env', 'ops', '--template', 'contacts');
    assert.match(again.stdout, new RegExp(`template ${first.templateId}`));
  });

  it('exports what it imported, byte for byte through NDJSON', async () => {
    const ndjson = file('round.ndjson', '{"a":"x,y","b":2}\n{"a":"","b":-0.5}\n');
    const created = JSON.parse((await cli.run('import', ndjson, '--env', 'ops', '--template', 'round', '--json')).stdout);
    const exported = await cli.run('export', created.id, '--format', 'ndjson');
    assert.equal(exported.stdout, '{"a":"x,y","b":2}\n{"a":"","b":-0.5}\n');
  });

  const failures: [string, () => string[], number, RegExp][] = [
    ['an unknown environment', () => [file('a.csv', 'x\n1\n'), '--env', 'nope', '--template', 't'], 3, /error \[not_found\]: environment nope/],
    ['a missing file', () => [path.join(cli.dir, 'missing.csv'), '--env', 'ops', '--template', 't'], 3, /not_found/],
    ['an unknown format', () => [file('a.txt', 'x'), '--env', 'ops', '--template', 't'], 2, /validation_failed/],
    ['a duplicate CSV column', () => [file('dup.csv', 'a,a\n1,2\n'), '--env', 'ops', '--template', 't'], 2, /appears twice/],
    ['a ragged CSV row', () => [file('ragged.csv', 'a,b\n1,2\n3\n'), '--env', 'ops', '--template', 't'], 2, /validation_failed/],
    ['bad JSON on line 2', () => [file('bad.ndjson', '{"a":1}\n{"a":\n'), '--env', 'ops', '--template', 't'], 2, /line 2/],
    ['a cell that is an object', () => [file('obj.ndjson', '{"a":{"b":1}}\n'), '--env', 'ops', '--template', 't'], 2, /rows\.0\.a/],
  ];
  for (const [label, args, expected, pattern] of failures) {
    it(`fails with exit ${expected} on ${label} and stores nothing`, async () => {
      const before = importCount();
      const { code, stderr } = await cli.run('import', ...args());
      assert.equal(code, expected, stderr);
      assert.match(stderr, pattern);
      assert.equal(importCount(), before);
    });
  }
});
