import { z } from 'zod';
import { ImportMode } from '../imports';
import { ConfirmedMapping } from '../mapping/schemas';
import { CHARSETS } from './text-decoding';

/** The formats a finished upload is read as. */
export const UPLOAD_FORMATS = ['csv', 'tsv', 'ndjson', 'xlsx'] as const;
export type UploadFormat = (typeof UPLOAD_FORMATS)[number];

const text = z.string().max(2048);

/** The JSON text of a confirmed mapping (`{ "<schema key>": "<file column>" }`), as tus metadata carries it. */
const MappingText = z.string().transform((value, ctx) => {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be JSON: { "<schema key>": "<file column>" }' });
    return z.NEVER;
  }
}).pipe(ConfirmedMapping);

/**
 * A tus upload's `Upload-Metadata` (every value a string): the file and what the server makes of it once it
 * is complete. Unknown keys are kept as sent and ignored.
 */
export const UploadMetadata = z.looseObject({
  filename: text.optional(),
  filetype: text.optional(),
  /** The template, by id or by key (a session that names one may only use that one). */
  templateId: text.optional(),
  templateKey: text.optional(),
  /** Default: from the file name's extension, else its type. */
  format: z.enum(UPLOAD_FORMATS).optional(),
  /** XLSX: the sheet's name (default: the first). */
  sheet: text.optional(),
  /** CSV: one character, `tab`, or `auto` (default: detected from the header line among , ; tab |). */
  delimiter: z.string().max(8).optional(),
  charset: z.enum(['auto', ...CHARSETS]).optional(),
  /** The line (CSV) or row (XLSX) of the header, 1-based (default 1). */
  headerRow: z.coerce.number().int().min(1).max(1000).optional(),
  /** The confirmed mapping: only the mapped columns are imported, under their schema keys. */
  mapping: MappingText.optional(),
  /** A keyed template's `upsert` (default) or `replace`, as an import body's `mode`. */
  mode: ImportMode.optional(),
});
export type UploadMetadata = z.infer<typeof UploadMetadata>;

export const UploadStatusName = z.enum(['receiving', 'processing', 'completed', 'failed']);

/** GET /v1/uploads/{id}. */
export const UploadView = z.object({
  id: z.string(),
  status: UploadStatusName,
  sizeBytes: z.number().int(),
  /** Rows read from the file so far (processing) or stored (completed). */
  rowsProcessed: z.number().int(),
  importId: z.string().nullable(),
  /** The error body of a failed upload (a 422's `errors` included). */
  error: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type UploadView = z.infer<typeof UploadView>;
