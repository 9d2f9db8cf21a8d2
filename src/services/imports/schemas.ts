import { z } from 'zod';
import { REVIEW_STATUSES } from '../../db/store';
import { JsonRecord } from '../json';
import { ConfirmedMapping, ConfirmedValueMapping } from '../mapping/schemas';
import { Direction, PageCursor, pageLimit, pageSchema } from '../page-schemas';
import { storedText } from '../stored-text';
import { ImportMode } from './import-options';

// Inputs of the imports service (HTTP and CLI both hand it raw strings for query parameters) and the
// response shapes, member for member as the spec lists them.

const text = z.string().max(2048);
const count = z.int().min(0);

export const TemplateKey = storedText(z.string().min(1).max(255));

/** Import meta: every member the spec names is typed; others are kept as sent. */
export const ImportMeta = z.looseObject({
  publicKey: text.optional(),
  sessionToken: z.string().max(8192).optional(),
  schemaId: text.optional(),
  schemaKey: TemplateKey.optional(),
  sdkVersion: text.optional(),
  source: z.looseObject({ kind: text.optional(), referer: text.optional() }).optional(),
  file: z
    .looseObject({
      name: text.optional(),
      fileId: storedText(text).optional(),
      extension: text.optional(),
      mime: text.optional(),
      sizeBytes: count.optional(),
      formattedSize: text.optional(),
      // Browsers give File.lastModified as epoch milliseconds; the spec's string form is accepted too.
      lastModified: z.union([text, z.number()]).optional(),
    })
    .optional(),
  sheet: z
    .looseObject({ rowCount: count.optional(), selectedSheetName: text.optional(), allSheetNames: z.array(text).optional() })
    .optional(),
  counts: z
    .looseObject({
      totalRows: count.optional(),
      validRows: count.optional(),
      erroredRows: count.optional(),
      discardedRows: count.optional(),
    })
    .optional(),
  timings: z.looseObject({ startedAt: text.optional(), finishedAt: text.optional() }).optional(),
  environment: z
    .looseObject({ userAgent: text.optional(), timezone: text.optional(), platform: text.optional(), runtime: text.optional() })
    .optional(),
  /** The header mapping the end-user confirmed; the account remembers it for map-headers. */
  mapping: ConfirmedMapping.optional(),
  /** The options the end-user confirmed for enum fields' values; remembered like the mapping. */
  valueMapping: ConfirmedValueMapping.optional(),
});

/** The schema the SDK imported against: free-form, with optional `id` and `key` used for template resolution. */
export const OriginalSchema = z.looseObject({ id: text.optional(), key: TemplateKey.optional() });

/** meta and originalSchema of POST /imports; `rows` is checked by the fast row loop, not by zod. */
export const ImportEnvelope = z.object({ meta: ImportMeta.optional(), originalSchema: OriginalSchema.optional() });

export const CellValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** The POST /imports body, for the OpenAPI document. */
export const CreateImportBody = ImportEnvelope.extend({
  rows: z.array(z.record(z.string(), CellValue)),
  mode: ImportMode.optional().meta({ description: 'A keyed template: upsert (default) keeps the records the import does not carry, replace removes them' }),
  dryRun: z.boolean().optional().meta({ description: 'Validate and compare with the dataset, store nothing (200 ImportDryRun)' }),
}).meta({ id: 'CreateImportInput' });

const dateParam = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/,
    'must be an ISO 8601 date or date-time with an offset',
  )
  .transform((value, ctx) => {
    const time = new Date(value);
    if (Number.isNaN(time.getTime())) {
      ctx.addIssue({ code: 'custom', message: 'is not a valid date' });
      return z.NEVER;
    }
    return time.toISOString();
  });

