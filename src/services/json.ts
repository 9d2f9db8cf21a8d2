import { z } from 'zod';

/**
 * A free-form JSON object (template schema and metadata, session metadata), kept exactly as sent: a plain
 * `z.record` would rebuild it and drop members such as `__proto__`. Its serialised size is capped so one
 * value cannot fill the database or a token header.
 */
export function jsonObject(maxBytes: number) {
  return z
    .custom<Record<string, unknown>>(
      (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
      'must be a JSON object',
    )
    .superRefine((value, ctx) => {
      const size = serializedSize(value);
      if (size === undefined) ctx.addIssue({ code: 'custom', message: 'is nested too deeply' });
      else if (size > maxBytes) ctx.addIssue({ code: 'custom', message: `must serialise to at most ${maxBytes} bytes` });
    })
    .meta({ type: 'object', additionalProperties: {} } as Record<string, unknown>);
}

function serializedSize(value: unknown): number | undefined {
  try {
    return Buffer.byteLength(JSON.stringify(value));
  } catch {
    // JSON.stringify recurses: absurd nesting exhausts the stack (RangeError) rather than hurting the server.
    return undefined;
  }
}

/** A stored free-form JSON object in a response (meta, file, schema, metadata), for the OpenAPI document. */
export const JsonRecord = z.record(z.string(), z.unknown());

/** Reads a JSON object the service stored itself (so it is known to be an object). */
export function parseJsonObject(text: string): Record<string, unknown>;
export function parseJsonObject(text: string | null): Record<string, unknown> | null;
export function parseJsonObject(text: string | null): Record<string, unknown> | null {
  return text === null ? null : (JSON.parse(text) as Record<string, unknown>);
}
