import { isoTime } from '../../core/clock';
import { newId } from '../../core/ids';
import { isUniqueViolation } from '../../db/errors';
import { WRITE_TRANSACTION, type Db } from '../../db/open-database';
import { findThemeOfAccount, insertTheme, updateThemeRow, type ThemeRow } from '../../db/queries/themes';
import type { ServiceContext } from '../context';
import { conflict, notFound } from '../errors';
import { parseInput } from '../validate';
import { ThemeInput, type Theme } from './schemas';

/** Creates the account's one theme. Throws validation_failed, conflict (the account already has a theme). */
export function createTheme(ctx: ServiceContext, accountId: string, input: ThemeInput): Theme {
  const data = parseInput(ThemeInput, input);
  const now = isoTime(ctx.clock);
  const row: ThemeRow = { id: newId(), accountId, ...serialize(data), createdAt: now, updatedAt: now };
  try {
    insertTheme(ctx.db, row);
  } catch (error) {
    // The unique index on account_id keeps one theme per account even under concurrent creates.
    if (isUniqueViolation(error)) throw conflict('the account already has a theme; change it with PUT /v1/themes');
    throw error;
  }
  ctx.themeEvents.changed(accountId);
  return toTheme(row);
}

/** Replaces every member of the account's theme. Throws validation_failed, not_found (no theme yet). */
export function updateTheme(ctx: ServiceContext, accountId: string, input: ThemeInput): Theme {
  const data = parseInput(ThemeInput, input);
  const theme = ctx.db.transaction(() => {
    const existing = findThemeOfAccount(ctx.db, accountId);
    if (!existing) throw notFound('theme');
    const changes = { ...serialize(data), updatedAt: isoTime(ctx.clock) };
    updateThemeRow(ctx.db, accountId, changes);
    return toTheme({ ...existing, ...changes });
  }, WRITE_TRANSACTION);
  ctx.themeEvents.changed(accountId);
  return theme;
}

/**
 * Creates the account's theme, or replaces every member of the one it has (the operator's `themes set`),
 * in one transaction. Throws validation_failed.
 */
export function setTheme(ctx: ServiceContext, accountId: string, input: ThemeInput): { theme: Theme; created: boolean } {
  const data = parseInput(ThemeInput, input);
  const result = ctx.db.transaction(() => {
    const existing = findThemeOfAccount(ctx.db, accountId);
    const now = isoTime(ctx.clock);
    if (!existing) {
      const row: ThemeRow = { id: newId(), accountId, ...serialize(data), createdAt: now, updatedAt: now };
      insertTheme(ctx.db, row);
      return { theme: toTheme(row), created: true };
    }
    const changes = { ...serialize(data), updatedAt: now };
    updateThemeRow(ctx.db, accountId, changes);
    return { theme: toTheme({ ...existing, ...changes }), created: false };
  }, WRITE_TRANSACTION);
  ctx.themeEvents.changed(accountId);
  return result;
}

/** The account's theme. Throws not_found (none created yet). */
export function getTheme(ctx: ServiceContext, accountId: string): Theme {
  const theme = findTheme(ctx.db, accountId);
  if (!theme) throw notFound('theme');
  return theme;
}

/** The account's theme, or undefined when it has none. */
export function findTheme(db: Db, accountId: string): Theme | undefined {
  const row = findThemeOfAccount(db, accountId);
  return row ? toTheme(row) : undefined;
}

function serialize(data: ThemeInput) {
  return {
    name: data.name,
    description: data.description,
    lightColors: JSON.stringify(data.lightColors),
    darkColors: JSON.stringify(data.darkColors),
    radius: JSON.stringify(data.radius),
    sizes: JSON.stringify(data.sizes),
    effects: JSON.stringify(data.effects),
  };
}

function toTheme(row: ThemeRow): Theme {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    lightColors: JSON.parse(row.lightColors) as Theme['lightColors'],
    darkColors: JSON.parse(row.darkColors) as Theme['darkColors'],
    radius: JSON.parse(row.radius) as Theme['radius'],
    sizes: JSON.parse(row.sizes) as Theme['sizes'],
    effects: JSON.parse(row.effects) as Theme['effects'],
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
