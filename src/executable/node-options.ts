/**
 * What the executable does about `NODE_OPTIONS`, which could otherwise preload code (`--require`,
 * `--import`) or open an inspector in a production server.
 *
 * - `ignored`: the release build embeds Node 24, whose SEA configuration (`execArgvExtension: "none"`) makes
 *   Node itself ignore the variable before any code runs; importd removes it from its environment and
 *   notes it on stderr.
 * - `refused`: the fast build embeds the local Node 20, which applies the variable before importd starts;
 *   importd refuses to run, so a server is never started with injected options. It is a smoke-test build.
 */
export type NodeOptionsPolicy = 'ignored' | 'refused';

/** Applies the policy; returns the message to print and whether to stop (exit code 1). */
export function checkNodeOptions(
  env: Record<string, string | undefined>,
  policy: NodeOptionsPolicy,
): { stop: boolean; message?: string } {
  const value = env.NODE_OPTIONS;
  if (value === undefined || value.trim() === '') return { stop: false };
  if (policy === 'refused') {
    return {
      stop: true,
      message: 'importd: NODE_OPTIONS is set; this build refuses to start with it (unset NODE_OPTIONS)\n',
    };
  }
  delete env.NODE_OPTIONS;
  return { stop: false, message: 'importd: NODE_OPTIONS is ignored by the importd executable\n' };
}
