import type { z } from 'zod';
import { validationFailed, zodDetails } from './errors';

/** Parses service input with its zod schema, throwing validation_failed with every issue's path. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationFailed(zodDetails(result.error.issues));
  return result.data;
}
