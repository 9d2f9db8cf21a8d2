/** Writes the browser importer script (src/embed/) to `outfile`. */
export function buildEmbed(outfile: string): Promise<void>;
