/**
 * The tags of the OpenAPI document, each with the description the document declares for it. A route names
 * its tag from here (the route helper's types require it), so the document never uses an undeclared tag.
 */
export const OPENAPI_TAGS = {
  Environments: 'Environments of the account and their keys: a Secret Key for servers, a Public Key for browsers from allowed origins.',
  Sessions: 'Short-lived end-user session tokens that let the SDK in a browser store imports with the Public Key.',
  Templates: 'Import templates: the schema (fields) an import is checked and mapped against.',
  Themes: "The account's theme: the colors, radius, sizes and effects the import SDK renders with.",
  Imports: 'Stored imports and their rows: create, list, read, page through, export and delete.',
  Intelligence: "Header mapping: which of a file's columns matches each field of a template.",
  Statistics: "Counts and the newest imports of the account, for dashboards.",
  Compliance: "Deletion of an end-user's data on request.",
  Uploads: 'Resumable uploads (tus 1.0) of files the server turns into imports: CSV, TSV, NDJSON, XLSX.',
  Webhooks: "Endpoints of the key's environment that importd notifies, signed per Standard Webhooks, when imports complete or data is deleted.",
} as const;

export type OpenApiTag = keyof typeof OPENAPI_TAGS;

/** What every operation must document, so generated clients get real method names and docs. */
export interface OperationDocs {
  /** Unique, lowerCamelCase verb first (`listImports`): generated clients name their methods after it. */
  operationId: string;
  summary: string;
  description: string;
  tags: [OpenApiTag];
}

export const OPENAPI_INFO = {
  title: 'importd API',
  description: [
    'The HTTP API of importd, the self-hosted backend of a spreadsheet-import SDK.',
    '',
    "A customer's backend calls it with a Secret Key (`Authorization: Bearer sk_...`); the SDK in an",
    "end-user's browser calls it with a Public Key from an allowed `Origin` plus a session token.",
    'Every error has one JSON shape, `{ "error": { "code", "message", "details"?, "requestId" } }`,',
    'and every answer carries `X-Request-Id`. Lists use keyset pagination with opaque cursors.',
  ].join('\n'),
  contact: { name: 'The operator of this importd server' },
} as const;
