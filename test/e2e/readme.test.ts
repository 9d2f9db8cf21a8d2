import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { runBin, startServe } from '../helpers/process';

const ROOT = path.resolve(__dirname, '..', '..');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The first ```sh block after the heading `## NAME`. */
function shellBlock(heading: string): string {
  const section = README.indexOf(`\n## ${heading}\n`);
  assert.ok(section >= 0, `README has a "${heading}" section`);
  const match = /```sh\n([\s\S]*?)```/.exec(README.slice(section));
  assert.ok(match, `"${heading}" has a sh block`);
  return match[1]!;
}

const dir = mkdtempSync(path.join(tmpdir(), 'importd-readme-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('README', () => {
  it('Set up starts serve in the foreground, and First steps does not start another', () => {
    assert.match(shellBlock('Set up'), /^\.\/bin\/importd serve\s/m);
    assert.doesNotMatch(shellBlock('First steps'), /importd serve|&\s*$/m);
  });

  it('First steps runs top to bottom in a fresh shell beside the running server', async () => {
    // A working folder of its own (First steps writes a file), where ./bin/importd is this checkout's.
    const cwd = mkdtempSync(path.join(dir, 'shell-'));
    symlinkSync(path.join(ROOT, 'bin'), path.join(cwd, 'bin'));
    const db = path.join(dir, 'importd.db');
    assert.equal(runBin(['migrate', '--db', db]).code, 0);
    const server = await startServe(db, { IMPORTD_LOG_LEVEL: 'warn' });
    try {
      const port = new URL(server.url).port;
      // The block as written, but against this test's server: its port instead of the default 8080.
      const script = shellBlock('First steps').replaceAll('localhost:8080', `localhost:${port}`);
      const result = spawnSync('bash', ['-euo', 'pipefail', '-c', script], {
        cwd,
        encoding: 'utf8',
        // Not a socket on stdin: bash takes that for a remote shell and reads the system's bashrc.
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH, HOME: process.env.HOME, IMPORTD_DB: db },
        timeout: 60_000,
      });
      assert.equal(result.status, 0, `${result.stderr}\n${result.stdout}`);
      assert.equal(result.stderr, '');
      assert.match(result.stdout, /"name":"production"/, 'the environments list');
      assert.match(result.stdout, /"rowCount":1/, 'the import the SDK posted');
      assert.match(result.stdout, /\n[\w-]{36}\s+completed\s+\S+\s+1\s+user-42\s+https:\/\/app\.example\.com/, 'imports list shows it');
      assert.match(result.stdout, /import [\w-]+ created: 1 rows/, 'the file loaded');
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});
