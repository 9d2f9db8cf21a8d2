import { randomBytes } from 'node:crypto';
import type { Store } from '../../db/store';

/**
 * The HS256 signing secret of session tokens: the configured one, else the one generated on first start and
 * kept in the database (so tokens survive restarts and every CLI command signs with the same secret).
 */
export async function loadSessionSecret(store: Store, configured: string | undefined): Promise<Uint8Array> {
  const secret = configured ?? (await store.settings.insertOnce('session_secret', randomBytes(48).toString('base64url')));
  return new TextEncoder().encode(secret);
}
