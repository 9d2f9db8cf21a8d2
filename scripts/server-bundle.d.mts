/** esbuild's options that shape the server's code. */
export const serverCode: Record<string, unknown>;
/** The exports of `entry` bundled with serverCode. */
export function requireBundled(entry: string): Promise<unknown>;
