import { countTemplates, listTemplateRows } from '../../db/queries/templates';
import type { ServiceContext } from '../context';
import { buildPage, decodeCursor } from '../pagination';
import { parseInput } from '../validate';
import { ListTemplatesInput, type TemplatePage } from './schemas';
import { toTemplateSummary } from './views';

/**
 * Lists the account's templates (without their schemas), newest first by default, by keyset: a page costs
 * the same however deep it is. Throws validation_failed (limit, orderBy, direction, or a foreign cursor).
 */
export function listTemplates(ctx: ServiceContext, accountId: string, input: ListTemplatesInput): TemplatePage {
  const { limit, cursor, orderBy, direction } = parseInput(ListTemplatesInput, input);
  const query = { limit, cursor, orderBy, direction, filters: {} };
  const after = decodeCursor(query);
  const rows = limit === 0 ? [] : listTemplateRows(ctx.db, accountId, { orderBy, direction, after, limit: limit + 1 });
  return buildPage(rows, query, countTemplates(ctx.db, accountId), (row) => ({ value: row[orderBy], id: row.id }), toTemplateSummary);
}
