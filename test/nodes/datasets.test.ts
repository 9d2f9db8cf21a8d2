import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { call } from '../helpers/harness';
import { onPostgres, postImportTo, useServeNodes } from '../helpers/nodes';

// Imports into one keyed template's dataset applied at once from two real `importd serve` processes on one
// PostgreSQL database (skipped on SQLite, where one file is served by one node).
const IMPORTS = 6;
const OWN = 200;
const SHARED = 50;

describe('two importd serve nodes applying imports to one dataset', onPostgres, () => {
  const suite = useServeNodes({
    settings: { IMPORTD_RATE_LIMIT: '0' },
    setUp: async (h, env) => {
      const schema = { fields: [{ key: 'id' }, { key: 'by' }], primaryKey: 'id' };
      assert.equal((await call(h, 'POST', '/v1/templates', { key: env.secretKey, body: { key: 'shared', schema } })).status, 201);
    },
  });

  it('serialises the applies: every row is found, and each shared key is inserted once and updated by every later import', async () => {
    const rowsOf = (i: number) => [
      ...Array.from({ length: SHARED }, (_, k) => ({ id: `shared-${k}`, by: `import ${i}` })),
      ...Array.from({ length: OWN }, (_, k) => ({ id: `own-${i}-${k}`, by: `import ${i}` })),
    ];
    const answers = await Promise.all(
      Array.from({ length: IMPORTS }, async (_, i) => {
        const response = await postImportTo(suite.nodes[i % 2]!, suite.env.secretKey, { meta: { schemaKey: 'shared' }, rows: rowsOf(i) });
        assert.equal(response.status, 201, await response.clone().text());
        return (await response.json()) as { changes: { inserted: number; updated: number; unchanged: number } };
      }),
    );
    const total = (member: 'inserted' | 'updated' | 'unchanged') => answers.reduce((sum, answer) => sum + answer.changes[member], 0);
    assert.equal(total('inserted'), IMPORTS * OWN + SHARED, 'a shared key inserted twice: two applies saw the dataset at once');
    assert.equal(total('updated'), (IMPORTS - 1) * SHARED);
    assert.equal(total('unchanged'), 0);
    const n = (await suite.h.sql<{ n: number }>('SELECT count(*) AS n FROM dataset_records'))[0]!.n;
    assert.equal(n, IMPORTS * OWN + SHARED, 'every row is found in the dataset');
    assert.deepEqual(await suite.h.sql('SELECT records FROM datasets'), [{ records: n }], "the dataset's count follows every apply");
    // The shared keys hold the last applied import's values, all of them the same import's.
    const writers = await suite.h.sql<{ import_id: string }>("SELECT DISTINCT import_id FROM dataset_records WHERE key LIKE '[\"shared-%'");
    assert.equal(writers.length, 1);
  });
});
