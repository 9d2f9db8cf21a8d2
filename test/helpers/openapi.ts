import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

// What a validating client (ajv, zod-based generators) makes of the served document: OpenAPI 3.1 schemas are
// JSON Schema 2020-12, compiled in strict mode (unknown keywords, formats and bad regexes fail).

export type Doc = {
  components: { schemas: Record<string, { examples?: unknown[] }> };
  paths: Record<string, Record<string, any>>;
  webhooks?: Record<string, Record<string, any>>;
};

/** The document's schemas under one $id, its `#/components/schemas/X` references pointing there. */
export function compiler(doc: Doc): { ajv: Ajv2020; compile(schema: unknown): ValidateFunction } {
  // strict: true keeps unknown keywords, formats, ignored types and every regex (compiled with the `u` flag) fatal;
  // `example` is OpenAPI's own keyword (3.1 keeps it beside JSON Schema's `examples`).
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  ajv.addKeyword('example');
  const refs = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', '"doc#/$defs/'));
  ajv.addSchema({ $id: 'doc', $defs: refs(doc.components.schemas) });
  return { ajv, compile: (schema) => ajv.compile(refs(schema) as object) };
}
