import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { isPostgresUrl } from '../../src/core/database-url';

export const BIN = path.resolve(__dirname, '..', '..', 'bin', 'importd');

/** Runs `./bin/importd ARGS` to completion. */
export function runBin(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(BIN, args, { env: { ...process.env, ...env }, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `./bin/importd serve` on 127.0.0.1 and waits until /healthz answers. */
/**
 * The files folder of a node of a PostgreSQL database a test starts: the default, `./data/files` of the working
 * folder, would be left in the checkout and shared by unrelated suites. One folder per database, so that the
 * nodes of one database share it as production nodes must.
 */
function testFilesDir(dbPath: string): Record<string, string> {
  if (!isPostgresUrl(dbPath) || process.env.IMPORTD_FILES_DIR !== undefined) return {};
  const name = createHash('sha256').update(dbPath).digest('hex').slice(0, 16);
  return { IMPORTD_FILES_DIR: path.join(os.tmpdir(), 'importd-test-files', name) };
}

export async function startServe(dbPath: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(BIN, ['serve', '--host', '127.0.0.1', '--port', String(port), '--db', dbPath], {
    env: { ...process.env, ...testFilesDir(dbPath), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  for (let attempt = 0; ; attempt++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // 20 s: a loaded CI machine (two cores, several suites) takes more than 5 s to start a node at times.
      if (attempt > 400 || child.exitCode !== null) {
        // A server that comes up later would keep the test process alive (its pipes), and the whole run waiting.
        child.kill('SIGKILL');
        throw new Error(`server did not start:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    child,
    url,
    output: () => output,
    stop(signal = 'SIGTERM') {
      child.kill(signal);
      return exited;
    },
  };
}

/** Runs `./bin/importd ARGS` to completion without blocking the event loop (for tests that keep serving meanwhile). */
export function runBinAsync(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(BIN, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
