import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The repository's root, and the user documentation the tests in this folder check. */
export const ROOT = path.resolve(__dirname, '..', '..');
export const DOCS = path.join(ROOT, 'docs');

export function readDoc(relative: string): string {
  return readFileSync(path.join(ROOT, relative), 'utf8');
}

/** README.md and every docs/*.md, as paths relative to the root. */
export function markdownPages(): string[] {
  const pages = readdirSync(DOCS).filter((name) => name.endsWith('.md')).map((name) => path.join('docs', name));
  return ['README.md', ...pages.sort()];
}

/** The text outside fenced code blocks: what is prose, headings and tables. */
export function withoutCodeBlocks(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

/** Every table row as its cells (trimmed, the outer pipes dropped), with the header row of its table. */
export function tableRows(markdown: string): { header: string[]; cells: string[] }[] {
  const rows: { header: string[]; cells: string[] }[] = [];
  let header: string[] | undefined;
  for (const line of withoutCodeBlocks(markdown).split('\n')) {
    if (!line.startsWith('|')) {
      header = undefined;
      continue;
    }
    // `\|` inside a cell is a literal pipe, not a column break.
    const cells = line.slice(1, line.endsWith('|') ? -1 : undefined).split(/(?<!\\)\|/).map((cell) => cell.trim());
    if (!header) header = cells;
    else if (!cells.every((cell) => /^:?-+:?$/.test(cell))) rows.push({ header, cells });
  }
  return rows;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a page's headings (`## Backups and restore` -> `backups-and-restore`). */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const match of withoutCodeBlocks(markdown).matchAll(/^#{1,6} (.+)$/gm)) anchors.add(slugOf(match[1]!));
  return anchors;
}
