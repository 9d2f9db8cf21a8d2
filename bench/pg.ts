// npm run bench -- --pg: the real server on PostgreSQL (a throw-away server, scripts/pg-server.mjs) against raw
// node-postgres floors on the same server in the same run: a raw COPY of the same rows, a raw keyset read.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runBin, startServe } from '../test/helpers/process';
import { importBody, ORIGINAL_SCHEMA, postRuns } from './data';
import type pg from 'pg';
import { hashKey } from '../src/core/keys';
import { alternatedLoads, answerOf, drained, median, recordListWalks, rowsPageStartEnd, timed, walkListWarm, type Api } from './http';
import { copyFloor, csvKeysetFloor, listPageKeysetFloor, listPageWalkFloor, pgScratch, rowsPageKeysetFloor, startBarePgHono } from './pg-floors';
import { seedPgImports } from './seed-imports';
import { createBenchTemplates, RULES_PAIRS, validationCost } from './validation';
import { datasetApplyCost, pgSeeder } from './datasets';
// @ts-expect-error: a plain ES module of the scripts, without types
import { startPgServer } from '../scripts/pg-server.mjs';

type Record = (name: string, value: number, unit: string, floor?: number, target?: string) => void;
export async function benchPostgres(
  record: Record,
  sizes: { LARGE: number; SMALL: number; LIST: number; DATASETS: { seed: number; rows: number } },
  serverEnv: { [name: string]: string },
  only?: 'rules' | 'datasets',
) {
  const server = (await startPgServer()) as { url: string; stop(): void };
  // On PostgreSQL the files folder defaults to ./data/files: the bench's own goes with it.
  const files = mkdtempSync(path.join(tmpdir(), 'importd-bench-pg-files-'));
  try {
    const admin = await pgScratch(`${server.url}/postgres`);
    await admin.query('CREATE DATABASE importd_bench');
    await admin.end();
    const db = `${server.url}/importd_bench`;
    runBin(['migrate', '--db', db]);
    const env = JSON.parse(runBin(['env', 'create', 'bench', '--json', '--db', db]).stdout);
    const serve = await startServe(db, { ...serverEnv, IMPORTD_FILES_DIR: files });
    const api: Api = { url: serve.url, key: env.secretKey.key };
    const floor = await pgScratch(db);
    try {
      // The dataset figure alone, on this fresh server: its peak RSS is the figure's.
      if (only === 'datasets') return await datasetApplyCost(record, api, serve.child.pid!, pgSeeder(floor), sizes.DATASETS, 'pg: ');
      await createBenchTemplates(api);
      await validationCost(record, api, sizes.LARGE, RULES_PAIRS, serve.child.pid!, 'pg: ');
      if (only === 'rules') return;
      for (const count of [sizes.SMALL, sizes.LARGE]) {
        // Bytes built once: the client's own encoding is not in the figure (as in bench/run.ts).
        const body = Buffer.from(importBody(count));
        // As in bench/run.ts: the first import creates the template and compiles the ingest path.
        if (count === sizes.SMALL) await timed(api, 'POST', '/v1/imports', body);
        const served: number[] = [];
        const raw: number[] = [];
        for (let r = 0; r < postRuns(count, sizes.LARGE); r++) {
          served.push((await timed(api, 'POST', '/v1/imports', body)).ms);
          raw.push(await copyFloor(floor, body, `floor-${count}-${r}`));
        }
        record(`pg: POST /imports ${count} rows`, median(served), 'ms', median(raw), count === sizes.LARGE ? 'ratio <= 1.5' : '');
      }
      const created = JSON.parse((await timed(api, 'POST', '/v1/imports', importBody(sizes.LARGE))).text) as { id: string };
      const columns = ORIGINAL_SCHEMA.fields.map((f) => f.key);
      const csv: number[] = [];
      const csvRaw: number[] = [];
      for (let r = 0; r < 5; r++) {
        csv.push((await drained(api, `/v1/imports/${created.id}/export?format=csv`)).ms);
        csvRaw.push(await csvKeysetFloor(floor, `floor-${sizes.LARGE}-0`, columns));
      }
      record(`pg: export csv ${sizes.LARGE} rows`, median(csv), 'ms', median(csvRaw), 'ratio <= 1.3');
      const { start, end } = await rowsPageStartEnd(api, created.id);
      record('pg: rows page (100) at the start', start, 'ms', await rowsPageKeysetFloor(floor, `floor-${sizes.LARGE}-0`, -1, 200));
      record(`pg: rows page (100) at the end of ${sizes.LARGE}`, end, 'ms', await rowsPageKeysetFloor(floor, `floor-${sizes.LARGE}-0`, sizes.LARGE - 101, 200));
      record('pg: rows page end / start', end / start, 'x', undefined, '<= 1.3');
      await listPages(record, api, floor, created.id, sizes.LIST);
      await readsUnderLoad(record, api, db, serve.child.pid!, created.id, floor);
    } finally {
      await floor.end();
      await serve.stop();
    }
  } finally {
    server.stop();
    rmSync(files, { recursive: true, force: true });
  }
}

