import { isoTime } from '../../core/clock';
import { newId } from '../../core/ids';
import type { Store, ThemeRow } from '../../db/store';
import type { ServiceContext } from '../context';
import { conflictOnUnique, notFound } from '../errors';
import { parseInput } from '../validate';
import { ThemeInput, type Theme } from './schemas';
import { themeChanged } from './theme-stream';

/** Creates the account's one theme. Throws validation_failed, conflict (the account already has a theme). */
export async function createTheme(ctx: ServiceContext, accountId: string, input: ThemeInput): Promise<Theme> {
  const data = parseInput(ThemeInput, input);
  const now = isoTime(ctx.clock);
  const row: ThemeRow = { id: newId(), accountId, ...serialize(data), createdAt: now, updatedAt: now };
  // The unique index on account_id keeps one theme per account even under concurrent creates.
  await conflictOnUnique(ctx.store.themes.insert(row), 'the account already has a theme; change it with PUT /v1/themes');
  await themeChanged(ctx, accountId);
  return toTheme(row);
}

/** Replaces every member of the account's theme. Throws validation_failed, not_found (no theme yet). */
export async function updateTheme(ctx: ServiceContext, accountId: string, input: ThemeInput): Promise<Theme> {
  const data = parseInput(ThemeInput, input);
  const row = await ctx.store.themes.update(accountId, { ...serialize(data), updatedAt: isoTime(ctx.clock) });
  if (!row) throw notFound('theme');
  await themeChanged(ctx, accountId);
  return toTheme(row);
}

/**
 * Creates the account's theme, or replaces every member of the one it has (the operator's `themes set`),
 * in one transaction. Throws validation_failed.
 */
export async function setTheme(ctx: ServiceContext, accountId: string, input: ThemeInput): Promise<{ theme: Theme; created: boolean }> {
  const data = parseInput(ThemeInput, input);
  const now = isoTime(ctx.clock);
  const fresh: ThemeRow = { id: newId(), accountId, ...serialize(data), createdAt: now, updatedAt: now };
  const stored = await ctx.store.themes.upsert(fresh);
  await themeChanged(ctx, accountId);
  return { theme: toTheme(stored), created: stored.id === fresh.id };
}

/** The account's theme. Throws not_found (none created yet). */
export async function getTheme(ctx: ServiceContext, accountId: string): Promise<Theme> {
  const theme = await findTheme(ctx.store, accountId);
  if (!theme) throw notFound('theme');
  return theme;
}

/** The account's theme, or undefined when it has none. */
export async function findTheme(store: Store, accountId: string): Promise<Theme | undefined> {
  const row = await store.themes.find(accountId);
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
