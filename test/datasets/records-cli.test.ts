import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { cliOnHarness } from '../helpers/cli';
import { call } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

describe('importd records list|export', () => {
  const { h, env } = useHarness();

  it('lists and exports the dataset of a keyed template by key; refuses an unkeyed one and an unknown environment', async () => {
    const importd = cliOnHarness(h);
    await call(h, 'POST', '/v1/templates', { key: env.secretKey, body: { key: 'team', schema: { fields: [{ key: 'id', type: 'integer' }, { key: 'name' }], primaryKey: ['id'] } } });
    const file = path.join(h.dir, 'team.csv');
    writeFileSync(file, 'id,name\n2,bo\n1,al\n3,cy\n');
    assert.equal((await importd('import', file, '--env', env.name, '--template', 'team')).code, 0);
    const listed = await importd('records', 'list', 'team', '--env', env.name, '--limit', '2', '--json');
    assert.equal(listed.code, 0, listed.stderr);
    const page = JSON.parse(listed.stdout);
    assert.deepEqual(page.data.map((r: any) => r.key), [[1], [2]]);
    assert.equal(page.pagination.paging.total, 3);
    const next = await importd('records', 'list', 'team', '--env', env.name, '--cursor', page.pagination.paging.nextCursor, '--json');
    assert.deepEqual(JSON.parse(next.stdout).data.map((r: any) => r.record), [{ id: 3, name: 'cy' }]);
    const one = await importd('records', 'list', 'team', '--env', env.name, '--key', '2');
    assert.match(one.stdout, /^\[2\]\t\{"id":2,"name":"bo"\}\t/);
    const out = path.join(h.dir, 'team-out.ndjson');
    const exported = await importd('records', 'export', 'team', '--env', env.name, '--format', 'ndjson', '--out', out);
    assert.equal(exported.code, 0, exported.stderr);
    assert.deepEqual(readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line).name), ['al', 'bo', 'cy']);
    const stdout = await importd('records', 'export', 'team', '--env', env.name);
    assert.equal(stdout.stdout, 'id,name\r\n1,al\r\n2,bo\r\n3,cy\r\n');

    assert.equal((await importd('records', 'list', 'team', '--env', 'nowhere')).code !== 0, true);
    writeFileSync(file, 'a\n1\n');
    await importd('import', file, '--env', env.name, '--template', 'loose');
    const unkeyed = await importd('records', 'list', 'loose', '--env', env.name);
    assert.notEqual(unkeyed.code, 0);
    assert.match(unkeyed.stderr, /primaryKey/);
  });
});
