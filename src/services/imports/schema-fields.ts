/**
 * The field keys of a free-form template schema, in schema order. Recognised forms, first match wins:
 * `fields` or `columns` as an array of `{ key }` objects or of strings, or as an object keyed by field key.
 * Anything else has no declared fields.
 */
export function schemaFieldKeys(schema: unknown): string[] {
  if (!isObject(schema)) return [];
  for (const member of ['fields', 'columns']) {
    const list = Object.hasOwn(schema, member) ? schema[member] : undefined;
    if (Array.isArray(list)) {
      // A Set: the work stays linear in the number of fields, however many a stored schema has.
      const keys = new Set<string>();
      for (const item of list) {
        const key = typeof item === 'string' ? item : isObject(item) && typeof item.key === 'string' ? item.key : undefined;
        if (key !== undefined) keys.add(key);
      }
      return [...keys];
    }
    if (isObject(list)) return Object.keys(list);
  }
  return [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
