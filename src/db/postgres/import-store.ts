import type pg from 'pg';
import { QuotaExceededError, type ComplianceStore, type ImportStore, type RowStore } from '../store/store';
import type { PgDb, PgExecutor } from './open-database';
import { deleteRowsOfImport, deleteSessionsOfEndUser, hideCompleteImport, hideImportsOfEndUser } from './queries/compliance';
import { readRowChunk } from './queries/import-rows';
import { readErrorsBetween, readRowsOfStatus } from './queries/row-errors';
import { rememberLearnedMappings } from './queries/learned-mappings';
import { applyDataset, eraseEndUserRecords } from './queries/datasets';
import { RowCopies } from './row-copies';
import {
  claimAbandonedImports,
  claimImport,
  completeImport,
  countImports,
  deleteImport,
  findImport,
  findErrorSummary,
  findImportView,
  hideExpiredImports,
  insertImport,
  latestCompleteImports,
  listImportPage,
  renewImportLease,
  reviewImport,
  storedImportBytes,
} from './queries/imports';
import { countTemplates } from './queries/templates';
import { erasedSomething, type DatasetChanges } from '../store';
import { eraseEventsOfEndUser, eraseEventsOfImport, writeWebhookEvent } from './queries/webhooks';

/** The repositories of imports, their rows, and the deletions of compliance and retention. */
export function createImportStores(db: PgDb, pool: pg.Pool, writerPool: pg.Pool): { imports: ImportStore; rows: RowStore; compliance: ComplianceStore } {
  const copies = new RowCopies(writerPool);
  return {
    imports: {
      insert: (row) => insertImport(db, row),
      // The rows' COPY, the flip to 'complete', the quota's charge, the dataset's application (a keyed
      // template's import), the outbox event and the learned labels commit together (row-copies.ts), or nothing
      // does. The charge (the counts trigger's UPDATE) locks the account's counter row until the commit, so the
      // bytes read after it include every other completion's.
      complete: async (id, writerNode, values, event, learned, quota, apply) => {
        let changes: DatasetChanges | null = null;
        const done = await copies.finish(id, db, (tx) => {
          const work = async (on: PgExecutor) => {
            if (!(await completeImport(on, id, writerNode, values))) return false;
            if (quota && (await storedImportBytes(on, quota.accountId)) > quota.maxBytes) throw new QuotaExceededError();
            if (apply) changes = await applyDataset(on, apply);
            const draft = typeof event === 'function' ? event(changes) : event;
            if (draft) await writeWebhookEvent(on, draft);
            if (learned) await rememberLearnedMappings(on, learned);
            return true;
          };
          // Without an open COPY `tx` is the pool itself: a transaction of its own keeps the statements together.
          return (event || learned || quota || apply) && tx === db ? db.transaction(work) : work(tx);
        });
        return done && { changes };
      },
      // The decision, an approved keyed import's application to its dataset and its outbox events commit
      // together. Of two concurrent decisions the second waits for the first's row lock, then finds the import
      // no longer pending and changes nothing.
      review: (accountId, id, decision, events, apply) =>
        db.transaction(async (tx) => {
          const reviewed = await reviewImport(tx, accountId, id, decision);
          if (!reviewed) return undefined;
          const changes = apply ? await applyDataset(tx, apply) : null;
          for (const event of events(changes)) await writeWebhookEvent(tx, event);
          return changes ? { ...reviewed, mode: apply!.mode, changes: JSON.stringify(changes) } : reviewed;
        }),
      // A separate connection: the open COPY holds no lock on the import row, so this never waits.
      renewLease: (id, writerNode, until) => renewImportLease(db, id, writerNode, until),
      claimAbandoned: (node, now, until, limit) => claimAbandonedImports(db, node, now, until, limit),
      claim: (id, node, now, until) => claimImport(db, id, node, now, until),
      delete: async (id) => {
        await copies.discard(id);
        await deleteImport(db, id);
      },
      find: (accountId, id) => findImport(db, accountId, id),
      findView: (accountId, id) => findImportView(pool, accountId, id),
      errorSummary: (accountId, id) => findErrorSummary(db, accountId, id),
      page: (accountId, query) => listImportPage(db, accountId, query),
      count: (accountId, filters) => countImports(db, accountId, filters),
      storedBytes: (accountId) => storedImportBytes(db, accountId),
      // One snapshot: the counts and the list describe the same moment.
      overview: (accountId, latest) =>
        db.transaction(
          async (tx) => ({
            templates: await countTemplates(tx, accountId),
            imports: await countImports(tx, accountId, {}),
            latest: await latestCompleteImports(tx, accountId, latest),
          }),
          { isolationLevel: 'repeatable read', accessMode: 'read only' },
        ),
    },
    rows: {
      append: (importId, first, rows) => copies.append(importId, first, rows),
      textForm: 'utf8',
      chunk: (importId, direction, from, limit, maxBytes) => readRowChunk(pool, importId, direction, from, limit, maxBytes),
      ofStatus: (importId, status, direction, from, limit) => readRowsOfStatus(pool, importId, status, direction, from, limit),
      errorsBetween: (importId, low, high) => readErrorsBetween(pool, importId, low, high),
      discard: (importId) => copies.discard(importId),
    },
    compliance: {
      hideEndUser: (accountId, endUserId, event) =>
        db.transaction(async (tx) => {
          const result = { hidden: await hideImportsOfEndUser(tx, accountId, endUserId), sessions: await deleteSessionsOfEndUser(tx, accountId, endUserId) };
          await eraseEventsOfEndUser(tx, accountId, endUserId);
          // The dataset records whose last write was the end-user's (docs/templates.md, "Erasure").
          await eraseEndUserRecords(tx, accountId, endUserId);
          if (event && erasedSomething(result)) await writeWebhookEvent(tx, event);
          return result;
        }),
      hideComplete: (accountId, importId, event) =>
        db.transaction(async (tx) => {
          if (!(await hideCompleteImport(tx, accountId, importId))) return false;
          await eraseEventsOfImport(tx, importId);
          if (event) await writeWebhookEvent(tx, event);
          return true;
        }),
      hideExpired: (cutoff, limit) =>
        db.transaction(async (tx) => {
          const hidden = await hideExpiredImports(tx, cutoff, limit);
          for (const id of hidden) await eraseEventsOfImport(tx, id);
          return hidden;
        }),
      // A removal of an import this process is still writing ends its COPY first (its rows were never committed).
      deleteRows: async (importId, limit) => {
        await copies.discard(importId);
        return await deleteRowsOfImport(db, importId, limit);
      },
    },
  };
}
