// esbuild's options that shape the server's code (scripts/build.mjs uses them), and modules of src/ loaded as the
// server runs them, for the tests and benchmarks that must time or check that code rather than the sources.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { phoneRegExpsOnce } from './phone-regexps.mjs';

export const serverCode = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', plugins: [phoneRegExpsOnce] };

/** The exports of `entry` bundled with serverCode. */
export async function requireBundled(entry) {
  const bundle = await build({ ...serverCode, entryPoints: [entry], write: false, logLevel: 'warning' });
  const dir = mkdtempSync(path.join(tmpdir(), 'importd-bundled-'));
  try {
    const file = path.join(dir, 'bundled.cjs');
    writeFileSync(file, bundle.outputFiles[0].text);
    return createRequire(import.meta.url)(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
