import { z } from 'zod';
import { JsonRecord } from '../json';

/** An import in the overview's shape: exactly these six members (spec "Import"). */
export const ImportOverview = z.object({
  id: z.string(),
  templateId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  fileId: z.string().nullable(),
  meta: JsonRecord,
}).meta({ id: 'ImportOverview' });
export type ImportOverview = z.infer<typeof ImportOverview>;

export const StatsOverview = z.object({
  counts: z.object({ templates: z.number().int(), imports: z.number().int() }),
  latestImports: z.array(ImportOverview),
}).meta({ id: 'StatsOverview' });
export type StatsOverview = z.infer<typeof StatsOverview>;
