import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countRows, rowStrings } from '../../src/db/store';
import { PARSE_IN_WORKER_BYTES, SLICE_ROWS } from '../../src/services/imports';
import { SLICES_IN_FLIGHT } from '../../src/services/imports/parse-protocol';
import { ParsePool, parseWorkerScript } from '../../src/services/imports/parse-pool';
import { call, createTestEnvironment, DEFAULT_LIMITS, json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { startLiveServer } from '../helpers/live-server';
import { contactRows } from './helpers';
import { RowsInvalidError, ServiceError } from '../../src/services/errors';
import { rulesToRun, validateRows } from '../../src/services/imports/validate-rows';
import type { RowTexts } from '../../src/db/store';

/** Each row of a slice as [stored text, stored errors]. */
function storedWithErrors(slice: RowTexts): (string | null)[][] {
  const errors = 'errors' in slice ? slice.errors : [];
  return rowStrings(slice).map((text, i) => [text, errors[i] ?? null]);
}

const { h, env } = useHarness();

const counts = async () => ({
  imports: (await h.sql('SELECT count(*) AS n FROM imports'))[0]!.n,
  rows: (await h.sql('SELECT count(*) AS n FROM import_rows'))[0]!.n,
});
/** A body large enough to be parsed by the worker: 20 000 rows, each padded to share the threshold. */
const PAD = 'x'.repeat(Math.ceil(PARSE_IN_WORKER_BYTES / 20_000));
const largeRows = () => contactRows(20_000).map((row) => ({ ...row, note: PAD }));

describe('large JSON bodies, parsed by the worker thread', () => {
  it('are stored exactly, with the statistics of every row', async () => {
    const rows = largeRows();
    const rawBody = JSON.stringify({ meta: { schemaKey: 'big' }, rows });
    assert.ok(rawBody.length > PARSE_IN_WORKER_BYTES);
    const response = await call(h, 'POST', '/v1/imports', { key: env.secretKey, rawBody });
    assert.equal(response.status, 201, await response.clone().text());
    const created = await json(response);
    assert.equal(created.rowCount, 20_000);
    const stored = (await h.sql<{ data: string }>('SELECT data FROM import_rows WHERE import_id = ? ORDER BY row_index', created.id)).map((row) => row.data);
    assert.deepEqual(stored, rows.map((row) => JSON.stringify(row)));
    const detail = await json(await call(h, 'GET', `/v1/imports/${created.id}`, { key: env.secretKey }));
    assert.deepEqual(detail.cellStats.fieldBreakdown, [
      { key: 'name', type: 'string', count: 20_000 },
      { key: 'email', type: 'email', count: 20_000 },
      { key: 'age', type: 'number', count: 20_000 },
      { key: 'note', type: 'string', count: 20_000 },
    ]);
    assert.equal(detail.cellStats.totalCells, 80_000);
  });

  const failures: [string, () => string | Uint8Array, string, RegExp][] = [
    ['a bad cell at row 15 000', () => { const rows: unknown[] = largeRows(); rows[15_000] = { name: { nested: true } }; return JSON.stringify({ meta: { schemaKey: 'big' }, rows }); }, 'validation_failed', /rows\.15000\.name/],
    ['broken JSON at row 15 000', () => JSON.stringify({ meta: { schemaKey: 'big' }, rows: largeRows() }).replace('"person 15000"', '"person 15000'), 'invalid_json', /not valid JSON/],
    ['bytes that are not UTF-8', () => { const bytes = new TextEncoder().encode(JSON.stringify({ meta: { schemaKey: 'big' }, rows: largeRows() })); bytes[bytes.length - 20] = 0xff; return bytes; }, 'invalid_json', /UTF-8/],
    ['no rows array', () => JSON.stringify({ meta: { schemaKey: 'big' }, rows: 'x'.repeat(PARSE_IN_WORKER_BYTES) }), 'validation_failed', /rows/],
    ['no template key or schema', () => JSON.stringify({ meta: {}, rows: largeRows() }), 'validation_failed', /schemaKey/],
  ];
  for (const [label, body, code, pattern] of failures) {
    it(`reject ${label} and store nothing`, async () => {
      const before = await counts();
      const payload = body();
      const response = await h.app.request('/v1/imports', {
        method: 'POST',
        headers: { Authorization: `Bearer ${env.secretKey}`, 'Content-Type': 'application/json' },
        body: payload,
      });
      const error = (await json(response)).error;
      assert.equal(response.status, 400, JSON.stringify(error));
      assert.equal(error.code, code);
      assert.match(JSON.stringify(error), pattern);
      assert.deepEqual(await counts(), before);
    });
  }

  it("one tenant's poisoned body (nested 100 000 deep) fails alone on the real server: another tenant's import parsed beside it is stored", async () => {
    const other = await createTestEnvironment(h, { account: 'other-tenant' });
    const good = JSON.stringify({ meta: { schemaKey: 'good' }, rows: largeRows() });
    const poisoned = `{"meta":{"schemaKey":"bad","x":${'['.repeat(100_000)}${']'.repeat(100_000)}},"rows":${JSON.stringify(largeRows())}}`;
    const server = await startLiveServer(h);
    try {
      const post = (key: string, body: string) =>
        fetch(`${server.url}/v1/imports`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body });
      const [fine, bad] = await Promise.all([post(other.secretKey, good), post(env.secretKey, poisoned)]);
      assert.equal(fine.status, 201, await fine.clone().text());
      assert.equal((await json(fine)).rowCount, 20_000);
      assert.equal(bad.status, 400);
      assert.equal((await json(bad)).error.code, 'validation_failed');
    } finally {
      await server.close();
    }
  });

  it('a large body refused for its session releases its parse thread: later large imports are not held up', { timeout: 60_000 }, async () => {
    const rawBody = JSON.stringify({ meta: { schemaKey: 'big' }, rows: largeRows() });
    const withBadToken = JSON.stringify({ meta: { schemaKey: 'big', sessionToken: 'not-a-token' }, rows: largeRows() });
    for (let i = 0; i < 6; i++) {
      const refused = await call(h, 'POST', '/v1/imports', { key: env.publicKey, origin: env.origin, rawBody: withBadToken });
      assert.equal(refused.status, 401);
    }
    const response = await call(h, 'POST', '/v1/imports', { key: env.secretKey, rawBody });
    assert.equal(response.status, 201);
  });

  it('keep serving after a failed parse (the worker survives errors)', async () => {
    const response = await call(h, 'POST', '/v1/imports', { key: env.secretKey, rawBody: JSON.stringify({ meta: { schemaKey: 'after' }, rows: largeRows() }) });
    assert.equal(response.status, 201);
  });
});

