// npm run test:pg: the same suite as `npm test`, on a throw-away PostgreSQL server this script starts and
// stops (also on failure or Ctrl-C). A migrated template database is made once; the test helpers give each
// harness its own copy (CREATE DATABASE ... TEMPLATE), see test/helpers/test-database.ts.
// Usage: node scripts/test-pg.mjs [folder-or-file ...]
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { startPgServer } from './pg-server.mjs';

const root = path.resolve(import.meta.dirname, '..');

/** Runs SQL on a database of the throw-away server, through node-postgres in a child process. */
function runSql(url, sql) {
  const script = `const pg = require('pg'); const client = new pg.Client(${JSON.stringify(url)});
    client.connect().then(() => client.query(${JSON.stringify(sql)})).then(() => client.end()).catch((e) => { console.error(e); process.exit(1); });`;
  if (spawnSync(process.execPath, ['-e', script], { cwd: root, stdio: 'inherit' }).status !== 0) throw new Error(`could not run ${sql}`);
}

const server = await startPgServer();
let tests;
const stopOnSignal = (signal) => {
  tests?.kill(signal);
  server.stop();
  process.exit(signal === 'SIGINT' ? 130 : 143);
};
process.once('SIGINT', stopOnSignal).once('SIGTERM', stopOnSignal);
let status = 1;
try {
  const template = `${server.url}/importd_template`;
  runSql(`${server.url}/postgres`, 'CREATE DATABASE importd_template');
  const migrate = spawnSync(path.join(root, 'bin', 'importd'), ['migrate', '--db', template], { stdio: 'inherit' });
  if (migrate.status !== 0) throw new Error('could not migrate the template database');
  // `migrate` also made the default account and the session secret: each test database is its own
  // installation, so the template keeps only the tables (each copy makes its own at its first open).
  runSql(template, 'DELETE FROM settings; DELETE FROM accounts');
  tests = spawn(process.execPath, [path.join(root, 'scripts', 'test.mjs'), ...process.argv.slice(2)], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, IMPORTD_TEST_DB: template },
  });
  status = await new Promise((resolve) => tests.once('exit', (code) => resolve(code ?? 1)));
} finally {
  server.stop();
}
process.exit(status);
