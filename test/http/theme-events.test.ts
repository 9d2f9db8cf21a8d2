import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deleteEnvironment, rollEnvironmentKey, updateEnvironmentOrigins } from '../../src/services/environments';
import { updateTheme, type ThemeInput } from '../../src/services/themes';
import { MAX_STREAMS_PER_CLIENT, MAX_STREAMS_PER_KEY } from '../../src/services/themes/theme-events';
import { validTheme } from '../helpers/fixtures';
import { call, createHarness, createTestEnvironment, json, type Harness, type TestEnvironment } from '../helpers/harness';
import { startLiveServer, waitFor, type LiveServer } from '../helpers/live-server';
import { joinNode } from '../helpers/nodes';
import { readEvents } from '../helpers/sse';

describe('GET /v1/themes/events', () => {
  let h: Harness;
  let env: TestEnvironment;
  let server: LiveServer;
  const open = (headers: Record<string, string> = { 'X-Public-Key': env.publicKey, Origin: env.origin }) =>
    fetch(`${server.url}/v1/themes/events`, { headers });

  before(async () => {
    h = await createHarness();
    env = await createTestEnvironment(h);
    assert.equal((await call(h, 'POST', '/v1/themes', { key: env.secretKey, body: validTheme() })).status, 201);
    server = await startLiveServer(h);
  });
  after(async () => {
    h.ctx.themeEvents.closeAll();
    await server.close();
    h.close();
  });

  it('sends the current theme, then every change made through PUT /v1/themes', async () => {
    const response = await open();
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('Content-Type'), 'text/event-stream');
    assert.equal(response.headers.get('Access-Control-Allow-Origin'), env.origin);
    const events = readEvents(response);
    assert.equal((await events.next('theme')).lightColors.primary, '#ffffff');
    const put = await call(h, 'PUT', '/v1/themes', { key: env.secretKey, body: validTheme({ name: 'Live', lightColors: { ...validTheme().lightColors, primary: '#ff0000' } }) });
    assert.equal(put.status, 200);
    const changed = await events.next('theme');
    assert.equal(changed.name, 'Live');
    assert.equal(changed.lightColors.primary, '#ff0000');
    await events.cancel();
    await waitFor(() => h.ctx.themeEvents.openStreams === 0);
  });

  it('sees a change written by another process on the same database (notices; the shared poller on SQLite)', async () => {
    const events = readEvents(await open());
    await events.next('theme');
    const otherProcess = await joinNode(h);
    try {
      await updateTheme(otherProcess.ctx, env.accountId, validTheme({ name: 'From another node' }) as ThemeInput);
    } finally {
      await otherProcess.close();
    }
    assert.equal((await events.next('theme')).name, 'From another node');
    await events.cancel();
  });

  it('refuses a missing key and an origin not allowed, like the other Public Key routes', async () => {
    assert.equal((await json(await open({}))).error.code, 'missing_credentials');
    const foreign = await open({ 'X-Public-Key': env.publicKey, Origin: 'https://evil.example.net' });
    assert.equal(foreign.status, 403);
    assert.equal((await json(foreign)).error.code, 'origin_not_allowed');
  });

  it('answers like every route: a Secret Key from a page refused, no CORS allowance for a foreign origin, never *, no credential echoed', async () => {
    const inPage = await open({ Authorization: `Bearer ${env.secretKey}`, Origin: env.origin });
    assert.equal(inPage.status, 403);
    assert.equal((await json(inPage)).error.code, 'secret_key_in_browser');
    assert.equal(inPage.headers.get('Access-Control-Allow-Origin'), null);
    const secret = await open({ Authorization: `Bearer ${env.secretKey}` });
    assert.equal(secret.headers.get('Access-Control-Allow-Origin'), null);
    const foreign = await open({ 'X-Public-Key': env.publicKey, Origin: 'https://evil.example.net' });
    assert.equal(foreign.headers.get('Access-Control-Allow-Origin'), null);
    const allowed = await open();
    assert.match(allowed.headers.get('X-Request-Id') ?? '', /^req_/);
    assert.equal(allowed.headers.get('X-Content-Type-Options'), 'nosniff');
    for (const response of [secret, allowed]) {
      const events = readEvents(response);
      await events.next('theme');
      for (const credential of [env.secretKey, env.publicKey]) {
        assert.ok(!events.received().includes(credential));
        assert.ok(![...response.headers.values()].some((value) => value.includes(credential)));
      }
      await events.cancel();
    }
    await foreign.text();
  });

  it(`allows at most ${MAX_STREAMS_PER_KEY} open streams per key (429 rate_limited beyond), and frees a slot on disconnect`, async () => {
    // A Secret Key, whose streams from one address (its backend) are not capped per client.
    const secret = { Authorization: `Bearer ${env.secretKey}` };
    const opened = await Promise.all(Array.from({ length: MAX_STREAMS_PER_KEY }, () => open(secret)));
    assert.ok(opened.every((response) => response.status === 200));
    const refused = await open(secret);
    assert.equal(refused.status, 429);
    assert.equal((await json(refused)).error.code, 'rate_limited');
    assert.ok(Number(refused.headers.get('Retry-After')) > 0);
    await Promise.all(opened.map((response) => response.body!.cancel()));
    await waitFor(() => h.ctx.themeEvents.openStreams === 0);
    const again = await open(secret);
    assert.equal(again.status, 200);
    await again.body!.cancel();
  });

  it(`allows at most ${MAX_STREAMS_PER_CLIENT} open streams per Public Key and client address, so one client with a forged Origin cannot take the key's streams from its end-users`, async () => {
    // Every stream this test opens, ended however it ends (a stream left open would hold the next tests' counts).
    const streams: Response[] = [];
    const fromClient = async (address: string) => {
      const response = await call(h, 'GET', '/v1/themes/events', { key: env.publicKey, origin: env.origin, address });
      if (response.status === 200) streams.push(response);
      return response;
    };
    await waitFor(() => h.ctx.themeEvents.openStreams === 0);
    try {
      const opened = await Promise.all(Array.from({ length: MAX_STREAMS_PER_CLIENT }, () => fromClient('198.51.100.7')));
      assert.deepEqual(opened.map((response) => response.status), Array(MAX_STREAMS_PER_CLIENT).fill(200));
      const refused = await fromClient('198.51.100.7');
      assert.equal(refused.status, 429);
      const { error } = await json(refused);
      assert.equal(error.code, 'rate_limited');
      assert.match(error.message, /per Public Key and client address/);
      assert.ok(Number(refused.headers.get('Retry-After')) > 0);
      assert.equal(refused.headers.get('Access-Control-Allow-Origin'), env.origin);
      // The same client over an IPv4-mapped IPv6 socket is the same client.
      assert.equal((await fromClient('::ffff:198.51.100.7')).status, 429);
      assert.equal((await fromClient('203.0.113.9')).status, 200);
      assert.equal(h.ctx.themeEvents.openStreams, MAX_STREAMS_PER_CLIENT + 1);
      await streams.shift()!.body!.cancel();
      await waitFor(() => h.ctx.themeEvents.openStreams === MAX_STREAMS_PER_CLIENT);
      assert.equal((await fromClient('198.51.100.7')).status, 200);
    } finally {
      await Promise.all(streams.map((response) => response.body!.cancel()));
    }
    await waitFor(() => h.ctx.themeEvents.openStreams === 0);
  });

  it("ends a stream once its key is rolled or its environment deleted, or its origin is no longer allowed; a roll's grace period keeps it", async () => {
    const scope = { accountId: env.accountId };
    const streamOf = async (e: TestEnvironment, headers = { 'X-Public-Key': e.publicKey, Origin: e.origin }) => {
      const events = readEvents(await open(headers));
      await events.next('theme');
      return events;
    };
    const change = async (name: string) => {
      const put = await call(h, 'PUT', '/v1/themes', { key: env.secretKey, body: validTheme({ name }) });
      assert.equal(put.status, 200);
    };
    const rolled = await createTestEnvironment(h, { name: 'rolled' });
    const graced = await createTestEnvironment(h, { name: 'graced' });
    const narrowed = await createTestEnvironment(h, { name: 'narrowed', origins: ['https://a.example.com', 'https://b.example.com'] });
    const deleted = await createTestEnvironment(h, { name: 'deleted' });
    const streams = {
      rolled: await streamOf(rolled),
      rolledSecret: await streamOf(rolled, { Authorization: `Bearer ${rolled.secretKey}` } as never),
      graced: await streamOf(graced),
      narrowedAway: await streamOf(narrowed, { 'X-Public-Key': narrowed.publicKey, Origin: 'https://b.example.com' }),
      narrowedKept: await streamOf(narrowed, { 'X-Public-Key': narrowed.publicKey, Origin: 'https://a.example.com' }),
      deleted: await streamOf(deleted),
    };
    await rollEnvironmentKey(h.ctx, scope, 'rolled', { kind: 'public' });
    await rollEnvironmentKey(h.ctx, scope, 'rolled', { kind: 'secret' });
    await rollEnvironmentKey(h.ctx, scope, 'graced', { kind: 'public', expireOldInSeconds: 3600 });
    await updateEnvironmentOrigins(h.ctx, scope, 'narrowed', { allowedOrigins: ['https://a.example.com'] });
    await deleteEnvironment(h.ctx, scope, 'deleted');
    await change('After the revocations');
    for (const name of ['rolled', 'rolledSecret', 'narrowedAway', 'deleted'] as const) {
      const stillOpen = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${name}: the stream is still open`)), 5_000).unref());
      await Promise.race([streams[name].ended(), stillOpen]);
      assert.ok(!streams[name].received().includes('After the revocations'), `${name}: the change is not sent`);
    }
    for (const name of ['graced', 'narrowedKept'] as const) {
      assert.equal((await streams[name].next('theme')).name, 'After the revocations', name);
      await streams[name].cancel();
    }
    await waitFor(() => h.ctx.themeEvents.openStreams === 0);
    const refused = await open({ 'X-Public-Key': rolled.publicKey, Origin: rolled.origin });
    assert.equal(refused.status, 401);
    await refused.text();
  });

  it('ends every open stream when the server shuts down, so the drain does not wait for them', async () => {
    const events = readEvents(await open());
    await events.next('theme');
    h.ctx.themeEvents.closeAll();
    await events.ended();
    const late = await open();
    assert.equal(late.status, 429);
  });

  it('is described in the OpenAPI document with an operationId and tags', async () => {
    const document = await json(await call(h, 'GET', '/v1/openapi.json'));
    const operation = document.paths['/themes/events']?.get ?? document.paths['/v1/themes/events']?.get;
    assert.equal(operation.operationId, 'streamThemeEvents');
    assert.deepEqual(operation.tags, ['Themes']);
    assert.ok(operation.description.length > 0);
    assert.ok(operation.responses['200'].content['text/event-stream']);
  });
});
