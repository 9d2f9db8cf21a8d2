import { z } from 'zod';

export const CreateBackupInput = z.object({
  file: z.string().trim().min(1, 'give the file to write the backup to'),
  force: z.boolean().default(false),
});
export type CreateBackupInput = z.input<typeof CreateBackupInput>;

export interface BackupOutput {
  file: string;
  pages: number;
  bytes: number;
  durationMs: number;
  /** The uploads and kept files (IMPORTD_FILES_DIR): not in the copy, to be backed up beside it. */
  filesDir: string;
}
