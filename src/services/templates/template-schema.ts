import { DeclaredSchema, isDeclared, ReviewPolicy } from '../../rules';
import { fromTableSchema, isTableSchema, primaryKeyProblems, toTableSchema } from '../../rules/frictionless';
import { conflict, validationFailed, zodDetails } from '../errors';
import { checkDeclaredSchema } from './declared-schema';

type Json = Record<string, unknown>;

/**
 * The schema a template stores for the one it was sent: a Frictionless Table Schema (see isTableSchema) is
 * converted into the declared dialect, then any declared schema is checked (checkDeclaredSchema) and its
 * `primaryKey` must name declared fields. A free-form schema is stored as sent, only its `review` checked. Paths start at `schema`.
 * Throws validation_failed.
 */
export function acceptTemplateSchema(schema: Json): Json {
  let declared = schema;
  if (isTableSchema(schema)) {
    const converted = fromTableSchema(schema);
    if (converted.issues.length > 0) throw validationFailed(zodDetails(converted.issues.map((issue) => ({ ...issue, path: ['schema', ...issue.path] }))));
    declared = converted.schema;
  }
  checkDeclaredSchema(declared);
  // A free-form schema is stored as sent, but its `review` decides what happens to its imports: checked too.
  if (!isDeclared(declared) && declared.review !== undefined) {
    const review = ReviewPolicy.safeParse(declared.review);
    if (!review.success) throw validationFailed(zodDetails(review.error.issues.map((issue) => ({ ...issue, path: ['schema', 'review'] }))));
  }
  if (isDeclared(declared)) {
    const keys = new Set(declared.fields.map((field) => (typeof field === 'string' ? field : (field as { key: string }).key)));
    const problems = primaryKeyProblems((declared as Json).primaryKey, keys);
    if (problems.length > 0) throw validationFailed(zodDetails(problems.map((problem) => ({ ...problem, path: ['schema', 'primaryKey', ...problem.path] }))));
  }
  return declared;
}

/** A stored declared schema as a Frictionless Table Schema. Throws conflict for a free-form one (it has no fields to give). */
export function tableSchemaOf(schema: Json): Json {
  if (!isDeclared(schema)) throw conflict('the template is free-form (its schema has no fields array), so it has no Table Schema form');
  if (!DeclaredSchema.safeParse(schema).success) throw conflict('the template predates the declared dialect and does not follow it, so it has no Table Schema form');
  return toTableSchema(schema);
}
