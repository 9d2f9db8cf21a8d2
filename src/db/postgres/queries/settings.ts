import { eq } from 'drizzle-orm';
import type { PgExecutor } from '../open-database';
import { settings } from '../schema';

export async function readSetting(db: PgExecutor, key: string, lock = false): Promise<string | undefined> {
  const query = db.select().from(settings).where(eq(settings.key, key));
  return (await (lock ? query.for('update') : query))[0]?.value;
}

/** Stores the value unless one is already there; returns whichever value is stored afterwards. */
export async function insertSettingOnce(db: PgExecutor, key: string, value: string): Promise<string> {
  await db.insert(settings).values({ key, value }).onConflictDoNothing();
  return (await readSetting(db, key))!;
}

export async function writeSetting(db: PgExecutor, key: string, value: string): Promise<void> {
  await db.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
}
