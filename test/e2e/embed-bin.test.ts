import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { validTheme } from '../helpers/fixtures';
import { waitFor } from '../helpers/live-server';
import { BIN, runBin, startServe } from '../helpers/process';
import { binDatabases } from '../helpers/test-database';
import { readEvents } from '../helpers/sse';

const dir = mkdtempSync(path.join(tmpdir(), 'importd-embed-'));
const databases = binDatabases(dir);
after(async () => {
  await databases.drop();
  rmSync(dir, { recursive: true, force: true });
});

/** GET / of the demo page with this Host header (fetch cannot set one). */
function getWithHost(port: number, host: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path: '/', headers: { Host: host } }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, type: String(response.headers['content-type']), body }));
    });
    request.on('error', reject).end();
  });
}

/** An environment with a theme and a template, through the real binary and API. */
async function setUp(db: string, url: string) {
  const keys = JSON.parse(runBin(['env', 'create', 'demo', '--origin', 'https://app.example.com', '--json', '--db', db]).stdout);
  const secret = { Authorization: `Bearer ${keys.secretKey.key}`, 'Content-Type': 'application/json' };
  assert.equal((await fetch(`${url}/v1/themes`, { method: 'POST', headers: secret, body: JSON.stringify(validTheme()) })).status, 201);
  const template = await fetch(`${url}/v1/templates`, { method: 'POST', headers: secret, body: JSON.stringify({ key: 'contacts', schema: { fields: [{ key: 'email' }] } }) });
  assert.equal(template.status, 201);
  return { keys, templateId: ((await template.json()) as { id: string }).id };
}

describe('importd serve with open theme streams', () => {
  it('ends the streams on SIGTERM and exits 0 instead of waiting for them', async () => {
    const db = await databases.create('sigterm.db');
    const server = await startServe(db);
    const { keys } = await setUp(db, server.url);
    const events = readEvents(await fetch(`${server.url}/v1/themes/events`, { headers: { 'X-Public-Key': keys.publicKey.key, Origin: 'https://app.example.com' } }));
    await events.next('theme');
    // A drain that waits for the stream never ends: fail instead of hanging the run.
    const hung = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 20_000).unref());
    const code = await Promise.race([server.stop(), hung]);
    if (code === 'hung') server.child.kill('SIGKILL');
    assert.equal(code, 0, server.output());
    await events.ended();
    assert.match(server.output(), /"msg":"stopped"/);
  });
});

describe('importd embed demo', () => {
  let db: string;
  it('serves a page with the element, a fresh session token on each load, and names the origin to allow', async () => {
    db = await databases.create('demo.db');
    const server = await startServe(db);
    const { keys, templateId } = await setUp(db, server.url);
    const demo = spawn(BIN, ['embed', 'demo', '--env', 'demo', '--template', 'contacts', '--port', '0', '--server', server.url, '--db', db], {
      env: { ...process.env, IMPORTD_PUBLIC_KEY: keys.publicKey.key },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    demo.stdout.on('data', (chunk) => (output += chunk));
    demo.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => demo.once('exit', (code) => resolve(code)));
    try {
      await waitFor(() => /allow its origin/.test(output), 10_000);
      const pageUrl = /demo page: (http:\/\/localhost:\d+)\//.exec(output)![1]!;
      assert.match(output, new RegExp(`importd env origins demo --origin ${pageUrl.replace(/[.:/]/g, '\\$&')}`));
      const first = await (await fetch(`${pageUrl}/`)).text();
      const second = await (await fetch(`${pageUrl}/`)).text();
      const token = (page: string) => /session-token="([^"]+)"/.exec(page)![1];
      assert.notEqual(token(first), token(second));
      assert.match(first, new RegExp(`template-id="${templateId}"`));
      assert.match(first, new RegExp(`public-key="${keys.publicKey.key}"`));
      assert.match(first, new RegExp(`<script src="${server.url}/embed/importer.js">`));
      assert.equal((await fetch(`${pageUrl}/other`)).status, 404);
      // DNS rebinding: a page of another name resolved to 127.0.0.1 gets no token and no key.
      const port = Number(new URL(pageUrl).port);
      assert.equal((await getWithHost(port, `127.0.0.1:${port}`)).status, 200);
      assert.equal((await getWithHost(port, `LOCALHOST:${port}`)).status, 200);
      for (const host of [`attacker.example:${port}`, 'localhost', `localhost:${port + 1}`, `127.0.0.1:${port}.attacker.example`, `[::1]:${port}`]) {
        const refused = await getWithHost(port, host);
        assert.equal(refused.status, 421, host);
        assert.equal(refused.type, 'application/json', host);
        const { error } = JSON.parse(refused.body);
        assert.equal(error.code, 'host_not_allowed');
        assert.match(error.requestId, /^req_/);
        assert.doesNotMatch(refused.body, /pk_|session-token|eyJ/, host);
      }
    } finally {
      demo.kill('SIGTERM');
      assert.equal(await exited, 0, output);
      await server.stop();
    }
  });

  it('fails at once with a clear error for an unknown template or a key of another environment', () => {
    const unknown = runBin(['embed', 'demo', '--env', 'demo', '--template', 'nope', '--port', '0', '--db', db]);
    assert.equal(unknown.code, 3);
    assert.match(unknown.stderr, /template nope not found/);
    const other = JSON.parse(runBin(['env', 'create', 'other', '--json', '--db', db]).stdout);
    const wrong = runBin(['embed', 'demo', '--env', 'demo', '--template', 'contacts', '--port', '0', '--public-key', other.publicKey.key, '--db', db]);
    assert.notEqual(wrong.code, 0);
    assert.match(wrong.stderr, /not the Public Key of environment demo/);
  });
});
