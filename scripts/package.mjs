// Builds dist/importd, one Linux x64 executable (Node's Single Executable Application support + postject):
// the app bundled into one CommonJS file, the better-sqlite3 addon and every migration carried as assets.
//   node scripts/package.mjs          release: embeds the pinned Node 24 LTS (see package/release-runtime.mjs)
//   node scripts/package.mjs --fast   smoke-test build: embeds the node running this script and the addon
//                                     already built in node_modules
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { buildEmbed } from './embed-build.mjs';
import { serverCode } from './server-bundle.mjs';
import { ADDON_HEADERS_NODE_VERSION, ensureReleaseAddon, ensureReleaseNode, RELEASE_NODE_VERSION } from './package/release-runtime.mjs';

const root = path.resolve(import.meta.dirname, '..');
process.chdir(root);
const fast = process.argv.includes('--fast');
const cacheDir = path.resolve('.cache');
const work = path.join(cacheDir, fast ? 'package-fast' : 'package-release');
const output = path.resolve('dist', 'importd');
// Asset keys: src/executable/sea-platform.ts reads them under these names.
const ADDON_ASSET = 'better_sqlite3.node';
const PARSE_WORKER_ASSET = 'parse-worker.cjs';
const CHECKPOINT_WORKER_ASSET = 'checkpoint-worker.cjs';
const EMBED_ASSET = 'importer.js';
const MIGRATIONS_ASSET_PREFIX = 'migrations/';
const MIGRATION_ENGINES = ['sqlite', 'postgres'];
// Sentinel named by Node's SEA documentation; postject flips it so the binary looks for its blob.
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** Runs a tool; its output is shown, less lines matching `quiet` (postject's harmless ELF warnings). */
function run(command, args, quiet) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (result.error) throw result.error;
  const output = `${result.stdout}${result.stderr}`.split('\n').filter((line) => line && !quiet?.test(line));
  if (output.length > 0) console.log(output.join('\n'));
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
}

/** The node binary that becomes the executable, and the addon compiled for exactly that Node. */
function runtime() {
  if (fast) {
    return {
      node: process.execPath,
      nodeVersion: process.versions.node,
      addon: path.resolve('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'),
    };
  }
  const node = path.join(ensureReleaseNode(cacheDir, RELEASE_NODE_VERSION), 'bin', 'node');
  const headersDir = ensureReleaseNode(cacheDir, ADDON_HEADERS_NODE_VERSION);
  return {
    node,
    nodeVersion: RELEASE_NODE_VERSION,
    addon: path.resolve(ensureReleaseAddon(cacheDir, headersDir, ADDON_HEADERS_NODE_VERSION, node)),
  };
}

/** Every migration the app applies on each engine, driven by drizzle's journals (Node 20's node:sea cannot list assets). */
function migrationAssets() {
  return Object.fromEntries(
    MIGRATION_ENGINES.flatMap((engine) => {
      const journal = JSON.parse(readFileSync(`migrations/${engine}/meta/_journal.json`, 'utf8'));
      const files = ['meta/_journal.json', ...journal.entries.map((entry) => `${entry.tag}.sql`)];
      return files.map((file) => [`${MIGRATIONS_ASSET_PREFIX}${engine}/${file}`, path.resolve('migrations', engine, file)]);
    }),
  );
}

const started = Date.now();
const { node, nodeVersion, addon } = runtime();
// The release's Node honours `execArgvExtension: "none"` (NODE_OPTIONS ignored before any code runs, checked by
// test:binary); the fast build's Node 20 cannot, so the app refuses to start when the variable is set.
const policy = fast ? 'refused' : 'ignored';
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

// 1. One CommonJS file with every dependency inside; only Node's built-in modules stay outside. better-sqlite3
// bundles cleanly: its `bindings` file lookup runs only when no nativeBinding is given, and the executable
// always gives the loaded addon.
const bundle = path.join(work, 'importd.cjs');
const parseWorker = path.join(work, PARSE_WORKER_ASSET);
const checkpointWorker = path.join(work, CHECKPOINT_WORKER_ASSET);
const embed = path.join(work, EMBED_ASSET);
const bundleOptions = {
  ...serverCode,
  target: `node${nodeVersion.split('.')[0]}`,
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
};
// The worker threads run from source text inside the executable (a SEA cannot start a worker from a file).
await build({ ...bundleOptions, entryPoints: ['src/services/imports/parse-worker.ts'], outfile: parseWorker });
await build({ ...bundleOptions, entryPoints: ['src/db/sqlite/checkpoint-worker.ts'], outfile: checkpointWorker });
await buildEmbed(embed);
await build({
  ...bundleOptions,
  entryPoints: ['src/executable/entry.ts'],
  outfile: bundle,
  define: { IMPORTD_NODE_OPTIONS_POLICY: JSON.stringify(policy) },
});

// 2. The SEA blob, generated by the very node binary that becomes the executable (another one crashes).
const blob = path.join(work, 'importd.blob');
const seaConfig = {
  main: bundle,
  output: blob,
  disableExperimentalSEAWarning: true,
  useCodeCache: true,
  ...(policy === 'ignored' && { execArgvExtension: 'none' }),
  assets: { [ADDON_ASSET]: addon, [PARSE_WORKER_ASSET]: parseWorker, [CHECKPOINT_WORKER_ASSET]: checkpointWorker, [EMBED_ASSET]: embed, ...migrationAssets() },
};
writeFileSync(path.join(work, 'sea-config.json'), JSON.stringify(seaConfig, null, 2));
run(node, ['--experimental-sea-config', path.join(work, 'sea-config.json')]);

// 3. A stripped copy of that node with the blob injected; renamed into place only once complete.
mkdirSync(path.dirname(output), { recursive: true });
const staging = `${output}.partial`;
copyFileSync(node, staging);
chmodSync(staging, 0o755);
run('strip', ['--strip-all', staging]);
run(path.resolve('node_modules', '.bin', 'postject'), [staging, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE], /Can't find string offset for section name/);
renameSync(staging, output);

const megabytes = (statSync(output).size / 1024 ** 2).toFixed(1);
console.log(
  `package: dist/importd (${fast ? 'fast' : 'release'}, node ${nodeVersion}, NODE_OPTIONS ${policy}) ` +
    `${megabytes} MiB in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
