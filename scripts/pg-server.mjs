// A throw-away PostgreSQL server from the machine's own binaries (Debian's postgresql package), for tests and
// the bench: a private data folder and socket folder, a free port on 127.0.0.1, no durability (fsync off).
// The server refuses to run as root: as root, every server command runs as the `postgres` user.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The newest installed server's bin folder: /usr/lib/postgresql/<version>/bin. */
function serverBinaries() {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', 'pg_ctl'))) : [];
  if (versions.length === 0) throw new Error('no PostgreSQL server under /usr/lib/postgresql: apt-get install -y postgresql');
  versions.sort((a, b) => Number(b) - Number(a));
  return path.join(root, versions[0], 'bin');
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

/**
 * Starts a server; returns its URL (user `postgres`, trust authentication on 127.0.0.1 only) and a stop()
 * that stops it and removes its folder. Call stop() also on failure (the caller's finally and signals).
 * For tests of a database's faults: restart() (a fast restart, as a failover looks to a client) and pids()
 * (the postmaster's and its backends', to freeze them with SIGSTOP).
 */
export async function startPgServer() {
  const bin = serverBinaries();
  const asRoot = process.getuid?.() === 0;
  const run = (tool, args) => {
    const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]] : [path.join(bin, tool), args];
    return execFileSync(command, argv, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  };
  const dir = mkdtempSync(path.join(tmpdir(), 'importd-pg-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(dir, uid, gid);
  }
  const data = path.join(dir, 'data');
  const port = await freePort();
  let started = false;
  const stop = () => {
    if (started) spawnSync(...(asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(bin, 'pg_ctl'), 'stop', '-D', data, '-m', 'immediate']] : [path.join(bin, 'pg_ctl'), ['stop', '-D', data, '-m', 'immediate']]), { stdio: 'ignore' });
    started = false;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    // Tests open many short-lived databases and pools at once; durability is of no use here.
    const settings = [
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      'max_connections = 400',
      'shared_buffers = 128MB',
    ];
    writeFileSync(path.join(data, 'postgresql.auto.conf'), `${settings.join('\n')}\n`);
    started = true;
    run('pg_ctl', ['start', '-D', data, '-w', '-l', path.join(dir, 'server.log')]);
  } catch (error) {
    stop();
    throw error;
  }
  const restart = () => run('pg_ctl', ['restart', '-D', data, '-m', 'fast', '-w', '-l', path.join(dir, 'server.log')]);
  const pids = () => {
    const postmaster = readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0];
    const children = spawnSync('pgrep', ['-P', postmaster], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
    return [postmaster, ...children].map(Number);
  };
  return { url: `postgres://postgres@127.0.0.1:${port}`, dir, stop, restart, pids };
}
