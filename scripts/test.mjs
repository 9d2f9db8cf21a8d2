// Runs every test/**/*.test.ts with node:test through tsx (Node 20's --test does not expand globs).
// Usage: node scripts/test.mjs [folder-or-file ...]   (default: test/, skipping test/slow unless named)
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const roots = process.argv.slice(2);
const files = [];
const walk = (entry, includeSlow) => {
  if (statSync(entry).isFile()) return files.push(entry);
  for (const name of readdirSync(entry).sort()) {
    const child = path.join(entry, name);
    if (!includeSlow && child === path.join('test', 'slow')) continue;
    if (statSync(child).isDirectory()) walk(child, includeSlow);
    else if (name.endsWith('.test.ts')) files.push(child);
  }
};
for (const root of roots.length > 0 ? roots : ['test']) walk(root, roots.length > 0);
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
