import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { BIN } from '../helpers/process';

// A checkout in miniature: bin/importd, the real build/ and a src/ whose age the test sets.
const dir = mkdtempSync(path.join(tmpdir(), 'importd-stale-'));
mkdirSync(path.join(dir, 'bin'));
copyFileSync(BIN, path.join(dir, 'bin', 'importd'));
symlinkSync(path.resolve(BIN, '..', '..', 'build'), path.join(dir, 'build'));
mkdirSync(path.join(dir, 'src', 'cli'), { recursive: true });
const source = path.join(dir, 'src', 'cli', 'program.ts');
writeFileSync(source, '// a source file\n');
after(() => rmSync(dir, { recursive: true, force: true }));

const bundleTime = () => statSync(path.join(dir, 'build', 'importd.cjs')).mtime;
const run = () => spawnSync(process.execPath, [path.join(dir, 'bin', 'importd'), 'version'], { encoding: 'utf8' });

describe('bin/importd and a stale bundle', () => {
  it('warns on stderr when a source is newer than build/importd.cjs, and still runs', () => {
    utimesSync(source, new Date(bundleTime().getTime() + 60_000), new Date(bundleTime().getTime() + 60_000));
    const result = run();
    assert.equal(result.status, 0);
    assert.match(result.stdout, /^\d+\.\d+\.\d+\n$/);
    assert.equal(result.stderr, 'importd: warning: build/importd.cjs is older than src/; run `npm run build` to run the current sources\n');
  });

  it('says nothing when the bundle is newer than every source', () => {
    utimesSync(source, new Date(bundleTime().getTime() - 60_000), new Date(bundleTime().getTime() - 60_000));
    const result = run();
    assert.equal(result.status, 0);
    assert.equal(result.stderr, '');
  });
});
