/** Writes the browser importer script (src/embed/) to `outfile`. */
export function buildEmbed(outfile: string): Promise<void>;
/** esbuild's options for code that runs in the page. */
export const browser: Record<string, unknown>;
