import { classifyChunk, countRows, noChanges, rowErrorsOf, rowStrings, withKeys, type DatasetChanges, type DatasetRef } from '../../db/store';
import { previousValues } from '../../rules';
import type { CompiledRules } from '../../rules';
import type { ServiceContext } from '../context';
import type { CheckedRows } from './check-rows';
import type { ValidatedRows } from './validate-rows';

/** The changed rows a dry run answers with, at most. */
export const DRY_RUN_ROWS = 100;

export interface DryRunRow {
  rowIndex: number;
  change: 'inserted' | 'updated';
  data: Record<string, unknown>;
  /** Updated rows: the previous values of the fields that changed. */
  previous?: Record<string, unknown>;
}

export interface DryRunResult {
  dryRun: true;
  templateId: string;
  /** The rows the import would store. */
  rowCount: number;
  counts?: ReturnType<ValidatedRows['counts']>;
  /** For a keyed template: what applying it now would change (null otherwise). */
  changes: DatasetChanges | null;
  /** The first DRY_RUN_ROWS inserted or updated rows, in row order. */
  rows: DryRunRow[];
}

/**
 * Reads an import's rows as creating it would (the template's rules and policy: `reject` still throws
 * validation_failed) and, for a keyed template, compares them with its dataset as it is now, slice by slice
 * (one read of the slice's keys each): stores nothing. rowIndex is the index the row would be stored at.
 */
export async function dryRunRows(
  ctx: ServiceContext,
  templateId: string,
  dataset: DatasetRef,
  rules: CompiledRules | undefined,
  rows: CheckedRows,
  validated: ValidatedRows | undefined,
): Promise<DryRunResult> {
  const keyed = rules !== undefined && rules.primaryKey.length > 0 ? rules.primaryKey : undefined;
  const changes = noChanges();
  const changed: DryRunRow[] = [];
  let stored = 0;
  try {
    for await (const slice of (validated ?? rows).slices) {
      const texts = rowStrings(slice);
      const errors = rowErrorsOf(slice);
      if (keyed) {
        const valid = withKeys(texts.flatMap((data, i) => (errors?.[i] ? [] : [{ rowIndex: stored + i, data }])), keyed);
        const records = await ctx.store.datasets.records(dataset, valid.map((row) => row.key));
        for (const row of classifyChunk(valid, (key) => records.get(key), changes)) {
          if (row.change === 'unchanged' || changed.length >= DRY_RUN_ROWS) continue;
          const data = JSON.parse(row.data) as Record<string, unknown>;
          changed.push({ rowIndex: row.rowIndex, change: row.change, data, ...(row.previous === undefined ? {} : { previous: previousValues(JSON.parse(row.previous) as Record<string, unknown>, data) }) });
        }
      }
      stored += countRows(slice);
    }
  } finally {
    await rows.discard?.();
  }
  if (keyed) {
    changes.missing = (await ctx.store.datasets.count(dataset)) - changes.updated - changes.unchanged;
    changes.removed = 0;
  }
  return { dryRun: true, templateId, rowCount: stored, ...(validated ? { counts: validated.counts() } : {}), changes: keyed ? changes : null, rows: changed };
}