export const ListImportsQuery = z.object({
  orderBy: z.enum(['createdAt', 'updatedAt']).default('createdAt'),
  direction: Direction.default('desc'),
  limit: pageLimit(0),
  cursor: PageCursor,
  templateId: z.uuid().optional(),
  startDate: dateParam.optional(),
  endDate: dateParam.optional(),
  userEmail: z.string().min(1).max(320).optional(),
  environment: z.string().min(1).max(50).optional(),
  status: z
    .enum(REVIEW_STATUSES)
    .optional()
    .meta({ description: 'Only imports of this review status: `pending_review` lists those awaiting a reviewer' }),
});
export type ListImportsQuery = z.input<typeof ListImportsQuery>;

export const MAX_REVIEW_REASON = 1000;

/** POST /imports/{id}/approve and /reject: an optional reason, kept with the decision and sent in its webhook. */
export const ReviewImportInput = z
  .object({
    reason: z
      .string()
      .min(1, `must be 1 to ${MAX_REVIEW_REASON} characters`)
      .max(MAX_REVIEW_REASON, `must be 1 to ${MAX_REVIEW_REASON} characters`)
      .regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, 'must not contain control characters other than tab and line breaks')
      .optional(),
  })
  .strict()
  .meta({ id: 'ReviewImportInput', examples: [{ reason: 'prices checked against the supplier sheet' }] });
export type ReviewImportInput = z.input<typeof ReviewImportInput>;

/** A row stored with errors (onInvalid `keep`) is invalid; every other row is valid. */
export const RowStatusFilter = z.enum(['valid', 'invalid']);

export const ListRowsQuery = z.object({
  status: RowStatusFilter.optional().meta({ description: 'Only the rows stored with errors (`invalid`, template policy onInvalid `keep`) or without (`valid`)' }),
  change: z.enum(['inserted', 'updated', 'unchanged']).optional().meta({ description: 'Only the rows applying the import (keyed template) inserted, updated or found unchanged in its dataset; ascending only' }),
  sortBy: z.enum(['rowIndex']).default('rowIndex'),
  direction: Direction.default('asc'),
  limit: pageLimit(1),
  cursor: PageCursor,
});
export type ListRowsQuery = z.input<typeof ListRowsQuery>;

export const ExportFormat = z.enum(['csv', 'ndjson', 'json']);
export type ExportFormat = z.infer<typeof ExportFormat>;

export const ExportQuery = z.object({
  format: ExportFormat.default('csv'),
  errors: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true')
    .meta({ description: "Adds each row's errors: an `_errors` column (CSV: `key: message; ...`) or member (NDJSON, JSON: the array); `__errors` when the rows have an `_errors` column of their own (one more `_` while that names a column too)" }),
  safe: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});
export type ExportQuery = z.input<typeof ExportQuery>;

const nullableText = z.string().nullable();

