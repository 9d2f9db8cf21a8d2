import assert from 'node:assert/strict';
import { get as httpGet } from 'node:http';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config/config';
import { clientAddressOf } from '../../src/http/client-address';
import { issueSession } from '../../src/services/sessions';
import { MAX_STREAMS_PER_CLIENT } from '../../src/services/themes/theme-events';
import { validTheme } from '../helpers/fixtures';
import { call, json } from '../helpers/harness';
import { waitFor } from '../helpers/live-server';
import { useHarness, useLiveHarness } from '../helpers/use-harness';

// Behind a reverse proxy every request comes from the proxy's socket: the client is in X-Forwarded-For, believed
// only from the proxies IMPORTD_TRUSTED_PROXIES names, and read from the right (entries left of the first one
// not written by a trusted proxy are the client's own text).

const PROXY = '10.0.0.2';
const trusted = loadConfig({ IMPORTD_TRUSTED_PROXIES: '10.0.0.0/8, fd00::/8' }).trustedProxies;

describe('client address behind trusted proxies: the Public Key rate limit', () => {
  const { h, env } = useHarness({ config: { IMPORTD_RATE_LIMIT: '3', IMPORTD_RATE_WINDOW_SECONDS: '60', IMPORTD_TRUSTED_PROXIES: '10.0.0.0/8, fd00::/8' } });
  const asPage = (address: string, forwardedFor?: string) =>
    call(h, 'GET', '/v1/themes', { key: env.publicKey, origin: env.origin, address, headers: forwardedFor === undefined ? {} : { 'X-Forwarded-For': forwardedFor } });
  const remaining = async (address: string, forwardedFor?: string) => {
    const response = await asPage(address, forwardedFor);
    return response.status === 429 ? 429 : response.headers.get('RateLimit-Remaining');
  };

  it('counts two clients behind one proxy apart: each gets its full allowance', async () => {
    assert.deepEqual([await remaining(PROXY, '198.51.100.1'), await remaining(PROXY, '198.51.100.1'), await remaining(PROXY, '198.51.100.1')], ['2', '1', '0']);
    assert.equal(await remaining(PROXY, '198.51.100.1'), 429);
    assert.deepEqual([await remaining(PROXY, '198.51.100.2'), await remaining(PROXY, '198.51.100.2'), await remaining(PROXY, '198.51.100.2')], ['2', '1', '0']);
    // An IPv6 proxy and client: the client counted by its /64, as a direct one is.
    assert.equal(await remaining('fd00::5', '2001:db8:1:2::1'), '2');
    assert.equal(await remaining('fd00::5', '2001:db8:1:2::99'), '1');
  });

  it("ignores X-Forwarded-For from a peer that is not a trusted proxy: it is counted as itself, whatever it claims", async () => {
    for (const claimed of ['198.51.100.10', '198.51.100.11', '198.51.100.12']) assert.notEqual(await remaining('192.0.2.50', claimed), 429);
    assert.equal(await remaining('192.0.2.50', '198.51.100.13'), 429);
    // Its requests went to its own address's count: a proxy forwarding that address finds it used up, and the
    // addresses it claimed untouched.
    assert.equal(await remaining('10.0.0.12', '192.0.2.50'), 429);
    assert.equal(await remaining('10.0.0.12', '198.51.100.10'), '2');
  });

  it('counts a client that prepends entries of its own as itself (the rightmost entry not a trusted proxy)', async () => {
    for (const fake of ['203.0.113.1', '203.0.113.2, 10.0.0.7', 'garbage']) assert.notEqual(await remaining('10.0.0.20', `${fake}, 198.51.100.20`), 429);
    assert.equal(await remaining('10.0.0.20', '203.0.113.3, 198.51.100.20'), 429);
    assert.equal(await remaining('10.0.0.20', '203.0.113.1'), '2');
  });

  it('skips chained trusted proxies', async () => {
    for (const left of ['2', '1', '0']) assert.equal(await remaining('10.0.0.30', '198.51.100.30, 10.0.0.3, 10.1.2.3'), left);
    assert.equal(await remaining('10.9.9.9', '198.51.100.30'), 429);
    assert.equal(await remaining('10.0.0.30', '198.51.100.31, fd00::1'), '2');
  });

  it('falls back to the proxy for a missing, empty or malformed header, without an error', async () => {
    const proxy = '10.0.0.40';
    const malformed = [undefined, '', ' ', ',', 'unknown', '198.51.100.40:8443', '[2001:db8::1]', '198.51.100.40, , 10.0.0.3', '1.2.3', `${'9'.repeat(5000)}`];
    const answers = [];
    for (const header of malformed) answers.push((await asPage(proxy, header)).status);
    assert.deepEqual(answers, [404, 404, 404, ...Array(malformed.length - 3).fill(429)]);
    // Each of them counted as the proxy; a well-formed one is its client's.
    assert.equal(await remaining(proxy, '198.51.100.40'), '2');
  });

  it('answers a header of thousands of entries at once, looking at no more than 20 of them', async () => {
    const many = (entry: (i: number) => string, n: number) => Array.from({ length: n }, (_, i) => entry(i)).join(', ');
    const spoofed = many((i) => `203.0.${i >> 8}.${i & 255}`, 5000);
    const hops = many((i) => `10.1.${i >> 8}.${i & 255}`, 5000);
    const started = performance.now();
    assert.equal(await remaining('10.0.0.50', `${spoofed}, 198.51.100.50`), '2');
    assert.equal(await remaining('10.0.0.50', `${spoofed}, 198.51.100.50, ${hops}`), '2');
    assert.ok(performance.now() - started < 1000);
    // The first counted as its client; the second, whose 5 000 rightmost entries are trusted proxies, as the
    // farthest entry looked at (10.1.19.116, the 20th from the right): its client is never reached.
    assert.equal(await remaining('10.0.0.51', '198.51.100.50'), '1');
    assert.equal(await remaining('10.0.0.51', '10.1.19.116'), '1');
  });
});

