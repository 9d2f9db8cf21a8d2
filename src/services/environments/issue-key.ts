import { newId } from '../../core/ids';
import { generateKey, type KeyKind } from '../../core/keys';
import { insertApiKey, type EnvironmentRow } from '../../db/sqlite/queries/environments';
import type { ServiceContext } from '../context';

/** Inserts a new active key of the environment; returns its view with the plaintext, shown this once. */
export function issueKey(ctx: ServiceContext, environment: Pick<EnvironmentRow, 'id' | 'accountId'>, kind: KeyKind, allowedOrigins: string[], createdAt: string) {
  const key = generateKey(kind);
  const id = newId();
  insertApiKey(ctx.db, {
    id,
    accountId: environment.accountId,
    environmentId: environment.id,
    kind,
    hash: key.hash,
    prefix: key.prefix,
    active: true,
    allowedOrigins,
    createdAt,
    lastUsedAt: null,
    deactivatedAt: null,
    expiresAt: null,
  });
  return { id, key: key.plaintext, prefix: key.prefix, active: true, createdAt };
}
