import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../../src/cli/program';
import { createRuntime } from '../../src/main';
import { createCliHarness, type CliHarness } from '../helpers/cli';

let cli: CliHarness;
before(async () => {
  cli = await createCliHarness();
});
after(() => cli.close());

describe('importd import progress on a terminal', () => {
  it('shows sizes in human units and rows, and ends its line before the result is printed', async () => {
    assert.equal((await cli.run('env', 'create', 'ops')).code, 0);
    const file = path.join(cli.dir, 'big.csv');
    const rows = Array.from({ length: 30_000 }, (_, i) => `person ${i};p${i}@example.com;${i}`);
    writeFileSync(file, `name;email;n\n${rows.join('\n')}\n`);

    // Everything written, in order, to either stream: the bar to the terminal on stderr, the result to stdout.
    const written: { to: 'err' | 'out'; text: string }[] = [];
    const terminal = Object.assign(new PassThrough(), { isTTY: true, columns: 200 });
    terminal.on('data', (chunk) => written.push({ to: 'err', text: String(chunk) }));
    const io = { out: (text: string) => void written.push({ to: 'out', text }), err: () => undefined, errIsTTY: true, errStream: terminal };
    const code = await runCli(createRuntime(io, { IMPORTD_DB: cli.dbPath }), ['import', file, '--env', 'ops', '--template', 'people']);
    assert.equal(code, 0);

    const drawn = written.filter((w) => w.to === 'err').map((w) => w.text).join('');
    assert.match(drawn, /importing \[.*\] 100% \| \d+\.\d MB of \d+\.\d MB \| 30000 rows/);
    assert.doesNotMatch(drawn, /bytes/);
    const result = written.findIndex((w) => w.to === 'out');
    assert.match(written[result]!.text, /^import [\w-]+ created: 30000 rows/);
    const lastDrawnBefore = written.slice(0, result).filter((w) => w.to === 'err').at(-1)!;
    assert.match(lastDrawnBefore.text, /\n$/, 'the bar ends its line before the result');
    assert.ok(!written.slice(result + 1).some((w) => w.to === 'err' && /importing/.test(w.text)), 'nothing drawn after the result');
  });
});
