import { Option, type Command } from 'commander';
import { createServer } from 'node:http';
import { newRequestId } from '../../core/ids';
import { errorAnswer } from '../../http/errors';
import { checkDemoHost, demoPage, prepareEmbedDemo } from '../../services/embed';
import { ServiceError } from '../../services/errors';
import type { CliRuntime } from '../runtime';

interface DemoOptions {
  env: string;
  template: string;
  port: string;
  server?: string;
  publicKey?: string;
  account?: string;
}

export function registerEmbed(program: Command, runtime: CliRuntime): void {
  const embed = program.command('embed').description('the reference importer (GET /embed/importer.js)');
  embed
    .command('demo')
    .description('serve a local page with <importd-importer> and a fresh session token on each load, until SIGINT or SIGTERM')
    .requiredOption('--env <name>', 'environment whose Public Key the page uses')
    .requiredOption('--template <key>', 'template key the page imports into')
    .option('--port <port>', 'port of the demo page on localhost', '8090')
    .option('--server <url>', 'URL of the running importd the page talks to (default http://localhost:$IMPORTD_PORT)')
    .addOption(new Option('--public-key <key>', "the environment's Public Key (else the page asks for it)").env('IMPORTD_PUBLIC_KEY'))
    .option('--account <name>', 'account (default: default)')
    .action(async (options: DemoOptions, command: Command) => {
      const port = Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ServiceError('validation_failed', 'port: expected a port number 0-65535', [{ path: 'port', message: 'expected a port number 0-65535' }]);
      const db = command.optsWithGlobals<{ db?: string }>().db;
      const overrides = db === undefined ? {} : { IMPORTD_DB: db };
      const server = (options.server ?? `http://localhost:${runtime.loadConfig(overrides).port}`).replace(/\/+$/, '');
      const { publicKey } = options;
      const { ctx, close } = await runtime.open(overrides);
      try {
        const prepare = (origin: string) =>
          prepareEmbedDemo(ctx, { account: options.account, environment: options.env, templateKey: options.template, publicKey, pageOrigin: origin });
        // Checked before listening, so a wrong --env, --template or key fails at once.
        await prepare(`http://localhost:${port}`);
        const listening = await servePage(port, async (origin) => {
          const demo = await prepare(origin);
          return demoPage({ server, publicKey, sessionToken: await demo.issueToken(), templateId: demo.templateId });
        });
        const origin = `http://localhost:${listening.port}`;
        const demo = await prepare(origin);
        runtime.io.out(`demo page: ${origin}/ (importer from ${server}; stop with Ctrl-C)\n`);
        if (!demo.originAllowed) {
          runtime.io.out(`allow its origin first: importd env origins ${options.env} --origin ${origin} (with the origins the key has now: the list is replaced)\n`);
        }
        await untilSignal();
        await listening.close();
      } finally {
        await close();
      }
    });
}

/** A minimal page server on localhost: GET / renders a fresh page, anything else is 404; only its own Host is answered. */
function servePage(port: number, render: (origin: string) => Promise<string>): Promise<{ port: number; close(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const server = createServer((request, response) => {
      const { port: actual } = server.address() as { port: number };
      try {
        checkDemoHost(request.headers.host, actual);
      } catch (error) {
        const { status, body } = errorAnswer(error as ServiceError, newRequestId());
        response.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify(body));
        return;
      }
      if (request.method !== 'GET' || (request.url !== '/' && !request.url?.startsWith('/?'))) {
        response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
        return;
      }
      render(`http://localhost:${actual}`).then(
        (html) => response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(html),
        (error: unknown) => response.writeHead(500, { 'Content-Type': 'text/plain' }).end(`${error instanceof Error ? error.message : String(error)}\n`),
      );
    });
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: actual } = server.address() as { port: number };
      resolve({
        port: actual,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGTERM', stop).off('SIGINT', stop);
      resolve();
    };
    process.on('SIGTERM', stop).on('SIGINT', stop);
  });
}
