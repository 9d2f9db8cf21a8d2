import { eq } from 'drizzle-orm';
import type { Db } from '../open-database';
import { settings } from '../schema';

export function readSetting(db: Db, key: string): string | undefined {
  return db.select().from(settings).where(eq(settings.key, key)).get()?.value;
}

/** Stores the value unless one is already there; returns whichever value is stored afterwards. */
export function insertSettingOnce(db: Db, key: string, value: string): string {
  db.insert(settings).values({ key, value }).onConflictDoNothing().run();
  return readSetting(db, key)!;
}

export function writeSetting(db: Db, key: string, value: string): void {
  db.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } }).run();
}
