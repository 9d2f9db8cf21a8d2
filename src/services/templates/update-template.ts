import { isoTime } from '../../core/clock';
import { isUniqueViolation } from '../../db/errors';
import { WRITE_TRANSACTION } from '../../db/open-database';
import { findTemplate, updateTemplateRow } from '../../db/queries/templates';
import type { ServiceContext } from '../context';
import { conflict, notFound } from '../errors';
import { checkSchemaLimits } from '../limits';
import { parseInput } from '../validate';
import { UpdateTemplateInput, type Template } from './schemas';
import { toTemplate } from './views';

/**
 * Replaces a template's schema and changes `key`, `metadata` and `source` only when given. Imports already
 * made keep their own snapshot (`originalSchema`), so they are unaffected. Throws validation_failed,
 * not_found, conflict (another template of the account has the new key).
 */
export function updateTemplate(ctx: ServiceContext, accountId: string, id: string, input: UpdateTemplateInput): Template {
  checkSchemaLimits('schema', input.schema, ctx.config.limits);
  const data = parseInput(UpdateTemplateInput, input);
  return ctx.db.transaction(() => {
    if (!findTemplate(ctx.db, accountId, id)) throw notFound('template');
    try {
      updateTemplateRow(ctx.db, accountId, id, {
        schema: JSON.stringify(data.schema),
        ...(data.key !== undefined && { key: data.key }),
        ...(data.metadata !== undefined && { metadata: JSON.stringify(data.metadata) }),
        ...(data.source !== undefined && { source: data.source }),
        updatedAt: isoTime(ctx.clock),
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`a template with key ${JSON.stringify(data.key)} already exists`);
      throw error;
    }
    return toTemplate(findTemplate(ctx.db, accountId, id)!);
  }, WRITE_TRANSACTION);
}
