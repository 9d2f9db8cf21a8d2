import { DeclaredSchema, isDeclared } from '../../rules';
import { validationFailed, zodDetails } from '../errors';

/**
 * Refuses a declared template schema (one with a `fields` array) that cannot work: an unknown type or
 * transform, an enum without options, min > max, a pattern the linear-time engine cannot compile, a key
 * declared twice, a uniqueTogether key that is not declared. Paths start at `schema`. A free-form schema
 * (no `fields` array) is left as it is. Throws validation_failed.
 */
export function checkDeclaredSchema(schema: unknown): void {
  if (!isDeclared(schema)) return;
  const parsed = DeclaredSchema.safeParse(schema);
  if (!parsed.success) throw validationFailed(zodDetails(parsed.error.issues.map((issue) => ({ ...issue, path: ['schema', ...issue.path] }))));
}
