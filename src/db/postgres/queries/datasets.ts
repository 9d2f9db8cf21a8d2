import { sql, type SQL } from 'drizzle-orm';
import type { RowChange } from '../../../rules/records';
import { APPLY_CHUNK_ROWS, classifyChunk, noChanges, withKeys, type ChangedRowRow, type DatasetApply, type DatasetChanges, type DatasetMode, type DatasetRecordRow, type DatasetRef } from '../../store';
import type { PgExecutor } from '../open-database';

// Datasets on PostgreSQL: an apply reads its import's rows a chunk at a time and answers each chunk with one
// statement per table over lists (ROWS FROM, `elements` below), never a round trip per row. A dataset is a row
// of "datasets" (the dataset_ids migration), found by its template and environment ('' for none); its records
// reference its id. An applied import's changes reference its row of applied_imports likewise (the
// applied_imports migration).

const env = (ref: DatasetRef) => ref.environmentId ?? '';
/**
 * A list's elements as rows of text, for `ROWS FROM (...)` (several lists zip like unnest's): the list travels
 * as one JSON text, which JSON.stringify writes natively, allocating only its output. node-postgres's own array
 * literals cost 0.3-1 KB of short-lived strings per element (an escape and concatenations each), half of an
 * apply's ~5 KB of garbage a row: a scavenge about every chunk, each promoting the chunk's live rows to the old
 * space (~1 MiB a chunk, up to ~100 MiB of heap before a full GC: the server's peak RSS).
 */
const elements = (values: readonly unknown[]) => sql`json_array_elements_text(${JSON.stringify(values)}::json)`;

async function rows<T>(db: PgExecutor, query: SQL): Promise<T[]> {
  return (await db.execute(query)).rows as T[];
}

const notCarried = (importId: string) =>
  sql`NOT EXISTS (SELECT 1 FROM import_changes c WHERE c.applied_id = (SELECT id FROM applied_imports WHERE import_id = ${importId}) AND c.key = d.key)`;

/** A dataset's id and record count; undefined until its first apply. */
async function findDataset(db: PgExecutor, ref: DatasetRef): Promise<{ id: number; records: number } | undefined> {
  const [row] = await rows<{ id: number; records: number }>(db, sql`SELECT id, records FROM datasets WHERE template_id = ${ref.templateId} AND environment_id = ${env(ref)}`);
  return row;
}

/**
 * DatasetStore.apply's work inside the caller's transaction: the dataset's advisory lock first (held to the
 * commit), so an apply to the same dataset from any node waits and then reads what this one wrote (its row,
 * created empty by the first apply, included).
 */
