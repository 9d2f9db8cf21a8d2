import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { verifySession } from '../../src/services/auth';
import { ServiceError } from '../../src/services/errors';
import { createTemplate } from '../../src/services/templates';
import { call, json, testClock, type TestEnvironment } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

describe('sessions', () => {
  const clock = testClock();
  const { h, env, sibling, other } = useHarness({ clock, environments: { sibling: { name: 'staging' }, other: { account: 'other-account' } } });
  let templateId: string;
  let foreignTemplateId: string;
  const issue = (body: unknown, key = env.secretKey) => call(h, 'POST', '/v1/sessions', { key, body });
  const sessionRow = (jti: string) => h.ctx.store.sessions.find(jti);
  const countRows = async () => (await h.sql('SELECT count(*) AS n FROM sessions'))[0]!.n;
  const jtiOf = (token: string) => decodeJwt(token).jti as string;
  /** A request that takes a session: GET /v1/templates/{id} with the Public Key, its origin and the token. */
  const useToken = (token: string, as: TestEnvironment = env) =>
    call(h, 'GET', `/v1/templates/${templateId}`, { key: as.publicKey, origin: as.origin, session: token });
  const rejectsSession = async (promise: Promise<unknown>) =>
    assert.rejects(promise, (error: unknown) => error instanceof ServiceError && error.code === 'invalid_session');

  before(async () => {
    templateId = (await createTemplate(h.ctx, env.accountId, { schema: { key: 'contacts' } })).id;
    foreignTemplateId = (await createTemplate(h.ctx, other.accountId, { schema: { key: 'contacts' } })).id;
  });

  describe('POST /v1/sessions', () => {
    it('answers 201 with exactly { sessionToken, expiresAt }, an hour by default, and stores the jti', async () => {
      const response = await issue({ endUserId: 'user-42', endUserEmail: 'a@example.com', endUserIp: '10.0.0.1', metadata: { plan: 'pro' }, templateId });
      assert.equal(response.status, 201);
      const body = await json(response);
      assert.deepEqual(Object.keys(body).sort(), ['expiresAt', 'sessionToken']);
      assert.equal(body.expiresAt, new Date(clock().getTime() + 3600_000).toISOString());
      const claims = decodeJwt(body.sessionToken);
      assert.equal(claims.sub, 'user-42');
      assert.equal(claims.exp, Math.floor(clock().getTime() / 1000) + 3600);
      const row = (await sessionRow(claims.jti!))!;
      assert.deepEqual(
        [row.accountId, row.environmentId, row.endUserId, row.endUserEmail, row.endUserIp, row.templateId, row.metadata, row.revokedAt],
        [env.accountId, env.environmentId, 'user-42', 'a@example.com', '10.0.0.1', templateId, '{"plan":"pro"}', null],
      );
    });

    const accepted: [string, Record<string, unknown>, number?][] = [
      ['endUserId of 1 character', { endUserId: 'u' }],
      ['endUserId of 255 characters', { endUserId: 'u'.repeat(255) }],
      ['expiresIn 60', { endUserId: 'u', expiresIn: 60 }, 60],
      ['expiresIn 86400', { endUserId: 'u', expiresIn: 86400 }, 86400],
      ['a dotted IPv4 address', { endUserId: 'u', endUserIp: '192.168.1.254' }],
      ['four groups of 1-3 digits, as the spec writes it', { endUserId: 'u', endUserIp: '999.0.0.1' }],
      ['an IPv6 address', { endUserId: 'u', endUserIp: '2001:db8::ff00:42:8329' }],
      ['the IPv6 loopback', { endUserId: 'u', endUserIp: '::1' }],
      ['metadata of nested values', { endUserId: 'u', metadata: { a: [1, { b: null }], c: true } }],
    ];
    for (const [name, body, expiresIn] of accepted) {
      it(`accepts ${name}`, async () => {
        const response = await issue(body);
        assert.equal(response.status, 201, await response.clone().text());
        const { expiresAt } = await json(response);
        assert.equal(expiresAt, new Date(clock().getTime() + (expiresIn ?? 3600) * 1000).toISOString());
      });
    }

    const rejected: [string, unknown, string][] = [
      ['no endUserId', {}, 'endUserId'],
      ['endUserId empty (0 characters)', { endUserId: '' }, 'endUserId'],
      ['endUserId of 256 characters', { endUserId: 'u'.repeat(256) }, 'endUserId'],
      ['endUserId a number', { endUserId: 42 }, 'endUserId'],
      ['endUserEmail without @', { endUserId: 'u', endUserEmail: 'not-an-email' }, 'endUserEmail'],
      ['endUserEmail without domain', { endUserId: 'u', endUserEmail: 'a@' }, 'endUserEmail'],
      ['endUserEmail empty', { endUserId: 'u', endUserEmail: '' }, 'endUserEmail'],
      ['endUserIp of three groups', { endUserId: 'u', endUserIp: '1.2.3' }, 'endUserIp'],
      ['endUserIp of five groups', { endUserId: 'u', endUserIp: '1.2.3.4.5' }, 'endUserIp'],
      ['endUserIp with a 4-digit group', { endUserId: 'u', endUserIp: '1234.1.1.1' }, 'endUserIp'],
      ['endUserIp with a non-hex letter', { endUserId: 'u', endUserIp: 'g::1' }, 'endUserIp'],
      ['endUserIp with a trailing space', { endUserId: 'u', endUserIp: '::1 ' }, 'endUserIp'],
      ['endUserIp empty', { endUserId: 'u', endUserIp: '' }, 'endUserIp'],
      ['endUserIp mixing the two forms', { endUserId: 'u', endUserIp: '::ffff:1.2.3.4' }, 'endUserIp'],
      ['expiresIn 59', { endUserId: 'u', expiresIn: 59 }, 'expiresIn'],
      ['expiresIn 86401', { endUserId: 'u', expiresIn: 86401 }, 'expiresIn'],
      ['expiresIn not an integer', { endUserId: 'u', expiresIn: 3600.5 }, 'expiresIn'],
      ['expiresIn a string', { endUserId: 'u', expiresIn: '3600' }, 'expiresIn'],
      ['expiresIn 0', { endUserId: 'u', expiresIn: 0 }, 'expiresIn'],
      ['metadata an array', { endUserId: 'u', metadata: [] }, 'metadata'],
      ['metadata a string', { endUserId: 'u', metadata: 'x' }, 'metadata'],
      ['metadata null', { endUserId: 'u', metadata: null }, 'metadata'],
      ['metadata over 4 KiB', { endUserId: 'u', metadata: { blob: 'x'.repeat(4096) } }, 'metadata'],
      ['templateId not a uuid', { endUserId: 'u', templateId: 'contacts' }, 'templateId'],
      ['templateId a number', { endUserId: 'u', templateId: 1 }, 'templateId'],
    ];
    for (const [name, body, path] of rejected) {
      it(`rejects ${name}: 400 validation_failed at ${path}, storing nothing`, async () => {
        const before = await countRows();
        const response = await issue(body);
        assert.equal(response.status, 400);
        const { error } = await json(response);
        assert.equal(error.code, 'validation_failed');
        assert.ok(error.details.some((d: { path: string }) => d.path === path), JSON.stringify(error.details));
        assert.equal(await countRows(), before);
      });
    }

    for (const [name, id] of [
      ['an unknown template', '0190a000-0000-7000-8000-000000000000'],
      ["another account's template", () => foreignTemplateId],
    ] as const) {
      it(`answers 404 for ${name}, storing nothing`, async () => {
        const before = await countRows();
        const response = await issue({ endUserId: 'u', templateId: typeof id === 'function' ? id() : id });
        assert.equal(response.status, 404);
        assert.equal((await json(response)).error.code, 'not_found');
        assert.equal(await countRows(), before);
      });
    }
  });

  describe('the token', () => {
    it("is accepted with its environment's Public Key, by the service and by a route", async () => {
      const { sessionToken } = await json(await issue({ endUserId: 'user-7', endUserEmail: 'u7@example.com', templateId }));
      const claims = await verifySession(h.ctx, sessionToken, env);
      assert.equal(claims.endUserId, 'user-7');
      assert.equal(claims.endUserEmail, 'u7@example.com');
      assert.equal(claims.templateId, templateId);
      assert.equal((await useToken(sessionToken)).status, 200);
    });

    it("is rejected with another environment's Public Key (same account or another)", async () => {
      const { sessionToken } = await json(await issue({ endUserId: 'u' }));
      await rejectsSession(verifySession(h.ctx, sessionToken, sibling));
      await rejectsSession(verifySession(h.ctx, sessionToken, other));
      const response = await useToken(sessionToken, sibling);
      assert.equal(response.status, 401);
      assert.equal((await json(response)).error.code, 'invalid_session');
    });

    it('is rejected after DELETE /v1/sessions/{jti}, which stays idempotent', async () => {
      const { sessionToken } = await json(await issue({ endUserId: 'u' }));
      const jti = jtiOf(sessionToken);
      const revoked = await call(h, 'DELETE', `/v1/sessions/${jti}`, { key: env.secretKey });
      assert.equal(revoked.status, 200);
      const body = await json(revoked);
      assert.deepEqual(body, { jti, revokedAt: clock().toISOString() });
      assert.equal((await sessionRow(jti))!.revokedAt, body.revokedAt);
      await rejectsSession(verifySession(h.ctx, sessionToken, env));
      assert.equal((await useToken(sessionToken)).status, 401);
      clock.advance(1000);
      const again = await call(h, 'DELETE', `/v1/sessions/${jti}`, { key: env.secretKey });
      assert.deepEqual(await json(again), body);
    });

    it("answers 404 to DELETE of an unknown jti and of another account's session, revoking nothing", async () => {
      const { sessionToken } = await json(await issue({ endUserId: 'u' }));
      const jti = jtiOf(sessionToken);
      assert.equal((await call(h, 'DELETE', '/v1/sessions/unknown-jti', { key: env.secretKey })).status, 404);
      const foreign = await call(h, 'DELETE', `/v1/sessions/${jti}`, { key: other.secretKey });
      assert.equal(foreign.status, 404);
      assert.equal((await json(foreign)).error.code, 'not_found');
      assert.equal((await sessionRow(jti))!.revokedAt, null);
      assert.equal((await useToken(sessionToken)).status, 200);
    });

    it('is accepted until it expires and rejected from then on (injected clock)', async () => {
      const { sessionToken, expiresAt } = await json(await issue({ endUserId: 'u', expiresIn: 60 }));
      clock.advance(59_999);
      await verifySession(h.ctx, sessionToken, env);
      assert.equal((await useToken(sessionToken)).status, 200);
      clock.advance(1);
      assert.equal(clock().toISOString(), expiresAt);
      await rejectsSession(verifySession(h.ctx, sessionToken, env));
      const response = await useToken(sessionToken);
      assert.equal(response.status, 401);
      assert.match((await json(response)).error.message, /expired/);
    });
  });

  describe('the token against POST /v1/imports', () => {
    const stored = async () => (await h.sql('SELECT (SELECT count(*) FROM imports) AS imports, (SELECT count(*) FROM import_rows) AS rows'))[0];
    /** Posts a one-row import with `as`'s Public Key and origin, the token in the header or in `meta.sessionToken`. */
    const postImport = (token: string, via: 'X-Session-Token' | 'meta.sessionToken', as: TestEnvironment = env) =>
      call(h, 'POST', '/v1/imports', {
        key: as.publicKey,
        origin: as.origin,
        ...(via === 'X-Session-Token' && { session: token }),
        body: { meta: { schemaKey: 'contacts', ...(via === 'meta.sessionToken' && { sessionToken: token }) }, rows: [{ name: 'a' }] },
      });
    const accepted = async (response: Response, token: string) => {
      assert.equal(response.status, 201, await response.clone().text());
      const { id } = await json(response);
      const [row] = await h.sql('SELECT environment_id AS "environmentId", session_jti AS jti, end_user_id AS "endUserId" FROM imports WHERE id = ?', id);
      assert.deepEqual(row, { environmentId: env.environmentId, jti: jtiOf(token), endUserId: 'u' });
    };
    /** 401 invalid_session and nothing stored, not even a partial import. */
    const rejected = async (send: () => Promise<Response>, message?: RegExp) => {
      const before = await stored();
      const response = await send();
      assert.equal(response.status, 401, await response.clone().text());
      const { error } = await json(response);
      assert.equal(error.code, 'invalid_session');
      if (message) assert.match(error.message, message);
      assert.deepEqual(await stored(), before);
    };

    for (const via of ['X-Session-Token', 'meta.sessionToken'] as const) {
      it(`is accepted with its environment's Public Key (token in ${via}); the import records the session`, async () => {
        const { sessionToken } = await json(await issue({ endUserId: 'u' }));
        await accepted(await postImport(sessionToken, via), sessionToken);
      });

      it(`is rejected with another environment's Public Key, same account or another (token in ${via})`, async () => {
        const { sessionToken } = await json(await issue({ endUserId: 'u' }));
        await rejected(() => postImport(sessionToken, via, sibling));
        await rejected(() => postImport(sessionToken, via, other));
      });

      it(`is rejected after DELETE /v1/sessions/{jti} (token in ${via})`, async () => {
        const { sessionToken } = await json(await issue({ endUserId: 'u' }));
        await accepted(await postImport(sessionToken, via), sessionToken);
        assert.equal((await call(h, 'DELETE', `/v1/sessions/${jtiOf(sessionToken)}`, { key: env.secretKey })).status, 200);
        await rejected(() => postImport(sessionToken, via));
      });

      it(`is rejected once expired, by the injected clock (token in ${via})`, async () => {
        const { sessionToken } = await json(await issue({ endUserId: 'u', expiresIn: 60 }));
        clock.advance(59_999);
        await accepted(await postImport(sessionToken, via), sessionToken);
        clock.advance(1);
        await rejected(() => postImport(sessionToken, via), /expired/);
      });
    }
  });
});
