import { z } from 'zod';

// Inputs of the imports service (HTTP and CLI both hand it raw strings for query parameters) and the
// response shapes, member for member as the spec lists them.

const text = z.string().max(2048);
const count = z.int().min(0);

export const TemplateKey = z.string().min(1).max(255);

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
      fileId: text.optional(),
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
});

/** The schema the SDK imported against: free-form, with optional `id` and `key` used for template resolution. */
export const OriginalSchema = z.looseObject({ id: text.optional(), key: TemplateKey.optional() });

/** meta and originalSchema of POST /imports; `rows` is checked by the fast row loop, not by zod. */
export const ImportEnvelope = z.object({ meta: ImportMeta.optional(), originalSchema: OriginalSchema.optional() });

export const CellValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** The POST /imports body, for the OpenAPI document. */
export const CreateImportBody = ImportEnvelope.extend({ rows: z.array(z.record(z.string(), CellValue)) }).meta({ id: 'CreateImportInput' });

const limitParam = (min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d{1,6}$/, 'must be an integer')
    .transform(Number)
    .pipe(z.int().min(min, `must be ${min} to ${max}`).max(max, `must be ${min} to ${max}`))
    .default(20);

// `cursor=` and `cursor=null` both mean the first page (clients often send the null they were given).
const cursorParam = z
  .string()
  .max(2000)
  .optional()
  .transform((value) => (value === '' || value === 'null' ? undefined : value));

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
  direction: z.enum(['asc', 'desc']).default('desc'),
  limit: limitParam(0, 100),
  cursor: cursorParam,
  templateId: z.uuid().optional(),
  startDate: dateParam.optional(),
  endDate: dateParam.optional(),
  userEmail: z.string().min(1).max(320).optional(),
  environment: z.string().min(1).max(50).optional(),
});
export type ListImportsQuery = z.input<typeof ListImportsQuery>;

export const ListRowsQuery = z.object({
  sortBy: z.enum(['rowIndex']).default('rowIndex'),
  direction: z.enum(['asc', 'desc']).default('asc'),
  limit: limitParam(1, 100),
  cursor: cursorParam,
});
export type ListRowsQuery = z.input<typeof ListRowsQuery>;

export const ExportFormat = z.enum(['csv', 'ndjson', 'json']);
export type ExportFormat = z.infer<typeof ExportFormat>;

export const ExportQuery = z.object({
  format: ExportFormat.default('csv'),
  safe: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});
export type ExportQuery = z.input<typeof ExportQuery>;

const jsonObject = z.record(z.string(), z.unknown());
const nullableText = z.string().nullable();

export const CellStats = z.object({
  totalCells: z.int(),
  rowCount: z.int(),
  fieldBreakdown: z.array(
    z.object({ key: z.string(), type: z.enum(['string', 'number', 'boolean', 'date', 'email', 'empty', 'mixed']), count: z.int() }),
  ),
});
export type CellStats = z.infer<typeof CellStats>;

/** The list and create shape of an import. */
export const ImportListItem = z.object({
  id: z.string(),
  templateId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  fileId: nullableText,
  file: jsonObject.nullable(),
  meta: jsonObject,
  endUserId: nullableText,
  endUserEmail: nullableText,
  importedFrom: nullableText,
  rowCount: z.int(),
}).meta({ id: 'Import' });
export type ImportListItem = z.infer<typeof ImportListItem>;

/** The detail shape (GET /imports/{importId}). */
export const ImportDetail = z.object({
  id: z.string(),
  templateId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  meta: jsonObject,
  file: jsonObject.nullable(),
  cellStats: CellStats,
  endUserId: nullableText,
  endUserEmail: nullableText,
  endUserIp: nullableText,
  importedFrom: nullableText,
  sessionJti: nullableText,
}).meta({ id: 'ImportDetail' });
export type ImportDetail = z.infer<typeof ImportDetail>;

function pagination<F extends z.ZodType>(filters: F) {
  return z.object({
    paging: z.object({
      limit: z.int(),
      count: z.int(),
      cursor: nullableText,
      nextCursor: nullableText,
      hasNext: z.boolean(),
      total: z.int(),
    }),
    filters,
    sort: z.object({ orderBy: z.string(), direction: z.enum(['asc', 'desc']) }),
  });
}

export const ImportFiltersEcho = z.object({
  templateId: nullableText,
  startDate: nullableText,
  endDate: nullableText,
  userEmail: nullableText,
  environment: nullableText,
});

export const ImportPage = z
  .object({ data: z.array(ImportListItem), pagination: pagination(ImportFiltersEcho) })
  .meta({ id: 'ImportPage' });
export type ImportPage = z.infer<typeof ImportPage>;

export const ImportRowItem = z.object({ rowIndex: z.int(), data: z.record(z.string(), CellValue) });
export const RowPage = z.object({ data: z.array(ImportRowItem), pagination: pagination(jsonObject) }).meta({ id: 'ImportRowPage' });
export type Pagination = z.infer<ReturnType<typeof pagination<typeof jsonObject>>>;
