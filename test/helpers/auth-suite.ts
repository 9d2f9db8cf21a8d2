import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { generateKey } from '../../src/core/keys';
import { hashKey } from '../../src/core/keys';
import type { Credential } from '../../src/http/credentials';
import { revokeSession } from '../../src/services/sessions';
import { call, callServer, createTestEnvironment, createTestSession, json, type Harness, type RequestOptions, type TestEnvironment } from './harness';
import { startLiveServer, type LiveServer } from './live-server';

export interface AuthSuiteOptions {
  name: string;
  harness: () => Harness;
  /** The environment whose keys the route is called with. */
  env: () => TestEnvironment;
  /** An environment of another account. */
  other: () => TestEnvironment;
  method: string;
  path: () => string;
  credential: Credential;
  body?: () => unknown;
}

let deactivatedCount = 0;

/**
 * The authentication failures every protected route must answer the same way (DESIGN.md "Credentials").
 * Apply it to each route: `authFailureSuite({ name: 'GET /v1/imports', ... })`. Each case is sent twice: in
 * process (`app.request()`) and to the app served on a real socket (node-server and the Node HTTP server in
 * front of it), so that no request path of the running server escapes these cases.
 */
export function authFailureSuite(o: AuthSuiteOptions): void {
  authFailures(o, 'in process');
  authFailures(o, 'over a socket');
}

