// End-to-end check of dist/importd (npm run test:binary): a copy of the executable ALONE in an empty folder,
// run with no node on PATH, from a read-only working folder, drives the whole product over its CLI and HTTP.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const source = path.resolve(import.meta.dirname, '..', 'dist', 'importd');
const ORIGIN = 'https://app.example.com';
const results = { passed: 0, failed: 0 };

const dir = mkdtempSync(path.join(tmpdir(), 'importd-binary-'));
const binary = path.join(dir, 'bin', 'importd');
const readOnly = path.join(dir, 'read-only');
const home = path.join(dir, 'home');
const db = path.join(dir, 'data', 'importd.db');
let server;

/** No node on PATH, nothing inherited but what is given here. */
const baseEnv = { PATH: '/usr/bin:/bin', HOME: home };

function check(name, condition, detail = '') {
  if (condition) {
    results.passed += 1;
    console.log(`ok - ${name}`);
    return;
  }
  results.failed += 1;
  console.log(`not ok - ${name}${detail ? `\n  ${String(detail).trim().replaceAll('\n', '\n  ')}` : ''}`);
  throw new Error(`check failed: ${name}`);
}

function cli(args, extraEnv = {}) {
  const result = spawnSync(binary, args, { cwd: readOnly, env: { ...baseEnv, ...extraEnv }, encoding: 'utf8', timeout: 30_000 });
  return { code: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
    probe.once('error', reject);
  });
}

