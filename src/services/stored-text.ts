import type { z } from 'zod';

/**
 * A string kept in a plain text column (a key, an id, a name) rather than inside stored JSON text. PostgreSQL's
 * text cannot hold U+0000 and SQLite's can, so both engines refuse it here alike (400 validation_failed
 * naming the member) instead of one storing it and the other failing. Inside JSON text (cells, meta,
 * metadata) a NUL is written as the escape `\u0000`, and both engines store it faithfully.
 */
export function storedText(schema: z.ZodString): z.ZodString {
  return schema.regex(/^[^\u0000]*$/, 'must not contain the NUL character (U+0000)');
}
