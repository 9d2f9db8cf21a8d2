import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createHarness, json, type Harness } from '../helpers/harness';

const ROOT = path.resolve(__dirname, '..', '..');
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

let h: Harness;
let doc: any;
before(async () => {
  h = await createHarness();
  doc = await json(await h.app.request('http://importd.test:8080/v1/openapi.json'));
});
after(() => h.close());

const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([route, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ name: `${method.toUpperCase()} ${route}`, operation })),
  );

describe('the OpenAPI document', () => {
  it('passes `spectral lint` with the spectral:oas ruleset without a single finding', () => {
    const file = path.join(h.dir, 'openapi.json');
    const ruleset = path.join(h.dir, '.spectral.yaml');
    writeFileSync(file, JSON.stringify(doc));
    writeFileSync(ruleset, 'extends: ["spectral:oas"]\n');
    const spectral = path.join(ROOT, 'node_modules', '.bin', 'spectral');
    const result = spawnSync(spectral, ['lint', file, '--ruleset', ruleset, '--format', 'json', '--fail-severity', 'hint', '--quiet'], { encoding: 'utf8' });
    const findings = JSON.parse(result.stdout || '[]') as { code: string; message: string; path: string[] }[];
    assert.deepEqual(
      findings.map((f) => `${f.code} at ${f.path.join('.')}: ${f.message}`),
      [],
    );
    assert.equal(result.status, 0, result.stderr);
  });

  it('gives every operation a unique operationId, a summary, a description and one declared tag', () => {
    const declared = new Set((doc.tags as { name: string; description: string }[]).map((t) => t.name));
    for (const tag of doc.tags) assert.ok(tag.description.length > 20, tag.name);
    const ids = new Set<string>();
    const list = operations();
    assert.ok(list.length >= 21);
    for (const { name, operation } of list) {
      assert.match(operation.operationId ?? '', /^[a-z][A-Za-z]+$/, name);
      assert.ok(!ids.has(operation.operationId), `${name}: operationId ${operation.operationId} used twice`);
      ids.add(operation.operationId);
      assert.ok(operation.summary?.length > 10, `${name}: summary`);
      assert.ok(operation.description?.length > 30, `${name}: description`);
      assert.equal(operation.tags?.length, 1, name);
      assert.ok(declared.has(operation.tags[0]), `${name}: tag ${operation.tags[0]} is declared`);
    }
  });

  it('has info.description, a contact, the server it was fetched from, and package.json\'s version', () => {
    const version = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
    assert.equal(doc.info.version, version);
    assert.ok(doc.info.description.length > 50);
    assert.ok(doc.info.contact.name);
    assert.deepEqual(doc.servers, [{ url: 'http://importd.test:8080', description: 'this importd server' }]);
  });
});