describe('clientAddressOf', () => {
  it('returns the forwarded client of a trusted peer; the peer when it is not trusted, or when nothing is', () => {
    assert.equal(clientAddressOf(trusted, '10.0.0.2', '198.51.100.1'), '198.51.100.1');
    assert.equal(clientAddressOf(trusted, '192.0.2.1', '198.51.100.1'), '192.0.2.1');
    assert.equal(clientAddressOf([], '10.0.0.2', '198.51.100.1'), '10.0.0.2');
    assert.equal(clientAddressOf(trusted, undefined, '198.51.100.1'), undefined);
  });

  it('takes an IPv4-mapped peer on a dual-stack socket as its IPv4 address', () => {
    assert.equal(clientAddressOf(trusted, '::ffff:10.0.0.2', '198.51.100.1'), '198.51.100.1');
  });

  it('stops after 20 entries: 20 trusted hops in a row end on the farthest looked at, never reading further left', () => {
    const hops = Array.from({ length: 20 }, (_, i) => `10.0.1.${i + 1}`);
    assert.equal(clientAddressOf(trusted, PROXY, ['198.51.100.1', ...hops.slice(1)].join(', ')), '198.51.100.1');
    assert.equal(clientAddressOf(trusted, PROXY, ['198.51.100.1', ...hops].join(', ')), '10.0.1.1');
    assert.equal(clientAddressOf(trusted, PROXY, hops.slice(5).join(', ')), '10.0.1.6');
  });

});

