import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';

// Debian's `chromium` package first (what CI installs); CHROMIUM_PATH overrides.
const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** The Chromium binary to drive, or undefined when the machine has none. */
export function findChromium(): string | undefined {
  return CANDIDATES.find((candidate): candidate is string => candidate !== undefined && existsSync(candidate));
}

/** Why browser tests are skipped here, or false when they can run: for `describe(name, { skip })`. */
export function chromiumSkipReason(): string | false {
  return findChromium() ? false : `no Chromium binary (looked for ${CANDIDATES.filter(Boolean).join(', ')}); install Debian's chromium package`;
}

export interface Chromium {
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Starts headless Chromium with a fresh profile and nothing running in the background (no updates, sync,
 * QUIC or first-run pages that could reach the network or slow the test down).
 */
export async function launchChromium(): Promise<Chromium> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(chromiumSkipReason() || 'no Chromium binary');
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'importd-chromium-'));
  const browser = await puppeteer.launch({
    executablePath,
    headless: true,
    userDataDir,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

export interface PageServer {
  /** The page's origin, `http://localhost:<port>`. */
  origin: string;
  close(): Promise<void>;
}

/** Serves one blank HTML page on localhost: the customer's page an SDK runs in. */
export function servePage(): Promise<PageServer> {
  return new Promise((resolve) => {
    const server: Server = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><title>customer page</title>');
    });
    server.listen(0, 'localhost', () => {
      const { port } = server.address() as { port: number };
      resolve({ origin: `http://localhost:${port}`, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}
