import { z } from 'zod';

/** The end-user identifier sessions are issued for (same bounds as POST /sessions `endUserId`). */
export const EndUserId = z.string().min(1).max(255);

export const DeletedEndUser = z.object({
  endUserId: z.string(),
  deleted: z.object({ imports: z.number().int(), rows: z.number().int(), sessions: z.number().int() }),
});
export type DeletedEndUser = z.infer<typeof DeletedEndUser>;

export const DeletedImport = z.object({ id: z.string(), deleted: z.literal(true), rows: z.number().int() });
export type DeletedImport = z.infer<typeof DeletedImport>;

export interface PurgeResult {
  imports: number;
  rows: number;
}
