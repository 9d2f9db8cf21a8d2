import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

const SRC = path.resolve(__dirname, '..', '..', 'src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? sources(file) : file.endsWith('.ts') ? [file] : [];
  });
}

/** What creates a connection or a stream of node-postgres: each emits `error` when its server goes away. */
const CREATES = /new pg\.(Pool|Client)\(|\bcopy(From|To)\(/;

// An `error` event nobody listens for ends the process (a lost connection took a node down: issue 46). Every
// pool and client is created in src/db/postgres/pools.ts (survivingPool, migrationClient) or listens within
// the next few lines; a COPY stream too. A new one that does not is caught here.
describe('every node-postgres connection and stream has an error listener', () => {
  it('scans src/ for pools, clients and COPY streams created without one', () => {
    const missing: string[] = [];
    let found = 0;
    for (const file of sources(SRC)) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, at) => {
        if (!CREATES.test(line)) return;
        found++;
        const next = lines.slice(at, at + 12).join('\n');
        if (!/\.on\('error'/.test(next)) missing.push(`${path.relative(SRC, file)}:${at + 1}: ${line.trim()}`);
      });
    }
    assert.ok(found >= 4, `found only ${found}: the scan no longer matches how connections are made`);
    assert.deepEqual(missing, []);
  });
});
