import { createHash } from 'node:crypto';
import { isoTime } from '../../core/clock';
import { newId } from '../../core/ids';
import type { ServiceContext } from '../context';
import { ServiceError, validationFailed } from '../errors';

export interface TemplateReference {
  /** meta.schemaId, else originalSchema.id. */
  id?: string;
  /** meta.schemaKey, else originalSchema.key. */
  key?: string;
  /** originalSchema as JSON text: the schema of an auto-created template. */
  schemaText: string;
}

/**
 * The spec's three steps: the template with that id (in the account), else the one with that key, else a new
 * one (`source: "import"`, schema = originalSchema). Without any key, the new template's key is derived from
 * the schema: `import-` + the first 16 hex digits of the SHA-256 of the originalSchema JSON, so imports sent
 * with the same schema share one template. With neither a key nor a non-empty originalSchema there is nothing
 * to create from: validation_failed. A session bound to a template (`boundTemplateId`) imports into that one
 * only: see resolveBoundTemplate. Creating is refused with template_not_allowed unless `mayCreate` answers true
 * (asked only when a template would be created).
 */
export async function resolveTemplate(
  ctx: ServiceContext,
  accountId: string,
  reference: TemplateReference,
  boundTemplateId?: string | null,
  mayCreate: () => Promise<boolean> = async () => true,
): Promise<string> {
  if (boundTemplateId) return resolveBoundTemplate(ctx, accountId, reference, boundTemplateId);
  if (reference.id !== undefined) {
    const byId = await ctx.store.templates.find(accountId, reference.id);
    if (byId) return byId.id;
  }
  let key = reference.key;
  if (key === undefined) {
    if (reference.schemaText === '{}') {
      throw validationFailed([
        { path: 'meta.schemaKey', message: 'name a template (meta.schemaId, meta.schemaKey) or send originalSchema to create one from' },
      ]);
    }
    key = `import-${createHash('sha256').update(reference.schemaText).digest('hex').slice(0, 16)}`;
  }
  const byKey = await ctx.store.templates.findByKey(accountId, key);
  if (byKey) return byKey.id;
  if (!(await mayCreate())) {
    throw new ServiceError(
      'template_not_allowed',
      `the account has no template ${JSON.stringify(key)}, and this environment does not let Public Key sessions create templates (autoCreateTemplates)`,
    );
  }
  const now = isoTime(ctx.clock);
  // Another writer may create the same key between the lookup and here: the insert then does nothing and
  // the winner's template is the answer.
  const stored = await ctx.store.templates.insertIfKeyFree({
    id: newId(),
    accountId,
    key,
    schema: reference.schemaText,
    source: 'import',
    metadata: '{}',
    createdAt: now,
    updatedAt: now,
  });
  return stored.id;
}

/**
 * For a session that names a template: the import names that template (by id or key, as above) or none at
 * all (then it is the session's); any other template, or one that would be created, is refused with
 * template_not_allowed, and nothing is created.
 */
async function resolveBoundTemplate(ctx: ServiceContext, accountId: string, reference: TemplateReference, boundTemplateId: string): Promise<string> {
  if (reference.id === undefined && reference.key === undefined) return boundTemplateId;
  const byId = reference.id === undefined ? undefined : await ctx.store.templates.find(accountId, reference.id);
  const found = byId ?? (reference.key === undefined ? undefined : await ctx.store.templates.findByKey(accountId, reference.key));
  if (found?.id !== boundTemplateId) {
    throw new ServiceError('template_not_allowed', 'the session token allows imports into its own template only');
  }
  return boundTemplateId;
}
