import { createHash } from 'node:crypto';
import type { Harness, TestEnvironment } from '../helpers/harness';

/** The id of the account's template with this key (created by an earlier import). */
export async function templateIdOf(h: Harness, env: TestEnvironment, key: string): Promise<string | undefined> {
  const [row] = await h.sql<{ id: string }>('SELECT id FROM templates WHERE account_id = ? AND key = ?', env.accountId, key);
  return row?.id;
}

/** How learned_mappings names an end-user who confirmed a mapping ('' for the Secret Key). */
export const confirmerOf = (endUserId: string) => createHash('sha256').update(endUserId).digest('hex');
