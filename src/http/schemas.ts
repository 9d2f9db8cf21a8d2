import { z } from '@hono/zod-openapi';

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
      errors: z
        .array(z.object({ rowIndex: z.number().int(), key: z.string(), code: z.string(), message: z.string(), value: z.union([z.string(), z.number(), z.boolean(), z.null()]) }))
        .optional()
        .describe('422 only: the first 100 invalid cells of an import refused by its template (onInvalid reject)'),
      errorCount: z.number().int().optional().describe('422 only: how many cells were invalid'),
      requestId: z.string(),
    }),
  })
  .meta({ id: 'Error' });

/** The error responses every authenticated route can give, for the OpenAPI document. */
export function errorResponses(...statuses: (400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429)[]) {
  const descriptions: Record<number, string> = {
    400: 'invalid_json or validation_failed',
    401: 'missing_credentials, invalid_api_key or invalid_session',
    403: 'wrong_key_kind, origin_not_allowed, secret_key_in_browser (a Secret Key sent with an Origin) or template_not_allowed (POST /v1/imports, or map-headers with a templateId, from a session bound to another template)',
    404: 'not_found',
    409: 'conflict (import_not_pending: approve or reject of an import that is not pending review)',
    413: 'payload_too_large',
    415: 'unsupported_media_type',
    422: 'validation_failed: rows that break the template\'s rules under onInvalid reject (errors, errorCount)',
    429: 'rate_limited',
  };
  return Object.fromEntries(
    [401, 403, 429, ...statuses].map((status) => [
      status,
      { description: descriptions[status]!, content: { 'application/json': { schema: ErrorSchema } } },
    ]),
  );
}

export function jsonBody<S extends z.ZodType>(schema: S) {
  return { required: true, content: { 'application/json': { schema } } };
}

export function jsonResponse<S extends z.ZodType>(schema: S, description: string) {
  return { description, content: { 'application/json': { schema } } };
}