function authFailures(o: AuthSuiteOptions, transport: 'in process' | 'over a socket'): void {
  let served: { harness: Harness; server: LiveServer } | undefined;
  const serverOf = async (h: Harness) => {
    if (served?.harness !== h) {
      await served?.server.close();
      served = { harness: h, server: await startLiveServer(h) };
    }
    return served.server;
  };
  const send = async (options: RequestOptions) => {
    const body = o.body?.();
    const sent = body === undefined ? options : { body, ...options };
    if (transport === 'in process') return call(o.harness(), o.method, o.path(), sent);
    return callServer((await serverOf(o.harness())).url, o.method, o.path(), sent);
  };
  const expectError = async (response: Response, status: number, code: string) => {
    const payload = await json(response);
    assert.equal(response.status, status, JSON.stringify(payload));
    assert.equal(payload.error.code, code);
    assert.match(payload.error.requestId, /^req_/);
  };

  describe(`${o.name}: authentication failures, ${transport}`, () => {
    after(async () => {
      await served?.server.close();
      served = undefined;
    });

    it('answers 401 missing_credentials without a credential', async () => {
      await expectError(await send({}), 401, 'missing_credentials');
    });

    for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer a b', 'sk_abc', 'Bearer sk_short', 'Bearer xx_0123456789012345678901234567890123']) {
      it(`answers 401 invalid_api_key for Authorization "${authorization}"`, async () => {
        await expectError(await send({ headers: { Authorization: authorization } }), 401, 'invalid_api_key');
      });
    }

    it('answers 401 invalid_api_key for well-formed unknown keys of both kinds', async () => {
      for (const kind of ['secret', 'public'] as const) {
        await expectError(await send({ key: generateKey(kind).plaintext, origin: o.env().origin }), 401, 'invalid_api_key');
      }
    });

    it('answers 401 invalid_api_key for a deactivated key', async () => {
      const h = o.harness();
      const fresh = await createTestEnvironment(h, { name: `deactivated-${++deactivatedCount}-${Date.now()}` });
      for (const key of [fresh.secretKey, fresh.publicKey]) {
        await h.sql('UPDATE api_keys SET active = ?, deactivated_at = ? WHERE hash = ?', false, new Date().toISOString(), hashKey(key));
        await expectError(await send({ key, origin: fresh.origin }), 401, 'invalid_api_key');
      }
    });

    it('answers 403 secret_key_in_browser for a Secret Key sent with any Origin, with no CORS allowance', async () => {
      for (const origin of [o.env().origin, 'https://evil.example.net', 'null']) {
        const response = await send({ key: o.env().secretKey, origin });
        assert.equal(response.headers.get('Access-Control-Allow-Origin'), null);
        await expectError(response, 403, 'secret_key_in_browser');
      }
    });

    it('answers 401 with WWW-Authenticate naming the Bearer scheme', async () => {
      const response = await send({});
      assert.match(response.headers.get('WWW-Authenticate') ?? '', /^Bearer realm="importd"/);
    });

    if (o.credential === 'secret') {
      it('answers 403 wrong_key_kind for a Public Key, even from an allowed origin', async () => {
        await expectError(await send({ key: o.env().publicKey, origin: o.env().origin }), 403, 'wrong_key_kind');
      });
      return;
    }

    for (const origin of ['https://evil.example.net', 'null', 'https://app.example.com.evil.net', 'http://app.example.com']) {
      it(`answers 403 origin_not_allowed for a Public Key from ${origin}`, async () => {
        const response = await send({ key: o.env().publicKey, origin });
        assert.equal(response.headers.get('Access-Control-Allow-Origin'), null);
        await expectError(response, 403, 'origin_not_allowed');
      });
    }

    it('answers 403 origin_not_allowed for a Public Key without an Origin', async () => {
      await expectError(await send({ key: o.env().publicKey }), 403, 'origin_not_allowed');
    });

    it('accepts the Public Key in X-Public-Key as well as a bearer token (not rejected as a credential)', async () => {
      const response = await send({ headers: { 'X-Public-Key': o.env().publicKey, Origin: 'https://evil.example.net' } });
      await expectError(response, 403, 'origin_not_allowed');
    });

    if (o.credential !== 'secret-or-session') return;

    const withSession = (session: string) => send({ key: o.env().publicKey, origin: o.env().origin, session });

    it('answers 401 invalid_session for malformed, forged, alg:none, expired and unknown tokens', async () => {
      const h = o.harness();
      const env = o.env();
      const now = Math.floor(h.ctx.clock().getTime() / 1000);
      const claims = { acc: env.accountId, env: env.environmentId };
      const sign = (secret: Uint8Array, exp: number, jti = 'unknown-jti') =>
        new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject('u').setJti(jti).setIssuedAt(now - 10).setExpirationTime(exp).sign(secret);
      const issued = await createTestSession(h, env);
      const validJti = JSON.parse(Buffer.from(issued.sessionToken.split('.')[1]!, 'base64url').toString()).jti as string;
      const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(
        JSON.stringify({ ...claims, sub: 'u', jti: validJti, exp: now + 3600 }),
      ).toString('base64url')}.`;
      const tokens = {
        garbage: 'not-a-token',
        forged: await sign(new TextEncoder().encode('another-secret-of-at-least-32-characters!'), now + 3600, validJti),
        algNone: unsigned,
        expired: await sign(h.ctx.sessionSecret, now - 1, validJti),
        unknownJti: await sign(h.ctx.sessionSecret, now + 3600),
        tampered: `${issued.sessionToken.slice(0, -2)}${issued.sessionToken.endsWith('AA') ? 'BB' : 'AA'}`,
      };
      for (const [name, token] of Object.entries(tokens)) {
        const response = await withSession(token);
        assert.equal(response.status, 401, name);
        assert.equal((await json(response)).error.code, 'invalid_session', name);
      }
    });

    it('answers 401 invalid_session for a Public Key without any session token', async () => {
      await expectError(await send({ key: o.env().publicKey, origin: o.env().origin }), 401, 'invalid_session');
    });

    it('answers 401 invalid_session for a revoked token', async () => {
      const h = o.harness();
      const issued = await createTestSession(h, o.env());
      const jti = JSON.parse(Buffer.from(issued.sessionToken.split('.')[1]!, 'base64url').toString()).jti as string;
      await revokeSession(h.ctx, o.env().accountId, jti);
      await expectError(await withSession(issued.sessionToken), 401, 'invalid_session');
    });

    it("answers 401 invalid_session for another environment's token", async () => {
      const issued = await createTestSession(o.harness(), o.other());
      await expectError(await withSession(issued.sessionToken), 401, 'invalid_session');
    });
  });
}
