import type { AccountStore, EnvironmentStore, SessionStore, SettingStore, TemplateStore, ThemeStore } from '../store/store';
import { uniqueChecked } from './errors';
import { WRITE_TRANSACTION, type Db } from './open-database';
import { findAccountByName, insertAccount, insertAccountIfMissing, listAccountRows } from './queries/accounts';
import {
  activeKeysOf,
  allActiveOrigins,
  countLiveEnvironments,
  deactivateApiKey,
  deleteEnvironmentRow,
  findApiKeyByHash,
  findEnvironmentById,
  findEnvironmentByName,
  insertApiKey,
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
import { findThemeOfAccount, insertTheme, updateThemeRow } from './queries/themes';

/** The repositories of accounts, environments and keys, templates, sessions, themes and settings. */
export function createKeyedStores(db: Db): {
  accounts: AccountStore;
  environments: EnvironmentStore;
  templates: TemplateStore;
  sessions: SessionStore;
  themes: ThemeStore;
  settings: SettingStore;
} {
  const write = <T>(work: () => T): T => uniqueChecked(() => db.transaction(work, WRITE_TRANSACTION));
  return {
    accounts: {
      findByName: async (name) => findAccountByName(db, name),
      list: async () => listAccountRows(db),
      insert: async (row) => uniqueChecked(() => insertAccount(db, row)),
      insertIfMissing: async (row) => insertAccountIfMissing(db, row),
    },
    environments: {
      findByName: async (accountId, name) => findEnvironmentByName(db, accountId, name),
      findById: async (id) => findEnvironmentById(db, id),
      list: async (accountId) => listEnvironmentRows(db, accountId),
      create: async (environment, keys, max) =>
        write(() => {
          if (countLiveEnvironments(db, environment.accountId) >= max) return false;
          insertEnvironment(db, environment);
          for (const key of keys) insertApiKey(db, key);
          return true;
        }),
      setAutoCreateTemplates: async (environmentId, allowed) => setAutoCreateTemplates(db, environmentId, allowed),
      activeKeysOf: async (ids) => activeKeysOf(db, ids),
      findKeyByHash: async (hash) => findApiKeyByHash(db, hash),
      setPublicOrigins: async (environmentId, origins) =>
        write(() =>
          activeKeysOf(db, [environmentId]).map((key) => {
            if (key.kind !== 'public') return key;
            setAllowedOrigins(db, key.id, origins);
            return { ...key, allowedOrigins: origins };
          }),
        ),
      rollKey: async (fresh, expiresAt) =>
        write(() => {
          const previous = activeKeysOf(db, [fresh.environmentId]).find((key) => key.kind === fresh.kind && key.expiresAt === null);
          if (!previous) return undefined;
          if (expiresAt === null) deactivateApiKey(db, previous.id, fresh.createdAt);
          else setKeyExpiry(db, previous.id, expiresAt);
          insertApiKey(db, { ...fresh, allowedOrigins: fresh.kind === 'public' ? previous.allowedOrigins : [] });
          return previous;
        }),
      touchKey: async (key, at) => touchApiKey(db, key, at),
      delete: async (environmentId, at) => write(() => deleteEnvironmentRow(db, environmentId, at)),
      allActiveOrigins: async (now) => allActiveOrigins(db, now),
    },
    templates: {
      find: async (accountId, id) => findTemplate(db, accountId, id),
      findByKey: async (accountId, key) => findTemplateByKey(db, accountId, key),
      insert: async (row) => uniqueChecked(() => insertTemplate(db, row)),
      insertIfKeyFree: async (row) =>
        write(() => {
          insertTemplateIfKeyFree(db, row);
          return findTemplateByKey(db, row.accountId, row.key)!;
        }),
      update: async (accountId, id, changes) =>
        write(() => {
          updateTemplateRow(db, accountId, id, changes);
          return findTemplate(db, accountId, id);
        }),
      count: async (accountId) => countTemplates(db, accountId),
      page: async (accountId, query) => listTemplateRows(db, accountId, query),
    },
    sessions: {
      insert: async (row) => insertSession(db, row),
      find: async (jti) => findSession(db, jti),
      findOfAccount: async (accountId, jti) => findAccountSession(db, accountId, jti),
      revoke: async (jti, at) => revokeSessionRow(db, jti, at),
    },
    themes: {
      find: async (accountId) => findThemeOfAccount(db, accountId),
      insert: async (row) => uniqueChecked(() => insertTheme(db, row)),
      update: async (accountId, changes) =>
        write(() => {
          const existing = findThemeOfAccount(db, accountId);
          if (!existing) return undefined;
          updateThemeRow(db, accountId, changes);
          return { ...existing, ...changes };
        }),
      upsert: async (row) =>
        write(() => {
          const existing = findThemeOfAccount(db, row.accountId);
          if (!existing) {
            insertTheme(db, row);
            return row;
          }
          const { id: _id, accountId: _account, createdAt: _created, ...changes } = row;
          updateThemeRow(db, row.accountId, changes);
          return { ...existing, ...changes };
        }),
    },
    settings: {
      read: async (key) => readSetting(db, key),
      insertOnce: async (key, value) => insertSettingOnce(db, key, value),
      modify: async (key, change) =>
        write(() => {
          const next = change(readSetting(db, key));
          writeSetting(db, key, next);
          return next;
        }),
    },
  };
}