/** The members every shape of an import starts with. */
const importHead = {
  id: z.string(),
  templateId: z.string(),
  status: z.enum(REVIEW_STATUSES).meta({
    description: '`completed` (it counts), `pending_review` (its template requires review: it counts once approved) or `rejected`',
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
};

/** What the server counted of an import's rows (meta.counts; the client's own counts are kept as meta.clientCounts). */
export const ImportCounts = z.object({
  totalRows: z.number().int(),
  validRows: z.number().int(),
  erroredRows: z.number().int(),
  discardedRows: z.number().int(),
});
export type ImportCounts = z.infer<typeof ImportCounts>;

export const CellStats = z.object({
  totalCells: z.int(),
  rowCount: z.int(),
  fieldBreakdown: z.array(
    z.object({ key: z.string(), type: z.enum(['string', 'number', 'boolean', 'date', 'email', 'empty', 'mixed']), count: z.int() }),
  ),
});
export type CellStats = z.infer<typeof CellStats>;

/** The list and create shape of an import. */
/** What applying an import changed in its keyed template's dataset (docs/templates.md). */
export const DatasetChanges = z
  .object({ inserted: count, updated: count, unchanged: count, missing: count, removed: count })
  .meta({ id: 'DatasetChanges', description: "Present only for an import into a keyed template: its rows by change, and the dataset's keys it did not carry (`removed` by a replace)" });
export type DatasetChanges = z.infer<typeof DatasetChanges>;

/** POST /imports with `dryRun: true` (200): nothing stored. */
export const DryRunAnswer = z
  .object({
    dryRun: z.literal(true),
    templateId: z.string(),
    rowCount: z.int().meta({ description: 'The rows the import would store' }),
    counts: z.record(z.string(), z.int()).optional(),
    changes: DatasetChanges.nullable(),
    rows: z.array(z.object({ rowIndex: z.int(), change: z.enum(['inserted', 'updated']), data: z.record(z.string(), CellValue), previous: z.record(z.string(), CellValue.nullable()).optional() })),
  })
  .meta({ id: 'ImportDryRun', description: 'What the import would change; the first 100 inserted or updated rows' });

export const ImportListItem = z.object({
  ...importHead,
  fileId: nullableText,
  file: JsonRecord.nullable(),
  meta: JsonRecord,
  endUserId: nullableText,
  endUserEmail: nullableText,
  importedFrom: nullableText,
  rowCount: z.int(),
  changes: DatasetChanges.optional(),
}).meta({ id: 'Import' });
export type ImportListItem = z.infer<typeof ImportListItem>;

/** The detail shape (GET /imports/{importId}). */
export const ImportDetail = z.object({
  ...importHead,
  meta: JsonRecord,
  file: JsonRecord.nullable(),
  cellStats: CellStats,
  endUserId: nullableText,
  endUserEmail: nullableText,
  endUserIp: nullableText,
  importedFrom: nullableText,
  sessionJti: nullableText,
  reviewedAt: nullableText.meta({ description: 'When a reviewer approved or rejected it (null otherwise)' }),
  reviewReason: nullableText.meta({ description: "The reviewer's reason, when one was given" }),
  mode: ImportMode.optional(),
  changes: DatasetChanges.optional(),
}).meta({ id: 'ImportDetail' });
export type ImportDetail = z.infer<typeof ImportDetail>;

export const ImportFiltersEcho = z.object({
  templateId: nullableText,
  startDate: nullableText,
  endDate: nullableText,
  userEmail: nullableText,
  environment: nullableText,
  status: nullableText,
});

export const ImportPage = pageSchema(ImportListItem, ImportFiltersEcho).meta({ id: 'ImportPage' });
export type ImportPage = z.infer<typeof ImportPage>;

/** One error of a stored row: the field's key, the rule's code and the message the end-user reads. */
export const RowError = z.object({ key: z.string(), code: z.string(), message: z.string() }).meta({ id: 'RowError' });
export const ImportRowItem = z.object({
  rowIndex: z.int(),
  data: z.record(z.string(), CellValue),
  errors: z.array(RowError).optional().meta({ description: 'Present when the row was stored invalid (onInvalid `keep`)' }),
  previous: z.record(z.string(), CellValue.nullable()).optional().meta({ description: "With `change=updated`: the previous values of the fields that changed (null: the record had no such field)" }),
});
/** GET /imports/{id}/errors: the invalid cells by field and code, with counts and a few examples each. */
export const ImportErrors = z
  .object({
    invalidRows: z.int().meta({ description: 'Rows with at least one error (stored under `keep`, dropped under `discard`)' }),
    errorCount: z.int().meta({ description: 'Invalid cells in all' }),
    omittedGroups: z.int().meta({ description: 'Errors past the first 500 (field, code) groups, counted but not grouped' }),
    errors: z.array(
      z.object({
        key: z.string(),
        code: z.string(),
        count: z.int(),
        examples: z.array(z.object({ rowIndex: z.int(), value: CellValue })).meta({ description: 'The first 3, in row order; text values cut to 200 characters' }),
      }),
    ),
  })
  .meta({ id: 'ImportErrors' });
export type ImportErrors = z.infer<typeof ImportErrors>;

export const RowPage = pageSchema(ImportRowItem, z.object({ status: RowStatusFilter.optional(), change: z.string().optional() })).meta({ id: 'ImportRowPage' });
