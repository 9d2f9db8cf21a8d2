/** `source`, libphonenumber-js's `helper` as published, with its per-call RegExp compiled once; throws for another content. */
export function compileOnce(helper: string, source: string): string;
/** The esbuild plugin every bundle carrying the phone rule uses. */
export const phoneRegExpsOnce: { name: string; setup: (bundle: unknown) => void };