describe('small JSON bodies', () => {
  it('up to PARSE_IN_WORKER_BYTES (a 2 MB, 10 000-row import) are parsed on the request thread, never handed to a thread', async () => {
    const pool = h.ctx.parsePool;
    const parse = pool.parse.bind(pool);
    let handedOver = 0;
    pool.parse = async (body) => (handedOver++, await parse(body));
    try {
      const rows = contactRows(10_000).map((row) => ({ ...row, note: 'x'.repeat(150) }));
      const rawBody = JSON.stringify({ meta: { schemaKey: 'small' }, rows });
      assert.ok(rawBody.length > 2_000_000 && rawBody.length < PARSE_IN_WORKER_BYTES);
      const created = await json(await call(h, 'POST', '/v1/imports', { key: env.secretKey, rawBody }));
      assert.equal(created.rowCount, 10_000);
      assert.equal(handedOver, 0);
      const stored = (await h.sql<{ data: string }>('SELECT data FROM import_rows WHERE import_id = ? ORDER BY row_index', created.id)).map((row) => row.data);
      assert.deepEqual(stored, rows.map((row) => JSON.stringify(row)));
    } finally {
      pool.parse = parse;
    }
  });
});

describe('ParsePool', () => {
  it('answers jobs in order, each with its own rows, and releases a discarded one', async () => {
    const pool = new ParsePool(parseWorkerScript(), DEFAULT_LIMITS);
    try {
      const body = (n: number) => new TextEncoder().encode(JSON.stringify({ meta: { n }, rows: contactRows(n) }));
      const [a, b] = await Promise.all([pool.parse(body(1200)), pool.parse(body(700))]);
      await b.rows.discard!();
      let count = 0;
      for await (const slice of a.rows.slices) count += countRows(slice);
      assert.equal(count, 1200);
      assert.deepEqual(a.meta, { n: 1200 });
      assert.equal(a.rows.stats().rowCount, 1200);
    } finally {
      await pool.close();
    }
  });

  it('runs the rules it is sent on its own thread: the same rows, errors, counts and statistics as validateRows in this thread', async () => {
    const schemaText = JSON.stringify({ fields: [{ key: 'name', transforms: ['uppercase'] }, { key: 'age', type: 'integer', max: 50, unique: true }] });
    const rows = contactRows(SLICE_ROWS * 2 + 7);
    const inThread = validateRows(rulesToRun(schemaText)!, { slices: [rows.map((row) => JSON.stringify(row))], stats: () => ({ totalCells: 0, rowCount: 0, fieldBreakdown: [] }) });
    const expected: (string | null)[][] = [];
    for await (const slice of inThread.slices) expected.push(...storedWithErrors(slice));
    for (const form of ['strings', 'utf8'] as const) {
      const pool = new ParsePool(parseWorkerScript(), DEFAULT_LIMITS, 512, form);
      try {
        const parsed = await pool.parse(new TextEncoder().encode(JSON.stringify({ meta: {}, rows })));
        const validated = parsed.rows.validateInProducer!(schemaText)!;
        const stored: (string | null)[][] = [];
        for await (const slice of validated.slices) stored.push(...storedWithErrors(slice));
        assert.deepEqual(stored, expected, form);
        assert.ok(expected.some(([, errors]) => errors !== null) && expected.some(([text]) => text!.includes('"PERSON ')), 'the rules refused and changed rows');
        assert.deepEqual(validated.counts(), inThread.counts(), form);
        assert.equal(validated.errorSummary(), inThread.errorSummary(), form);
        assert.deepEqual(validated.stats(), inThread.stats(), form);
      } finally {
        await pool.close();
      }
    }
  });

  it('refuses rows holding more than 16 384 distinct column keys under rules that drop extra columns', async () => {
    const pool = new ParsePool(parseWorkerScript(), DEFAULT_LIMITS);
    try {
      // 200 rows of 82 new keys each: 16 400 keys.
      const rows = Array.from({ length: 200 }, (_, r) => Object.fromEntries(Array.from({ length: 82 }, (_, k) => [`c${r}_${k}`, k])));
      const parsed = await pool.parse(new TextEncoder().encode(JSON.stringify({ meta: {}, rows })));
      const validated = parsed.rows.validateInProducer!(JSON.stringify({ extraColumns: 'drop', fields: [{ key: 'c0_0', type: 'integer' }] }))!;
      await assert.rejects(
        (async () => {
          for await (const slice of validated.slices) void slice;
        })(),
        (error: unknown) => error instanceof ServiceError && error.code === 'validation_failed' && /16384 distinct column keys/.test(JSON.stringify(error.details)),
      );
    } finally {
      await pool.close();
    }
  });

  it('takes rows read before any rules are sent as free-form, and answers rows refused under reject as RowsInvalidError', async () => {
    const pool = new ParsePool(parseWorkerScript(), DEFAULT_LIMITS);
    try {
      const body = () => new TextEncoder().encode(JSON.stringify({ meta: {}, rows: contactRows(SLICE_ROWS + 3) }));
      const free = await pool.parse(body());
      let count = 0;
      for await (const slice of free.rows.slices) count += countRows(slice);
      assert.equal(count, SLICE_ROWS + 3);
      const refused = await pool.parse(body());
      const validated = refused.rows.validateInProducer!(JSON.stringify({ onInvalid: 'reject', fields: [{ key: 'age', type: 'integer', max: 20 }] }))!;
      await assert.rejects(
        (async () => {
          for await (const slice of validated.slices) void slice;
        })(),
        (error: unknown) => error instanceof RowsInvalidError && error.errors.length === 100 && error.errors[0]!.key === 'age' && error.errorCount > 100,
      );
    } finally {
      await pool.close();
    }
  });

  it('hands rows over as transferred UTF-8 when the store takes that form, byte for byte the strings form', async () => {
    const rows = contactRows(SLICE_ROWS * 2 + 7).map((row, i) => ({ ...row, note: i % 2 ? 'Zürich ✓ 😀 𝄞 "q" \\ \n' : null, [`k${i % 3}é`]: i }));
    const body = () => new TextEncoder().encode(JSON.stringify({ meta: {}, rows }));
    const texts = new ParsePool(parseWorkerScript(), DEFAULT_LIMITS, 512, 'strings');
    const bytes = new ParsePool(parseWorkerScript(), DEFAULT_LIMITS, 512, 'utf8');
    try {
      const [a, b] = await Promise.all([texts.parse(body()), bytes.parse(body())]);
      const collect = async (slices: AsyncIterable<unknown> | Iterable<unknown>) => {
        const all: { utf8: boolean; texts: readonly string[] }[] = [];
        for await (const slice of slices as AsyncIterable<Parameters<typeof rowStrings>[0]>) all.push({ utf8: 'ends' in slice, texts: rowStrings(slice) });
        return all;
      };
      const [fromTexts, fromBytes] = await Promise.all([collect(a.rows.slices), collect(b.rows.slices)]);
      assert.ok(fromTexts.every((slice) => !slice.utf8) && fromBytes.every((slice) => slice.utf8));
      assert.deepEqual(fromBytes.map((slice) => slice.texts), fromTexts.map((slice) => slice.texts));
      assert.deepEqual(fromBytes.flatMap((slice) => slice.texts), rows.map((row) => JSON.stringify(row)));
      assert.deepEqual(b.rows.stats(), a.rows.stats());
    } finally {
      await Promise.all([texts.close(), bytes.close()]);
    }
  });

  it('keeps at most SLICES_IN_FLIGHT slices waiting however far ahead the worker could run', async () => {
    const pool = new ParsePool(parseWorkerScript(), DEFAULT_LIMITS);
    try {
      const parsed = await pool.parse(new TextEncoder().encode(JSON.stringify({ meta: {}, rows: contactRows(SLICE_ROWS * 12) })));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const queued = [...(pool as unknown as { jobs: Map<number, { messages: unknown[] }> }).jobs.values()][0]!.messages.length;
      assert.ok(queued <= SLICES_IN_FLIGHT, `${queued} slices queued`);
      let count = 0;
      for await (const slice of parsed.rows.slices) count += countRows(slice);
      assert.equal(count, SLICE_ROWS * 12);
    } finally {
      await pool.close();
    }
  });

  it('a thread that dies fails only its own job: a job parsed beside it completes', async () => {
    const poison = new TextEncoder().encode('{"rows":[]}      ');
    const script = parseWorkerScript() as { file: string };
    // The real worker, plus a listener that kills the thread when it is handed the poison body.
    const source = `require('node:worker_threads').parentPort.on('message', (m) => { if (m.body?.byteLength === ${poison.byteLength}) process.exit(7); });
require(${JSON.stringify(script.file)});`;
    const pool = new ParsePool({ source }, DEFAULT_LIMITS);
    try {
      const good = await pool.parse(new TextEncoder().encode(JSON.stringify({ meta: {}, rows: contactRows(SLICE_ROWS * 8) })));
      await assert.rejects(pool.parse(poison), /parse worker stopped/);
      let count = 0;
      for await (const slice of good.rows.slices) count += countRows(slice);
      assert.equal(count, SLICE_ROWS * 8);
      assert.equal(good.rows.stats().rowCount, SLICE_ROWS * 8);
    } finally {
      await pool.close();
    }
  });

  it('fails pending jobs with internal_error when the worker cannot start, and never hangs', async () => {
    const pool = new ParsePool({ source: 'throw new Error("boom")' }, DEFAULT_LIMITS);
    await assert.rejects(pool.parse(new TextEncoder().encode('{"rows":[]}')), (error: Error) => /parse worker stopped/.test(error.message));
    await pool.close();
  });
});
