import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { MigrationMeta } from 'drizzle-orm/migrator';

/** Where one engine's migration files come from: `migrations/<engine>/` on disk, or the executable's assets. */
export interface MigrationSource {
  read(relativePath: string): string;
}

interface Journal {
  entries: { tag: string; when: number; breakpoints: boolean }[];
}

export type MigrationEngine = 'sqlite' | 'postgres';

/** Finds `migrations/<engine>/` by walking up from this module, so source, tests and the bundle share one copy. */
export function folderMigrationSource(start: string = __dirname, engine: MigrationEngine = 'sqlite'): MigrationSource {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const folder = path.join(dir, 'migrations', engine);
    if (existsSync(path.join(folder, 'meta', '_journal.json'))) {
      return { read: (relative) => readFileSync(path.join(folder, relative), 'utf8') };
    }
    if (path.dirname(dir) === dir) throw new Error(`no migrations folder found above ${start}`);
  }
}

/** Builds drizzle's in-memory migration list (the same form its folder migrator reads) from a source. */
export function loadMigrations(source: MigrationSource): MigrationMeta[] {
  const journal = JSON.parse(source.read('meta/_journal.json')) as Journal;
  return journal.entries.map((entry) => {
    const query = source.read(`${entry.tag}.sql`);
    return {
      sql: query.split('--> statement-breakpoint'),
      bps: entry.breakpoints,
      folderMillis: entry.when,
      hash: createHash('sha256').update(query).digest('hex'),
    };
  });
}

/** Lists the files a source must provide: the journal and one SQL file per entry. */
export function migrationFiles(source: MigrationSource): string[] {
  const journal = JSON.parse(source.read('meta/_journal.json')) as Journal;
  return ['meta/_journal.json', ...journal.entries.map((entry) => `${entry.tag}.sql`)];
}
