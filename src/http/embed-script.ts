import { readFileSync } from 'node:fs';
import path from 'node:path';
import { strongEtag } from './etag';

/** The browser importer as served by GET /embed/importer.js. */
export interface EmbedScript {
  text: string;
  etag: string;
  /** A short content hash: `/embed/importer.js?v=<version>` may be cached forever. */
  version: string;
}

/** Where the script comes from: a file, or the text itself (inside the executable). */
export type EmbedSource = { file: string } | { text: string };

/**
 * build/importer.js, written by scripts/build.mjs beside the server bundle (found from the source tree when
 * run from source, as the parse worker is).
 */
export function siblingEmbedSource(): EmbedSource {
  const folder = path.dirname(__filename);
  return { file: __filename.endsWith('.ts') ? path.resolve(folder, '..', '..', 'build', 'importer.js') : path.join(folder, 'importer.js') };
}

/** Reads the script once, on first request; later requests share it. */
export function embedScriptLoader(source: EmbedSource): () => EmbedScript {
  let script: EmbedScript | undefined;
  return () => {
    if (!script) {
      const text = 'text' in source ? source.text : readFileSync(source.file, 'utf8');
      const etag = strongEtag(text);
      script = { text, etag, version: etag.slice(1, 13) };
    }
    return script;
  };
}
