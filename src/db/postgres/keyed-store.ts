import type pg from 'pg';
import { sql } from 'drizzle-orm';
import type { AccountStore, EnvironmentStore, SessionStore, SettingStore, TemplateStore, ThemeStore } from '../store/store';
import { uniqueChecked } from './errors';
import type { PgDb, PgExecutor } from './open-database';
import { findAccountByName, insertAccount, insertAccountIfMissing, listAccountRows } from './queries/accounts';
import {
  activeKeysOf,
  allActiveOrigins,
  countLiveEnvironmentsLocked,
  deactivateApiKey,
  deleteEnvironmentRow,
  findApiKeyByHash,
  findEnvironmentById,
  findEnvironmentByName,
  insertApiKeys,
  insertEnvironment,
  listEnvironmentRows,
  setAllowedOrigins,
  setAutoCreateTemplates,
  setKeyExpiry,
  touchApiKey,
} from './queries/environments';
import { findAccountSession, findSession, insertSession, revokeSessionRow } from './queries/sessions';
import { insertSettingOnce, readSetting, writeSetting } from './queries/settings';
import { countTemplates, findTemplate, findTemplateByKey, insertTemplate, insertTemplateIfKeyFree, listTemplateRows, updateTemplateRow } from './queries/templates';
import { findThemeOfAccount, insertTheme, updateThemeRow, upsertTheme } from './queries/themes';

/** The repositories of accounts, environments and keys, templates, sessions, themes and settings. */
export function createKeyedStores(db: PgDb, pool: pg.Pool): {
  accounts: AccountStore;
  environments: EnvironmentStore;
  templates: TemplateStore;
  sessions: SessionStore;
  themes: ThemeStore;
  settings: SettingStore;
} {
  // One transaction on one pooled client: it may span awaits, no other request's statement joins it.
  const write = <T>(work: (tx: PgExecutor) => Promise<T>): Promise<T> => uniqueChecked(() => db.transaction(work));
  return {
    accounts: {
      findByName: (name) => findAccountByName(db, name),
      list: () => listAccountRows(db),
      insert: (row) => uniqueChecked(() => insertAccount(db, row)),
      insertIfMissing: (row) => insertAccountIfMissing(db, row),
    },
    environments: {
      findByName: (accountId, name) => findEnvironmentByName(db, accountId, name),
      findById: (id) => findEnvironmentById(db, id),
      list: (accountId) => listEnvironmentRows(db, accountId),
      create: (environment, keys, max) =>
        write(async (tx) => {
          if ((await countLiveEnvironmentsLocked(tx, environment.accountId)) >= max) return false;
          await insertEnvironment(tx, environment);
          await insertApiKeys(tx, keys);
          return true;
        }),
      setAutoCreateTemplates: (environmentId, allowed) => setAutoCreateTemplates(db, environmentId, allowed),
      activeKeysOf: (ids) => activeKeysOf(db, ids),
      findKeyByHash: (hash) => findApiKeyByHash(pool, hash),
      setPublicOrigins: (environmentId, origins) =>
        write(async (tx) => {
          await setAllowedOrigins(tx, environmentId, origins);
          return await activeKeysOf(tx, [environmentId]);
        }),
      rollKey: (fresh, expiresAt) =>
        write(async (tx) => {
          const keys = await activeKeysOf(tx, [fresh.environmentId], true);
          const previous = keys.find((key) => key.kind === fresh.kind && key.expiresAt === null);
          if (!previous) return undefined;
          if (expiresAt === null) await deactivateApiKey(tx, previous.id, fresh.createdAt);
          else await setKeyExpiry(tx, previous.id, expiresAt);
          await insertApiKeys(tx, [{ ...fresh, allowedOrigins: fresh.kind === 'public' ? previous.allowedOrigins : [] }]);
          return previous;
        }),
      touchKey: (key, at) => touchApiKey(db, key, at),
      delete: (environmentId, at) => write((tx) => deleteEnvironmentRow(tx, environmentId, at)),
      allActiveOrigins: (now) => allActiveOrigins(db, now),
    },
    templates: {
      find: (accountId, id) => findTemplate(db, accountId, id),
      findByKey: (accountId, key) => findTemplateByKey(db, accountId, key),
      insert: (row) => uniqueChecked(() => insertTemplate(db, row)),
      insertIfKeyFree: async (row) => {
        await insertTemplateIfKeyFree(db, row);
        // A stored template is never deleted, so the one under the key is still there to be read.
        return (await findTemplateByKey(db, row.accountId, row.key))!;
      },
      update: (accountId, id, changes) => uniqueChecked(() => updateTemplateRow(db, accountId, id, changes)),
      count: (accountId) => countTemplates(db, accountId),
      page: (accountId, query) => listTemplateRows(db, accountId, query),
    },
    sessions: {
      insert: (row) => insertSession(db, row),
      find: (jti) => findSession(db, jti),
      findOfAccount: (accountId, jti) => findAccountSession(db, accountId, jti),
      revoke: (jti, at) => revokeSessionRow(db, jti, at),
    },
    themes: {
      find: (accountId) => findThemeOfAccount(db, accountId),
      insert: (row) => uniqueChecked(() => insertTheme(db, row)),
      update: (accountId, changes) => updateThemeRow(db, accountId, changes),
      upsert: (row) => upsertTheme(db, row),
    },
    settings: {
      read: (key) => readSetting(db, key),
      insertOnce: (key, value) => insertSettingOnce(db, key, value),
      modify: (key, change) =>
        write(async (tx) => {
          // Serialises every modify of the key, also while it has no row yet to lock.
          await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`importd.setting.${key}`}))`);
          const next = change(await readSetting(tx, key));
          await writeSetting(tx, key, next);
          return next;
        }),
    },
  };
}
