import { z } from 'zod';
import { storedText } from '../stored-text';
import { jsonObject } from '../json';

/** Metadata travels inside the token, which travels in a header: kept small. */
export const SESSION_METADATA_MAX_BYTES = 4096;

/** The longest lifetime of a session token: also how long a retired signing secret must keep verifying. */
export const MAX_SESSION_SECONDS = 86400;

export const IssueSessionInput = z.object({
  endUserId: storedText(z.string().min(1, 'must be 1 to 255 characters').max(255, 'must be 1 to 255 characters')),
  templateId: z.uuid().optional(),
  endUserEmail: z.email().max(320).optional(),
  endUserIp: z
    .string()
    .max(45)
    .regex(/^(?:\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}|[0-9A-Fa-f:]+)$/, 'must be a dotted IPv4 address or hexadecimal digits and colons')
    .optional(),
  expiresIn: z
    .number()
    .int(`must be a whole number of seconds from 60 to ${MAX_SESSION_SECONDS}`)
    .min(60, `must be a whole number of seconds from 60 to ${MAX_SESSION_SECONDS}`)
    .max(MAX_SESSION_SECONDS, `must be a whole number of seconds from 60 to ${MAX_SESSION_SECONDS}`)
    .default(3600),
  metadata: jsonObject(SESSION_METADATA_MAX_BYTES).optional(),
}).meta({
  id: 'IssueSessionInput',
  examples: [{ endUserId: 'user-42', templateId: '01890f2e-8d3c-7b1a-9f00-3c5d2e1a4b6c', endUserEmail: 'ada@example.com', endUserIp: '203.0.113.7', expiresIn: 3600, metadata: { plan: 'pro' } }],
});
export type IssueSessionInput = z.input<typeof IssueSessionInput>;

export const IssuedSession = z.object({ sessionToken: z.string(), expiresAt: z.string() }).meta({ id: 'Session' });
export type IssuedSession = z.infer<typeof IssuedSession>;

export const RevokedSession = z.object({ jti: z.string(), revokedAt: z.string() }).meta({ id: 'RevokedSession' });
export type RevokedSession = z.infer<typeof RevokedSession>;

export const RotatedSessionSecret = z.object({
  kid: z.string(),
  rotatedAt: z.string(),
  previousValidUntil: z.string(),
}).meta({ id: 'RotatedSessionSecret' });
export type RotatedSessionSecret = z.infer<typeof RotatedSessionSecret>;
