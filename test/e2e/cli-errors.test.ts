import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runBin, runBinAsync } from '../helpers/process';

// The CLI's error contract, on the real bin/importd: every failure is one `error [code]: message` line on
// stderr (details only when they add something), nothing on stdout, and the exit code of docs/cli.md's table (test/docs/cli-doc.test.ts checks that table).
const dir = mkdtempSync(path.join(tmpdir(), 'importd-cli-errors-'));
const db = path.join(dir, 'importd.db');
before(() => assert.equal(runBin(['migrate', '--db', db]).code, 0));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Case {
  args: string[];
  code: number;
  stderr: string | RegExp;
}

const cases: Case[] = [
  // usage errors: exit 2, one line, no help text
  { args: ['env', 'create'], code: 2, stderr: "error [validation_failed]: missing required argument 'name' (see --help)\n" },
  { args: ['env', 'list', '--bogus'], code: 2, stderr: "error [validation_failed]: unknown option '--bogus' (see --help)\n" },
  { args: ['session', 'issue', '--env', 'x'], code: 2, stderr: "error [validation_failed]: required option '--end-user <id>' not specified (see --help)\n" },
  // commander's suggestion, which it puts on a second line, folded into the one
  { args: ['env', 'create', 'x', '--orign', 'https://a.example.com'], code: 2, stderr: "error [validation_failed]: unknown option '--orign' (Did you mean --origin?) (see --help)\n" },
  { args: ['env', 'lst'], code: 2, stderr: "error [validation_failed]: unknown command 'lst' (Did you mean list?) (see --help)\n" },
  { args: ['env', 'list', 'extra'], code: 2, stderr: /^error \[validation_failed\]: too many arguments .*\n$/ },
  { args: ['nope'], code: 2, stderr: "error [validation_failed]: unknown command 'nope' (see --help)\n" },
  { args: ['imports', 'show'], code: 2, stderr: "error [validation_failed]: missing required argument 'importId' (see --help)\n" },
  { args: ['export', 'x', '--format'], code: 2, stderr: "error [validation_failed]: option '--format <format>' argument missing (see --help)\n" },
  // validation: the message once (it used to be printed again as a detail line)
  {
    args: ['env', 'create', 'x', '--origin', 'bad'],
    code: 2,
    stderr: 'error [validation_failed]: allowedOrigins.0: "bad" is not an allowed origin form (https://<domain>, https://*.<domain>, http://localhost:<port> with a port other than 80)\n',
  },
  // several details: on the same line, after the message
  {
    args: ['env', 'create', 'x', '--origin', 'bad', '--origin', 'http://x'],
    code: 2,
    stderr: /^error \[validation_failed\]: allowedOrigins\.0: "bad" is not an allowed origin form .* \(allowedOrigins\.1: "http:\/\/x" is not an allowed origin form .*\)\n$/,
  },
  { args: ['healthcheck', '--url', 'notaurl'], code: 2, stderr: 'error [validation_failed]: --url: "notaurl" is not an http:// or https:// URL\n' },
  { args: ['healthcheck', '--url', 'ftp://x/healthz'], code: 2, stderr: /^error \[validation_failed\]: --url: .*\n$/ },
  { args: ['serve', '--port', '99999'], code: 2, stderr: 'error [invalid_config]: invalid setting --port: expected a port number up to 65535\n' },
  { args: ['serve', '--port', 'http'], code: 2, stderr: 'error [invalid_config]: invalid setting --port: expected a port number\n' },
  {
    args: ['serve', '--host', '256.1.1.1'],
    code: 2,
    stderr: 'error [invalid_config]: invalid setting --host: expected an IP address (such as 127.0.0.1 or ::) or a host name\n',
  },
  // not found, conflict
  { args: ['imports', 'show', '00000000-0000-7000-8000-000000000000'], code: 3, stderr: 'error [not_found]: import not found\n' },
  { args: ['env', 'list', '--account', 'nobody'], code: 3, stderr: 'error [not_found]: account nobody not found\n' },
  { args: ['account', 'create', 'default'], code: 4, stderr: 'error [conflict]: account default already exists\n' },
];

describe('CLI errors: one format, the documented exit codes', () => {
  for (const c of cases) {
    it(`importd ${c.args.join(' ')} -> ${c.code}`, () => {
      const result = runBin([...c.args, '--db', db]);
      assert.equal(result.code, c.code, result.stderr);
      if (typeof c.stderr === 'string') assert.equal(result.stderr, c.stderr);
      else assert.match(result.stderr, c.stderr);
      assert.equal(result.stdout, '');
      assert.doesNotMatch(result.stderr, /Usage:|    at /, 'no help dump, no stack trace');
    });
  }

  it('importd without a command shows the help on stderr and exits 2', () => {
    const result = runBin([]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^Usage: importd/);
  });

  it('serve on a port in use says so and suggests --port', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as { port: number };
    try {
      const result = await runBinAsync(['serve', '--host', '127.0.0.1', '--port', String(port), '--db', db], { IMPORTD_LOG_LEVEL: 'silent' });
      assert.equal(result.code, 1);
      assert.equal(
        result.stderr,
        `error [internal_error]: cannot listen on 127.0.0.1:${port}: port ${port} is already in use (another importd serve? choose another with --port)\n`,
      );
    } finally {
      busy.close();
    }
  });
});

describe('version and help', () => {
  const version = JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8')).version as string;
  for (const args of [['-V'], ['-v'], ['--version'], ['version']]) {
    it(`importd ${args.join(' ')} prints package.json's version`, () => {
      const result = runBin(args);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, `${version}\n`);
    });
  }

  for (const command of ['serve', 'env list', 'imports list', 'export']) {
    it(`importd ${command} --help shows --db`, () => {
      const result = runBin([...command.split(' '), '--help']);
      assert.equal(result.code, 0);
      assert.match(result.stdout, /--db <path>/);
    });
  }

  it('help for a command goes to stdout with exit 0', () => {
    const result = runBin(['help', 'env']);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^Usage: importd env/);
  });
});
