import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createCliHarness } from '../helpers/cli';
import { freePort } from '../helpers/process';

/** A stand-in server whose /healthz answers `status`; every other path answers 404. */
let status = 200;
let server: Server;
let port: number;
before(async () => {
  server = createServer((request, response) => {
    response.statusCode = request.url === '/healthz' ? status : 404;
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
after(() => server.close());

describe('importd healthcheck', () => {
  it('checks 127.0.0.1 on IMPORTD_PORT by default and exits 0 on 200', async () => {
    const cli = await createCliHarness({ IMPORTD_PORT: String(port) });
    try {
      const result = await cli.run('healthcheck');
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, `healthy: http://127.0.0.1:${port}/healthz\n`);
    } finally {
      cli.close();
    }
  });

  const failures = [
    { name: 'a non-200 answer', answer: 503, path: '/healthz', expected: /status 503/ },
    { name: 'a wrong path', answer: 200, path: '/nope', expected: /status 404/ },
    { name: 'nobody listening', answer: 200, path: '/healthz', closedPort: true, expected: /ECONNREFUSED/ },
  ];
  for (const c of failures) {
    it(`exits 1 on ${c.name}`, async () => {
      status = c.answer;
      const target = c.closedPort ? await freePort() : port;
      const cli = await createCliHarness();
      try {
        const result = await cli.run('healthcheck', '--url', `http://127.0.0.1:${target}${c.path}`);
        assert.equal(result.code, 1);
        assert.match(result.stderr, /^error \[internal_error\]: health check of http:\/\/127\.0\.0\.1:\d+\/\S* failed/);
        assert.match(result.stderr, c.expected);
        assert.equal(result.stdout, '');
      } finally {
        cli.close();
        status = 200;
      }
    });
  }

  it('takes --port over IMPORTD_PORT', async () => {
    const cli = await createCliHarness({ IMPORTD_PORT: '1' });
    try {
      const result = await cli.run('healthcheck', '--port', String(port));
      assert.equal(result.code, 0, result.stderr);
    } finally {
      cli.close();
    }
  });
});
