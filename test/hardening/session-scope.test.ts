import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt, SignJWT } from 'jose';
import { requireCredential } from '../../src/http/credentials';
import { call, createHarness, createTestEnvironment, createTestSession, json, testClock, type Harness, type TestEnvironment } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

describe('session tokens are bound to their environment and die with revocation', () => {
  const clock = testClock();
  const { h, env, sibling, otherAccount } = useHarness({
    clock,
    environments: { sibling: { name: 'staging' }, otherAccount: { account: 'other-co' } },
  });
  let foreignSigner: Harness;
  before(async () => {
    // Every /v1 route that takes a session comes with imports; this probe runs the real credential middleware.
    h.app.get('/v1/probe/session', requireCredential(h.ctx, 'secret-or-session'), (c) => c.json({ endUserId: c.var.caller.session?.endUserId ?? null }));
    foreignSigner = await createHarness({ clock });
  });
  after(() => foreignSigner.close());

  const probe = (as: TestEnvironment, session: string) => call(h, 'GET', '/v1/probe/session', { key: as.publicKey, origin: as.origin, session });
  const assertInvalid = async (response: Response, what: string) => {
    assert.equal(response.status, 401, what);
    assert.equal((await json(response)).error.code, 'invalid_session', what);
  };

  it('accepts a token with the Public Key of its own environment', async () => {
    const { sessionToken } = await createTestSession(h, env, { endUserId: 'alice' });
    const response = await probe(env, sessionToken);
    assert.equal(response.status, 200);
    assert.deepEqual(await json(response), { endUserId: 'alice' });
  });

  it('refuses it with the Public Key of another environment of the same account', async () => {
    const { sessionToken } = await createTestSession(h, env);
    await assertInvalid(await probe(sibling, sessionToken), 'sibling environment');
  });

  it('refuses it with the Public Key of another account', async () => {
    const { sessionToken } = await createTestSession(h, env);
    await assertInvalid(await probe(otherAccount, sessionToken), 'other account');
    const theirs = await createTestSession(h, otherAccount);
    await assertInvalid(await probe(env, theirs.sessionToken), 'other account, reversed');
  });

  it('refuses a token signed by another installation, even one naming a valid jti of this one', async () => {
    const fEnv = await createTestEnvironment(foreignSigner);
    const forged = await createTestSession(foreignSigner, fEnv);
    await assertInvalid(await probe(env, forged.sessionToken), 'foreign token');
    const genuine = decodeJwt((await createTestSession(h, env)).sessionToken);
    const copied = await new SignJWT({ ...genuine }).setProtectedHeader({ alg: 'HS256' }).sign(foreignSigner.ctx.sessionSecret);
    await assertInvalid(await probe(env, copied), 'genuine claims, foreign signature');
  });

  it('refuses a token replayed after its jti was revoked; only its own account can revoke it', async () => {
    const { sessionToken } = await createTestSession(h, env);
    const jti = decodeJwt(sessionToken).jti!;

    const foreign = await call(h, 'DELETE', `/v1/sessions/${jti}`, { key: otherAccount.secretKey });
    assert.equal(foreign.status, 404);
    assert.equal((await probe(env, sessionToken)).status, 200);

    const revoked = await call(h, 'DELETE', `/v1/sessions/${jti}`, { key: env.secretKey });
    assert.equal(revoked.status, 200);
    const { revokedAt } = await json(revoked);
    assert.equal(revokedAt, clock().toISOString());
    for (let replay = 0; replay < 3; replay++) await assertInvalid(await probe(env, sessionToken), `replay ${replay}`);

    clock.advance(1000);
    const again = await call(h, 'DELETE', `/v1/sessions/${jti}`, { key: env.secretKey });
    assert.equal((await json(again)).revokedAt, revokedAt, 'revocation is idempotent and keeps its first time');
    assert.deepEqual(await h.sql('SELECT revoked_at FROM sessions WHERE jti = ?', jti), [{ revoked_at: revokedAt }]);
  });

  it('refuses an expired token', async () => {
    const { sessionToken } = await createTestSession(h, env, { expiresIn: 60 });
    assert.equal((await probe(env, sessionToken)).status, 200);
    clock.advance(61_000);
    await assertInvalid(await probe(env, sessionToken), 'expired');
  });
});
