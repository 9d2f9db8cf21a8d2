import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const BIN = path.resolve('bin/importd');

function requireBuild(): void {
  if (!existsSync(path.resolve('build/importd.cjs'))) throw new Error('build/importd.cjs is missing: run node scripts/build.mjs (npm test does)');
}

export interface BinaryServer {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote to stdout so far (its JSON log lines). */
  stdout(): string;
  stderr(): string;
  /** Sends the signal and resolves with the exit code (null when killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `./bin/importd serve` on 127.0.0.1 and a free port, on the given database; resolves once listening. */
export function startBinary(dbPath: string, env: Record<string, string> = {}): Promise<BinaryServer> {
  requireBuild();
  const child = spawn(process.execPath, [BIN, 'serve', '--host', '127.0.0.1', '--port', '0', '--db', dbPath], {
    env: { ...process.env, IMPORTD_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /"msg":"listening"[^\n]*"port":(\d+)/.exec(out);
      if (match && !('port' in resolved)) {
        resolved.port = Number(match[1]);
        resolve({
          url: `http://127.0.0.1:${resolved.port}`,
          port: resolved.port,
          child,
          stdout: () => out,
          stderr: () => err,
          stop: (signal = 'SIGTERM') => {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    });
    const resolved: { port?: number } = {};
    void exited.then((code) => {
      if (!('port' in resolved)) reject(new Error(`importd serve exited (${code}) before listening: ${err}`));
    });
  });
}

/** Runs `./bin/importd ARGS` to completion. */
export function runBinary(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  requireBuild();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
