import { z } from 'zod';
import type { CompiledRules } from '../../rules';
import { validationFailed } from '../errors';

/** The members of an import body beside meta, originalSchema and rows, as sent (checked by importOptions). */
export interface ImportOptions {
  /** A keyed template's `upsert` (default) or `replace` (docs/templates.md). */
  mode?: unknown;
  /** Validate and compare with the dataset, store nothing (dry-run.ts). */
  dryRun?: unknown;
}

export const ImportMode = z.enum(['upsert', 'replace']);

const Options = z.object({ mode: ImportMode.optional(), dryRun: z.boolean().optional() });

/**
 * The options checked against the import's template: `mode` only for a keyed one. Throws validation_failed
 * naming `mode` or `dryRun`.
 */
export function importOptions(options: ImportOptions, rules: CompiledRules | undefined): { mode: 'upsert' | 'replace' | undefined; dryRun: boolean } {
  const parsed = Options.safeParse({ mode: options.mode, dryRun: options.dryRun });
  if (!parsed.success) throw validationFailed(parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })));
  const keyed = (rules?.primaryKey.length ?? 0) > 0;
  if (parsed.data.mode !== undefined && !keyed) throw validationFailed([{ path: 'mode', message: 'applies only to an import into a keyed template (one with a primaryKey)' }]);
  return { mode: keyed ? (parsed.data.mode ?? 'upsert') : undefined, dryRun: parsed.data.dryRun ?? false };
}