describe('client address behind trusted proxies: theme streams and endUserIp', () => {
  const { h, env } = useHarness({ config: { IMPORTD_TRUSTED_PROXIES: PROXY } });

  it(`caps theme streams at ${MAX_STREAMS_PER_CLIENT} per forwarded client, not per proxy`, async () => {
    assert.equal((await call(h, 'POST', '/v1/themes', { key: env.secretKey, body: validTheme() })).status, 201);
    const streams: Response[] = [];
    const fromClient = async (client: string) => {
      const response = await call(h, 'GET', '/v1/themes/events', { key: env.publicKey, origin: env.origin, address: PROXY, headers: { 'X-Forwarded-For': client } });
      if (response.status === 200) streams.push(response);
      return response.status;
    };
    try {
      const opened = await Promise.all(Array.from({ length: MAX_STREAMS_PER_CLIENT }, () => fromClient('198.51.100.7')));
      assert.deepEqual(opened, Array(MAX_STREAMS_PER_CLIENT).fill(200));
      assert.equal(await fromClient('198.51.100.7'), 429);
      assert.equal(await fromClient('198.51.100.8'), 200);
    } finally {
      await Promise.all(streams.map((response) => response.body!.cancel()));
    }
    await waitFor(() => h.ctx.themeEvents.openStreams === 0);
  });

  it("records the forwarded client as an import's endUserIp when the session gives none", async () => {
    // The session's import creates its template: the environment must allow that.
    assert.equal((await call(h, 'PATCH', `/v1/environments/${env.name}`, { key: env.secretKey, body: { autoCreateTemplates: true } })).status, 200);
    const { sessionToken } = await issueSession(h.ctx, env, { endUserId: 'behind-proxy' });
    const response = await call(h, 'POST', '/v1/imports', {
      key: env.publicKey,
      origin: env.origin,
      session: sessionToken,
      address: PROXY,
      headers: { 'X-Forwarded-For': '203.0.113.5, 198.51.100.9' },
      body: { rows: [{ a: 1 }], meta: { schemaKey: 'contacts' } },
    });
    assert.equal(response.status, 201, await response.clone().text());
    const detail = await json(await call(h, 'GET', `/v1/imports/${(await json(response)).id}`, { key: env.secretKey }));
    assert.equal(detail.endUserIp, '198.51.100.9');
  });
});

describe('client address behind trusted proxies, over real sockets', () => {
  // Loopback is all of 127.0.0.0/8 on Linux: 127.0.0.1 plays the proxy, 127.0.0.2 a client reaching the node directly.
  const { env, server } = useLiveHarness({ config: { IMPORTD_RATE_LIMIT: '2', IMPORTD_RATE_WINDOW_SECONDS: '60', IMPORTD_TRUSTED_PROXIES: '127.0.0.1' } });
  const from = (localAddress: string, forwardedFor?: string | string[]) =>
    new Promise<number | string>((resolve, reject) => {
      const headers: Record<string, string | string[]> = { 'X-Public-Key': env.publicKey, Origin: env.origin };
      if (forwardedFor !== undefined) headers['X-Forwarded-For'] = forwardedFor;
      httpGet(`${server.url}/v1/themes`, { localAddress, headers, agent: false }, (response) => {
        response.resume();
        resolve(response.statusCode === 429 ? 429 : String(response.headers['ratelimit-remaining']));
      }).on('error', reject);
    });

  it("takes the client from a trusted peer's X-Forwarded-For, and ignores it from any other peer", async () => {
    assert.deepEqual([await from('127.0.0.1', '198.51.100.7'), await from('127.0.0.1', '198.51.100.7'), await from('127.0.0.1', '198.51.100.7')], ['1', '0', 429]);
    assert.equal(await from('127.0.0.1', '198.51.100.8'), '1');
    // Repeated headers are one list (RFC 9110): the last entry is the client's, already at its limit.
    assert.equal(await from('127.0.0.1', ['203.0.113.77', '198.51.100.7']), 429);
    assert.equal(await from('127.0.0.2', '198.51.100.9'), '1');
    assert.equal(await from('127.0.0.2', '198.51.100.10'), '0');
    assert.equal(await from('127.0.0.1', '198.51.100.9'), '1');
  });
});
