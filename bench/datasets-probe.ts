// A probe (SQLite only, not yet part of npm run bench): applying ROWS rows (half updates, a quarter unchanged,
// a quarter new) to a dataset of SEED records (seeded raw), against the same import into an unkeyed template.
// npx tsx bench/datasets-probe.ts [SEED] [ROWS]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config/config';
import { openDatabase } from '../src/db/sqlite/open-database';
import { createSqliteStore } from '../src/db/sqlite/store';
import { createServiceContext } from '../src/services/create-context';
import { createEnvironment } from '../src/services/environments';
import { resolveAccount } from '../src/services/accounts';
import { createTemplate } from '../src/services/templates';
import { createImport, sliceRows } from '../src/services/imports';

async function main() {
const SEED = Number(process.argv[2] ?? 1_000_000);
const ROWS = Number(process.argv[3] ?? 100_000);
const db = path.join(mkdtempSync(path.join(tmpdir(), 'ds-bench-')), 'b.db');
const storage = openDatabase(db);
const store = createSqliteStore(storage);
const ctx = await createServiceContext(store, loadConfig({}, { IMPORTD_DB: db }));
const account = await resolveAccount(ctx);
await createEnvironment(ctx, account.id, { name: 'bench', allowedOrigins: [] });
const envId = (await ctx.store.environments.findByName(account.id, 'bench'))!.id;
const fields = [{ key: 'id' }, { key: 'name' }, { key: 'price', type: 'number' }];
const keyed = await createTemplate(ctx, account.id, { key: 'keyed', schema: { fields, primaryKey: 'id' } });
await createTemplate(ctx, account.id, { key: 'plain', schema: { fields, extraColumns: 'drop' } });
const row = (i: number, price: number) => ({ id: `k${i}`, name: `item ${i}`, price });
// Seed SEED records raw (one transaction).
const sqlite = storage.sqlite;
const s = sqlite.prepare('INSERT INTO dataset_records (template_id, environment_id, key, record, account_id, import_id, end_user_id, updated_at) VALUES (?, ?, ?, ?, ?, ?, NULL, ?)');
sqlite.transaction(() => {
  for (let i = 0; i < SEED; i++) s.run(keyed.id, envId, JSON.stringify([`k${i}`]), JSON.stringify(row(i, 1)), account.id, 'seed', '2026-01-01T00:00:00.000Z');
})();
// half updates, a quarter unchanged, a quarter new
const rows = Array.from({ length: ROWS }, (_, i) => (i < ROWS / 2 ? row(i, 2) : i < (ROWS * 3) / 4 ? row(i, 1) : row(SEED + i, 1)));
const origin = { accountId: account.id, environmentId: envId, importedFrom: 'cli' };
const took: Record<string, number> = {};
for (const key of ['plain', 'keyed']) {
  const t = performance.now();
  const created = await createImport(ctx, origin, { meta: { schemaKey: key }, rows: sliceRows(rows.map((r) => ({ ...r }))) });
  took[key] = performance.now() - t;
  console.log(key, Math.round(took[key]), 'ms', JSON.stringify('changes' in created ? created.changes : null), 'rss', Math.round(process.memoryUsage().rss / 2 ** 20), 'MiB');
}
console.log(`apply ${ROWS} rows to ${SEED} records: ratio to the unkeyed import ${(took.keyed! / took.plain!).toFixed(2)} (target <= 2), peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB (target < 300)`);
storage.close();
process.exit(0);
}
void main();
