import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, createHarness, createTestEnvironment, type Harness, type TestEnvironment } from '../helpers/harness';
import { startServe, type ServerProcess } from '../helpers/process';
import { testEngine } from '../helpers/test-database';

// Imports into one keyed template's dataset applied at once from two real `importd serve` processes on one
// PostgreSQL database (skipped on SQLite, where one file is served by one node).
const onPostgres = { skip: testEngine === 'postgres' ? false : 'several nodes need PostgreSQL (npm run test:pg)' } as const;
const IMPORTS = 6;
const OWN = 200;
const SHARED = 50;

describe('two importd serve nodes applying imports to one dataset', onPostgres, () => {
  let h: Harness;
  let env: TestEnvironment;
  let nodes: ServerProcess[] = [];

  before(async () => {
    h = await createHarness();
    env = await createTestEnvironment(h);
    const schema = { fields: [{ key: 'id' }, { key: 'by' }], primaryKey: 'id' };
    assert.equal((await call(h, 'POST', '/v1/templates', { key: env.secretKey, body: { key: 'shared', schema } })).status, 201);
    nodes = await Promise.all([0, 1].map(() => startServe(h.dbPath, { IMPORTD_RATE_LIMIT: '0' })));
  });
  after(async () => {
    await Promise.all(nodes.map((node) => (node.child.exitCode === null ? node.stop() : undefined)));
    await h?.close();
  });

  it('serialises the applies: every row is found, and each shared key is inserted once and updated by every later import', async () => {
    const rowsOf = (i: number) => [
      ...Array.from({ length: SHARED }, (_, k) => ({ id: `shared-${k}`, by: `import ${i}` })),
      ...Array.from({ length: OWN }, (_, k) => ({ id: `own-${i}-${k}`, by: `import ${i}` })),
    ];
    const answers = await Promise.all(
      Array.from({ length: IMPORTS }, async (_, i) => {
        const response = await fetch(`${nodes[i % 2]!.url}/v1/imports`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${env.secretKey}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ meta: { schemaKey: 'shared' }, rows: rowsOf(i) }),
        });
        assert.equal(response.status, 201, await response.clone().text());
        return (await response.json()) as { changes: { inserted: number; updated: number; unchanged: number } };
      }),
    );
    const total = (member: 'inserted' | 'updated' | 'unchanged') => answers.reduce((sum, answer) => sum + answer.changes[member], 0);
    assert.equal(total('inserted'), IMPORTS * OWN + SHARED, 'a shared key inserted twice: two applies saw the dataset at once');
    assert.equal(total('updated'), (IMPORTS - 1) * SHARED);
    assert.equal(total('unchanged'), 0);
    const n = (await h.sql<{ n: number }>('SELECT count(*) AS n FROM dataset_records'))[0]!.n;
    assert.equal(n, IMPORTS * OWN + SHARED, 'every row is found in the dataset');
    // The shared keys hold the last applied import's values, all of them the same import's.
    const writers = await h.sql<{ import_id: string }>("SELECT DISTINCT import_id FROM dataset_records WHERE key LIKE '[\"shared-%'");
    assert.equal(writers.length, 1);
  });
});
