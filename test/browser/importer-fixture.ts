import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { buildEmbed } from '../../scripts/embed-build.mjs';
import { createApp } from '../../src/http/app';
import { createLogger } from '../../src/core/logger';
import { issueSession } from '../../src/services/sessions';
import { launchChromium, servePage, type Chromium, type PageServer } from '../helpers/chromium';
import { call, createHarness, createTestEnvironment, json, type Harness, type TestEnvironment } from '../helpers/harness';
import { startLiveServer, type LiveServer } from '../helpers/live-server';
import { mountImporter } from './importer-page';

/** Where the suite saves its screenshots of each step (docs/embedding.md shows them). */
export const SCREENSHOTS = path.resolve(__dirname, '..', '..', 'docs', 'images');

/** A live importd serving the current importer script, one environment, Chromium and a customer page. */
export interface ImporterFixture {
  h: Harness;
  env: TestEnvironment;
  server: LiveServer;
  chromium: Chromium;
  customer: PageServer;
  page: Page;
  /** Console errors of the page since it was opened. */
  consoleErrors: string[];
  /** Writes a file for the file input; returns its path. */
  file(name: string, bytes: Buffer | string): string;
  /** Mounts the element for `endUserId` (a fresh session) into the template. */
  mount(templateId: string, options?: { endUserId?: string; locale?: string; env?: TestEnvironment }): Promise<void>;
  /** The stored rows and meta of an import, through the Secret Key API. */
  stored(importId: string): Promise<{ rows: unknown[]; meta: any }>;
  /** Saves the element as docs/images/importer-<name>.png. */
  screenshot(name: string): Promise<void>;
  close(): Promise<void>;
}

/** The server's request handler; `around` wraps it to watch or hold requests (a connection cut mid-upload). */
type Fetch = (request: Request) => Response | Promise<Response>;

export async function startImporterFixture(options: { around?: (fetch: Fetch) => Fetch } = {}): Promise<ImporterFixture> {
  const dir = mkdtempSync(path.join(tmpdir(), 'importd-browser-'));
  const h = await createHarness();
  const customer = await servePage();
  const env = await createTestEnvironment(h, { origins: [customer.origin] });
  // The script is bundled from the current source here: test:browser does not run the build first.
  const script = path.join(dir, 'importer.js');
  await buildEmbed(script);
  const app = createApp({ ctx: h.ctx, logger: createLogger('error', () => undefined), embedSource: { file: script } });
  const fetch: Fetch = (request) => app.fetch(request);
  const server = await startLiveServer({ ctx: h.ctx, app: { fetch: options.around ? options.around(fetch) : fetch } });
  const chromium = await launchChromium();
  const page = await chromium.browser.newPage();
  await page.setViewport({ width: 820, height: 900 });
  const consoleErrors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
  page.on('pageerror', (error) => consoleErrors.push(String(error)));
  return {
    h,
    env,
    server,
    chromium,
    customer,
    page,
    consoleErrors,
    file(name, bytes) {
      const target = path.join(dir, name);
      writeFileSync(target, bytes);
      return target;
    },
    async mount(templateId, options = {}) {
      const on = options.env ?? env;
      const { sessionToken } = await issueSession(h.ctx, on, { endUserId: options.endUserId ?? 'end-user-1', templateId });
      await mountImporter(page, customer.origin, { server: server.url, publicKey: on.publicKey, sessionToken, templateId, ...(options.locale ? { locale: options.locale } : {}) });
    },
    async stored(importId) {
      const rows = await json(await call(h, 'GET', `/v1/imports/${importId}/rows?limit=100`, { key: env.secretKey }));
      const detail = await json(await call(h, 'GET', `/v1/imports/${importId}`, { key: env.secretKey }));
      return { rows: rows.data.map((row: { data: unknown }) => row.data), meta: detail.meta };
    },
    async screenshot(name) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await (await page.$('importd-importer'))!.screenshot({ path: path.join(SCREENSHOTS, `importer-${name}.png`) });
    },
    async close() {
      h.ctx.themeEvents.closeAll();
      await chromium.close();
      await server.close();
      await customer.close();
      h.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
