import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { cliOnHarness } from '../helpers/cli';
import { call, json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { contactRows, createImportOk } from './helpers';

// IMPORTD_MAX_EXPORTS bounds the exports one account streams at once (each can hold ~16 MiB for its client).
describe('exports streaming at once per account (IMPORTD_MAX_EXPORTS)', () => {
  const { h, env, other } = useHarness({ config: { IMPORTD_MAX_EXPORTS: '2', IMPORTD_RATE_LIMIT: '0' }, environments: { other: { account: 'other' } } });
  let mine: { id: string };
  let theirs: { id: string };
  before(async () => {
    mine = await createImportOk(h, env, { rows: contactRows(3_000) });
    theirs = await createImportOk(h, other, { rows: contactRows(10) });
  });
  const exported = (id: string, key: string, method = 'GET') => call(h, method, `/v1/imports/${id}/export?format=ndjson`, { key });

  it('refuses an export past the cap with 429 and Retry-After, before anything is read; other accounts are not counted', async () => {
    const held = [await exported(mine.id, env.secretKey), await exported(mine.id, env.secretKey)];
    for (const response of held) assert.equal(response.status, 200);
    const refused = await exported(mine.id, env.secretKey);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('Retry-After'), '1');
    const body = await json(refused);
    assert.equal(body.error.code, 'rate_limited');
    assert.match(body.error.message, /already streams 2 exports/);
    const another = await exported(theirs.id, other.secretKey);
    assert.equal(another.status, 200);
    assert.equal((await another.text()).trim().split('\n').length, 10);

    // A stream read to its end gives its slot back, and so does one the client gives up (cancelled).
    assert.equal((await held[0]!.text()).trim().split('\n').length, 3_000);
    const third = await exported(mine.id, env.secretKey);
    assert.equal(third.status, 200);
    assert.equal((await exported(mine.id, env.secretKey)).status, 429);
    await held[1]!.body!.cancel();
    await third.body!.cancel();
    const again = [await exported(mine.id, env.secretKey), await exported(mine.id, env.secretKey)];
    for (const response of again) {
      assert.equal(response.status, 200);
      await response.body!.cancel();
    }
  });

  it('a HEAD, a refused export and a failed one hold no slot', async () => {
    for (let i = 0; i < 5; i++) assert.equal((await exported(mine.id, env.secretKey, 'HEAD')).status, 200);
    assert.equal((await exported('imp_missing', env.secretKey)).status, 404);
    assert.equal((await call(h, 'GET', `/v1/imports/${mine.id}/export?format=xml`, { key: env.secretKey })).status, 400);
    const held = [await exported(mine.id, env.secretKey), await exported(mine.id, env.secretKey)];
    for (const response of held) assert.equal(response.status, 200);
    for (let i = 0; i < 3; i++) assert.equal((await exported(mine.id, env.secretKey)).status, 429);
    for (const response of held) await response.body!.cancel();
    const freed = await exported(mine.id, env.secretKey);
    assert.equal(freed.status, 200);
    await freed.body!.cancel();
  });

  it('importd export holds no slot when its --out is refused', async () => {
    const run = cliOnHarness(h);
    const file = path.join(h.dir, 'taken.ndjson');
    writeFileSync(file, 'kept');
    // Each refusal came after the export was made, which then held its slot with nothing to give it back.
    for (let i = 0; i < 3; i++) assert.match((await run('export', mine.id, '--format', 'ndjson', '--out', file)).stderr, /already exists/);
    const held = [await exported(mine.id, env.secretKey), await exported(mine.id, env.secretKey)];
    for (const response of held) {
      assert.equal(response.status, 200);
      await response.body!.cancel();
    }
  });
});
