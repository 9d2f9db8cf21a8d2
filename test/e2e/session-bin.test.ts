import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { BIN, runBin } from '../helpers/process';
import { binDatabases } from '../helpers/test-database';

// Runs the built bundle (`npm test` builds it first; alone: `node scripts/build.mjs`).
describe('./bin/importd session issue', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'importd-e2e-session-'));
  const databases = binDatabases(dir);
  let db: string;
  before(async () => {
    db = await databases.create();
    assert.equal(runBin(['migrate', '--db', db]).code, 0);
    const created = runBin(['env', 'create', 'ci', '--db', db]);
    assert.equal(created.code, 0, created.stderr);
  });
  after(async () => {
    await databases.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('works as TOKEN=$(importd session issue ...): the captured value is exactly the token', () => {
    const script = 'TOKEN=$("$BIN" session issue --env ci --end-user ci-user --expires-in 600 --db "$DB") && printf %s "$TOKEN"';
    const result = spawnSync('sh', ['-c', script], { env: { ...process.env, BIN, DB: db }, encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const claims = decodeJwt(result.stdout);
    assert.equal(claims.sub, 'ci-user');
    assert.equal(claims.exp! - claims.iat!, 600);
  });

  it('exits non-zero with error [validation_failed] on stderr for bad input, printing nothing on stdout', () => {
    const result = runBin(['session', 'issue', '--env', 'ci', '--end-user', 'u', '--expires-in', '59', '--db', db]);
    assert.equal(result.code, 2);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^error \[validation_failed\]: expiresIn/);
  });
});
