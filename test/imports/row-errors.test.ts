import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTemplate } from '../../src/services/templates';
import { cliOnHarness } from '../helpers/cli';
import { call, json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

const FIELDS = [
  { key: 'email', type: 'email', required: true },
  { key: 'age', type: 'integer', min: 0 },
];
/** Rows 1, 3 and 4 are invalid; 0, 2 and 5 valid. */
const ROWS = [
  { email: 'a@x.io', age: 1 },
  { email: 'nope', age: -2 },
  { email: 'b@x.io', age: '3' },
  { email: 'c@x.io', age: 'old' },
  { age: 4 },
  { email: 'd@x.io' },
];

describe('invalid rows kept with their errors (onInvalid keep)', () => {
  const { h, env } = useHarness();
  const get = (url: string) => call(h, 'GET', url, { key: env.secretKey });
  const importKept = async (key: string, rows: unknown[] = ROWS) => {
    await createTemplate(h.ctx, env.accountId, { key, schema: { fields: FIELDS, onInvalid: 'keep' } });
    const response = await call(h, 'POST', '/v1/imports', { key: env.secretKey, body: { meta: { schemaKey: key }, rows } });
    assert.equal(response.status, 201, await response.clone().text());
    return (await json(response)).id as string;
  };

  it('stores each invalid row’s errors [{key, code, message}] and NULL for the valid ones', async () => {
    const id = await importKept('stored');
    const stored = await h.sql<{ row_index: number; errors: string | null }>('SELECT row_index, errors FROM import_rows WHERE import_id = ? ORDER BY row_index', id);
    assert.deepEqual(
      stored.map((row) => (row.errors === null ? null : JSON.parse(row.errors).map((e: any) => `${e.key}:${e.code}`))),
      [null, ['email:type', 'age:min'], null, ['age:type'], ['email:required'], null],
    );
    const first = JSON.parse(stored[1]!.errors!);
    assert.deepEqual(Object.keys(first[0]), ['key', 'code', 'message']);
    assert.match(first[0].message, /e-mail/);
  });

  it('GET rows?status=invalid|valid pages the rows of that status, each invalid one with its errors, the filter bound into the cursor', async () => {
    const id = await importKept('paged');
    const invalid = await json(await get(`/v1/imports/${id}/rows?status=invalid&limit=2`));
    assert.deepEqual(invalid.data.map((row: any) => row.rowIndex), [1, 3]);
    assert.deepEqual(invalid.data[0].data, { email: 'nope', age: -2 });
    assert.deepEqual(invalid.data[0].errors.map((e: any) => e.code), ['type', 'min']);
    assert.deepEqual(invalid.pagination.filters, { status: 'invalid' });
    assert.equal(invalid.pagination.paging.total, 3);
    assert.equal(invalid.pagination.paging.hasNext, true);
    const next = await json(await get(`/v1/imports/${id}/rows?status=invalid&limit=2&cursor=${invalid.pagination.paging.nextCursor}`));
    assert.deepEqual(next.data.map((row: any) => [row.rowIndex, row.errors[0].code]), [[4, 'required']]);
    assert.equal(next.pagination.paging.hasNext, false);

    const valid = await json(await get(`/v1/imports/${id}/rows?status=valid`));
    assert.deepEqual(valid.data.map((row: any) => row.rowIndex), [0, 2, 5]);
    assert.ok(valid.data.every((row: any) => !('errors' in row)));
    assert.equal(valid.pagination.paging.total, 3);
    assert.deepEqual(valid.data[1].data, { email: 'b@x.io', age: 3 });

    const backwards = await json(await get(`/v1/imports/${id}/rows?status=invalid&direction=desc`));
    assert.deepEqual(backwards.data.map((row: any) => row.rowIndex), [4, 3, 1]);

    // Without a status every row comes, the invalid ones with their errors.
    const all = await json(await get(`/v1/imports/${id}/rows`));
    assert.deepEqual(all.data.map((row: any) => row.errors?.length ?? 0), [0, 2, 0, 1, 1, 0]);
    assert.deepEqual(all.pagination.filters, {});

    for (const [url, path] of [
      [`/v1/imports/${id}/rows?status=other`, 'status'],
      [`/v1/imports/${id}/rows?status=`, 'status'],
      [`/v1/imports/${id}/rows?status=valid&limit=2&cursor=${invalid.pagination.paging.nextCursor}`, 'cursor'],
      [`/v1/imports/${id}/rows?limit=2&cursor=${invalid.pagination.paging.nextCursor}`, 'cursor'],
    ] as const) {
      const response = await get(url);
      assert.equal(response.status, 400, url);
      const { error } = await json(response);
      assert.equal(error.code, 'validation_failed');
      assert.ok(error.details.some((d: any) => d.path === path), JSON.stringify(error));
    }
  });

  it('a free-form import has no invalid rows: status=invalid is an empty page, status=valid every row', async () => {
    await createTemplate(h.ctx, env.accountId, { key: 'free', schema: {} });
    const created = await json(await call(h, 'POST', '/v1/imports', { key: env.secretKey, body: { meta: { schemaKey: 'free' }, rows: ROWS } }));
    const invalid = await json(await get(`/v1/imports/${created.id}/rows?status=invalid`));
    assert.deepEqual([invalid.data, invalid.pagination.paging.total], [[], 0]);
    const valid = await json(await get(`/v1/imports/${created.id}/rows?status=valid`));
    assert.equal(valid.data.length, 6);
    assert.equal(valid.pagination.paging.total, 6);
  });

  it('many rows over several slices: every invalid row found, in order, through the cursor', async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => (i % 7 === 0 ? { email: `x${i}`, age: i } : { email: `p${i}@x.io`, age: i }));
    const id = await importKept('many', rows);
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await json(await get(`/v1/imports/${id}/rows?status=invalid&limit=100${cursor ? `&cursor=${cursor}` : ''}`));
      for (const row of page.data) seen.push(row.rowIndex);
      cursor = page.pagination.paging.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, rows.flatMap((_, i) => (i % 7 === 0 ? [i] : [])));
  });

  it('GET errors: counts by field and code with the first 3 examples (rowIndex, value); the CLI prints the same', async () => {
    const rows = [...ROWS, { email: 'e', age: 1 }, { email: 'f', age: 2 }, { email: 'g'.repeat(300), age: 3 }];
    const id = await importKept('summary', rows);
    const summary = await json(await get(`/v1/imports/${id}/errors`));
    assert.deepEqual(summary, {
      invalidRows: 6,
      errorCount: 7,
      omittedGroups: 0,
      errors: [
        { key: 'email', code: 'type', count: 4, examples: [{ rowIndex: 1, value: 'nope' }, { rowIndex: 6, value: 'e' }, { rowIndex: 7, value: 'f' }] },
        { key: 'age', code: 'min', count: 1, examples: [{ rowIndex: 1, value: -2 }] },
        { key: 'age', code: 'type', count: 1, examples: [{ rowIndex: 3, value: 'old' }] },
        { key: 'email', code: 'required', count: 1, examples: [{ rowIndex: 4, value: null }] },
      ],
    });
    const importd = cliOnHarness(h);
    const printed = await importd('imports', 'errors', id, '--json');
    assert.equal(printed.code, 0, printed.stderr);
    assert.deepEqual(JSON.parse(printed.stdout), summary);
    const table = await importd('imports', 'errors', id);
    assert.match(table.stdout, /6 invalid rows, 7 invalid cells/);
    assert.match(table.stdout, /email +type +4 +1: "nope", 6: "e", 7: "f"/);
  });

  it('GET errors: an empty summary for an import without invalid rows; 404 for an unknown import', async () => {
    const id = await importKept('clean', [{ email: 'a@x.io', age: 1 }]);
    assert.deepEqual(await json(await get(`/v1/imports/${id}/errors`)), { invalidRows: 0, errorCount: 0, omittedGroups: 0, errors: [] });
    const missing = await get('/v1/imports/imp_unknown/errors');
    assert.equal(missing.status, 404);
    assert.equal((await json(missing)).error.code, 'not_found');
    const cli = await cliOnHarness(h)('imports', 'errors', 'imp_unknown');
    assert.notEqual(cli.code, 0);
    assert.match(cli.stderr, /not_found/);
  });

  it('GET errors under discard: the dropped rows are summarised, none is stored', async () => {
    await createTemplate(h.ctx, env.accountId, { key: 'dropped', schema: { fields: FIELDS, onInvalid: 'discard' } });
    const created = await json(await call(h, 'POST', '/v1/imports', { key: env.secretKey, body: { meta: { schemaKey: 'dropped' }, rows: ROWS } }));
    assert.equal(created.rowCount, 3);
    const summary = await json(await get(`/v1/imports/${created.id}/errors`));
    assert.equal(summary.invalidRows, 3);
    assert.deepEqual(summary.errors.map((g: any) => `${g.key}:${g.code}:${g.count}`), ['email:type:1', 'age:min:1', 'age:type:1', 'email:required:1']);
    assert.deepEqual((await json(await get(`/v1/imports/${created.id}/rows?status=invalid`))).data, []);
  });

  it('export ?errors=true: an _errors column (CSV) or member (NDJSON, JSON); importd export --errors the same; errors=maybe refused', async () => {
    const id = await importKept('exported');
    const text = async (url: string) => {
      const response = await get(url);
      assert.equal(response.status, 200, url);
      return await response.text();
    };
    const csv = await text(`/v1/imports/${id}/export?errors=true`);
    const lines = csv.trim().split(/\r?\n/);
    assert.equal(lines[0], 'email,age,_errors');
    assert.equal(lines[1], 'a@x.io,1,');
    assert.match(lines[2]!, /^nope,-2,"?email: [^;]*e-mail[^;]*; age: [^"]+"?$/);
    assert.match(lines[5]!, /^,4,"?email: /);
    const ndjson = (await text(`/v1/imports/${id}/export?format=ndjson&errors=true`)).trim().split('\n').map((line) => JSON.parse(line));
    assert.deepEqual(ndjson.map((row) => row._errors.map((e: any) => e.code)), [[], ['type', 'min'], [], ['type'], ['required'], []]);
    assert.deepEqual(Object.keys(ndjson[1]), ['email', 'age', '_errors']);
    const array = JSON.parse(await text(`/v1/imports/${id}/export?format=json&errors=true`));
    assert.deepEqual(array, ndjson);
    // Without errors=true the export is as before.
    assert.equal(await text(`/v1/imports/${id}/export?format=ndjson`), ROWS_STORED_NDJSON);

    const importd = cliOnHarness(h);
    const printed = await importd('export', id, '--errors');
    assert.equal(printed.code, 0, printed.stderr);
    assert.equal(printed.stdout, csv);
    const printedNdjson = await importd('export', id, '--format', 'ndjson', '--errors');
    assert.equal(printedNdjson.stdout, await text(`/v1/imports/${id}/export?format=ndjson&errors=true`));

    for (const value of ['maybe', '', 'TRUE']) {
      const response = await get(`/v1/imports/${id}/export?errors=${value}`);
      assert.equal(response.status, 400, value);
      const { error } = await json(response);
      assert.equal(error.code, 'validation_failed');
      assert.ok(error.details.some((d: any) => d.path === 'errors'), JSON.stringify(error));
    }
  });

  it('export ?errors=true: rows with columns of their own named _errors and __errors keep them; the errors go under ___errors', async () => {
    const id = await importKept('own-errors', [
      { email: 'a@x.io', _errors: 'their note', __errors: 1 },
      { email: 'nope', _errors: null },
    ]);
    const text = async (url: string) => await (await get(url)).text();
    const csv = (await text(`/v1/imports/${id}/export?errors=true`)).trim().split(/\r?\n/);
    assert.deepEqual(csv.slice(0, 2), ['email,_errors,__errors,___errors', 'a@x.io,their note,1,']);
    assert.match(csv[2]!, /^nope,,,"?email: .*e-mail/);
    const ndjson = (await text(`/v1/imports/${id}/export?format=ndjson&errors=true`)).trim().split('\n');
    assert.deepEqual(ndjson[0], '{"email":"a@x.io","_errors":"their note","__errors":1,"___errors":[]}');
    const second = JSON.parse(ndjson[1]!);
    assert.deepEqual(Object.keys(second), ['email', '_errors', '___errors']);
    assert.equal(second._errors, null);
    assert.deepEqual(second.___errors.map((e: any) => e.code), ['type']);
    assert.deepEqual(JSON.parse(await text(`/v1/imports/${id}/export?format=json&errors=true`)), ndjson.map((line) => JSON.parse(line)));
    const printed = await cliOnHarness(h)('export', id, '--format', 'ndjson', '--errors');
    assert.equal(printed.stdout, `${ndjson.join('\n')}\n`);
  });
});

/** The rows of ROWS as the template stores them (ages as numbers). */
const ROWS_STORED_NDJSON = [
  { email: 'a@x.io', age: 1 },
  { email: 'nope', age: -2 },
  { email: 'b@x.io', age: 3 },
  { email: 'c@x.io', age: 'old' },
  { age: 4 },
  { email: 'd@x.io' },
]
  .map((row) => `${JSON.stringify(row)}\n`)
  .join('');
