import { z } from 'zod';

export const IssueSessionInput = z.object({
  endUserId: z.string().min(1).max(255),
  templateId: z.uuid().optional(),
  endUserEmail: z.email().max(320).optional(),
  endUserIp: z
    .string()
    .max(45)
    .regex(/^(?:\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}|[0-9A-Fa-f:]+)$/, 'must be a dotted IPv4 address or hexadecimal digits and colons')
    .optional(),
  expiresIn: z.number().int().min(60).max(86400).default(3600),
  metadata: z.record(z.string(), z.unknown()).optional(),
}).meta({ id: 'IssueSessionInput' });
export type IssueSessionInput = z.input<typeof IssueSessionInput>;

export const IssuedSession = z.object({ sessionToken: z.string(), expiresAt: z.string() }).meta({ id: 'Session' });
export type IssuedSession = z.infer<typeof IssuedSession>;

export const RevokedSession = z.object({ jti: z.string(), revokedAt: z.string() }).meta({ id: 'RevokedSession' });
export type RevokedSession = z.infer<typeof RevokedSession>;
