// Bundles the browser importer (src/embed/) into one self-contained script: the file-reading worker is bundled first
// and inlined as text, so the page starts it from a Blob URL and loads nothing else from the server.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { phoneRegExpsOnce } from './phone-regexps.mjs';

/** esbuild's options for code that runs in the page (the tests bundle probes of src/ with the same). */
export const browser = {
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: 'es2020',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [phoneRegExpsOnce],
};

/** read-excel-file's serial-to-time conversion floors (09:30 read as 09:29:59.999): the importer's rounds. */
const exactExcelDates = {
  name: 'exact-excel-dates',
  setup(bundle) {
    bundle.onResolve({ filter: /\/parseExcelTimestamp\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}read-excel-file${path.sep}`) ? { path: path.resolve('src/embed/reader/excel-timestamp.ts') } : undefined,
    );
  },
};

/**
 * tus-js-client from its untranspiled sources (lib/, ES2015+: half the size of the Babel build it points to), with
 * the browser's own URL and base64 in place of url-parse and js-base64 (src/embed/shims/ says what they did).
 */
const leanTus = {
  name: 'lean-tus',
  setup(bundle) {
    bundle.onResolve({ filter: /^tus-js-client$/ }, () => ({ path: path.resolve('node_modules/tus-js-client/lib/browser/index.js') }));
    bundle.onResolve({ filter: /^(url-parse|js-base64)$/ }, (args) =>
      args.importer.includes(`${path.sep}tus-js-client${path.sep}`) ? { path: path.resolve(`src/embed/shims/${args.path}.ts`) } : undefined,
    );
  },
};

/** Writes the importer script to `outfile`. */
export async function buildEmbed(outfile) {
  const worker = await build({ ...browser, entryPoints: ['src/embed/reader/read-worker.ts'], write: false, plugins: [...browser.plugins, exactExcelDates] });
  const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
  await build({
    ...browser,
    entryPoints: ['src/embed/importer.ts'],
    outfile,
    plugins: [...browser.plugins, leanTus],
    define: { IMPORTD_READ_WORKER: JSON.stringify(worker.outputFiles[0].text), IMPORTD_SDK_VERSION: JSON.stringify(version) },
  });
}
