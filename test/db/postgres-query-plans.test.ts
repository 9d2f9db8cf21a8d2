import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { countImports, listImportPage } from '../../src/db/postgres/queries/imports';
import { readRowChunk } from '../../src/db/postgres/queries/import-rows';
import { listTemplateRows } from '../../src/db/postgres/queries/templates';
import * as schema from '../../src/db/postgres/schema';
import type { ImportFilters } from '../../src/db/store/store';
import { createHarness, createTestEnvironment, type Harness, type TestEnvironment } from '../helpers/harness';
import { insertImport } from '../helpers/imports-fixture';
import { postgresOnly } from '../helpers/test-database';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
  /** With ANALYZE. */
  'Actual Rows'?: number;
}

// PostgreSQL's counterpart of the SQLite query-plan tests (test/imports/list.test.ts, test/http/templates-list.test.ts):
// the planner's real choice over an analysed table large enough that a full scan would cost (not forced by settings).
describe('PostgreSQL plans of the keyset pages', postgresOnly, () => {
  const IMPORTS = 20_000;
  let h: Harness;
  let env: TestEnvironment;
  let pool: pg.Pool;
  let seen: { query: string; params: unknown[] }[];
  let db: ReturnType<typeof drizzle<typeof schema>>;

  before(async () => {
    h = await createHarness();
    env = await createTestEnvironment(h);
    await insertImport(h, env, { rows: 0 });
    // One import in ten is this account's, the rest another account's: a count or a page must pick out this account's
    // through an index rather than read the table.
    const other = await createTestEnvironment(h, { account: 'other' });
    await insertImport(h, other, { rows: 0 });
    await h.sql(
      `INSERT INTO imports (id, account_id, environment_id, template_id, status, meta, original_schema, end_user_email, row_count, cell_stats, created_at, updated_at)
       SELECT lpad(n::text, 36, '0'), CASE WHEN n % 10 <> 0 THEN o.account_id ELSE i.account_id END, CASE WHEN n % 10 <> 0 THEN o.environment_id ELSE i.environment_id END,
              CASE WHEN n % 10 <> 0 THEN o.template_id ELSE i.template_id END, 'complete', '{}', '{}',
              'user' || n || '@example.com', 0, '{}', to_char(timestamp '2026-01-01' + n * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              to_char(timestamp '2026-01-01' + (n % 997) * interval '1 hour', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
       FROM generate_series(1, ?) AS n, (SELECT * FROM imports WHERE account_id = ? LIMIT 1) AS i, (SELECT * FROM imports WHERE account_id = ? LIMIT 1) AS o`,
      IMPORTS,
      env.accountId,
      other.accountId,
    );
    await h.sql(
      `INSERT INTO templates (id, account_id, key, schema, source, metadata, created_at, updated_at)
       SELECT lpad(n::text, 36, '0'), ?, 'template-' || n, '{}', 'studio', '{}', to_char(timestamp '2026-01-01' + n * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              to_char(timestamp '2026-01-01' + (n % 97) * interval '1 hour', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
       FROM generate_series(1, 5000) AS n`,
      env.accountId,
    );
    // One in ten of this account's imports awaits review (docs/templates.md "Review"): the status filter's partial indexes hold them.
    await h.sql("UPDATE imports SET review_status = 'pending_review' WHERE account_id = ? AND right(id, 2) = '00'", env.accountId);
    await h.sql('ANALYZE imports');
    await h.sql('ANALYZE templates');
    pool = new pg.Pool({ connectionString: h.dbPath, max: 1 });
    db = drizzle({ client: pool, schema, logger: { logQuery: (query, params) => seen.push({ query, params }) } });
  });
  after(async () => {
    await pool?.end();
    await h?.close();
  });

  /** The plan PostgreSQL chooses for the last statement `run` sends (the page or count), as a flat list of its nodes. */
  const planOf = async (run: () => Promise<unknown>): Promise<PlanNode[]> => {
    seen = [];
    await run();
    const { query, params } = seen.at(-1)!;
    return await explain(query, params);
  };
  /** The plan of one statement, as a flat list of its nodes (run, with `analyze`). */
  const explain = async (text: string, values: unknown[], analyze = false): Promise<PlanNode[]> => {
    const { rows } = await pool.query({ text: `EXPLAIN (${analyze ? 'ANALYZE, ' : ''}FORMAT JSON) ${text}`, values });
    const nodes: PlanNode[] = [];
    const walk = (node: PlanNode) => {
      nodes.push(node);
      node.Plans?.forEach(walk);
    };
    walk((rows[0] as { 'QUERY PLAN': { Plan: PlanNode }[] })['QUERY PLAN'][0]!.Plan);
    return nodes;
  };
  /** How often the connection's prepared statements named `prefix...` were planned generically and custom. */
  const plansOf = async (connection: pg.Pool, prefix: string) => {
    const { rows } = await connection.query<{ name: string; generic_plans: string; custom_plans: string }>(
      'SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE starts_with(name, $1) ORDER BY name',
      [prefix],
    );
    return rows.map((row) => ({ name: row.name, generic: Number(row.generic_plans), custom: Number(row.custom_plans) }));
  };
  const describePlan = (nodes: PlanNode[]) => nodes.map((n) => `${n['Node Type']} ${n['Relation Name'] ?? ''} ${n['Index Name'] ?? ''}`).join('\n');

  it('reads every sort and filter of GET /v1/imports through an account index: no full scan, no sort step', async () => {
    const templateId = (await h.sql<{ template_id: string }>('SELECT template_id FROM imports WHERE account_id = ? LIMIT 1', env.accountId))[0]!.template_id;
    const filterSets: ImportFilters[] = [
      {},
      { templateId },
      { startDate: '2026-01-03T00:00:00.000Z', endDate: '2026-01-04T00:00:00.000Z' },
      { userEmail: 'user12' },
      { environment: 'production' },
      { templateId, userEmail: 'x', environment: 'production', startDate: '2026-01-03T00:00:00.000Z' },
      { status: 'pending_review' },
      { status: 'rejected' },
      { status: 'completed' },
    ];
    for (const filters of filterSets) {
      for (const orderBy of ['createdAt', 'updatedAt'] as const) {
        for (const direction of ['asc', 'desc'] as const) {
          for (const position of [undefined, { value: '2026-01-05T00:00:00.000Z', id: 'z' }]) {
            const label = JSON.stringify({ filters, orderBy, direction, after: Boolean(position) });
            const plan = await planOf(() => listImportPage(db, env.accountId, { orderBy, direction, after: position, limit: 21, filters }));
            const text = `${label}\n${describePlan(plan)}`;
            assert.ok(plan.some((n) => n['Relation Name'] === 'imports' && /^imports_account_/.test(n['Index Name'] ?? '')), text);
            assert.ok(!plan.some((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'imports'), text);
            // As on SQLite: sorting by updatedAt inside a createdAt range searches the range and sorts it (its
            // cost follows the range, never the page's depth); every other combination reads in index order.
            const rangeSortedByUpdate = orderBy === 'updatedAt' && Boolean(filters.startDate ?? filters.endDate);
            if (!rangeSortedByUpdate) assert.ok(!plan.some((n) => n['Node Type'] === 'Sort'), text);
            assert.doesNotMatch(seen.at(-1)!.query, /offset/i);
          }
        }
      }
      const count = await planOf(() => countImports(db, env.accountId, filters));
      assert.ok(!count.some((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'imports'), `count ${JSON.stringify(filters)}\n${describePlan(count)}`);
    }
  });

  it('plans a rows page once per connection, page size and direction, then keeps the generic plan; an export chunk keeps its parameter', async () => {
    const importId = await insertImport(h, env, { rows: 300 });
    const connection = new pg.Pool({ connectionString: h.dbPath, max: 1 });
    try {
      for (let i = 0; i < 12; i++) {
        assert.equal((await readRowChunk(connection, importId, 'asc', 50, 101, 1 << 20)).length, 101);
        assert.deepEqual((await readRowChunk(connection, importId, 'desc', 20, 21, 1 << 20)).map((row) => row.rowIndex), Array.from({ length: 20 }, (_, n) => 19 - n));
      }
      assert.equal((await readRowChunk(connection, importId, 'asc', -1, 250, 1 << 20)).length, 250);
      assert.deepEqual(
        await plansOf(connection, 'import-rows-'),
        [
          { name: 'import-rows-chunk-asc', generic: 0, custom: 1 },
          { name: 'import-rows-page-asc-101', generic: 7, custom: 5 },
          { name: 'import-rows-page-desc-21', generic: 7, custom: 5 },
        ],
      );
    } finally {
      await connection.end();
    }
  });

  it('reads an export chunk of an import the statistics have not seen yet within the chunk: no scan of the rest of the import', async () => {
    const importId = await insertImport(h, env, { rows: 20_000 });
    const connection = new pg.Pool({ connectionString: h.dbPath, max: 1 });
    try {
      const chunk = await readRowChunk(connection, importId, 'asc', 9_999, 1_000, 1 << 22);
      assert.deepEqual(chunk.map((row) => row.rowIndex), Array.from({ length: 1_000 }, (_, n) => 10_000 + n));
      const { statement } = (await connection.query<{ statement: string }>("SELECT statement FROM pg_prepared_statements WHERE name = 'import-rows-chunk-asc'")).rows[0]!;
      const nodes = await explain(statement, [importId, 9_999, 1 << 22, 1_000], true);
      const read = Math.max(...nodes.filter((node) => node['Relation Name'] === 'import_rows' || node['Index Name']?.startsWith('import_rows')).map((node) => node['Actual Rows']!));
      assert.ok(read <= 1_000, `${read} rows read for a chunk of 1 000\n${describePlan(nodes)}`);
    } finally {
      await connection.end();
    }
  });

  it('reads a deep page of GET /v1/templates through its index, for either order and direction', async () => {
    for (const orderBy of ['createdAt', 'updatedAt'] as const) {
      for (const direction of ['asc', 'desc'] as const) {
        const plan = await planOf(() => listTemplateRows(db, env.accountId, { orderBy, direction, after: { value: '2026-01-02T00:00:00.000Z', id: 'y' }, limit: 21 }));
        const text = `${orderBy} ${direction}\n${describePlan(plan)}`;
        assert.ok(plan.some((n) => n['Index Name'] === `templates_account_${orderBy === 'createdAt' ? 'created' : 'updated'}`), text);
        assert.ok(!plan.some((n) => n['Node Type'] === 'Sort' || n['Node Type'] === 'Seq Scan'), text);
      }
    }
  });
});
