import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { hashesEqual, hashKey } from '../../src/core/keys';
import { redactSecrets } from '../../src/core/logger';
import { createHarness, createTestEnvironment, createTestSession, type Harness, type TestEnvironment } from '../helpers/harness';
import { startServe, type ServerProcess } from '../helpers/process';
import { fillPath, listRoutes } from '../helpers/routes';

const SECRET_PATTERNS = [/sk_[0-9A-Za-z]{8,}/, /pk_[0-9A-Za-z]{8,}/, /eyJ[\w-]+\.[\w-]+\./];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('keys are compared in constant time', () => {
  it('hashesEqual compares equal and unequal digests, of any length, correctly', () => {
    const a = hashKey('sk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa');
    const b = hashKey('sk_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb');
    assert.equal(hashesEqual(a, a), true);
    assert.equal(hashesEqual(a, b), false);
    assert.equal(hashesEqual(a, a.slice(0, 62)), false);
    assert.equal(hashesEqual(a, ''), false);
  });

  it('hashesEqual is built on crypto.timingSafeEqual, and key lookup goes through it', () => {
    const keys = readFileSync('src/core/keys.ts', 'utf8');
    assert.match(keys, /timingSafeEqual\(left, right\)/);
    const authenticate = readFileSync('src/services/auth/authenticate-key.ts', 'utf8');
    assert.match(authenticate, /hashesEqual\(row\.hash, hash\)/);
  });

  it('no source file compares a key hash or key value with === or !==', () => {
    for (const file of sourceFiles('src')) {
      const text = readFileSync(file, 'utf8');
      assert.doesNotMatch(text, /\.hash\s*[!=]==|[!=]==\s*\w+\.hash\b|hashKey\([^)]*\)\s*[!=]==/, file);
    }
  });
});

describe('keys and session tokens never reach logs or responses', () => {
  let h: Harness;
  let env: TestEnvironment;
  let server: ServerProcess;
  let token: string;
  before(async () => {
    h = await createHarness();
    env = await createTestEnvironment(h);
    token = (await createTestSession(h, env)).sessionToken;
    server = await startServe(h.dbPath);
  });
  after(async () => {
    await server.stop();
    h.close();
  });

  it('redactSecrets removes key- and token-shaped text', () => {
    const line = `path /v1/x/${env.secretKey} and ${env.publicKey} and ${token}`;
    const redacted = redactSecrets(line);
    for (const pattern of SECRET_PATTERNS) assert.doesNotMatch(redacted, pattern);
    assert.match(redacted, /^path \/v1\/x\/\[redacted\] and \[redacted\] and \[redacted\]$/);
  });

  it('sends keys and tokens every way to every route, in process and to ./bin/importd serve: none is logged or echoed', async () => {
    const secrets = [env.secretKey, env.publicKey, token];
    const unknownKey = `sk_${'Z'.repeat(40)}`;
    const routes = await listRoutes(h);
    const variants = (url: string): { headers: Record<string, string>; url?: string }[] => [
      { headers: { Authorization: `Bearer ${env.secretKey}` } },
      { headers: { Authorization: `Bearer ${env.publicKey}`, Origin: env.origin, 'X-Session-Token': token } },
      { headers: { 'X-Public-Key': env.publicKey, Origin: 'https://evil.example.net', 'X-Session-Token': token } },
      { headers: { Authorization: `Bearer ${unknownKey}` } },
      { headers: { Authorization: `Token ${env.secretKey}` } },
      { headers: { Authorization: `Bearer ${env.secretKey}`, 'X-Session-Token': `${token}x` }, url: `${url}?key=${env.secretKey}&token=${token}` },
    ];
    let checked = 0;
    for (const route of routes) {
      const url = fillPath(route, () => token);
      for (const variant of variants(url)) {
        const body = ['POST', 'PUT', 'PATCH'].includes(route.method) ? JSON.stringify({ key: env.secretKey, token }) : undefined;
        const init = { method: route.method, headers: { 'Content-Type': 'application/json', ...variant.headers }, body };
        for (const response of [
          await h.app.request(variant.url ?? url, init),
          await fetch(`${server.url}${variant.url ?? url}`, init),
        ]) {
          const text = await response.text();
          const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
          for (const secret of [...secrets, unknownKey]) {
            assert.ok(!text.includes(secret), `${route.method} ${route.path} echoed a credential in its body`);
            assert.ok(!headers.includes(secret), `${route.method} ${route.path} echoed a credential in a header`);
          }
          assert.ok(response.status < 500, `${route.method} ${route.path} answered ${response.status}`);
          checked++;
        }
      }
    }
    assert.ok(checked >= routes.length * 12);
    assert.ok(h.logs.length >= checked / 2, 'the in-process app logged every request');
    const serverLines = server.output().trim().split('\n');
    assert.ok(serverLines.length >= checked / 2, 'the server logged every request');
    for (const line of [...h.logs, ...serverLines]) {
      for (const pattern of SECRET_PATTERNS) assert.doesNotMatch(line, pattern, line);
    }
  });
});
