import type Database from 'better-sqlite3';
import { rowErrorsOf, rowStrings } from '../store/row-texts';
import { QuotaExceededError, type ComplianceStore, type ImportStore, type RowStore } from '../store/store';
import { WRITE_TRANSACTION, type Db } from './open-database';
import { deleteRowsOfImport, deleteSessionsOfEndUser, hideCompleteImport, hideExpiredImports, hideImportsOfEndUser } from './queries/compliance';
import { insertRowTexts, readRowChunk } from './queries/import-rows';
import { readErrorsBetween, readRowsOfStatus } from './queries/row-errors';
import { claimAbandonedImports, claimImport, completeImport, countImports, deleteImport, findErrorSummary, findImport, findImportView, insertImport, listImportPage, renewImportLease, reviewImport, storedImportBytes } from './queries/imports';
import { rememberLearnedMappings } from './queries/learned-mappings';
import { eraseEndUserRecords } from './queries/datasets';
import { applyDataset } from './queries/dataset-apply';
import { latestCompleteImports } from './queries/stats';
import { erasedSomething } from '../store';
import { eraseEventsOfEndUser, eraseEventsOfImport, writeWebhookEvent } from './queries/webhooks';
import { countTemplates } from './queries/templates';

/** The repositories of imports, their rows, and the deletions of compliance and retention. */
export function createImportStores(
  db: Db,
  sqlite: Database.Database,
  writePause?: () => Promise<void>,
): { imports: ImportStore; rows: RowStore; compliance: ComplianceStore } {
  const write = <T>(work: () => T): T => db.transaction(work, WRITE_TRANSACTION);
  // The hot path: one transaction per slice around the reused prepared INSERT.
  const appendSlice = sqlite.transaction((importId: string, first: number, texts: readonly string[], errors?: readonly (string | null)[]) =>
    insertRowTexts(sqlite, importId, first, texts, errors),
  );
  return {
    imports: {
      insert: async (row) => write(() => insertImport(db, row)),
      // The outbox event, the learned labels and the quota's charge commit with the completion, or none does;
      // a keyed template's import is applied to its dataset in the same transaction. The write lock is held
      // from BEGIN IMMEDIATE: the counter read after the charge includes every other completion, of this
      // process or another.
      complete: async (id, writerNode, values, event, learned, quota, apply) =>
        write(() => {
          if (!completeImport(db, id, writerNode, values)) return false;
          if (quota && storedImportBytes(db, quota.accountId) > quota.maxBytes) throw new QuotaExceededError();
          const changes = apply ? applyDataset(db, apply) : null;
          const draft = typeof event === 'function' ? event(changes) : event;
          if (draft) writeWebhookEvent(sqlite, draft);
          if (learned) rememberLearnedMappings(db, learned);
          return { changes };
        }),
      // The decision, an approved keyed import's application to its dataset and the outbox events commit
      // together, or none does.
      review: async (accountId, id, decision, events, apply) =>
        write(() => {
          const reviewed = reviewImport(db, accountId, id, decision);
          if (!reviewed) return undefined;
          const changes = apply ? applyDataset(db, apply) : null;
          for (const event of events(changes)) writeWebhookEvent(sqlite, event);
          return changes ? { ...reviewed, mode: apply!.mode, changes: JSON.stringify(changes) } : reviewed;
        }),
      renewLease: async (id, writerNode, until) => renewImportLease(db, id, writerNode, until),
      claimAbandoned: async (node, now, until, limit) => claimAbandonedImports(db, node, now, until, limit),
      claim: async (id, node, now, until) => claimImport(db, id, node, now, until),
      delete: async (id) => deleteImport(db, id),
      find: async (accountId, id) => findImport(db, accountId, id),
      findView: async (accountId, id) => findImportView(db, accountId, id),
      errorSummary: async (accountId, id) => findErrorSummary(db, accountId, id),
      page: async (accountId, query) => listImportPage(db, accountId, query),
      count: async (accountId, filters) => countImports(db, accountId, filters),
      storedBytes: async (accountId) => storedImportBytes(db, accountId),
      // One read transaction: the counts and the list describe the same moment.
      overview: async (accountId, latest) =>
        db.transaction(
          () => ({
            templates: countTemplates(db, accountId),
            imports: countImports(db, accountId, {}),
            latest: latestCompleteImports(db, accountId, latest),
          }),
          { behavior: 'deferred' },
        ),
    },
    rows: {
      // An import is the long stream of commits that would keep the WAL from ever starting over (checkpoints.ts).
      append: async (importId, first, rows) => {
        await writePause?.();
        appendSlice(importId, first, rowStrings(rows), rowErrorsOf(rows));
      },
      textForm: 'strings',
      chunk: async (importId, direction, from, limit, maxBytes) => readRowChunk(sqlite, importId, direction, from, limit, maxBytes),
      ofStatus: async (importId, status, direction, from, limit) => readRowsOfStatus(sqlite, importId, status, direction, from, limit),
      errorsBetween: async (importId, low, high) => readErrorsBetween(sqlite, importId, low, high),
      discard: async () => undefined,
    },
    compliance: {
      hideEndUser: async (accountId, endUserId, event) =>
        write(() => {
          const result = { hidden: hideImportsOfEndUser(db, accountId, endUserId), sessions: deleteSessionsOfEndUser(db, accountId, endUserId) };
          eraseEventsOfEndUser(sqlite, accountId, endUserId);
          // The dataset records whose last write was the end-user's (docs/templates.md, "Erasure").
          eraseEndUserRecords(db, accountId, endUserId);
          if (event && erasedSomething(result)) writeWebhookEvent(sqlite, event);
          return result;
        }),
      hideComplete: async (accountId, importId, event) =>
        write(() => {
          const hidden = hideCompleteImport(db, accountId, importId);
          if (!hidden) return false;
          eraseEventsOfImport(sqlite, importId);
          if (event) writeWebhookEvent(sqlite, event);
          return true;
        }),
      hideExpired: async (cutoff, limit) =>
        write(() => {
          const hidden = hideExpiredImports(db, cutoff, limit);
          for (const id of hidden) eraseEventsOfImport(sqlite, id);
          return hidden;
        }),
      deleteRows: async (importId, limit) => write(() => deleteRowsOfImport(db, importId, limit)),
    },
  };
}
