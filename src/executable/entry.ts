// The entry of the standalone executable (scripts/package.mjs bundles it as the SEA's main script).
import * as sea from 'node:sea';
import { main, type Platform } from '../main';
import { checkNodeOptions, type NodeOptionsPolicy } from './node-options';
import { seaPlatform } from './sea-platform';

// Set by scripts/package.mjs: 'ignored' when the embedded Node honours `execArgvExtension: "none"`.
declare const IMPORTD_NODE_OPTIONS_POLICY: NodeOptionsPolicy;

async function start(): Promise<number> {
  const policy = typeof IMPORTD_NODE_OPTIONS_POLICY === 'string' ? IMPORTD_NODE_OPTIONS_POLICY : 'refused';
  const check = checkNodeOptions(process.env, policy);
  if (check.message) process.stderr.write(check.message);
  if (check.stop) return 1;
  // Outside an executable (the bundle run by a plain node) nothing is embedded: the defaults apply.
  const platform: Platform = sea.isSea() ? seaPlatform(sea, process.env) : {};
  return main(process.argv.slice(2), platform);
}

start().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`importd: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
