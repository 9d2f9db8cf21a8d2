import { constants, homedir, tmpdir } from 'node:os';
import type { MigrationEngine, MigrationSource } from '../db/sqlite/migrations';
import type { Platform } from '../main';
import { cacheFolders, installAddon } from './addon-cache';

/** Asset keys, as scripts/package.mjs writes them into the SEA configuration. */
export const ADDON_ASSET = 'better_sqlite3.node';
/** Each engine's migrations are assets under `migrations/<engine>/`, named as in the folder. */
export const MIGRATIONS_ASSET_PREFIX = 'migrations/';
export const PARSE_WORKER_ASSET = 'parse-worker.cjs';
export const CHECKPOINT_WORKER_ASSET = 'checkpoint-worker.cjs';
export const EMBED_ASSET = 'importer.js';

/** The part of `node:sea` the executable uses (a parameter so tests need no executable). */
export interface SeaAssets {
  getAsset(key: string): ArrayBuffer;
  getAsset(key: string, encoding: string): string;
}

/** One engine's migration files read from the executable's assets, named as in its `migrations/<engine>/` folder. */
export function assetMigrationSource(sea: SeaAssets, engine: MigrationEngine = 'sqlite'): MigrationSource {
  return { read: (relativePath) => sea.getAsset(`${MIGRATIONS_ASSET_PREFIX}${engine}/${relativePath}`, 'utf8') };
}

/** Loads a native addon from a file: inside a SEA `require()` only resolves built-in modules. */
export function dlopenAddon(file: string): object {
  const module = { exports: {} };
  process.dlopen(module, file, constants.dlopen.RTLD_NOW);
  return module.exports;
}

/**
 * The platform the app runs on inside the executable: the SQLite addon extracted to a private cache folder
 * and loaded from there, the migrations carried as assets, and the embedded Node version for `--version`.
 */
export function seaPlatform(sea: SeaAssets, env: Record<string, string | undefined>): Platform {
  const uid = process.getuid?.() ?? -1;
  const folders = cacheFolders({ env, homedir: safeHomedir(), tmpdir: tmpdir(), uid });
  const addon = installAddon(new Uint8Array(sea.getAsset(ADDON_ASSET)), folders, uid, dlopenAddon);
  return {
    nativeBinding: addon.exports,
    // The checkpoint thread loads the same extracted addon file.
    nativeBindingFile: addon.file,
    migrations: assetMigrationSource(sea),
    pgMigrations: assetMigrationSource(sea, 'postgres'),
    versionSuffix: ` (node ${process.version})`,
    // Inside a SEA a worker cannot be started from a file: each runs the embedded bundle's source.
    parseWorker: { source: sea.getAsset(PARSE_WORKER_ASSET, 'utf8') },
    checkpointWorker: { source: sea.getAsset(CHECKPOINT_WORKER_ASSET, 'utf8') },
    embedScript: sea.getAsset(EMBED_ASSET, 'utf8'),
  };
}

/** `os.homedir()` throws when the user has no passwd entry (some containers run an arbitrary uid). */
function safeHomedir(): string {
  try {
    return homedir();
  } catch {
    return '';
  }
}
