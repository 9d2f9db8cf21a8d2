import type { TemplateRow } from '../../db/queries/templates';
import type { Template, TemplateSummary } from './schemas';

/** The API shape of a stored template; `clientId` is the owning account's id. */
export function toTemplate(row: TemplateRow): Template {
  return {
    id: row.id,
    key: row.key,
    clientId: row.accountId,
    schema: JSON.parse(row.schema) as Record<string, unknown>,
    source: row.source,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** A list item: the template without its schema. */
export function toTemplateSummary(row: TemplateRow): TemplateSummary {
  const { schema: _schema, ...summary } = toTemplate({ ...row, schema: '{}' });
  return summary;
}
