import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { before, describe, it } from 'node:test';
import { call, json, type Harness } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { loadConfig } from '../../src/config/config';
import { runCli } from '../../src/cli/program';
import type { CliRuntime } from '../../src/cli/runtime';
import { contactRows, createImportOk } from './helpers';

/** A CLI runtime over the harness database, capturing stdout and stderr. */
function cli(h: Harness, options: { tty?: boolean } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const progress = Object.assign(new PassThrough(), { isTTY: true, columns: 120 });
  const drawn: string[] = [];
  progress.on('data', (chunk) => drawn.push(String(chunk)));
  const runtime: CliRuntime = {
    io: { out: (t) => void out.push(t), err: (t) => void err.push(t), errIsTTY: Boolean(options.tty), ...(options.tty && { errStream: progress }) },
    open: async () => ({ ctx: h.ctx, created: false, close: () => undefined }),
    loadConfig: (overrides) => loadConfig({}, { IMPORTD_DB: h.dbPath, ...overrides }),
    serve: async () => undefined,
    version: 'test',
  };
  return { run: (...args: string[]) => runCli(runtime, args), out, err, drawn };
}

const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());

describe('GET /v1/imports/{id}/export and importd export', () => {
  const { h, env } = useHarness();
  let tricky: any;
  let large: any;
  const trickyRows = [
    { extra: 'first-seen', name: 'comma, inside', a: 1 },
    { name: 'say "hi"', a: -2.5, b: true, note: 'line\nbreak' },
    { name: 'crlf\r\nin cell', b: false, a: null, note: 'ünïcödé 漢字 😀' },
    { name: '=SUM(A1:A2)', note: '+1', a: '-5', b: '@cmd', '=key': 'x' },
    JSON.parse('{"__proto__":"p","constructor":"c"}'),
  ];
  const originalSchema = { key: 'tricky', fields: [{ key: 'note' }, { key: 'name' }, { key: 'declared' }] };

  before(async () => {
    tricky = await createImportOk(h, env, { meta: {}, originalSchema, rows: trickyRows });
    large = await createImportOk(h, env, { rows: contactRows(2_345) });
  });

  const exportUrl = (id: string, query = '') => `/v1/imports/${id}/export${query}`;

  it('writes RFC 4180 CSV: template fields in schema order, then other keys first-seen; quoting of commas, quotes, line breaks, unicode', async () => {
    const response = await call(h, 'GET', exportUrl(tricky.id), { key: env.secretKey });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('Content-Type'), 'text/csv; charset=utf-8');
    assert.equal(response.headers.get('Content-Disposition'), `attachment; filename="import-${tricky.id}.csv"`);
    assert.match(response.headers.get('X-Request-Id') ?? '', /^req_/);
    assert.equal(
      await response.text(),
      [
        'note,name,declared,extra,a,b,=key,__proto__,constructor',
        ',"comma, inside",,first-seen,1,,,,',
        '"line\nbreak","say ""hi""",,,-2.5,true,,,',
        'ünïcödé 漢字 😀,"crlf\r\nin cell",,,,false,,,',
        '+1,=SUM(A1:A2),,,-5,@cmd,x,,',
        ',,,,,,,p,c',
        '',
      ].join('\r\n'),
    );
  });

  it('prefixes formula-like text cells with an apostrophe only with safe=true', async () => {
    const text = await (await call(h, 'GET', exportUrl(tricky.id, '?safe=true'), { key: env.secretKey })).text();
    const lines = text.split('\r\n');
    assert.equal(lines[0], "note,name,declared,extra,a,b,'=key,__proto__,constructor");
    assert.equal(lines[2], '"line\nbreak","say ""hi""",,,-2.5,true,,,', 'numbers, even negative ones, are not text: unchanged');
    assert.equal(lines[5], "'+1,'=SUM(A1:A2),,,'-5,'@cmd,x,,");
  });

  it('with safe=true also guards text cells that begin with TAB or CR', async () => {
    const imported = await createImportOk(h, env, { meta: { schemaKey: 'tabs' }, rows: [{ a: '\t=1+1', b: '\r=2', c: 'x\t=3' }] });
    const safe = await (await call(h, 'GET', exportUrl(imported.id, '?safe=true'), { key: env.secretKey })).text();
    assert.equal(safe, `a,b,c\r\n'\t=1+1,"'\r=2",x\t=3\r\n`);
    const plain = await (await call(h, 'GET', exportUrl(imported.id), { key: env.secretKey })).text();
    assert.equal(plain, 'a,b,c\r\n\t=1+1,"\r=2",x\t=3\r\n');
  });

  for (const format of ['ndjson', 'json'] as const) {
    it(`exports ${format} that parses back to exactly the stored rows`, async () => {
      for (const [imported, rows] of [[tricky, trickyRows], [large, contactRows(2_345)]] as const) {
        const response = await call(h, 'GET', exportUrl(imported.id, `?format=${format}`), { key: env.secretKey });
        assert.equal(response.headers.get('Content-Type'), format === 'json' ? 'application/json' : 'application/x-ndjson');
        assert.equal(response.headers.get('Content-Disposition'), `attachment; filename="import-${imported.id}.${format}"`);
        const text = await response.text();
        const parsed = format === 'json' ? JSON.parse(text) : text.trimEnd().split('\n').map((line) => JSON.parse(line));
        assert.deepEqual(parsed, rows);
        const stored = await h.sql<{ data: string }>('SELECT data FROM import_rows WHERE import_id = ? ORDER BY row_index', imported.id);
        const expected = format === 'json' ? `[${stored.map((r) => r.data).join(',')}]` : stored.map((r) => `${r.data}\n`).join('');
        assert.equal(text, expected);
      }
    });
  }

  it('exports an import larger than one read chunk in CSV without losing or repeating rows', async () => {
    const lines = (await (await call(h, 'GET', exportUrl(large.id), { key: env.secretKey })).text()).trimEnd().split('\r\n');
    assert.equal(lines.length, 2_346);
    assert.equal(lines[0], 'name,email,age');
    assert.equal(lines[2_345], 'person 2344,p2344@example.com,4');
  });

  it('fails, without the file\'s tail, an export whose import is deleted meanwhile', async () => {
    const doomed = await createImportOk(h, env, { rows: contactRows(10_000) });
    for (const format of ['ndjson', 'json', 'csv']) {
      const response = await call(h, 'GET', exportUrl(doomed.id, `?format=${format}`), { key: env.secretKey });
      assert.equal(response.status, 200);
      const reader = response.body!.getReader();
      const first = await reader.read();
      assert.equal(first.done, false);
      // A deletion in progress: its batches have taken the rows past the first chunks (the stream reads two ahead).
      if (format === 'ndjson') await h.sql('DELETE FROM import_rows WHERE import_id = ? AND row_index >= 5000', doomed.id);
      let failed: unknown;
      let text = '';
      try {
        for (let next = await reader.read(); !next.done; next = await reader.read()) text += Buffer.from(next.value).toString();
      } catch (error) {
        failed = error;
      }
      assert.match(String(failed), /deleted while it was exported \(5000 of 10000 rows sent\)/, format);
      if (format === 'json') assert.equal(text.trimEnd().endsWith(']'), false);
    }
  });

  it('rejects an unknown format or safe value', async () => {
    for (const query of ['?format=xlsx', '?safe=yes']) {
      const response = await call(h, 'GET', exportUrl(tricky.id, query), { key: env.secretKey });
      assert.equal(response.status, 400);
    }
  });

  for (const args of [[], ['--format', 'ndjson'], ['--format', 'json'], ['--safe']]) {
    it(`importd export ${args.join(' ') || '(csv)'} writes the same bytes as the HTTP export`, async () => {
      const format = args[1] ?? 'csv';
      const query = `?format=${format}${args.includes('--safe') ? '&safe=true' : ''}`;
      for (const imported of [tricky, large]) {
        const http = await bytesOf(await call(h, 'GET', exportUrl(imported.id, query), { key: env.secretKey }));
        const toStdout = cli(h);
        assert.equal(await toStdout.run('export', imported.id, ...args), 0, toStdout.err.join(''));
        assert.ok(Buffer.from(toStdout.out.join('')).equals(http));
        const file = path.join(h.dir, `out-${args.join("") || "csv"}-${imported.id}`);
        const toFile = cli(h);
        assert.equal(await toFile.run('export', imported.id, ...args, '--out', file), 0);
        assert.ok(readFileSync(file).equals(http));
        assert.deepEqual(toFile.out, []);
      }
    });
  }

  it('draws a progress bar on stderr only when it is a terminal, leaving stdout identical', async () => {
    const plain = cli(h);
    await plain.run('export', large.id);
    assert.deepEqual(plain.err, []);
    const tty = cli(h, { tty: true });
    assert.equal(await tty.run('export', large.id), 0);
    assert.equal(tty.out.join(''), plain.out.join(''));
    assert.match(tty.drawn.join(''), /2345\/2345 rows/);
  });

  it('fails clearly with a non-zero exit for an unknown import, creating no file', async () => {
    const run = cli(h);
    const file = path.join(h.dir, 'missing.csv');
    assert.equal(await run.run('export', '01900000-0000-7000-8000-000000000000', '--out', file), 3);
    assert.match(run.err.join(''), /error \[not_found\]: import not found/);
    assert.equal(existsSync(file), false);
    const badFormat = cli(h);
    assert.equal(await badFormat.run('export', tricky.id, '--format', 'xml'), 2);
  });

  it('importd imports list and show --json print what the API answers', async () => {
    const list = cli(h);
    assert.equal(await list.run('imports', 'list', '--json'), 0);
    assert.deepEqual(JSON.parse(list.out.join('')), await json(await call(h, 'GET', '/v1/imports', { key: env.secretKey })));
    const show = cli(h);
    assert.equal(await show.run('imports', 'show', tricky.id, '--json'), 0);
    assert.deepEqual(JSON.parse(show.out.join('')), await json(await call(h, 'GET', `/v1/imports/${tricky.id}`, { key: env.secretKey })));
    const table = cli(h);
    await table.run('imports', 'list');
    assert.match(table.out.join(''), new RegExp(`${large.id}.*2345`));
    const human = cli(h);
    await human.run('imports', 'show', tricky.id);
    assert.match(human.out.join(''), /rows:\s+5\n/);
    assert.match(human.out.join(''), /__proto__\s+string\s+1/);
    const missing = cli(h);
    assert.equal(await missing.run('imports', 'show', 'nope'), 3);
  });
});
