import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/sqlite/open-database';
import { insertSettingOnce } from '../../db/sqlite/queries/settings';

/**
 * The HS256 signing secret of session tokens: the configured one, else the one generated on first start and
 * kept in the database (so tokens survive restarts and every CLI command signs with the same secret).
 */
export function loadSessionSecret(db: Db, configured: string | undefined): Uint8Array {
  const secret = configured ?? insertSettingOnce(db, 'session_secret', randomBytes(48).toString('base64url'));
  return new TextEncoder().encode(secret);
}
