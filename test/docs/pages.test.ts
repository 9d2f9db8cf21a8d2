import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ERROR_STATUS } from '../../src/http/errors';
import { ROOT, anchorsOf, markdownPages, readDoc, tableRows, withoutCodeBlocks } from './markdown';

// The user documentation stays short, readable as it is today (no record of past work), and linked.
describe('README.md and docs/', () => {
  for (const [page, most] of [['README.md', 300], ['docs/performance.md', 150]] as const) {
    it(`${page} has at most ${most} lines and no word of rounds`, () => {
      const text = readDoc(page);
      assert.ok(text.split('\n').length <= most, `${page}: ${text.split('\n').length} lines`);
      assert.deepEqual(text.match(/\brounds?\b/gi) ?? [], []);
    });
  }

  it('every relative link of README.md and docs/*.md reaches a file, and its anchor a heading there', () => {
    const broken: string[] = [];
    let links = 0;
    for (const page of markdownPages()) {
      for (const match of withoutCodeBlocks(readDoc(page)).matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1]!;
        if (/^[a-z]+:/i.test(target)) continue;
        links++;
        const [file, anchor] = target.split('#') as [string, string | undefined];
        const resolved = file === '' ? path.join(ROOT, page) : path.resolve(path.dirname(path.join(ROOT, page)), file);
        if (!existsSync(resolved)) broken.push(`${page}: ${target} (no such file)`);
        else if (anchor !== undefined && (!resolved.endsWith('.md') || !anchorsOf(readDoc(path.relative(ROOT, resolved))).has(anchor))) {
          broken.push(`${page}: ${target} (no such heading)`);
        } else if (statSync(resolved).isDirectory()) broken.push(`${page}: ${target} (a folder)`);
      }
    }
    assert.ok(links > 20, `found ${links} links`);
    assert.deepEqual(broken, []);
  });

  it('README.md gives every dependency of package.json a line', () => {
    const pkg = JSON.parse(readDoc('package.json')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    const named = new Set<string>();
    for (const { header, cells } of tableRows(readDoc('README.md'))) {
      if (header[0] === 'package') for (const name of cells[0]!.matchAll(/([@\w./*-]+)(?:,|\s|$)/g)) named.add(name[1]!);
    }
    const missing = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)].filter(
      (name) => !named.has(name) && !(name.startsWith('@types/') && named.has('@types/*')),
    );
    assert.deepEqual(missing, []);
  });

  it('docs/api.md gives every error code the status the API answers with', () => {
    const documented: Record<string, number> = {};
    for (const { header, cells } of tableRows(readDoc('docs/api.md'))) {
      if (header[0] !== 'status' || header[1] !== 'codes') continue;
      for (const code of cells[1]!.matchAll(/`([a-z_]+)`/g)) documented[code[1]!] = Number(cells[0]);
    }
    assert.deepEqual(Object.fromEntries(Object.entries(documented).sort()), Object.fromEntries(Object.entries(ERROR_STATUS).sort()));
  });
});
