import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { serveBanner } from '../../src/cli/serve-banner';
import { waitFor } from '../helpers/live-server';
import { BIN, freePort, runBin } from '../helpers/process';
import { binDatabases } from '../helpers/test-database';

const dir = mkdtempSync(path.join(tmpdir(), 'importd-banner-'));
const databases = binDatabases(dir);
after(async () => {
  await databases.drop();
  rmSync(dir, { recursive: true, force: true });
});

const BANNER = /^importd \S+ serving http:\/\/127\.0\.0\.1:(\d+)\/ \(API: http:\/\/127\.0\.0\.1:\1\/v1\/openapi\.json, importer: http:\/\/127\.0\.0\.1:\1\/embed\/importer\.js; stop with Ctrl-C\)$/m;

describe('importd serve on a terminal', () => {
  it('prints one human line with its URL on a terminal (util-linux script gives it one)', async () => {
    assert.ok(existsSync('/usr/bin/script'), 'util-linux script, to run serve on a pseudo-terminal');
    const db = await databases.create('tty.db');
    assert.equal(runBin(['migrate', '--db', db]).code, 0);
    const port = await freePort();
    const command = [BIN, 'serve', '--host', '127.0.0.1', '--port', String(port), '--db', db].map((arg) => `'${arg.replace(/'/g, "'\\''")}'`).join(' ');
    // Its own process group, so the stop below reaches serve through script.
    const child = spawn('/usr/bin/script', ['-qfec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      await waitFor(() => BANNER.test(output), 60_000);
      assert.equal(BANNER.exec(output)![1], String(port));
      assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200);
      // The JSON log lines are still there; the banner is the one line that is not JSON.
      const lines = output.split(/\r?\n/).filter((line) => line.trim() !== '');
      assert.equal(lines.filter((line) => !line.startsWith('{')).length, 1, output);
      assert.ok(lines.some((line) => line.includes('"msg":"listening"')), output);
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
  });

  it('prints JSON lines only when its output is not a terminal', async () => {
    const db = await databases.create('pipe.db');
    assert.equal(runBin(['migrate', '--db', db]).code, 0);
    const child = spawn(BIN, ['serve', '--host', '127.0.0.1', '--port', String(await freePort()), '--db', db], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await waitFor(() => output.includes('"msg":"listening"'), 60_000);
    } finally {
      child.kill('SIGTERM');
    }
    // Stopped as soon as it listens (maybe before its SIGTERM handler is in place): how it exits is not the point.
    await exited;
    const lines = output.split('\n').filter((line) => line !== '');
    assert.ok(lines.some((line) => line.includes('"msg":"listening"')), output);
    for (const line of lines) assert.doesNotThrow(() => JSON.parse(line), line);
  });

  for (const [host, shown] of [
    ['0.0.0.0', 'localhost'],
    ['::', 'localhost'],
    ['::1', '[::1]'],
    ['10.0.0.5', '10.0.0.5'],
    ['importd.internal', 'importd.internal'],
  ]) {
    it(`shows --host ${host} as ${shown}`, () => assert.match(serveBanner('1.2.3', host!, 8080), new RegExp(`^importd 1\\.2\\.3 serving http://${shown!.replace(/[.[\]]/g, '\\$&')}:8080/ `)));
  }
});
