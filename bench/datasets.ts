// npm run bench -- --datasets (with --pg: on PostgreSQL): the cost of applying an import to a keyed template's
// dataset, as a ratio to the same import into an unkeyed template, on a server of its own (its peak RSS is the
// figure's alone). Too slow for the default run: seeding the dataset takes most of a minute.
import Database from 'better-sqlite3';
import type pg from 'pg';
import { hashKey } from '../src/core/keys';
import { cpuMs, median, medianPairRatio, peakRssMiB, request, timed, type Api, type TimedRun } from './http';

type Recorder = (name: string, value: number, unit: string, floor?: number, target?: string) => void;

const FIELDS = [{ key: 'id' }, { key: 'name' }, { key: 'price', type: 'number' }];
const record = (i: number, price: number) => ({ id: `k${i}`, name: `item ${i}`, price });

/** Writes `count` records k0..k(count-1) (price 1) into the template's dataset in the key's environment, by SQL. */
export type DatasetSeeder = (templateId: string, keyHash: string, count: number) => Promise<void>;

/** Pairs of imports (keyed, unkeyed) the figure is the median of. */
const PAIRS = 3;

/**
 * Creates a keyed and an unkeyed template of the same fields, seeds the keyed one's dataset in the API key's
 * environment with `seed` records, then posts `rows` rows into both templates in PAIRS pairs whose order
 * alternates (ABBA). Each keyed import meets the dataset as the ones before left it: half of its rows update a
 * record (a new price each time), a quarter carry a record unchanged, a quarter are new (new keys each time).
 * The keyed import is applied to the dataset in its completing transaction, so the ratio of the two POSTs is
 * the apply's cost; the figure is the median of the pairs' own ratios (the unkeyed floor alone swings 2x from
 * one run to the next). The server's CPU time (all its threads, from /proc) is printed as the same ratio.
 */
export async function datasetApplyCost(record_: Recorder, api: Api, serverPid: number, seeder: DatasetSeeder, sizes: { seed: number; rows: number }, label = ''): Promise<void> {
  const created = async (key: string, schema: object) => JSON.parse(await (await request(api, 'POST', '/v1/templates', JSON.stringify({ key, schema }))).text()) as { id: string };
  const keyed = await created('bench-keyed', { fields: FIELDS, primaryKey: 'id' });
  await created('bench-unkeyed', { fields: FIELDS });
  await seeder(keyed.id, hashKey(api.key), sizes.seed);
  const { rows: count } = sizes;
  // Run r: rows 0..count/2 take price r + 2 (the dataset holds r + 1), the next quarter price 1 (as seeded), the
  // last quarter keys no run used before.
  const rowsOf = (r: number) => Array.from({ length: count }, (_, i) => (i < count / 2 ? record(i, r + 2) : i < (count * 3) / 4 ? record(i, 1) : record(sizes.seed + r * count + i, 1)));
  const runs: Record<'keyed' | 'unkeyed', TimedRun[]> = { keyed: [], unkeyed: [] };
  for (let r = 0; r < PAIRS; r++) {
    const rows = rowsOf(r);
    for (const kind of r % 2 === 0 ? (['unkeyed', 'keyed'] as const) : (['keyed', 'unkeyed'] as const)) {
      const body = Buffer.from(JSON.stringify({ meta: { schemaKey: `bench-${kind}` }, rows }));
      const cpu = cpuMs(serverPid);
      const { ms, text } = await timed(api, 'POST', '/v1/imports', body);
      runs[kind].push({ ms, cpu: cpuMs(serverPid) - cpu });
      if (kind === 'unkeyed') continue;
      const { changes } = JSON.parse(text) as { changes?: object };
      const expected = { inserted: count / 4, updated: count / 2, unchanged: count / 4, missing: sizes.seed + (r * count) / 4 - (count * 3) / 4, removed: 0 };
      if (JSON.stringify(changes) !== JSON.stringify(expected)) throw new Error(`keyed import ${r}'s changes: ${JSON.stringify(changes)}, expected ${JSON.stringify(expected)}`);
    }
  }
  const msOf = (kind: 'keyed' | 'unkeyed') => median(runs[kind].map((run) => run.ms));
  record_(`${label}POST /imports ${count} rows applied to a dataset of ${sizes.seed}+`, msOf('keyed'), 'ms', msOf('unkeyed'), 'the same into an unkeyed template');
  record_(`${label}  keyed / unkeyed, median of ${PAIRS} pairs`, medianPairRatio(runs.keyed, runs.unkeyed, 'ms'), 'x', undefined, '<= 2');
  record_(`${label}  server CPU, keyed / unkeyed, median of the pairs`, medianPairRatio(runs.keyed, runs.unkeyed, 'cpu'), 'x');
  record_(`${label}  server peak RSS`, peakRssMiB(serverPid), 'MiB', undefined, '< 300 MiB');
}

/** Seeds through a second SQLite connection, in one transaction (the server reads the file meanwhile). */
export function sqliteSeeder(file: string): DatasetSeeder {
  return async (templateId, keyHash, count) => {
    const db = new Database(file);
    db.pragma('busy_timeout = 10000');
    const { account_id: accountId, environment_id: environmentId } = db.prepare('SELECT account_id, environment_id FROM api_keys WHERE hash = ?').get(keyHash) as {
      account_id: string;
      environment_id: string;
    };
    const { id } = db
      .prepare('INSERT INTO datasets (template_id, environment_id, account_id, records) VALUES (?, ?, ?, ?) RETURNING id')
      .get(templateId, environmentId, accountId, count) as { id: number };
    const insert = db.prepare('INSERT INTO dataset_records (dataset_id, key, record, import_id, updated_at) VALUES (?, ?, ?, ?, ?)');
    db.transaction(() => {
      for (let i = 0; i < count; i++) insert.run(id, JSON.stringify([`k${i}`]), JSON.stringify(record(i, 1)), 'seed', '2026-01-01T00:00:00.000Z');
    })();
    // The seed's WAL folded into the file now: the checkpoint thread would otherwise do it during the imports.
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
  };
}

/** Seeds on PostgreSQL in one statement, with the records' text as JSON.stringify writes it. */
export function pgSeeder(pool: pg.Pool): DatasetSeeder {
  return async (templateId, keyHash, count) => {
    await pool.query(
      `WITH dataset AS (
         INSERT INTO datasets (template_id, environment_id, account_id, records) SELECT $1, environment_id, account_id, $3 FROM api_keys WHERE hash = $2 RETURNING id
       )
       INSERT INTO dataset_records (dataset_id, key, record, import_id, updated_at)
       SELECT dataset.id, '["k' || i || '"]', '{"id":"k' || i || '","name":"item ' || i || '","price":1}', 'seed', '2026-01-01T00:00:00.000Z'
       FROM dataset, generate_series(0, $3::int - 1) AS i`,
      [templateId, keyHash, count],
    );
    await pool.query('ANALYZE dataset_records');
  };
}
