// npm run test:pg: the same suite as `npm test`, on a throw-away PostgreSQL server this script starts and
// stops (also on failure or Ctrl-C). A migrated template database is made once; the test helpers give each
// harness its own copy (CREATE DATABASE ... TEMPLATE), see test/helpers/test-database.ts.
// Usage: node scripts/test-pg.mjs [folder-or-file ...]
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { startPgServer } from './pg-server.mjs';

const root = path.resolve(import.meta.dirname, '..');
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
  const psql = spawnSync(process.execPath, ['-e', `
    const pg = require('pg');
    const client = new pg.Client(${JSON.stringify(`${server.url}/postgres`)});
    client.connect().then(() => client.query('CREATE DATABASE importd_template')).then(() => client.end()).catch((e) => { console.error(e); process.exit(1); });
  `], { cwd: root, stdio: 'inherit' });
  if (psql.status !== 0) throw new Error('could not create the template database');
  const migrate = spawnSync(path.join(root, 'bin', 'importd'), ['migrate', '--db', template], { stdio: 'inherit' });
  if (migrate.status !== 0) throw new Error('could not migrate the template database');
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
