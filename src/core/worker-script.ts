import path from 'node:path';

/** Where a worker thread's code comes from: a file beside the bundle, or source text (inside the executable). */
export type WorkerScript = { file: string } | { source: string };

/**
 * A bundled worker, `build/<name>` (scripts/build.mjs; `npm test` builds first): beside the bundle that runs
 * this module, or found from the source tree when run from source, since a worker thread does not inherit
 * the TypeScript loader of its parent.
 */
export function siblingWorkerScript(name: string): WorkerScript {
  // __filename, not __dirname: tsx's loader defines the first reliably, not the second.
  const folder = path.dirname(__filename);
  return { file: __filename.endsWith('.ts') ? path.resolve(folder, '..', '..', 'build', name) : path.join(folder, name) };
}
