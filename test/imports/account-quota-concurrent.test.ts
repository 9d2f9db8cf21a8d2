import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, createHarness, createTestEnvironment, type Harness, type TestEnvironment } from '../helpers/harness';
import { onPostgres, postImportTo, useServeNodes } from '../helpers/nodes';

// IMPORTD_ACCOUNT_QUOTA_BYTES under concurrency: imports that each fit the room left but not together are
// charged one after the other in their completions' transactions, so exactly those that fit are stored and the
// account's usage is the bytes of what is stored, on one node or on several.

const BODY = 100_000;
/** Room for three bodies, not four. */
const QUOTA = 3 * BODY + BODY / 2;

/** A JSON import body of exactly BODY bytes: rows padded by the last one's note. */
function bodyOf(tag: number): string {
  const rows = Array.from({ length: 200 }, (_, i) => ({ n: i, note: `import ${tag} row ${i}` }));
  const unpadded = JSON.stringify({ meta: { schemaKey: 'quota' }, rows });
  rows[rows.length - 1]!.note += 'x'.repeat(BODY - Buffer.byteLength(unpadded));
  const text = JSON.stringify({ meta: { schemaKey: 'quota' }, rows });
  assert.equal(Buffer.byteLength(text), BODY);
  return text;
}

/** What is stored: complete imports, every import row (refused ones leave none), the usage counter and the stored bytes. */
async function storedState(h: Harness, accountId: string) {
  const [state] = await h.sql<{ complete: number; imports: number; rows: number; used: number; bytes: number }>(
    `SELECT (SELECT count(*) FROM imports WHERE status = 'complete') AS complete, (SELECT count(*) FROM imports) AS imports,
       (SELECT count(*) FROM import_rows) AS rows, (SELECT bytes FROM import_counts WHERE account_id = ?) AS used,
       (SELECT CAST(coalesce(sum(bytes), 0) AS integer) FROM imports WHERE status = 'complete') AS bytes`,
    accountId,
  );
  return state!;
}

/** Each answer's status and error code: `201` or `413 quota_exceeded`. */
async function outcomes(responses: Response[]): Promise<string[]> {
  return await Promise.all(
    responses.map(async (response) => {
      const body = (await response.json()) as { error?: { code: string } };
      return response.status === 201 ? '201' : `${response.status} ${body.error?.code}`;
    }),
  );
}

function assertOnlyWhatFits(answers: string[], state: Awaited<ReturnType<typeof storedState>>): void {
  assert.deepEqual([...answers].sort(), ['201', '201', '201', ...Array.from({ length: answers.length - 3 }, () => '413 quota_exceeded')]);
  assert.deepEqual(state, { complete: 3, imports: 3, rows: 600, used: 3 * BODY, bytes: 3 * BODY });
}

describe('IMPORTD_ACCOUNT_QUOTA_BYTES with concurrent imports', () => {
  let h: Harness;
  let env: TestEnvironment;
  before(async () => {
    h = await createHarness({ config: { IMPORTD_ACCOUNT_QUOTA_BYTES: String(QUOTA), IMPORTD_RATE_LIMIT: '0' } });
    env = await createTestEnvironment(h);
  });
  after(async () => await h.close());

  it('stores exactly the imports that fit when eight arrive at once on one node', async () => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => call(h, 'POST', '/v1/imports', { key: env.secretKey, rawBody: bodyOf(i), contentType: 'application/json' })),
    );
    assertOnlyWhatFits(await outcomes(responses), await storedState(h, env.accountId));
  });
});

describe('IMPORTD_ACCOUNT_QUOTA_BYTES with concurrent imports on two serve processes', onPostgres, () => {
  const suite = useServeNodes({ settings: { IMPORTD_ACCOUNT_QUOTA_BYTES: String(QUOTA), IMPORTD_RATE_LIMIT: '0', IMPORTD_ACCOUNT_RATE_LIMIT: '0' } });

  it('stores exactly the imports that fit when ten arrive at once, half on each node', async () => {
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => postImportTo(suite.nodes[i % 2]!, suite.env.secretKey, bodyOf(i))));
    assertOnlyWhatFits(await outcomes(responses), await storedState(suite.h, suite.env.accountId));
  });
});
