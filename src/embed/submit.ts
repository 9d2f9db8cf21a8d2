import { setOwn } from '../lib/own-member';
import type { Field } from './template';

/** Bodies up to this size go as one JSON document; larger ones as NDJSON, which the server streams. */
export const JSON_BODY_LIMIT = 1024 * 1024;

/** The confirmed column of each field (-1: not imported). */
export type Mapping = Record<string, number>;

/** meta.mapping stays well under the server's 64 KiB meta limit, whatever the template and headers. */
export const MAX_MAPPING_CHARS = 16 * 1024;

/**
 * meta.mapping, the confirmed `{ fieldKey: fileHeaderLabel }` of the mapped fields; entries past
 * MAX_MAPPING_CHARS of JSON are left out (a template with thousands of fields) rather than failing the import.
 */
export function confirmedMapping(fields: Field[], mapping: Mapping, headers: string[]): Record<string, string> {
  const confirmed: Record<string, string> = {};
  let size = 2;
  for (const field of fields) {
    const label = headers[mapping[field.key] ?? -1];
    if (label === undefined) continue;
    size += JSON.stringify(field.key).length + JSON.stringify(label).length + 2;
    if (size > MAX_MAPPING_CHARS) break;
    setOwn(confirmed, field.key, label);
  }
  return confirmed;
}

/**
 * POST /v1/imports body: JSON while small, else NDJSON (a first line with meta, then a row a line);
 * `dryRun` asks for the changes the import would make, storing nothing.
 */
export function importBody(meta: Record<string, unknown>, rows: Record<string, string>[], options: { dryRun?: true } = {}): Blob {
  const head = JSON.stringify({ meta, ...options });
  const lines: string[] = [];
  let bytes = head.length;
  for (const row of rows) {
    const line = JSON.stringify(row);
    bytes += line.length + 1;
    lines.push(line);
  }
  if (bytes <= JSON_BODY_LIMIT) return new Blob([`${head.slice(0, -1)},"rows":[${lines.join(',')}]}`], { type: 'application/json' });
  return new Blob([head, '\n', lines.join('\n'), '\n'], { type: 'application/x-ndjson' });
}

/** A size as people read it (`1.2 MB`). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
