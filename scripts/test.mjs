// Runs every test/**/*.test.ts with node:test through tsx (Node 20's --test does not expand globs).
// Usage: node scripts/test.mjs [folder-or-file ...]   (default: test/, skipping test/slow and test/browser unless named)
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const roots = process.argv.slice(2);
const files = [];
// Run on their own (npm run test:slow, npm run test:browser): the real server under load, and headless Chromium.
const SEPARATE = [path.join('test', 'slow'), path.join('test', 'browser')];
const walk = (entry, includeSeparate) => {
  if (statSync(entry).isFile()) return files.push(entry);
  for (const name of readdirSync(entry).sort()) {
    const child = path.join(entry, name);
    if (!includeSeparate && SEPARATE.includes(child)) continue;
    if (statSync(child).isDirectory()) walk(child, includeSeparate);
    else if (name.endsWith('.test.ts')) files.push(child);
  }
};
for (const root of roots.length > 0 ? roots : ['test']) walk(root, roots.length > 0);
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
