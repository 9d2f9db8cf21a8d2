// Bundles the browser importer (src/embed/) into one self-contained script: the file-reading worker is bundled first
// and inlined as text, so the page starts it from a Blob URL and loads nothing else from the server.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/** esbuild's options for code that runs in the page (the tests bundle probes of src/ with the same). */
export const browser = { bundle: true, platform: 'browser', format: 'iife', target: 'es2020', minify: true, legalComments: 'none', logLevel: 'warning' };

/** read-excel-file's serial-to-time conversion floors (09:30 read as 09:29:59.999): the importer's rounds. */
const exactExcelDates = {
  name: 'exact-excel-dates',
  setup(bundle) {
    bundle.onResolve({ filter: /\/parseExcelTimestamp\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}read-excel-file${path.sep}`) ? { path: path.resolve('src/embed/reader/excel-timestamp.ts') } : undefined,
    );
  },
};

/** Writes the importer script to `outfile`. */
export async function buildEmbed(outfile) {
  const worker = await build({ ...browser, entryPoints: ['src/embed/reader/read-worker.ts'], write: false, plugins: [exactExcelDates] });
  const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
  await build({
    ...browser,
    entryPoints: ['src/embed/importer.ts'],
    outfile,
    define: { IMPORTD_READ_WORKER: JSON.stringify(worker.outputFiles[0].text), IMPORTD_SDK_VERSION: JSON.stringify(version) },
  });
}