/**
 * The list over `count` more imports of the account (stored by SQL: seeding through HTTP would only measure the
 * seeding), paged to the end over HTTP, against raw keyset pages of 101 with node-postgres that read the same
 * rows, each timed before importd's page (walkListWarm, listPageWalkFloor).
 */
async function listPages(record: Record, api: Api, pool: pg.Pool, importId: string, count: number) {
  const templateId = JSON.parse((await timed(api, 'GET', `/v1/imports/${importId}`)).text).templateId as string;
  const account = await seedPgImports(pool, templateId, count);
  await listPageKeysetFloor(pool, account, 200);
  recordListWalks(record, `pg: list page (100) of ${count} imports`, await walkListWarm(api, listPageWalkFloor(pool, account)));
}

const LOAD_SECONDS = 3;

/**
 * The authenticated reads under load (10 connections), server CPU per request, against a bare Hono route that
 * runs the same raw queries (the key and the import in one, the page, its total) and sends the same bytes.
 */
async function readsUnderLoad(record: Record, api: Api, db: string, serverPid: number, importId: string, pool: pg.Pool) {
  const key = { text: 'SELECT id, account_id, environment_id, kind, active, allowed_origins, expires_at FROM api_keys WHERE hash = $1', values: [hashKey(api.key)] };
  const accountId = (await pool.query<{ account_id: string }>(key.text, key.values)).rows[0]!.account_id;
  // importd reads the key, then the import: so does the floor.
  const importView = {
    text: `SELECT id, template_id, created_at, updated_at, meta, file, cell_stats, end_user_id, end_user_email, end_user_ip, imported_from, session_jti, row_count
           FROM imports WHERE account_id = $1 AND id = $2 AND status = 'complete'`,
    values: [accountId, importId],
  };
  const rows = { text: 'SELECT row_index, data FROM import_rows WHERE import_id = $1 AND row_index > $2 ORDER BY row_index LIMIT 101', values: [importId, -1] };
  const list = {
    text: "SELECT id, template_id, created_at, updated_at, meta, file, file_id, end_user_id, end_user_email, imported_from, row_count FROM imports WHERE account_id = $1 AND status = 'complete' ORDER BY created_at DESC, id DESC LIMIT 101",
    values: [accountId],
  };
  // The total as importd reads it (the counter its triggers keep): a COUNT over the account's imports would make the floor slower.
  const count = { text: 'SELECT complete FROM import_counts WHERE account_id = $1', values: [accountId] };
  const reads = [
    ['GET /imports/{id}', `/v1/imports/${importId}`, [key, importView]],
    ['GET /imports/{id}/rows (100)', `/v1/imports/${importId}/rows?limit=100`, [key, importView, rows]],
    ['GET /imports (100)', '/v1/imports?limit=100', [key, list, count]],
  ] as const;
  for (const [name, target, queries] of reads) {
    const bare = await startBarePgHono(db, await answerOf(api, target), [...queries]);
    try {
      const {
        floors: [floor],
        served: [served],
      } = await alternatedLoads([bare], [{ url: `${api.url}${target}`, headers: { Authorization: `Bearer ${api.key}` }, pid: serverPid }], 3, LOAD_SECONDS);
      record(`pg: ${name} under load: server CPU per request`, served!.cpuMicros, 'µs', floor!.cpuMicros, name.startsWith('GET /imports (') ? 'ratio <= 3' : 'ratio <= 2');
    } finally {
      bare.stop();
    }
  }
}
