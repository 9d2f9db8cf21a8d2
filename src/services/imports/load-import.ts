import path from 'node:path';
import { formatBytes } from '../../lib/format-bytes';
import { resolveAccount } from '../accounts';
import type { ServiceContext } from '../context';
import { resolveEnvironment } from '../environments';
import { createImport } from './create-import';
import type { RowSlices } from './import-writer';
import type { ImportListItem } from './schemas';
import type { DryRunResult } from './dry-run';

export interface LoadImportInput {
  account?: string;
  environment: string;
  templateKey: string;
  fileName: string;
  sizeBytes: number;
  /** The file's bytes read so far (it may grow while it is read): the account's quota counts them. */
  bytesRead?: () => number;
  /** A keyed template's `upsert` or `replace`. */
  mode?: string;
  /** Validate and compare with the dataset only (dry-run.ts): nothing is stored. */
  dryRun?: boolean;
}

/**
 * An operator's bulk load (`importd import FILE`): the same create path as POST /imports, for an environment
 * and a template key named on the command line; the import's schema snapshot is the template's current
 * schema (or `{ key }` when the template does not exist yet and is created). Throws not_found (account,
 * environment), validation_failed, quota_exceeded.
 */
export async function loadImport(ctx: ServiceContext, input: LoadImportInput, rows: RowSlices): Promise<ImportListItem | DryRunResult> {
  const account = await resolveAccount(ctx, input.account);
  const environment = await resolveEnvironment(ctx, account.id, input.environment);
  const template = await ctx.store.templates.findByKey(account.id, input.templateKey);
  const extension = path.extname(input.fileName).slice(1).toLowerCase();
  return createImport(
    ctx,
    { accountId: account.id, environmentId: environment.id, importedFrom: 'cli' },
    {
      meta: {
        schemaKey: input.templateKey,
        source: { kind: 'cli' },
        file: { name: path.basename(input.fileName), extension, sizeBytes: input.sizeBytes, formattedSize: formatBytes(input.sizeBytes) },
      },
      originalSchema: template ? (JSON.parse(template.schema) as unknown) : { key: input.templateKey },
      rows,
      bytes: { declared: input.sizeBytes, read: input.bytesRead ?? (() => input.sizeBytes) },
      mode: input.mode,
      dryRun: input.dryRun,
    },
  );
}
