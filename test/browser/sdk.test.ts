import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'puppeteer-core';
import { createTemplate } from '../../src/services/templates';
import { chromiumSkipReason, launchChromium, servePage, type Chromium, type PageServer } from '../helpers/chromium';
import { createHarness, createTestEnvironment, createTestSession, type Harness, type TestEnvironment } from '../helpers/harness';
import { startLiveServer, type LiveServer } from '../helpers/live-server';
import { countRows, createImportOk } from '../imports/helpers';

interface PageAnswer {
  status?: number;
  body?: any;
  requestId?: string | null;
  /** Set when the browser hid the answer from the page ("Failed to fetch"). */
  error?: string;
}

/** Runs fetch() in the page, as SDK code would, and returns what the page can see of the answer. */
function fetchInPage(page: Page, url: string, init: { method?: string; headers?: Record<string, string>; body?: string }): Promise<PageAnswer> {
  return page.evaluate(async (url, init) => {
    try {
      const response = await fetch(url, init);
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null, requestId: response.headers.get('X-Request-Id') };
    } catch (error) {
      return { error: String(error) };
    }
  }, url, init);
}

describe('the API as an SDK in headless Chromium sees it', { skip: chromiumSkipReason() }, () => {
  let h: Harness;
  let server: LiveServer;
  let chromium: Chromium;
  let customer: PageServer;
  let stranger: PageServer;
  let page: Page;
  let env: TestEnvironment;
  let limited: TestEnvironment;
  let session: string;

  before(async () => {
    // Small enough to reach the body and rate limits from a page in a few requests.
    h = await createHarness({ config: { IMPORTD_MAX_BODY: '4kb', IMPORTD_RATE_LIMIT: '25' } });
    customer = await servePage();
    stranger = await servePage();
    env = await createTestEnvironment(h, { origins: [customer.origin] });
    limited = await createTestEnvironment(h, { name: 'limited', origins: [customer.origin] });
    await createTemplate(h.ctx, env.accountId, { key: 'contacts', schema: { key: 'contacts', fields: [{ key: 'email' }] } });
    session = (await createTestSession(h, env)).sessionToken;
    server = await startLiveServer(h);
    chromium = await launchChromium();
    page = await chromium.browser.newPage();
    await page.goto(`${customer.origin}/`);
  });
  after(async () => {
    await chromium?.close();
    await server?.close();
    await customer?.close();
    await stranger?.close();
    h?.close();
  });

  const sdkHeaders = (extra: Record<string, string> = {}) => ({
    'Content-Type': 'application/json',
    'X-Public-Key': env.publicKey,
    'X-Session-Token': session,
    ...extra,
  });
  const importBody = (rows: unknown[] = [{ email: 'a@b.co' }]) => JSON.stringify({ meta: { schemaKey: 'contacts' }, rows });

  it('posts an import with the Public Key and a session, through a preflight that asks for tracing headers', async () => {
    const tracing = {
      traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      tracestate: 'vendor=x',
      baggage: 'user=1',
      'sentry-trace': '4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1',
    };
    const answer = await fetchInPage(page, `${server.url}/v1/imports`, { method: 'POST', headers: sdkHeaders(tracing), body: importBody() });
    assert.equal(answer.error, undefined, answer.error);
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    assert.equal(answer.body.importedFrom, customer.origin);
    assert.match(answer.requestId ?? '', /^req_/, 'X-Request-Id is exposed to the page');
  });

  it('takes the Public Key and the session from the body (meta.publicKey, meta.sessionToken)', async () => {
    const body = JSON.stringify({ meta: { schemaKey: 'contacts', publicKey: env.publicKey, sessionToken: session }, rows: [{ email: 'c@d.co' }] });
    const answer = await fetchInPage(page, `${server.url}/v1/imports`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    assert.equal(answer.status, 201, JSON.stringify(answer));
  });

  it('reads a 413 body (the body limit answers before the key is checked)', async () => {
    const rows = Array.from({ length: 100 }, (_, i) => ({ email: `person${i}@example.com`, note: 'x'.repeat(40) }));
    const answer = await fetchInPage(page, `${server.url}/v1/imports`, { method: 'POST', headers: sdkHeaders(), body: importBody(rows) });
    assert.equal(answer.error, undefined, answer.error);
    assert.equal(answer.status, 413);
    assert.equal(answer.body.error.code, 'payload_too_large');
  });

  it('reads a 401 body for a mistyped Public Key', async () => {
    // Its last character changed (to Z, or to Y when it already was a Z: the key would be the right one).
    const mistyped = `${env.publicKey.slice(0, -1)}${env.publicKey.endsWith('Z') ? 'Y' : 'Z'}`;
    const headers = sdkHeaders({ 'X-Public-Key': mistyped });
    const answer = await fetchInPage(page, `${server.url}/v1/imports`, { method: 'POST', headers, body: importBody() });
    assert.equal(answer.status, 401, JSON.stringify(answer));
    assert.equal(answer.body.error.code, 'invalid_api_key');
  });

  it('reads a 429 body once the key is over its rate limit', async () => {
    const url = `${server.url}/v1/themes`;
    let answer: PageAnswer = {};
    // The window is fixed: one that ends during the loop gives the key a fresh 25 (fresh-clone CI saw 30 requests pass).
    for (let i = 0; i < 60 && answer.status !== 429; i++) answer = await fetchInPage(page, url, { headers: { 'X-Public-Key': limited.publicKey } });
    assert.equal(answer.status, 429, JSON.stringify(answer));
    assert.equal(answer.body.error.code, 'rate_limited');
  });

  it('refuses a Secret Key used from page code: the page sees a failure, nothing is stored or deleted', async () => {
    const kept = await createImportOk(h, env, { meta: { schemaKey: 'contacts' }, rows: [{ email: 'keep@b.co' }] });
    const imports = await countRows(h, 'imports');
    const secret = { Authorization: `Bearer ${env.secretKey}`, 'Content-Type': 'application/json' };
    const posted = await fetchInPage(page, `${server.url}/v1/imports`, { method: 'POST', headers: secret, body: importBody() });
    assert.match(posted.error ?? '', /Failed to fetch/, JSON.stringify(posted));
    const deleted = await fetchInPage(page, `${server.url}/v1/imports/${kept.id}`, { method: 'DELETE', headers: secret });
    assert.match(deleted.error ?? '', /Failed to fetch/);
    assert.equal(await countRows(h, 'imports'), imports, 'nothing stored, nothing deleted');
    assert.equal(await countRows(h, 'import_rows', kept.id), 1);
    assert.ok(h.logs.some((line) => line.includes('"status":403') && line.includes('/v1/imports')), 'the server answered 403');
  });

  it('shows nothing to a page whose origin no key allows, not even an error body', async () => {
    const strangerPage = await chromium.browser.newPage();
    try {
      await strangerPage.goto(`${stranger.origin}/`);
      for (const key of [env.publicKey, `pk_${'x'.repeat(40)}`]) {
        const answer = await fetchInPage(strangerPage, `${server.url}/v1/themes`, { headers: { 'X-Public-Key': key } });
        assert.match(answer.error ?? '', /Failed to fetch/, JSON.stringify(answer));
      }
    } finally {
      await strangerPage.close();
    }
  });
});
