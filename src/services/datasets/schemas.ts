import { z } from 'zod';
import { CellValue, ExportFormat } from '../imports/schemas';
import { pageLimit, pageSchema } from '../page-schemas';

/** A cursor holds the last key's text, which can be longer than a time and an id: a longer cursor than lists take. */
const KeyCursor = z.string().max(4096).optional().transform((cursor) => (cursor === '' || cursor === 'null' ? undefined : cursor));

// Inputs and answers of a keyed template's dataset (docs/templates.md, "Keyed templates").

const environment = z.string().min(1).max(255).optional().meta({ description: "The dataset's environment by name; the Secret Key's own by default" });

/** One key value: a JSON array of the key's cells in primaryKey order, or for a one-field key its cell as text. */
const KeyFilter = z.string().max(10_000).meta({ description: 'Only the record of this key: a JSON array of its values in primaryKey order, or the bare value of a one-field key' });

export const ListRecordsQuery = z.object({ environment, key: KeyFilter.optional(), limit: pageLimit(0), cursor: KeyCursor });
export type ListRecordsQuery = z.input<typeof ListRecordsQuery>;

export const ExportRecordsQuery = z.object({
  environment,
  format: ExportFormat.default('csv'),
  safe: z.enum(['true', 'false']).default('false').transform((value) => value === 'true').meta({ description: "Prefixes CSV cells that begin with =, +, -, @ with '" }),
});
export type ExportRecordsQuery = z.input<typeof ExportRecordsQuery>;

export const ListMissingQuery = z.object({ limit: pageLimit(0), cursor: KeyCursor });
export type ListMissingQuery = z.input<typeof ListMissingQuery>;

const KeyValues = z.array(CellValue).meta({ description: "The key's values in primaryKey order" });

export const DatasetRecord = z
  .object({
    key: KeyValues,
    record: z.record(z.string(), CellValue),
    importId: z.string().meta({ description: 'The import that last wrote the record' }),
    endUserId: z.string().nullable(),
    updatedAt: z.string(),
  })
  .meta({ id: 'DatasetRecord' });
export type DatasetRecord = z.infer<typeof DatasetRecord>;

export const RecordPage = pageSchema(DatasetRecord, z.object({ environment: z.string().nullable(), key: z.string().optional() })).meta({ id: 'DatasetRecordPage' });
export const MissingPage = pageSchema(z.object({ key: KeyValues }), z.object({})).meta({ id: 'MissingKeyPage' });
