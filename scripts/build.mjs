// Bundles the app into build/importd.cjs for bin/importd. better-sqlite3 stays external here (it loads its
// addon from node_modules); the standalone executable's build embeds the addon instead.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'build/importd.cjs',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  external: ['better-sqlite3'],
  logLevel: 'warning',
});
