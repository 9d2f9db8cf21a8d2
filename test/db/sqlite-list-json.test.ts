import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { hashKey } from '../../src/core/keys';
import type { ImportJsonPage, ImportListRow, KeyedImportPage, KeysetPosition } from '../../src/db/store';
import { listItemJson } from '../../src/services/imports/views';
import { sqliteOnly } from '../helpers/test-database';
import { useHarness } from '../helpers/use-harness';
import { createImportOk } from '../imports/helpers';

// The plain list's page rendered by SQLite (imports.pageWithKey with a byte budget): each import as listItemJson
// renders it, in the list's order, with the position of its last import and whether another follows.

const TEXTS = ['plain', 'quote " and \\ backslash', 'tab\tnew\nline\rcr\u0001\u001f\u007f', 'é✓ 😀 𝄞', '\u2028\u2029 </script>', ''];
const SAME_TIME = '2027-03-01T00:00:00.000Z';

describe('SQLite imports.pageWithKey, rendered', sqliteOnly, () => {
  const { h, env } = useHarness();
  let hash: string;
  let listed: ImportListRow[];

  before(async () => {
    hash = hashKey(env.secretKey);
    const { templateId } = await createImportOk(h, env, { rows: [{ a: 1 }] });
    // Values that need escaping in every member a client can set, nulls and files, and five imports made in the
    // same millisecond, so that pages end between imports of one time.
    for (let i = 0; i < 12; i++) {
      const id = `imp-${String(i).padStart(2, '0')}`;
      const text = TEXTS[i % TEXTS.length]!;
      const time = i < 5 ? SAME_TIME : `2027-02-${String(10 + i).padStart(2, '0')}T00:00:00.000Z`;
      await h.ctx.store.imports.insert({
        id, accountId: env.accountId, environmentId: null, templateId, status: 'writing', writerNode: 'node-1', leaseUntil: time,
        meta: JSON.stringify({ note: text, n: i }), originalSchema: '{}', file: i % 3 ? JSON.stringify({ name: `${text}.csv` }) : null, fileId: i % 3 ? `file-${i}` : null,
        endUserId: i % 2 ? text : null, endUserEmail: i % 4 ? `${text}@example.com` : null, endUserIp: null, importedFrom: i % 5 ? text : null, sessionJti: null,
        rowCount: 0, cellStats: '{}', createdAt: time, updatedAt: time,
      });
      await h.ctx.store.imports.complete(id, 'node-1', { rowCount: i, cellStats: '{}', createdAt: time, updatedAt: time });
    }
    listed = await h.ctx.store.imports.page(env.accountId, { orderBy: 'createdAt', direction: 'desc', filters: {}, limit: 100 });
    assert.equal(listed.length, 13);
  });

  const renderedOf = (found: KeyedImportPage | undefined): ImportJsonPage => {
    assert.ok(found && 'rendered' in found, 'the page comes rendered');
    return found.rendered;
  };

  it('renders each import as listItemJson does, in the list order, walked to the end in pages of every size', async () => {
    for (const limit of [1, 2, 3, 5, 13, 20]) {
      const walked: string[] = [];
      let after: KeysetPosition | undefined;
      for (;;) {
        const found = await h.ctx.store.imports.pageWithKey(hash, after, limit, 1 << 20);
        const page = renderedOf(found);
        const expected = listed.slice(walked.length, walked.length + limit);
        assert.equal(Buffer.from(page.json).toString('utf8'), expected.map(listItemJson).join(','), `limit ${limit}, after ${walked.length}`);
        assert.equal(page.count, expected.length);
        assert.equal(found!.total, 13);
        walked.push(...expected.map((row) => row.id));
        assert.equal(page.hasMore, walked.length < listed.length);
        if (!page.hasMore) break;
        assert.deepEqual(page.last, { value: expected.at(-1)!.createdAt, id: expected.at(-1)!.id });
        after = page.last;
      }
      assert.deepEqual(walked, listed.map((row) => row.id), `limit ${limit}: each import once, in order`);
    }
  });

  it('the JSON parses back to the members stored', async () => {
    const page = renderedOf(await h.ctx.store.imports.pageWithKey(hash, undefined, 100, 1 << 20));
    const items = JSON.parse(`[${Buffer.from(page.json).toString('utf8')}]`) as { id: string; endUserEmail: string | null; meta: { note: string } }[];
    assert.deepEqual(items.map((item) => item.id), listed.map((row) => row.id));
    assert.deepEqual(items.map((item) => item.endUserEmail), listed.map((row) => row.endUserEmail));
    assert.ok(items.some((item) => item.meta.note === TEXTS[2]));
  });

  it('an empty page past the last import', async () => {
    const last = listed.at(-1)!;
    const page = renderedOf(await h.ctx.store.imports.pageWithKey(hash, { value: last.createdAt, id: last.id }, 10, 1 << 20));
    assert.deepEqual({ ...page, json: Buffer.from(page.json).toString('utf8') }, { json: '', count: 0, last: undefined, hasMore: false });
  });

  it('answers rows when an import holds more than its share of the budget (meta and file bytes, UTF-8), or without a budget', async () => {
    // The largest import holds its meta and file in about 80 bytes (more in UTF-8 than in characters).
    const bytes = Math.max(...listed.slice(0, 4).map((row) => Buffer.byteLength(row.meta) + Buffer.byteLength(row.file ?? '')));
    assert.ok('rows' in (await h.ctx.store.imports.pageWithKey(hash, undefined, 4, 4 * bytes - 4))!);
    assert.ok('rendered' in (await h.ctx.store.imports.pageWithKey(hash, undefined, 4, 4 * bytes))!);
    const rows = (await h.ctx.store.imports.pageWithKey(hash, undefined, 4))!;
    assert.ok('rows' in rows);
    assert.deepEqual(rows.rows.map((row) => row.id), listed.slice(0, 5).map((row) => row.id), 'the page and the import after it');
  });
});
