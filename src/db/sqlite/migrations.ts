import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { MigrationMeta } from 'drizzle-orm/migrator';
import { VERSION } from '../../version';

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

/** What a database's migration table holds: how many migrations were applied and the newest one's time. */
export interface AppliedMigrations {
  count: number;
  /** drizzle's `created_at`: the applied migration's journal `when` (ms since the epoch); null when none. */
  lastMillis: number | null;
}

/**
 * Refuses a database migrated by a newer importd (the downgrade guard): its newest migration is later than the
 * newest this build carries. drizzle's migrator would apply nothing and start, and the older code would then
 * fail on columns and tables it does not know (a 500 on every list). Returns the message, or undefined when
 * this build knows every migration the database has.
 */
export function newerDatabase(applied: AppliedMigrations, source: MigrationSource): string | undefined {
  const journal = JSON.parse(source.read('meta/_journal.json')) as Journal;
  const last = journal.entries.at(-1);
  if (applied.lastMillis === null || !last || applied.lastMillis <= last.when) return undefined;
  const when = (millis: number) => new Date(millis).toISOString();
  return (
    `the database was migrated by a newer importd: it has ${applied.count} migrations, the newest of ${when(applied.lastMillis)}; ` +
    `this importd (${VERSION}) knows ${journal.entries.length}, the newest ${last.tag} of ${when(last.when)}. ` +
    'Run the newer importd (or restore a backup taken before the upgrade)'
  );
}
