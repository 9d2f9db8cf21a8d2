// The raw floors: the same work done with better-sqlite3 directly, measured in the same run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { stringify } from 'csv-stringify/sync';

export interface Scratch {
  db: Database.Database;
  close(): void;
}

/** A scratch database with the same pragmas and an import_rows table shaped like importd's. */
export function scratch(): Scratch {
  const dir = mkdtempSync(path.join(tmpdir(), 'importd-floor-'));
  const db = new Database(path.join(dir, 'floor.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE import_rows (import_id TEXT NOT NULL, row_index INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (import_id, row_index))');
  return { db, close: () => (db.close(), rmSync(dir, { recursive: true, force: true })) };
}

/**
 * The id rows are stored under: the caller's name padded to the 36 characters of importd's UUIDs, so the
 * floor's rows and index entries are as long as importd's.
 */
const storedId = (importId: string) => importId.padEnd(36, '-');

export function time(work: () => void): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

/**
 * The body as the server receives it, bytes: decoded (UTF-8), JSON.parse, then one reused prepared statement
 * inserting every row (JSON.stringify of each) in one transaction.
 */
export function ingestFloor(s: Scratch, body: Uint8Array, importId: string): number {
  const insert = s.db.prepare('INSERT INTO import_rows (import_id, row_index, data) VALUES (?, ?, ?)');
  const id = storedId(importId);
  return time(() => {
    const { rows } = JSON.parse(new TextDecoder().decode(body)) as { rows: unknown[] };
    s.db.transaction(() => {
      for (let i = 0; i < rows.length; i++) insert.run(id, i, JSON.stringify(rows[i]));
    })();
  });
}

/**
 * NDJSON bytes chunk by chunk (each ends a line): decoded, split into lines, JSON.parse each, insert every row
 * in one transaction.
 */
export function ndjsonFloor(s: Scratch, chunks: Iterable<Uint8Array>, importId: string): number {
  const insert = s.db.prepare('INSERT INTO import_rows (import_id, row_index, data) VALUES (?, ?, ?)');
  const id = storedId(importId);
  const decoder = new TextDecoder();
  return time(() => {
    let index = 0;
    s.db.transaction(() => {
      for (const chunk of chunks) {
        for (const line of decoder.decode(chunk).split('\n')) if (line !== '') insert.run(id, index++, JSON.stringify(JSON.parse(line)));
      }
    })();
  });
}

/** Iterating the stored rows in order with JSON.parse of each (the ndjson floor: parse is work an export can skip). */
export function iterateParseFloor(s: Scratch, importId: string): number {
  const select = s.db.prepare('SELECT data FROM import_rows WHERE import_id = ? ORDER BY row_index').pluck();
  return time(() => {
    for (const data of select.iterate(storedId(importId))) JSON.parse(data as string);
  });
}

/** Iterate + parse + CSV encode (csv-stringify) of every row: the CSV export floor. */
export function csvFloor(s: Scratch, importId: string, columns: string[]): number {
  const select = s.db.prepare('SELECT data FROM import_rows WHERE import_id = ? ORDER BY row_index').pluck();
  return time(() => {
    let batch: unknown[][] = [];
    let bytes = 0;
    for (const data of select.iterate(storedId(importId))) {
      const row = JSON.parse(data as string) as Record<string, unknown>;
      batch.push(columns.map((c) => row[c]));
      if (batch.length === 1000) {
        bytes += stringify(batch).length;
        batch = [];
      }
    }
    bytes += stringify(batch).length;
    if (bytes === 0) throw new Error('nothing encoded');
  });
}

/** One keyset page of 100 rows after `after`, with the JSON text spliced into a response string. */
export function rowsPageFloor(s: Scratch, importId: string, after: number, repeat: number): number {
  const page = s.db.prepare('SELECT row_index, data FROM import_rows WHERE import_id = ? AND row_index > ? ORDER BY row_index LIMIT 100').raw();
  return (
    time(() => {
      for (let r = 0; r < repeat; r++) {
        const rows = page.all(storedId(importId), after) as [number, string][];
        let text = '{"data":[';
        for (let i = 0; i < rows.length; i++) text += `${i ? ',' : ''}{"rowIndex":${rows[i]![0]},"data":${rows[i]![1]}}`;
        text += ']}';
      }
    }) / repeat
  );
}
