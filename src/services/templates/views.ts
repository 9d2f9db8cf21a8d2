import type { TemplateRow, TemplateSummaryRow } from '../../db/store';
import { parseJsonObject } from '../json';
import type { Template, TemplateSummary } from './schemas';

/** The API shape of a stored template; `clientId` is the owning account's id. */
export function toTemplate(row: TemplateRow): Template {
  const { id, key, clientId, ...rest } = toTemplateSummary(row);
  return { id, key, clientId, schema: parseJsonObject(row.schema), ...rest };
}

/** A list item: the template without its schema. */
export function toTemplateSummary(row: TemplateSummaryRow): TemplateSummary {
  return {
    id: row.id,
    key: row.key,
    clientId: row.accountId,
    source: row.source,
    metadata: parseJsonObject(row.metadata),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
