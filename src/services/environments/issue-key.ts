import { newId } from '../../core/ids';
import { generateKey, type KeyKind } from '../../core/keys';
import type { ApiKeyRow, EnvironmentRow } from '../../db/store';

/** A new active key of the environment: the row to store, and its view with the plaintext, shown this once. */
export function newKey(environment: Pick<EnvironmentRow, 'id' | 'accountId'>, kind: KeyKind, allowedOrigins: string[], createdAt: string) {
  const key = generateKey(kind);
  const row: ApiKeyRow = {
    id: newId(),
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
  };
  return { row, view: { id: row.id, key: key.plaintext, prefix: key.prefix, active: true, createdAt } };
}
