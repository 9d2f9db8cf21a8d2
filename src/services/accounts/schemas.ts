import { z } from 'zod';

export const DEFAULT_ACCOUNT = 'default';

export const AccountName = z
  .string()
  .min(1)
  .max(50)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'letters, digits, "_", "." and "-" only, starting with a letter or digit');

export const CreateAccountInput = z.object({ name: AccountName });
export type CreateAccountInput = z.input<typeof CreateAccountInput>;

export interface AccountOutput {
  id: string;
  name: string;
  createdAt: string;
}

/** An account as `importd account list` shows it: its stored bytes against the quota (null: no quota). */
export interface AccountUsageOutput extends AccountOutput {
  usedBytes: number;
  quotaBytes: number | null;
}
