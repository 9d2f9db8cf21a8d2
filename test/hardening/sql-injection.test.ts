import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { call, createTestSession, json, type Harness } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { fillPath, listRoutes, type RouteInfo } from '../helpers/routes';

const INJECTIONS = [
  "' OR '1'='1",
  "' OR 1=1 --",
  '" OR ""="',
  "'; DROP TABLE imports; --",
  "1; DELETE FROM api_keys; --",
  "' UNION SELECT hash, prefix FROM api_keys --",
  "%' OR 1=1 --",
  '%',
  '_',
  "\\'; SELECT sqlite_version(); --",
  "') OR ('a'='a",
  "x' AND 0=CAST((SELECT hash FROM api_keys LIMIT 1) AS INT) --",
  "createdAt; DROP TABLE sessions",
  "id DESC, (SELECT 1)",
];

/** Request bodies that pass validation, so a path parameter reaches its query; other routes get `{}`. */
const VALID_BODIES: Record<string, unknown> = {
  'PATCH /v1/environments/:name/origins': { allowedOrigins: [] },
};

/** Every table and index (with its definition), every table's row count, and the keys. */
async function snapshot(h: Harness) {
  const catalog =
    h.engine === 'sqlite'
      ? "SELECT name, sql FROM sqlite_master ORDER BY name"
      : "SELECT tablename AS name, 'table' AS sql FROM pg_tables WHERE schemaname = 'public' UNION ALL SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY name";
  const tables = await h.sql<{ name: string; sql: string | null }>(catalog);
  const counts: Record<string, number> = {};
  for (const t of tables) {
    if (t.sql?.startsWith('CREATE TABLE') || t.sql === 'table') counts[t.name] = (await h.sql(`SELECT count(*) AS n FROM "${t.name}"`))[0]!.n;
  }
  return { tables, counts, keys: await h.sql('SELECT id, hash, active FROM api_keys ORDER BY id') };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('SQL is built only with parameters', () => {
  const { h, env } = useHarness({ config: { IMPORTD_RATE_LIMIT: '0', IMPORTD_ACCOUNT_RATE_LIMIT: '0' } });
  let routes: RouteInfo[];
  before(async () => {
    await createTestSession(h, env);
    routes = await listRoutes(h);
  });

  it('no source file splices values into SQL text', () => {
    for (const file of sourceFiles('src')) {
      const text = readFileSync(file, 'utf8');
      assert.doesNotMatch(text, /sql\.raw\(/, `${file} uses sql.raw`);
      assert.doesNotMatch(text, /\.(prepare|exec|pragma)\(\s*`[^`]*\$\{/, `${file} interpolates into SQL text`);
      assert.doesNotMatch(text, /\.(prepare|exec)\(\s*['"][^'"]*['"]\s*\+/, `${file} concatenates SQL text`);
    }
  });

  it('injection strings in every path and query parameter of every route change nothing and leak nothing', async () => {
    const before = await snapshot(h);
    let sent = 0;
    for (const route of routes) {
      for (const injection of INJECTIONS) {
        const query = route.queryParams.map((name) => `${name}=${encodeURIComponent(injection)}`).join('&');
        const url = fillPath(route, () => injection) + (query ? `?${query}` : '');
        const body = ['POST', 'PUT', 'PATCH'].includes(route.method) ? (VALID_BODIES[`${route.method} ${route.path}`] ?? {}) : undefined;
        for (const credentials of [{ key: env.secretKey }, { key: env.publicKey, origin: env.origin }]) {
          const response = await call(h, route.method, url, { ...credentials, body });
          const text = await response.text();
          assert.ok(response.status < 500, `${route.method} ${url}: ${response.status} ${text}`);
          assert.doesNotMatch(text, /SQLITE_[A-Z]|SqliteError|near ".*": syntax error|no such (table|column)/, `${route.method} ${url}`);
          sent++;
        }
      }
    }
    assert.ok(sent >= routes.length * INJECTIONS.length * 2);
    assert.deepEqual(await snapshot(h), before);
    if (h.engine === 'sqlite') assert.equal(h.storage.sqlite.pragma('integrity_check', { simple: true }), 'ok');
  });

  it('stores injection strings in body fields verbatim (they are data, never SQL)', async () => {
    for (const injection of INJECTIONS) {
      const response = await call(h, 'POST', '/v1/sessions', { key: env.secretKey, body: { endUserId: injection, metadata: { note: injection } } });
      assert.equal(response.status, 201, await response.clone().text());
      assert.ok((await json(response)).sessionToken);
      const [stored] = await h.sql<{ end_user_id: string; metadata: string }>('SELECT end_user_id, metadata FROM sessions WHERE end_user_id = ?', injection);
      assert.equal(stored?.end_user_id, injection);
      assert.deepEqual(JSON.parse(stored!.metadata), { note: injection });
    }
    assert.deepEqual(await h.sql('SELECT count(*) AS n FROM api_keys'), [{ n: 2 }]);
  });
});
