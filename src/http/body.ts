import type { Context } from 'hono';
import { ServiceError } from '../services/errors';

const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/**
 * Reads a JSON body without a zod pass over it, for routes whose body is too large for one (POST /imports
 * checks its rows with its own loop). Throws unsupported_media_type, invalid_json (payload_too_large comes
 * from the body limit while reading).
 */
export async function readJsonBody(c: Context): Promise<unknown> {
  if (!JSON_TYPE.test(c.req.header('Content-Type') ?? '')) {
    throw new ServiceError('unsupported_media_type', 'the request body must be sent as application/json');
  }
  const text = await c.req.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ServiceError('invalid_json', 'the request body is not valid JSON');
  }
}
