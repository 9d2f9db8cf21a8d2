// Bundles the app into build/importd.cjs for bin/importd. better-sqlite3 stays external here (it loads its
// addon from node_modules); the standalone executable's build embeds the addon instead.
import { build } from 'esbuild';
import { buildEmbed } from './embed-build.mjs';
import { serverCode } from './server-bundle.mjs';

// The worker threads are files of their own beside the bundle: build/parse-worker.cjs
// (src/services/imports/parse-pool.ts) and build/checkpoint-worker.cjs (src/db/sqlite/checkpoints.ts).
await build({
  entryPoints: { importd: 'src/main.ts', 'parse-worker': 'src/services/imports/parse-worker.ts', 'checkpoint-worker': 'src/db/sqlite/checkpoint-worker.ts' },
  ...serverCode,
  outdir: 'build',
  outExtension: { '.js': '.cjs' },
  sourcemap: true,
  external: ['better-sqlite3'],
  logLevel: 'warning',
});

// The browser importer served at GET /embed/importer.js (src/http/embed-script.ts reads it beside the bundle).
await buildEmbed('build/importer.js');
