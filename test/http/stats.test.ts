import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { newId } from '../../src/core/ids';
import { createTemplate } from '../../src/services/templates';
import { call, json, testClock, type TestEnvironment } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

describe('GET /v1/stats/overview', () => {
  const clock = testClock();
  const { h, env, other, empty } = useHarness({ clock, environments: { other: { account: 'other-account' }, empty: { account: 'empty-account' } } });
  const complete: string[] = [];
  let templateId: string;

  /** Writes an import row directly (the imports endpoints are not this suite's subject). */
  const insertImport = async (owner: TestEnvironment, template: string, status: 'writing' | 'complete', n: number) => {
    const id = newId();
    const at = clock().toISOString();
    await h.ctx.store.imports.insert({
      id,
      accountId: owner.accountId,
      environmentId: owner.environmentId,
      templateId: template,
      status,
      writerNode: null,
      leaseUntil: null,
      meta: JSON.stringify({ sdkVersion: '1.0.0', counts: { totalRows: n } }),
      originalSchema: '{}',
      file: null,
      fileId: n % 2 === 0 ? `file-${n}` : null,
      endUserId: 'user-1',
      endUserEmail: 'u@example.com',
      endUserIp: null,
      importedFrom: null,
      sessionJti: null,
      rowCount: n,
      cellStats: '{}',
      createdAt: at,
      updatedAt: at,
    });
    return id;
  };

  before(async () => {
    templateId = (await createTemplate(h.ctx, env.accountId, { schema: { key: 'a' } })).id;
    await createTemplate(h.ctx, env.accountId, { schema: { key: 'b' } });
    const foreignTemplate = (await createTemplate(h.ctx, other.accountId, { schema: { key: 'a' } })).id;
    for (let n = 0; n < 7; n++) {
      clock.advance(1000);
      complete.push(await insertImport(env, templateId, 'complete', n));
    }
    clock.advance(1000);
    await insertImport(env, templateId, 'writing', 99);
    await insertImport(other, foreignTemplate, 'complete', 100);
  });

  it('counts the account’s templates and complete imports, and lists the 5 newest in the overview shape', async () => {
    const response = await call(h, 'GET', '/v1/stats/overview', { key: env.secretKey });
    assert.equal(response.status, 200);
    const body = await json(response);
    assert.deepEqual(Object.keys(body).sort(), ['counts', 'latestImports']);
    assert.deepEqual(body.counts, { templates: 2, imports: 7 });
    assert.deepEqual(
      body.latestImports.map((i: { id: string }) => i.id),
      [...complete].reverse().slice(0, 5),
    );
    const newest = body.latestImports[0];
    assert.deepEqual(Object.keys(newest).sort(), ['createdAt', 'fileId', 'id', 'meta', 'templateId', 'updatedAt']);
    assert.equal(newest.templateId, templateId);
    assert.deepEqual(newest.meta, { sdkVersion: '1.0.0', counts: { totalRows: 6 } });
    assert.equal(newest.fileId, 'file-6');
    assert.equal(body.latestImports[1].fileId, null);
  });

  it('shows another account only its own numbers', async () => {
    const body = await json(await call(h, 'GET', '/v1/stats/overview', { key: other.secretKey }));
    assert.deepEqual(body.counts, { templates: 1, imports: 1 });
    assert.equal(body.latestImports.length, 1);
  });

  it('answers zeros and an empty list for an account with nothing', async () => {
    const body = await json(await call(h, 'GET', '/v1/stats/overview', { key: empty.secretKey }));
    assert.deepEqual(body, { counts: { templates: 0, imports: 0 }, latestImports: [] });
  });
});
