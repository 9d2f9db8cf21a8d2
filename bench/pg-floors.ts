// The raw PostgreSQL floors: the same work done with node-postgres directly on the same server, in the same run.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify/sync';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/** A scratch table shaped like importd's import_rows, in the bench's database (a bare pool with `table` false). */
export async function pgScratch(url: string, table = true) {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  if (table) await pool.query('CREATE TABLE floor_rows (import_id text COLLATE "C" NOT NULL, row_index integer NOT NULL, data text COLLATE "C" NOT NULL, PRIMARY KEY (import_id, row_index))');
  return pool;
}

const escape = (text: string) => text.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!);

/**
 * The body as the server receives it, bytes: decoded (UTF-8), JSON.parse, then one COPY of every row (JSON.stringify
 * each, escaped for COPY's text format), as bench/floors.ts's SQLite floor decodes them.
 */
export async function copyFloor(pool: pg.Pool, body: Uint8Array, importId: string): Promise<number> {
  const started = performance.now();
  const { rows } = JSON.parse(new TextDecoder().decode(body)) as { rows: unknown[] };
  await copyRowTexts(pool, importId, (function* () {
    for (const row of rows) yield JSON.stringify(row);
  })());
  return performance.now() - started;
}

/** One COPY of rows' JSON texts into floor_rows, in pieces of about 256 KiB (COPY's text format, escaped). */
export async function copyRowTexts(pool: pg.Pool, importId: string, texts: Iterable<string> | AsyncIterable<string>): Promise<void> {
  const client = await pool.connect();
  try {
    let piece = '';
    let index = 0;
    const add = (text: string) => {
      piece += `${importId}\t${index++}\t${escape(text)}\n`;
      if (piece.length <= 256 * 1024) return undefined;
      const full = piece;
      piece = '';
      return full;
    };
    // A sync source is read without an await per row (the floor of POST /v1/imports was timed so).
    async function* lines() {
      if (Symbol.iterator in texts) {
        for (const text of texts) {
          const full = add(text);
          if (full !== undefined) yield full;
        }
      } else {
        for await (const text of texts) {
          const full = add(text);
          if (full !== undefined) yield full;
        }
      }
      yield piece;
    }
    await pipeline(Readable.from(lines()), client.query(copyFrom('COPY floor_rows (import_id, row_index, data) FROM STDIN')));
  } finally {
    client.release();
  }
}

/** Every row in keyset chunks of 1000, JSON.parse, CSV-encoded (csv-stringify): the CSV export floor. */
export async function csvKeysetFloor(pool: pg.Pool, importId: string, columns: string[]): Promise<number> {
  const started = performance.now();
  let after = -1;
  let bytes = 0;
  for (;;) {
    const { rows } = await pool.query<{ row_index: number; data: string }>({
      name: 'floor-chunk',
      text: 'SELECT row_index, data FROM floor_rows WHERE import_id = $1 AND row_index > $2 ORDER BY row_index LIMIT 1000',
      values: [importId, after],
    });
    if (rows.length === 0) break;
    bytes += stringify(rows.map((row) => { const parsed = JSON.parse(row.data) as Record<string, unknown>; return columns.map((c) => parsed[c]); })).length;
    after = rows[rows.length - 1]!.row_index;
  }
  if (bytes === 0) throw new Error('nothing encoded');
  return performance.now() - started;
}

/** One keyset page of 100 rows after `after`, spliced into a response string; the mean of `repeat`. */
export async function rowsPageKeysetFloor(pool: pg.Pool, importId: string, after: number, repeat: number): Promise<number> {
  const started = performance.now();
  for (let r = 0; r < repeat; r++) {
    const { rows } = await pool.query<{ row_index: number; data: string }>({
      name: 'floor-page',
      text: 'SELECT row_index, data FROM floor_rows WHERE import_id = $1 AND row_index > $2 ORDER BY row_index LIMIT 100',
      values: [importId, after],
    });
    let text = '{"data":[';
    for (let i = 0; i < rows.length; i++) text += `${i ? ',' : ''}{"rowIndex":${rows[i]!.row_index},"data":${rows[i]!.data}}`;
    text += ']}';
  }
  return (performance.now() - started) / repeat;
}

const LIST_FLOOR = `SELECT id, template_id, created_at, updated_at, meta, file, file_id, end_user_id, end_user_email, imported_from, row_count FROM imports
  WHERE account_id = $1 AND status = 'complete' AND (created_at, id) < ($2, $3) ORDER BY created_at DESC, id DESC LIMIT 101`;

/** One keyset page of 100 of the account's complete imports, newest first, past its first ten pages; the mean of `repeat`. */
export async function listPageKeysetFloor(pool: pg.Pool, accountId: string, repeat: number): Promise<number> {
  const page = { name: 'floor-list', text: LIST_FLOOR, values: [accountId, '2025-01-01T02:00:00.000Z', 'z'] };
  const started = performance.now();
  for (let r = 0; r < repeat; r++) if ((await pool.query(page)).rows.length !== 101) throw new Error('the floor page is short');
  return (performance.now() - started) / repeat;
}

/**
 * The list walked as importd's walk reads it (walkListPages): a keyset page of 101 of the account's complete
 * imports, newest first, the first from the top and each next one after the previous page's hundredth, so that
 * each of importd's pages is timed beside a floor that reads the same rows (the first pages hold the newest
 * imports, which the bench made through HTTP and updated as they were written, not the seeded ones a fixed page reads).
 */
export function listPageWalkFloor(pool: pg.Pool, accountId: string): (page: number) => Promise<number> {
  let after = TOP;
  return async (page) => {
    if (page === 0) after = TOP;
    const started = performance.now();
    const { rows } = await pool.query<{ created_at: string; id: string }>({ name: 'floor-list', text: LIST_FLOOR, values: [accountId, ...after] });
    const ms = performance.now() - started;
    after = rows.length === 101 ? [rows[99]!.created_at, rows[99]!.id] : TOP;
    return ms;
  };
}

const TOP = ['9999', ''];

/**
 * The floor of an authenticated read on PostgreSQL: a bare Hono route (in its own process, like importd) that
 * runs the same raw queries with node-postgres, each named (prepared once per connection), then sends the
 * bytes importd sent, its headers included (answerOf).
 */
export async function startBarePgHono(db: string, answer: { payload: string; headers: Record<string, string> }, queries: { text: string; values: unknown[] }[]) {
  const { spawn } = await import('node:child_process');
  const { freePort } = await import('../test/helpers/process');
  const port = await freePort();
  const script = `
    const { Hono } = require('hono');
    const { serve } = require('@hono/node-server');
    const pg = require('pg');
    const payload = process.env.PAYLOAD;
    const headers = JSON.parse(process.env.HEADERS);
    const queries = JSON.parse(process.env.QUERIES).map((query, i) => ({ name: 'floor-read-' + i, ...query }));
    const pool = new pg.Pool({ connectionString: process.env.DB, max: 10 });
    const app = new Hono();
    app.get('/', async () => {
      for (const query of queries) await pool.query(query);
      return new Response(payload, { status: 200, headers });
    });
    serve({ fetch: app.fetch, hostname: '127.0.0.1', port: ${port} }, () => console.log('ready'));`;
  const child = spawn(process.execPath, ['-e', script], { env: { ...process.env, PAYLOAD: answer.payload, HEADERS: JSON.stringify(answer.headers), QUERIES: JSON.stringify(queries), DB: db }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return { url: `http://127.0.0.1:${port}/`, pid: child.pid!, stop: () => child.kill() };
}