async function waitForHealth(base, launched, child) {
  while (Date.now() - launched < 15_000) {
    if (child.exitCode !== null) return undefined;
    try {
      if ((await fetch(`${base}/healthz`)).status === 200) return Date.now() - launched;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return undefined;
}

async function request(base, method, url, { headers = {}, body } = {}) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { ...(body !== undefined && { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json, type: response.headers.get('content-type') ?? '' };
}

async function run() {
  check('dist/importd exists (npm run package or package:fast builds it)', existsSync(source), source);
  mkdirSync(path.dirname(binary));
  mkdirSync(readOnly);
  mkdirSync(home);
  copyFileSync(source, binary);
  chmodSync(binary, 0o755);
  chmodSync(readOnly, 0o555);
  const size = statSync(binary).size;
  console.log(`# executable size: ${(size / 1024 ** 2).toFixed(1)} MiB (${size} bytes)`);

  const version = cli(['--version']);
  check('--version prints the app and the embedded Node version', version.code === 0 && /^\d+\.\d+\.\d+ \(node v\d+\.\d+\.\d+\)\n$/.test(version.stdout), version.stdout + version.stderr);
  const embeddedMajor = Number(/\(node v(\d+)/.exec(version.stdout)[1]);

  const evil = path.join(dir, 'evil.js');
  const marker = path.join(dir, 'evil-ran');
  writeFileSync(evil, `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\n`);
  const injected = cli(['--version'], { NODE_OPTIONS: `--require=${evil}` });
  if (embeddedMajor >= 24) {
    check('NODE_OPTIONS=--require does not run code', !existsSync(marker) && injected.code === 0, injected.stderr);
  } else {
    // Node 20 (the fast build) applies NODE_OPTIONS before importd runs: it can only refuse to go on.
    check('NODE_OPTIONS makes the Node 20 fast build refuse to start', injected.code === 1 && /refuses/.test(injected.stderr), injected.stderr);
    console.log('# note: the fast build (Node 20) runs a NODE_OPTIONS preload before refusing; ship the release build');
  }

  const migrated = cli(['migrate', '--db', db]);
  check('migrate (database created outside the read-only working folder)', migrated.code === 0 && /^created database /.test(migrated.stdout), migrated.stderr);
  const created = cli(['env', 'create', 'prod', '--origin', ORIGIN, '--auto-create-templates', '--json', '--db', db]);
  check('env create', created.code === 0, created.stderr);
  const environment = JSON.parse(created.stdout);
  const secret = { Authorization: `Bearer ${environment.secretKey.key}` };
  const session = cli(['session', 'issue', '--env', 'prod', '--end-user', 'u1', '--db', db]);
  check('session issue prints a bare token', session.code === 0 && /^[\w-]+\.[\w-]+\.[\w-]+\n$/.test(session.stdout), session.stderr);
  const token = session.stdout.trim();
  // An addon built against the wrong headers aborts at random garbage collections (see
  // scripts/package/release-runtime.mjs): repeated short commands make such a crash show up here.
  const repeated = [];
  for (let i = 1; i <= 12; i++) {
    repeated.push(cli(i <= 4 ? ['env', 'create', `extra-${i}`, '--json', '--db', db] : ['env', 'list', '--json', '--db', db]));
  }
  const crashed = repeated.find((result) => result.code !== 0);
  check('12 more commands in a row all exit 0', crashed === undefined, crashed?.stderr);
  check('env list sees every environment', JSON.parse(repeated.at(-1).stdout).data.length === 5, repeated.at(-1).stdout);

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const launched = Date.now();
  server = spawn(binary, ['serve', '--host', '127.0.0.1', '--port', String(port), '--db', db], {
    cwd: readOnly,
    env: { ...baseEnv, IMPORTD_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let serverOutput = '';
  server.stdout.on('data', (chunk) => (serverOutput += chunk));
  server.stderr.on('data', (chunk) => (serverOutput += chunk));
  const firstResponseMs = await waitForHealth(base, launched, server);
  check('serve answers GET /healthz', firstResponseMs !== undefined, serverOutput);
  console.log(`# launch to first HTTP 200: ${firstResponseMs} ms`);

  const created201 = await request(base, 'POST', '/v1/imports', {
    headers: { Authorization: `Bearer ${environment.publicKey.key}`, Origin: ORIGIN, 'X-Session-Token': token },
    body: {
      rows: [
        { name: 'Ada Lovelace', email: 'ada@example.com', age: 36 },
        { name: 'Alan Turing', email: 'alan@example.com', age: 41 },
      ],
      meta: { schemaKey: 'contacts', sdkVersion: '1.0.0', source: { kind: 'upload' }, counts: { totalRows: 2, validRows: 2, erroredRows: 0, discardedRows: 0 } },
      originalSchema: { key: 'contacts', fields: [{ key: 'name' }, { key: 'email' }, { key: 'age' }] },
    },
  });
  check('POST /v1/imports with Public Key + Origin + session answers 201', created201.status === 201 && typeof created201.json?.id === 'string', `${created201.status} ${created201.text}`);
  const id = created201.json.id;
  check('the import records the session end-user', created201.json.endUserId === 'u1' && created201.json.rowCount === 2, created201.text);

  const detail = await request(base, 'GET', `/v1/imports/${id}`, { headers: secret });
  check('GET /v1/imports/{id} with the Secret Key', detail.status === 200 && detail.json?.id === id && detail.json?.cellStats?.rowCount === 2, `${detail.status} ${detail.text}`);
  const rows = await request(base, 'GET', `/v1/imports/${id}/rows`, { headers: secret });
  const data = rows.json?.data ?? [];
  check('GET /v1/imports/{id}/rows returns both rows in order', rows.status === 200 && data.length === 2 && data[0].rowIndex === 0 && data[1].data?.name === 'Alan Turing', `${rows.status} ${rows.text}`);
  const exported = await request(base, 'GET', `/v1/imports/${id}/export?format=csv`, { headers: secret });
  const lines = exported.text.trim().split(/\r?\n/);
  check('GET /v1/imports/{id}/export?format=csv streams a header and both rows', exported.status === 200 && /text\/csv/.test(exported.type) && lines[0] === 'name,email,age' && lines[2] === 'Alan Turing,alan@example.com,41', `${exported.status} ${exported.text}`);

  // Over 4 MiB: parsed by the worker thread, which inside the executable runs from embedded source.
  const many = Array.from({ length: 20_000 }, (_, i) => ({ name: `person ${i}`, email: `p${i}@example.com`, age: i % 90, note: 'x'.repeat(200) }));
  const large = await request(base, 'POST', '/v1/imports', { headers: secret, body: { meta: { schemaKey: 'contacts' }, rows: many } });
  const largeRows = large.status === 201 ? await request(base, 'GET', `/v1/imports/${large.json.id}/export?format=ndjson`, { headers: secret }) : undefined;
  check(
    'a 20 000-row import (parse worker) is stored exactly',
    large.json?.rowCount === 20_000 && largeRows?.text === `${many.map((row) => JSON.stringify(row)).join('\n')}\n`,
    `${large.status} ${large.text.slice(0, 300)}`,
  );
  // The checkpoint thread (embedded source too, loading the extracted addon) copies the WAL beside the commits,
  // which then never restart it: it holds the whole 5 MB import. Checkpoints in the commits (the fallback when
  // that thread fails) would have restarted it every 100 pages, keeping it under 1 MB.
  const walBytes = statSync(`${db}-wal`).size;
  check('WAL checkpoints run on their own thread', walBytes > 4 * 1024 * 1024, `WAL of ${walBytes} bytes`);

  // The browser importer is an asset of the executable (the process runs from a folder without build/).
  const script = await request(base, 'GET', '/embed/importer.js');
  check('GET /embed/importer.js serves the embedded browser importer', script.status === 200 && /^text\/javascript/.test(script.type) && script.text.includes('importd-importer'), `${script.status} ${script.text.slice(0, 200)}`);

  const stopped = Date.now();
  server.kill('SIGTERM');
  const exit = await new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ code: 'timeout' }), 5_000);
    server.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
  check('SIGTERM stops the server cleanly (exit 0 within 5 s)', exit.code === 0, `${JSON.stringify(exit)}\n${serverOutput}`);
  server = undefined;
  // As root a mode of 0555 does not stop writes, so check that nothing was written there or beside the binary.
  check('nothing written to the working folder or beside the executable', readdirSync(readOnly).length === 0 && readdirSync(path.dirname(binary)).length === 1, readdirSync(readOnly).join(' '));

  console.log(`# SIGTERM to exit: ${Date.now() - stopped} ms`);
}

try {
  await run();
} catch (error) {
  if (!/^check failed/.test(error.message)) {
    results.failed += 1;
    console.log(`not ok - ${error.stack ?? error}`);
  }
} finally {
  server?.kill('SIGKILL');
  chmodSync(readOnly, 0o755);
  rmSync(dir, { recursive: true, force: true });
}
console.log(`${results.passed} passed, ${results.failed} failed`);
process.exit(results.failed === 0 ? 0 : 1);
