import { z } from 'zod';
import { normalizeAllowedOrigin, publicSuffixWildcard } from '../../core/origins';

export const EnvironmentName = z
  .string()
  .min(1, 'must be 1 to 50 characters')
  .max(50, 'must be 1 to 50 characters')
  .regex(/^[^\u0000-\u001f\u007f/]*$/, 'must not contain "/" or control characters')
  .refine((name) => name.trim() === name, 'must not start or end with white space');

/**
 * 0-50 origins in the three allowed forms, no wildcard over a public suffix; normalised (lower-case host, default
 * port dropped) and deduplicated.
 */
export const AllowedOrigins = z
  .array(z.string().max(300))
  .max(50, 'at most 50 origins')
  .transform((entries, ctx) => {
    const normalised: string[] = [];
    entries.forEach((entry, index) => {
      const origin = normalizeAllowedOrigin(entry);
      const suffix = origin && publicSuffixWildcard(origin);
      if (origin === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [index],
          message: `${JSON.stringify(entry)} is not an allowed origin form (https://<domain>, https://*.<domain>, http://localhost:<port> with a port other than 80)`,
        });
      } else if (suffix) {
        ctx.addIssue({
          code: 'custom',
          path: [index],
          message: `${JSON.stringify(entry)} spans the public suffix ${suffix}, under which anyone can register a site: name your own domain (https://*.example.${suffix})`,
        });
      } else if (!normalised.includes(origin)) normalised.push(origin);
    });
    return normalised;
  });

/**
 * Whether a Public Key session may create a template by importing into a key the account does not have
 * (a Secret Key always may). Off by default: end-users would otherwise fill the account with templates and
 * could take a key (`invoices`) before the customer creates it.
 */
const AutoCreateTemplates = z.boolean().meta({
  description:
    'Whether imports sent with this environment\'s Public Key and a session may create a template for a key the account does not have. Default false; Secret Key imports always may.',
});

export const CreateEnvironmentInput = z.object({
  name: EnvironmentName,
  allowedOrigins: AllowedOrigins,
  autoCreateTemplates: AutoCreateTemplates.optional(),
}).meta({ id: 'CreateEnvironmentInput' });
export type CreateEnvironmentInput = z.input<typeof CreateEnvironmentInput>;

export const UpdateOriginsInput = z.object({ allowedOrigins: AllowedOrigins }).meta({ id: 'UpdateOriginsInput' });
export type UpdateOriginsInput = z.input<typeof UpdateOriginsInput>;

export const UpdateEnvironmentInput = z.strictObject({ autoCreateTemplates: AutoCreateTemplates }).meta({ id: 'UpdateEnvironmentInput' });
export type UpdateEnvironmentInput = z.input<typeof UpdateEnvironmentInput>;

const KeyBase = z.object({
  id: z.string(),
  prefix: z.string(),
  active: z.boolean(),
  createdAt: z.string(),
});

export const CreatedEnvironment = z.object({
  name: z.string(),
  autoCreateTemplates: z.boolean(),
  secretKey: KeyBase.extend({ key: z.string() }),
  publicKey: KeyBase.extend({ key: z.string(), allowedOrigins: z.array(z.string()) }),
}).meta({ id: 'CreatedEnvironment' });
export type CreatedEnvironment = z.infer<typeof CreatedEnvironment>;

const KeyView = KeyBase.extend({ lastUsedAt: z.string().nullable() });

export const EnvironmentView = z.object({
  name: z.string(),
  autoCreateTemplates: z.boolean(),
  secretKey: KeyView,
  publicKey: KeyView.extend({ allowedOrigins: z.array(z.string()) }),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
}).meta({ id: 'Environment' });
export type EnvironmentView = z.infer<typeof EnvironmentView>;

/** The longest grace period of a rolled key: a week is enough to deploy the new one everywhere. */
export const MAX_KEY_GRACE_SECONDS = 7 * 24 * 3600;

export const RollKeyInput = z.object({
  kind: z.enum(['secret', 'public']),
  expireOldInSeconds: z
    .number()
    .int(`must be a whole number of seconds from 0 to ${MAX_KEY_GRACE_SECONDS}`)
    .min(0, `must be a whole number of seconds from 0 to ${MAX_KEY_GRACE_SECONDS}`)
    .max(MAX_KEY_GRACE_SECONDS, `must be a whole number of seconds from 0 to ${MAX_KEY_GRACE_SECONDS} (7 days)`)
    .default(0)
    .meta({ description: 'how long the previous key keeps working (default 0: deactivated at once)' }),
}).meta({ id: 'RollKeyInput' });
export type RollKeyInput = z.input<typeof RollKeyInput>;

export const RolledKey = z.object({
  kind: z.enum(['secret', 'public']),
  key: KeyBase.extend({ key: z.string(), allowedOrigins: z.array(z.string()).optional() }),
  previous: z.object({ id: z.string(), prefix: z.string(), expiresAt: z.string() }),
}).meta({ id: 'RolledKey' });
export type RolledKey = z.infer<typeof RolledKey>;

export const DeletedEnvironment = z.object({
  name: z.string(),
  deletedAt: z.string(),
  deactivatedKeys: z.int(),
  revokedSessions: z.int(),
}).meta({ id: 'DeletedEnvironment' });
export type DeletedEnvironment = z.infer<typeof DeletedEnvironment>;
