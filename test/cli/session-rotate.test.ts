import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import type { CliIo } from '../../src/cli/io';
import { runCli } from '../../src/cli/program';
import { createRuntime } from '../../src/main';
import { createTemplate } from '../../src/services/templates';
import { cliOnHarness } from '../helpers/cli';
import { call, createTestSession, testClock, type Harness } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

/** `importd ARGS` in-process on the harness's database file, through its own connection (as another process would). */
async function importd(h: Harness, env: Record<string, string>, ...args: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { out: (text) => void (stdout += text), err: (text) => void (stderr += text), errIsTTY: false };
  const code = await runCli(createRuntime(io, { IMPORTD_DB: h.dbPath, ...env }), args);
  return { code, stdout, stderr };
}

describe('importd session rotate-secret', () => {
  const clock = testClock(new Date().toISOString());
  const { h, env } = useHarness({ clock });
  before(async () => {
    await createTemplate(h.ctx, env.accountId, { key: 'contacts', schema: {} });
  });

  const sdkImport = (session: string) =>
    call(h, 'POST', '/v1/imports', { key: env.publicKey, origin: env.origin, session, body: { meta: { schemaKey: 'contacts' }, rows: [] } });
  const issueOverHttp = async () => {
    const response = await call(h, 'POST', '/v1/sessions', { key: env.secretKey, body: { endUserId: 'u-1', expiresIn: 86400 } });
    return ((await response.json()) as { sessionToken: string }).sessionToken;
  };

  it('signs new tokens with a new secret (kid in the header) at once, also in a server already running; older tokens stay valid', async () => {
    const before = await issueOverHttp();
    assert.equal(decodeProtectedHeader(before).kid, undefined);
    const rotated = await importd(h, {}, 'session', 'rotate-secret', '--json');
    assert.equal(rotated.code, 0, rotated.stderr);
    const { kid, rotatedAt, previousValidUntil } = JSON.parse(rotated.stdout);
    assert.equal(new Date(previousValidUntil).getTime() - new Date(rotatedAt).getTime(), 86_400_000);
    const after = await issueOverHttp();
    assert.equal(decodeProtectedHeader(after).kid, kid, 'the running app signs with the new secret');
    assert.equal((await sdkImport(before)).status, 201, 'a token signed with the previous secret still verifies');
    assert.equal((await sdkImport(after)).status, 201);

    const again = await importd(h, {}, 'session', 'rotate-secret');
    assert.equal(again.code, 0);
    assert.match(again.stdout, /^new session signing secret \S+ in use; tokens signed with the previous one stay valid until they expire \(at the latest .+\)\n$/);
    assert.equal((await sdkImport(before)).status, 201, 'two rotations later');
    assert.equal((await sdkImport(after)).status, 201);
  });

  it('refuses a token with an unknown kid, or a known kid and another secret', async () => {
    const genuine = await createTestSession(h, env);
    const claims = decodeJwt(genuine.sessionToken);
    const { kid } = decodeProtectedHeader(genuine.sessionToken);
    const otherSecret = new TextEncoder().encode('x'.repeat(48));
    for (const header of [{ alg: 'HS256', kid: 'unknown' }, { alg: 'HS256', kid: kid! }]) {
      const forged = await new SignJWT(claims).setProtectedHeader(header).sign(otherSecret);
      assert.equal((await sdkImport(forged)).status, 401, JSON.stringify(header));
    }
  });

  it('drops a secret retired longer ago than the longest token lifetime at the next rotation', async () => {
    const genuine = await createTestSession(h, env, { expiresIn: 86400 });
    const resignedWithFirst = await new SignJWT(decodeJwt(genuine.sessionToken)).setProtectedHeader({ alg: 'HS256' }).sign(h.ctx.sessionSecret);
    assert.equal((await sdkImport(resignedWithFirst)).status, 201, 'the first (kid-less) secret still verifies within a day of its retirement');
    // A minute past the day: the earlier rotation ran on the real clock, seconds after this test clock started
    // (a slow database setup, a loaded machine).
    clock.advance(86_400_000 + 60_000);
    // On the harness's own context, whose clock moved a day on.
    assert.equal((await cliOnHarness(h)('session', 'rotate-secret')).code, 0);
    const fresh = await createTestSession(h, env);
    const resigned = await new SignJWT({ ...decodeJwt(fresh.sessionToken) }).setProtectedHeader({ alg: 'HS256' }).sign(h.ctx.sessionSecret);
    assert.equal((await sdkImport(resigned)).status, 401, 'the first secret no longer verifies anything');
    assert.equal((await sdkImport(fresh.sessionToken)).status, 201);
    const stored = JSON.parse((await h.sql("SELECT value FROM settings WHERE key = 'session_keys'"))[0]!.value as string);
    assert.ok(stored.every((key: { kid: string | null }) => key.kid !== null));
    assert.ok(stored.length <= 3, `keyring of ${stored.length} secrets`);
  });

  it('says what to do instead when IMPORTD_SESSION_SECRET is set (exit 4, nothing changed)', async () => {
    const stored = (await h.sql("SELECT value FROM settings WHERE key = 'session_keys'"))[0]!.value;
    const result = await importd(h, { IMPORTD_SESSION_SECRET: 's'.repeat(40) }, 'session', 'rotate-secret');
    assert.equal(result.code, 4);
    assert.match(result.stderr, /^error \[conflict\]: IMPORTD_SESSION_SECRET is set.*change its value to rotate/);
    assert.equal((await h.sql("SELECT value FROM settings WHERE key = 'session_keys'"))[0]!.value, stored);
  });
});