export async function applyDataset(tx: PgExecutor, input: DatasetApply): Promise<DatasetChanges> {
  const { templateId, accountId } = input.dataset;
  const environmentId = env(input.dataset);
  const { importId } = input;
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`importd.dataset.${templateId}.${environmentId}`}, 0))`);
  await tx.execute(sql`INSERT INTO datasets (template_id, environment_id, account_id, records) VALUES (${templateId}, ${environmentId}, ${accountId}, 0)
    ON CONFLICT (template_id, environment_id) DO NOTHING`);
  const dataset = (await findDataset(tx, input.dataset))!;
  const [{ id: appliedId }] = (await rows<{ id: number }>(tx, sql`INSERT INTO applied_imports (import_id) VALUES (${importId}) RETURNING id`)) as [{ id: number }];
  const counts = noChanges();
  // The import's rows by ranges of row index, not `row_index > from ... LIMIT`: rows COPY'd in this very
  // transaction are not in the planner's statistics, so it expects a handful per import and answers each LIMIT
  // with a bitmap scan and sort of ALL the rows after `from` (every chunk re-reading the rest of the import). A
  // range costs its own rows whatever the plan.
  const [{ last }] = (await rows<{ last: number | null }>(tx, sql`SELECT max(row_index) AS last FROM import_rows WHERE import_id = ${importId}`)) as [{ last: number | null }];
  for (let from = 0; from <= (last ?? -1); from += APPLY_CHUNK_ROWS) {
    const read = await rows<{ rowIndex: number; data: string }>(
      tx,
      sql`SELECT row_index AS "rowIndex", data FROM import_rows
          WHERE import_id = ${importId} AND row_index >= ${from} AND row_index < ${from + APPLY_CHUNK_ROWS} AND errors IS NULL ORDER BY row_index`,
    );
    if (read.length === 0) continue;
    const chunk = withKeys(read, input.primaryKey);
    const existing = await recordsOf(tx, dataset.id, chunk.map((row) => row.key));
    const classified = classifyChunk(chunk, (key) => existing.get(key), counts);
    await tx.execute(sql`
      INSERT INTO import_changes (applied_id, key, row_index, change, previous)
      SELECT ${appliedId}, k, i::int, c, p FROM ROWS FROM (${elements(classified.map((row) => row.key))}, ${elements(classified.map((row) => row.rowIndex))},
        ${elements(classified.map((row) => row.change))}, ${elements(classified.map((row) => (row.change === 'updated' ? row.previous! : null)))}) AS t(k, i, c, p)`);
    const writes = classified.filter((row) => row.change !== 'unchanged');
    if (writes.length > 0) {
      await tx.execute(sql`
        INSERT INTO dataset_records (dataset_id, key, record, import_id, end_user_id, updated_at)
        SELECT ${dataset.id}, k, r, ${importId}, ${input.endUserId}, ${input.at}
        FROM ROWS FROM (${elements(writes.map((row) => row.key))}, ${elements(writes.map((row) => row.data))}) AS t(k, r)
        ON CONFLICT (dataset_id, key) DO UPDATE SET record = excluded.record, import_id = excluded.import_id,
          end_user_id = excluded.end_user_id, updated_at = excluded.updated_at`);
    }
  }
  counts.missing = dataset.records - counts.updated - counts.unchanged;
  if (input.mode === 'replace' && counts.missing > 0) {
    const inDataset = sql`d.dataset_id = ${dataset.id} AND ${notCarried(importId)}`;
    await tx.execute(sql`INSERT INTO import_missing (import_id, key) SELECT ${importId}, key FROM dataset_records d WHERE ${inDataset}`);
    counts.removed = (await tx.execute(sql`DELETE FROM dataset_records d WHERE ${inDataset}`)).rowCount ?? 0;
  }
  await tx.execute(sql`UPDATE datasets SET records = records + ${counts.inserted - counts.removed} WHERE id = ${dataset.id}`);
  await tx.execute(sql`UPDATE imports SET changes = ${JSON.stringify(counts)}, mode = ${input.mode} WHERE id = ${importId}`);
  return counts;
}

async function recordsOf(db: PgExecutor, datasetId: number, keys: readonly string[]): Promise<Map<string, string>> {
  const found = await rows<{ key: string; record: string }>(db, sql`SELECT key, record FROM dataset_records WHERE dataset_id = ${datasetId} AND key = ANY(ARRAY(SELECT ${elements(keys)}))`);
  return new Map(found.map((row) => [row.key, row.record]));
}

export async function findRecords(db: PgExecutor, ref: DatasetRef, keys: readonly string[]): Promise<Map<string, string>> {
  const dataset = await findDataset(db, ref);
  return dataset ? await recordsOf(db, dataset.id, keys) : new Map();
}

export const countRecords = async (db: PgExecutor, ref: DatasetRef): Promise<number> => (await findDataset(db, ref))?.records ?? 0;

/** The records of the dataset the reference names, by a subquery: a read of a dataset not yet applied finds none. */
const ofDataset = (ref: DatasetRef) => sql`dataset_id = (SELECT id FROM datasets WHERE template_id = ${ref.templateId} AND environment_id = ${env(ref)})`;

const recordColumns = sql`key, record, import_id AS "importId", end_user_id AS "endUserId", updated_at AS "updatedAt"`;

export async function pageRecords(db: PgExecutor, ref: DatasetRef, query: { after?: string; key?: string; limit: number }): Promise<DatasetRecordRow[]> {
  const inDataset = ofDataset(ref);
  if (query.key !== undefined) {
    if (query.after !== undefined) return [];
    return await rows(db, sql`SELECT ${recordColumns} FROM dataset_records WHERE ${inDataset} AND key = ${query.key}`);
  }
  // Keys are COLLATE "C" (the datasets migration): they compare by bytes as on SQLite, and pages follow the index.
  return await rows(db, sql`SELECT ${recordColumns} FROM dataset_records WHERE ${inDataset} AND key > ${query.after ?? ''} ORDER BY key LIMIT ${query.limit}`);
}

export async function changedRows(db: PgExecutor, importId: string, change: RowChange, after: number, limit: number): Promise<ChangedRowRow[]> {
  return await rows(
    db,
    sql`SELECT c.row_index AS "rowIndex", r.data, c.previous FROM applied_imports a JOIN import_changes c ON c.applied_id = a.id
        JOIN import_rows r ON r.import_id = a.import_id AND r.row_index = c.row_index
        WHERE a.import_id = ${importId} AND c.change = ${change} AND c.row_index > ${after} ORDER BY c.row_index LIMIT ${limit}`,
  );
}

export async function missingKeys(db: PgExecutor, ref: DatasetRef, importId: string, mode: DatasetMode, query: { after?: string; limit: number }): Promise<string[]> {
  const after = query.after ?? '';
  const found =
    mode === 'replace'
      ? await rows<{ key: string }>(db, sql`SELECT key FROM import_missing WHERE import_id = ${importId} AND key > ${after} ORDER BY key LIMIT ${query.limit}`)
      : await rows<{ key: string }>(
          db,
          sql`SELECT key FROM dataset_records d WHERE ${ofDataset(ref)} AND key > ${after}
              AND ${notCarried(importId)} ORDER BY key LIMIT ${query.limit}`,
        );
  return found.map((row) => row.key);
}

/** Removes the records the end-user wrote last from the account's datasets, and their counts, inside the caller's transaction. */
export async function eraseEndUserRecords(db: PgExecutor, accountId: string, endUserId: string): Promise<void> {
  await db.execute(sql`
    WITH erased AS (
      DELETE FROM dataset_records WHERE end_user_id = ${endUserId} AND dataset_id IN (SELECT id FROM datasets WHERE account_id = ${accountId}) RETURNING dataset_id
    )
    UPDATE datasets SET records = records - e.n FROM (SELECT dataset_id, count(*)::int AS n FROM erased GROUP BY dataset_id) e WHERE datasets.id = e.dataset_id`);
}
